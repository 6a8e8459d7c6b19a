// Public surface of @evgen/runtime: what generated code and integrators import.
export * from './xml/index.js';
export * from './codec/index.js';
export * from './transport/index.js';
export * from './conformance/index.js';
export * from './help/index.js';
