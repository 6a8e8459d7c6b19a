export * from './auth.js';
export * from './binding.js';
export * from './client.js';
export * from './client-request.js';
export * from './client-errors.js';
export * from './cors.js';
export * from './faults.js';
export * from './fault-reading.js';
export * from './node.js';
export {
  RESERVED_HEAD_MS,
  clientOf,
  shareConnections,
  type ConnectionLimits,
  type ConnectionTracker,
  type ConnectionRefusal,
  type DroppedConnection,
} from './node-connections.js';
export * from './paging.js';
export * from './replay.js';
export * from './server.js';
export * from './verify.js';
export * from './wire.js';
