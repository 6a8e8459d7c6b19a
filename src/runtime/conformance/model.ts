// The data a generated package gives the conformance checker: expected elements per type and per
// operation, how to find values to call operations with, and where each family of checks comes
// from (the document, or a gap decision). Straight from the spec; the checker knows no name of
// the interface itself. Bindings, content types, SOAPAction rules and fault codes come from the
// service's WireSpec, which the checker is given beside this model.

/** document: what the interface document says; evgen: our decisions where it is silent. */
export type Level = 'document' | 'evgen';
export const LEVELS: readonly Level[] = ['document', 'evgen'];

export type ValueSpec =
  | { readonly kind: 'int' | 'string' | 'boolean' | 'dateTime' }
  | { readonly kind: 'decimal'; readonly scale: number }
  | { readonly kind: 'complex'; readonly type: string };

export interface FieldSpec {
  readonly name: string;
  readonly value: ValueSpec;
  readonly nullable: boolean;
  readonly optional: boolean;
  /** Item element name for lists, null otherwise. */
  readonly item: string | null;
  /** The gap whose decision gives this field its shape (an evgen-level fact), or null. */
  readonly gap: string | null;
  /** Always sent as nil, as its gap decides (absent: a value may be sent). */
  readonly alwaysNil?: true;
  /** A server may leave it out when it has no value (an absence is a warning, not a failure). */
  readonly omittedWhenNull?: true;
}

export interface OperationSpec {
  readonly name: string;
  readonly params: readonly { readonly name: string; readonly kind: string }[];
  readonly result: {
    readonly value: ValueSpec;
    readonly item: string | null;
    /** A server may send no result (no Result element; a nil HTTP root). */
    readonly omittedWhenNull?: true;
  } | null;
  readonly responseElement: string;
  readonly resultElement: string;
  readonly httpRoot: string | null;
  /** False where the document does not show the HTTP response shape (our decision). */
  readonly httpShapeShown: boolean;
  readonly mutating: boolean;
}

/** A read whose result gives values; paths are element names below the result element. */
export interface ValueSource {
  readonly operation: string;
  readonly items: readonly string[];
  /** Tries every candidate of this value, though it is known. */
  readonly across: string | null;
  readonly yields: readonly { readonly value: string; readonly path: readonly string[] }[];
}

export interface ValueDef {
  readonly name: string;
  readonly parameters: readonly string[];
  readonly fixed: string | null;
  /** Text meaning "no such record", never taken as the value. */
  readonly none: string | null;
  /** The `evgen conformance` option that sets it. */
  readonly option: string | null;
  /** Only a write (or the user) gives it. */
  readonly writesOnly: boolean;
}

export type CheckFamily =
  | 'responses'
  | 'httpShapes'
  | 'nilAttribute'
  | 'wsdl'
  | 'authentication'
  | 'timestampWindow'
  | 'httpCredentials'
  | 'faultForm'
  | 'unknownOperation'
  | 'wellFormed'
  | 'soapAction'
  | 'bodySize'
  | 'nesting'
  | 'faultText'
  | 'concurrency';

export interface CheckSource {
  readonly level: Level;
  /** A document section, or a gap id of spec/gaps.yaml. */
  readonly source: string;
  /** The fault code an evgen-level refusal carries. */
  readonly fault: string | null;
}

export interface ConformanceModel {
  readonly types: Readonly<Record<string, readonly FieldSpec[]>>;
  /** Types whose shape is a gap decision: type → gap id. */
  readonly typeGaps: Readonly<Record<string, string>>;
  /** Types whose content is neither shown nor decided: any content is accepted. */
  readonly opaqueTypes: readonly string[];
  readonly operations: readonly OperationSpec[];
  readonly values: readonly ValueDef[];
  readonly sources: readonly ValueSource[];
  readonly writes: readonly (ValueSource & { readonly then: readonly ValueSource[] })[];
  readonly checks: Readonly<Record<CheckFamily, CheckSource>>;
  readonly hostile: {
    readonly bodyBytes: number;
    readonly depth: number;
    readonly concurrent: number;
  };
}
