// The intermediate model: everything derived from the spec is decided here once (names, XML
// names, list items, scales, provenance). It holds no TypeScript text; views for each artifact
// turn it into what templates print.

import type { PrimitiveName } from '../spec/format.js';
import type { AudienceName, FaultRole } from '../spec/format-service.js';

export type ScalarKind = PrimitiveName;

/** What a value is, as conventions.omittedWhenNull names it: a scalar, a list or a complex value. */
export type OmittableKind = ScalarKind | 'list' | 'complex';

/** Where a symbol comes from, e.g. `spec/types/booking.yaml:12 BookingResponse.GrossCost`. */
export interface Provenance {
  readonly file: string;
  readonly line: number;
  readonly symbol: string;
}

export interface IrPrimitive {
  readonly name: ScalarKind;
  /** The XML Schema type it is in the WSDL. */
  readonly xsd: string;
  readonly docs: readonly string[];
  readonly lexical: string;
  /** Decimals: the scales fields and parameters take, by name. */
  readonly scales: readonly { readonly name: string; readonly value: number }[];
}

export type IrValue =
  | { readonly kind: 'scalar'; readonly scalar: ScalarKind; readonly scale: number | null }
  | { readonly kind: 'complex'; readonly typeName: string };

export interface IrField {
  readonly name: string;
  readonly xmlName: string;
  /** The value, or for a list the value of each item. */
  readonly value: IrValue;
  /** Set for lists: the wrapper is the field element; items are `itemElement` children. */
  readonly list: { readonly itemElement: string } | null;
  readonly nullable: boolean;
  /** Always sent as nil, as its gap decides: a value there breaks the decision. */
  readonly alwaysNil: boolean;
  /** May be absent on the wire (minOccurs 0): writers may leave it out. */
  readonly optional: boolean;
  /**
   * A server may leave it out when it has no value (spec conventions.omittedWhenNull: ASMX writes
   * nothing for a null reference-typed value that is not nillable). Readers accept its absence;
   * writers always send it.
   */
  readonly omittedWhenNull: boolean;
  readonly docs: readonly string[];
  readonly gap: string | null;
  readonly provenance: Provenance;
}

export interface IrType {
  readonly name: string;
  readonly xmlName: string;
  readonly docs: readonly string[];
  readonly section: string;
  /** Abstract types group shared fields and are never on the wire themselves. */
  readonly abstract: boolean;
  readonly base: string | null;
  /** Its content is not shown nor decided (its gap): decoders ignore it, the checker accepts any. */
  readonly opaque: boolean;
  /** False where the document groups fields by type, so the wire order is unknown. */
  readonly wireOrderKnown: boolean;
  /** All fields in wire order, inherited ones first. */
  readonly fields: readonly IrField[];
  readonly gap: string | null;
  readonly provenance: Provenance;
}

export interface IrParameter {
  readonly name: string;
  readonly xmlName: string;
  readonly scalar: ScalarKind;
  /** Decimal places of a decimal parameter, null for other types. */
  readonly scale: number | null;
  readonly docs: readonly string[];
  readonly provenance: Provenance;
}

/** Nothing, one value (a scalar or a complex type), or a list of values named `itemElement`. */
export type IrResult =
  | { readonly kind: 'none' }
  | { readonly kind: 'value'; readonly value: IrValue }
  | { readonly kind: 'list'; readonly value: IrValue; readonly itemElement: string };

/** A stated transition (spec/states.yaml), made by its trigger operation. */
export interface IrTransition {
  readonly from: string;
  readonly trigger: string;
  readonly with: string;
  readonly condition: string;
  readonly to: string;
  readonly also: string;
}

export interface IrOperation {
  readonly name: string;
  /** lowerCamel name of client and handler methods. */
  readonly method: string;
  readonly docs: readonly string[];
  readonly parameters: readonly IrParameter[];
  readonly result: IrResult;
  /** A server may leave the result out (no Result element; a nil HTTP root) when it has none. */
  readonly resultOmittedWhenNull: boolean;
  /** The document's words for the result. */
  readonly resultText: string;
  readonly responseElement: string;
  readonly resultElement: string;
  /** Root element of HTTP GET/POST responses; null when the operation has no result. */
  readonly httpRoot: string | null;
  /** False for the document's "note A": the HTTP shape follows our decision. */
  readonly httpShapeShown: boolean;
  /** The gap whose decision the HTTP shape follows when it is not shown. */
  readonly httpShapeGap: string | null;
  /** Changes data: never retried, and run by the conformance suite only when allowed. */
  readonly mutating: boolean;
  /** List results paged by parameters: the client gets an async iterator of the items. */
  readonly paging: { readonly skip: string; readonly size: string | null } | null;
  /** The transitions this operation makes. */
  readonly transitions: readonly IrTransition[];
  readonly provenance: Provenance;
}

export interface IrBinding {
  readonly id: string;
  readonly title: string;
  readonly kind: 'soap' | 'http';
  readonly soapVersion: '1.1' | '1.2' | null;
  readonly method: 'GET' | 'POST';
  /** `{endpoint}`, and for HTTP bindings `{Operation}`. */
  readonly path: string;
  readonly requestContentType: string | null;
  readonly responseContentType: string;
  /** `{soap_namespace}` and `{Operation}`: the SOAPAction header (1.1) or action parameter (1.2). */
  readonly soapAction: string | null;
  readonly wsdlName: string;
  /** The document's request and response descriptions. */
  readonly docs: readonly string[];
  readonly gap: string | null;
  readonly provenance: Provenance;
}

