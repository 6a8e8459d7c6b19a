// @evgen/runtime: the public surface, by name. What integrators call (errors, faults, the node:http
// adapter, a replay store, conformance reports) and every type a generated package's declarations
// name. Functions only generated code and evgen's own tools call are in ./internal.ts
// (@evgen/runtime/internal), which carries no semver promise; api/runtime.api.md is this file's
// report, and CI fails when the two differ (npm run api updates it).

// Values and errors of the XML layer.
export {
  XmlDecodeError,
  XmlEncodeError,
  XmlParseError,
  type XmlParseErrorCode,
  type SoapVersion,
  type Decimal,
  type LocalDateTime,
  type XmlDocument,
  type XmlElement,
  type XmlLimits,
  type XmlWriter,
} from './xml/index.js';

// Clients: options, hooks, errors.
export {
  ServiceError,
  TransportError,
  type AnyOperationDef,
  type Binding,
  type CallOptions,
  type ClientOptions,
  type ClientRequest,
  type ClientResponse,
  type OperationDef,
  type OperationTable,
  type RetryPolicy,
  type ServiceErrorClass,
  type ServiceErrorOptions,
  type TransportErrorCode,
  type TransportErrorOptions,
} from './transport/index.js';

// The service's wire tables and AuthenticationHeader, as generated packages describe them.
export {
  type AuthScheme,
  type AuthValues,
  type BindingDef,
  type FaultDef,
  type FaultRole,
  type FaultTable,
  type RaisedFor,
  type WireSpec,
} from './transport/index.js';

// Servers: the handler, its options, faults, node:http, replay stores.
export {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_CONNECTIONS_PER_CLIENT,
  DEFAULT_WRITE_TIMEOUT_MS,
  MemoryReplayStore,
  ServiceFault,
  listen,
  toNodeListener,
  type ConnectionLimits,
  type ConnectionTracker,
  type CorsOptions,
  type KeyLookup,
  type ListenOptions,
  type LogEntry,
  type LoggedError,
  type NodeListenerOptions,
  type ReplayStore,
  type RequestContext,
  type RunningServer,
  type ServiceFaultClass,
  type ServiceHandler,
  type ServiceHandlerOptions,
  type ServiceRequest,
  type ServiceResponse,
} from './transport/index.js';

// Help pages at the endpoint, as generated packages give them.
export {
  type HelpLinks,
  type HelpOperation,
  type HelpOptions,
  type HelpPages,
  type HelpSample,
  type HelpSamples,
  type HelpSite,
} from './help/index.js';

// Conformance: the model a generated package gives, the options and the report.
export {
  LEVELS,
  formatMarkdown,
  formatReport,
  summarize,
  type CheckFamily,
  type CheckSource,
  type CheckStatus,
  type ConformanceModel,
  type ConformanceOptions,
  type ConformanceReport,
  type ConformanceResult,
  type DiscoveryNote,
  type FieldSpec,
  type Level,
  type OperationSpec,
  type ParamValues,
  type ValueDef,
  type ValueSource,
  type ValueSpec,
} from './conformance/index.js';
