// The data a generated package gives the conformance checker: expected elements per type and
// per operation, straight from the spec.
import type { Binding } from '../transport/index.js';

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
}

export interface OperationSpec {
  readonly name: string;
  readonly params: readonly { readonly name: string; readonly kind: string }[];
  readonly result: { readonly value: ValueSpec; readonly item: string | null } | null;
  readonly responseElement: string;
  readonly resultElement: string;
  readonly httpRoot: string | null;
  readonly mutating: boolean;
}

export interface ConformanceModel {
  readonly endpointPath: string;
  readonly contentTypes: Readonly<Record<Binding, string>>;
  readonly types: Readonly<Record<string, readonly FieldSpec[]>>;
  readonly operations: readonly OperationSpec[];
}

export interface Findings {
  readonly failures: string[];
  readonly warnings: string[];
}