export interface IrAuth {
  readonly docs: readonly string[];
  readonly headerElement: string;
  readonly fields: readonly { readonly name: string; readonly docs: readonly string[] }[];
  readonly timestampFormat: string;
  readonly httpHeaders: {
    readonly apiKey: string;
    readonly timestamp: string;
    readonly signature: string;
    readonly operation: string;
  };
  readonly clockSkewSeconds: number;
  /** A repeated (APIKey, Operation, Timestamp) inside the window is refused. */
  readonly replayRefused: boolean;
  readonly provenance: Provenance;
}

export type { FaultRole } from '../spec/format-service.js';

export interface IrFault {
  readonly code: string;
  readonly doc: string;
  /** The situation in which the server engine raises this code itself. */
  readonly raisedFor: FaultRole | null;
  /** The only message the code carries on the wire. */
  readonly message: string | null;
  readonly soap11: string;
  readonly soap12: string;
  /** HTTP status of a SOAP 1.1 and of a SOAP 1.2 fault with this code. */
  readonly soap11Status: number;
  readonly soap12Status: number;
  /** HTTP GET/POST statuses; the first is the default. */
  readonly httpStatuses: readonly number[];
  /** The Retry-After header of every answer with this code, on every binding. */
  readonly retryAfterSeconds: number | null;
  readonly provenance: Provenance;
}

export interface IrGap {
  readonly id: string;
  readonly section: string;
  /** What the document says is not shown. */
  readonly document: string;
  readonly status: 'decided' | 'open';
  readonly issue: number | null;
  readonly decision: string;
}

/** A read whose result gives values: `items` leads from the result element to repeated items. */
export interface IrConformanceSource {
  readonly operation: string;
  readonly items: readonly string[];
  /** Tries every candidate of this value, though it is known. */
  readonly across: string | null;
  readonly yields: readonly { readonly value: string; readonly path: readonly string[] }[];
}

/** spec/conformance.yaml: how the conformance checker finds values to call operations with. */
export interface IrConformance {
  readonly values: readonly {
    readonly name: string;
    readonly parameters: readonly string[];
    readonly fixed: string | null;
    /** Text meaning "no such record", never taken as the value. */
    readonly none: string | null;
    readonly option: string | null;
    readonly writesOnly: boolean;
  }[];
  readonly sources: readonly IrConformanceSource[];
  readonly writes: readonly (IrConformanceSource & {
    readonly then: readonly IrConformanceSource[];
  })[];
  /** Check family → its level and source (a document section or a gap id), and its fault code. */
  readonly checks: Readonly<
    Record<
      string,
      {
        readonly level: 'document' | 'evgen';
        readonly source: string;
        readonly fault: string | null;
      }
    >
  >;
  readonly hostile: {
    readonly bodyBytes: number;
    readonly depth: number;
    readonly concurrent: number;
  };
}

export interface IrSpec {
  /** The audiences the package version keeps, in the order of AUDIENCES. */
  readonly compatibility: {
    readonly audiences: readonly AudienceName[];
    readonly provenance: Provenance;
  };
  readonly service: {
    readonly name: string;
    readonly title: string;
    readonly version: string;
    readonly doc: string;
    readonly endpointPath: string;
    readonly namespaceRule: string;
    /** {soap_namespace} = scheme + the base URL's host + path. */
    readonly namespace: { readonly scheme: string; readonly path: string };
    readonly wsdlServiceName: string;
    readonly wsdlPortTypePrefix: string;
    readonly wsdlContentType: string;
    readonly elementNames: string;
    /** The document's conventions, as written. */
    readonly conventions: readonly string[];
    /** The values a server may leave out when it has none, and the gap deciding it. */
    readonly omittedWhenNull: {
      readonly values: readonly OmittableKind[];
      readonly gap: string;
    } | null;
    readonly provenance: Provenance;
  };
  readonly primitives: readonly IrPrimitive[];
  readonly bindings: readonly IrBinding[];
  readonly auth: IrAuth;
  /** Sorted by name. */
  readonly types: readonly IrType[];
  /** In the document's catalogue order. */
  readonly operations: readonly IrOperation[];
  readonly faults: readonly IrFault[];
  readonly faultDetailElement: string;
  readonly faultHttpContentType: string;
  /** Statuses about the HTTP exchange, kept by SOAP faults too (as a hint or a code's default). */
  readonly faultTransportStatuses: readonly number[];
  /** HTTP statuses of SOAP faults: SOAP 1.1, and SOAP 1.2 by sender or receiver fault. */
  readonly soapFaultStatuses: {
    readonly soap11: number;
    readonly soap12Sender: number;
    readonly soap12Receiver: number;
  };
  readonly states: {
    readonly docs: readonly string[];
    readonly transitions: readonly IrTransition[];
    /** Gap ids. */
    readonly notShown: readonly string[];
  };
  readonly gaps: readonly IrGap[];
  readonly conformance: IrConformance;
  /** Spec files the model was built from, sorted. */
  readonly sourceFiles: readonly string[];
}
