// What transport/ offers the rest of the runtime and its two entry points (../index.ts, the public
// surface; ../internal.ts, evgen's own), by name.
export {
  KeyClocks,
  TimestampClock,
  formatTimestamp,
  parseTimestamp,
  signRequest,
  type AuthScheme,
  type AuthValues,
} from './auth.js';
export {
  mediaType,
  type AnyOperationDef,
  type Binding,
  type OperationDef,
  type OperationTable,
} from './binding.js';
export {
  ServiceError,
  TransportError,
  networkCause,
  parseFault,
  type ServiceErrorClass,
  type ServiceErrorOptions,
  type TransportErrorCode,
  type TransportErrorOptions,
} from './client-errors.js';
export {
  buildRequest,
  soapRequestHeaders,
  type PreparedRequest,
  type RequestOperation,
} from './client-request.js';
export {
  MAX_CLOCK_KEYS,
  clientClockKeys,
  createTransport,
  type CallOptions,
  type ClientOptions,
  type ClientRequest,
  type ClientResponse,
  type RetryPolicy,
  type Transport,
} from './client.js';
export { corsOrigins, withCors, type CorsOptions } from './cors.js';
export { readFault, type FaultReading } from './fault-reading.js';
export {
  EngineFault,
  MAX_FAULT_TEXT,
  ServiceFault,
  encodeHttpFault,
  encodeSoapFault,
  resolveFault,
  withRequestId,
  type ServiceFaultClass,
} from './faults.js';
export {
  RESERVED_HEAD_MS,
  clientOf,
  shareConnections,
  type ConnectionLimits,
  type ConnectionRefusal,
  type ConnectionTracker,
  type DroppedConnection,
} from './node-connections.js';
export {
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_CONNECTIONS_PER_CLIENT,
  DEFAULT_WRITE_TIMEOUT_MS,
  listen,
  toNodeListener,
  type ListenOptions,
  type NodeListenerOptions,
  type RunningServer,
} from './node.js';
export { iteratePages, type Paging } from './paging.js';
export { MemoryReplayStore, type ReplayStore } from './replay.js';
export { onTurnEnd } from './turn.js';
export { isoNow } from './iso-now.js';
export {
  DEFAULT_MAX_BODY_BYTES,
  createServiceHandler,
  type LogEntry,
  type LoggedError,
  type RequestContext,
  type ServiceHandler,
  type ServiceHandlerOptions,
  type ServiceRequest,
  type ServiceResponse,
} from './server.js';
export { verifyAuth, type KeyLookup, type VerifyOptions } from './verify.js';
export {
  bindingById,
  fill,
  httpOperationAt,
  isPlainHost,
  namespaceFor,
  sentSoapAction,
  soapBindingAt,
  soapBindingsByPath,
  unquoteAction,
  type BindingDef,
  type FaultDef,
  type FaultRole,
  type FaultTable,
  type RaisedFor,
  type WireSpec,
} from './wire.js';
