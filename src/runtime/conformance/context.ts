// The options of a conformance run and the context every check shares.
import {
  bindingById,
  namespaceFor,
  TimestampClock,
  type AuthScheme,
  type Binding,
  type BindingDef,
  type OperationTable,
  type WireSpec,
} from '../transport/index.js';
import type { ConformanceModel, Level, OperationSpec } from './model.js';

export interface ConformanceOptions {
  readonly url: string;
  readonly apiKey: string;
  readonly secretKey: string;
  readonly model: ConformanceModel;
  readonly operations: OperationTable;
  readonly auth: AuthScheme;
  /** The service's bindings, namespace rule and fault codes (its generated WIRE). */
  readonly wire: WireSpec;
  readonly bindings?: readonly Binding[];
  /** document (default): what the interface document says; evgen: also our gap decisions. */
  readonly level?: Level;
  /** Run the operations that change data (the model's writes). */
  readonly allowWrites?: boolean;
  /** Values given by the user, by value name (see the model's values); never discovered. */
  readonly values?: Readonly<Record<string, string>>;
  /** Also send hostile input: an oversized body, deep nesting, a DTD, a wrong SOAPAction... */
  readonly hostile?: boolean;
  /** How long a hostile check waits for an answer (default 10 s). */
  readonly hostileWaitMs?: number;
  /** Only these operations' response checks (default: all). */
  readonly only?: readonly string[];
  /**
   * {soap_namespace}; default: the URL's, by the namespace rule. For a server reached at another
   * address than its own (a tunnel, a proxy, an ASMX service whose namespace is compiled in).
   */
  readonly namespace?: string;
}

export interface Ctx {
  readonly o: ConformanceOptions;
  readonly model: ConformanceModel;
  readonly level: Level;
  readonly bindings: readonly Binding[];
  readonly endpoint: string;
  readonly ns: string;
  readonly clock: TimestampClock;
  /** Known values by name (fixed, given, discovered, or made by a write). */
  readonly values: Map<string, string>;
  /** Every value an earlier source saw, for sources that need to try several. */
  readonly candidates: Map<string, string[]>;
  /** Operations each binding answered with 200, for the checks that need a working request. */
  readonly answered: Map<Binding, Set<string>>;
}

export function createContext(o: ConformanceOptions): Ctx {
  const base = o.url.replace(/\/+$/, '');
  return {
    o,
    model: o.model,
    level: o.level ?? 'document',
    bindings: o.bindings ?? o.wire.bindings.map((b) => b.id),
    endpoint: `${base}${o.wire.endpointPath}`,
    ns: o.namespace ?? namespaceFor(base, o.wire.namespace),
    clock: new TimestampClock(),
    values: new Map([
      ...o.model.values.flatMap((v) => (v.fixed !== null ? [[v.name, v.fixed] as const] : [])),
      ...Object.entries(o.values ?? {}),
    ]),
    candidates: new Map(),
    answered: new Map(),
  };
}

/** The value name that a parameter takes. */
export const valueOf = (c: Ctx, param: string): string | undefined =>
  c.model.values.find((v) => v.parameters.includes(param))?.name;

/** Typed parameters for an operation from the known values; the names of missing values. */
export function paramsFor(
  c: Ctx,
  op: OperationSpec,
  values: ReadonlyMap<string, string> = c.values,
): { params: Record<string, unknown>; missing: string[] } {
  const params: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const p of op.params) {
    const name = valueOf(c, p.name) ?? p.name;
    const v = values.get(name);
    if (v === undefined) missing.push(name);
    else params[p.name] = p.kind === 'int' ? Number(v) : p.kind === 'boolean' ? v === 'true' : v;
  }
  return { params, missing };
}

/** The service's table entry of a binding id: kind, envelope version, paths, content types. */
export const bindingDef = (c: Ctx, b: Binding): BindingDef => bindingById(c.o.wire, b);

export const isSoap = (c: Ctx, b: Binding): boolean => bindingDef(c, b).kind === 'soap';

export const operationSpec = (c: Ctx, name: string): OperationSpec =>
  c.model.operations.find((op) => op.name === name)!;
