// What the proxy and the replay know of the interface: the tables a generated package gives the
// runtime's engines (bindings, operations with their decoders, the AuthenticationHeader, the
// conformance model) and the clock window. Nothing else in src/proxy names an operation, a binding
// or a field of the interface: hand it another package's tables and it checks that service.
import type { AuthScheme, ConformanceModel, Level, OperationTable, WireSpec } from '@evgen/runtime';

export interface ServiceTables {
  readonly wire: WireSpec;
  readonly operations: OperationTable;
  readonly auth: AuthScheme;
  readonly model: ConformanceModel;
  /** Accepted distance of a request's Timestamp from the clock, in seconds. */
  readonly clockSkewSeconds: number;
  /** How the Timestamp is written, as the spec says it (for messages). */
  readonly timestampFormat: string;
}

/** What the checks report at each level, as `evgen conformance --level` says. */
export type { Level };
