// The rule catalogue: stable IDs, what each catches, and its severity for each audience. The
// comparison emits changes by ID only, so a severity is decided here once.
import type { Severities, Severity } from './model.js';

export interface Rule {
  readonly id: string;
  readonly catches: string;
  readonly severities: Severities;
}

const B: Severity = 'breaking';
const D: Severity = 'dangerous';
const S: Severity = 'safe';

// [id, wire-lax, wire-strict, typescript, what it catches]
const TABLE: readonly (readonly [string, Severity, Severity, Severity, string])[] = [
  ['OPERATION_ADDED', S, S, D, 'an operation added (server implementations must add a handler)'],
  [
    'OPERATION_NO_REMOVE',
    B,
    B,
    B,
    'an operation removed or renamed (old clients call a missing operation)',
  ],
  [
    'OPERATION_RETRY_CHANGED',
    S,
    S,
    D,
    'an operation now (no longer) changes data, so the generated client (no longer) retries it',
  ],
  [
    'PARAMETER_ADDED',
    B,
    B,
    B,
    'a parameter added (every parameter is required: old clients do not send it)',
  ],
  [
    'PARAMETER_NO_REMOVE',
    B,
    B,
    B,
    'a parameter removed or renamed (the server drops what old clients send)',
  ],
  [
    'PARAMETER_NO_REORDER',
    S,
    B,
    S,
    'parameters reordered (xsd:sequence order of the request element)',
  ],
  [
    'PARAMETER_NO_CHANGE_TYPE',
    B,
    B,
    B,
    'a parameter retyped so that values old clients send may not parse',
  ],
  [
    'PARAMETER_TYPE_WIDENED',
    S,
    B,
    B,
    'a parameter retyped so that every value old clients send still parses (e.g. int to string)',
  ],
  ['RESULT_ADDED', S, B, B, 'an operation without result now returns one'],
  [
    'RESULT_NO_CHANGE_KIND',
    B,
    B,
    B,
    'a result changed between none, one value and a list, or lost its value',
  ],
  ['RESULT_NO_CHANGE_TYPE', B, B, B, 'a result retyped to a type of another shape'],
  [
    'RESULT_TYPE_RENAMED',
    S,
    S,
    S,
    'a result retyped to a type of the same shape under another name',
  ],
  [
    'RESULT_ITEM_NO_RENAME',
    B,
    B,
    S,
    "a list result's item element renamed (old clients see an empty list)",
  ],
  ['HTTP_ROOT_NO_CHANGE', B, B, S, 'the root element of HTTP GET/POST responses changed'],
  // paging is client API only (client.iterate.<method>): the wire never sees it.
  ['PAGING_ADDED', S, S, S, 'paging added to an operation (client.iterate.<method>)'],
  [
    'PAGING_NO_REMOVE',
    S,
    S,
    B,
    'paging removed from an operation (code calling client.iterate.<method> breaks)',
  ],
  [
    'PAGING_NO_CHANGE_SKIP',
    S,
    S,
    B,
    'the skip parameter of paging changed (client.iterate.<method> now requires the old one)',
  ],
  [
    'PAGING_SIZE_CHANGED',
    S,
    S,
    D,
    'the page size parameter of paging changed (client.iterate.<method> ends on another last page)',
  ],
  [
    'FIELD_ADDED_REQUIRED',
    S,
    B,
    B,
    'a required field added to a type (strict clients reject the element; servers must set it)',
  ],
  [
    'FIELD_ADDED_OPTIONAL',
    S,
    B,
    S,
    'an optional field added to a type (strict clients reject the element)',
  ],
  [
    'FIELD_NO_REMOVE',
    B,
    B,
    B,
    'a field removed or renamed (old clients fail or silently lose the value)',
  ],
  [
    'FIELD_NO_CHANGE_TYPE',
    B,
    B,
    B,
    'a field retyped so that values the server sends may not parse in old clients',
  ],
  [
    'FIELD_TYPE_NARROWED',
    S,
    B,
    B,
    'a field retyped so that every value the server sends still parses in old clients (e.g. string to int)',
  ],
  [
    'FIELD_TYPE_RENAMED',
    S,
    S,
    S,
    'a field retyped to a complex type of the same shape under another name',
  ],
  [
    'FIELD_OPTIONAL_TO_REQUIRED',
    S,
    S,
    B,
    'an optional field made required (servers must now set it)',
  ],
  [
    'FIELD_REQUIRED_TO_OPTIONAL',
    D,
    D,
    B,
    'a required field made optional (old clients fail when it is absent)',
  ],
  ['FIELD_NULLABLE_ADDED', D, D, B, 'a field made nullable (old clients fail on xsi:nil)'],
  [
    'FIELD_NULLABLE_REMOVED',
    S,
    S,
    B,
    'a field no longer nullable (servers returning null no longer compile)',
  ],
  [
    'FIELD_NO_MOVE',
    S,
    B,
    S,
    'a field moved within a type whose wire order is known (xsd:sequence)',
  ],
  [
    'FIELD_LIST_ITEM_NO_RENAME',
    B,
    B,
    S,
    "a list field's item element renamed (old clients see an empty list)",
  ],
  [
    'FIELD_SCALE_INCREASED',
    B,
    B,
    S,
    'a decimal field given more decimal places (old clients refuse the extra digits)',
  ],
  [
    'FIELD_SCALE_DECREASED',
    S,
    S,
    D,
    'a decimal field given fewer decimal places (servers with more digits fail at run time)',
  ],
  [
    'OMITTED_WHEN_NULL_WIDENED',
    D,
    D,
    B,
    'more kinds of value a server may leave out when it has none (received types make them optional)',
  ],
  [
    'OMITTED_WHEN_NULL_NARROWED',
    S,
    S,
    D,
    'fewer kinds of value a server may leave out when it has none (received types make them required)',
  ],
  ['TYPE_ADDED', S, S, S, 'a complex type added'],
  [
    'TYPE_NO_REMOVE',
    S,
    S,
    B,
    'a complex type removed or renamed (code naming the TypeScript type breaks)',
  ],
  ['BINDING_ADDED', S, S, S, 'a binding added'],
  ['BINDING_NO_REMOVE', B, B, B, 'a binding removed (clients on it fail)'],
  ['BINDING_NO_CHANGE', B, B, S, "a binding's HTTP method or content types changed"],
  ['BINDING_PATH_NO_CHANGE', B, B, S, "a binding's request path rule changed"],
  ['SOAP_ACTION_NO_CHANGE', B, B, S, 'the SOAPAction rule changed'],
  ['ENDPOINT_PATH_NO_CHANGE', B, B, S, 'the endpoint path changed'],
  ['NAMESPACE_NO_CHANGE', B, B, S, 'the namespace rule changed'],
  [
    'AUTH_NO_CHANGE',
    B,
    B,
    S,
    'the authentication header element, its fields or the HTTP credential headers changed',
  ],
  [
    'AUTH_WINDOW_CHANGED',
    D,
    D,
    S,
    'the accepted clock skew changed (a narrower window refuses clients with skewed clocks)',
  ],
  [
    'FAULT_DETAIL_NO_CHANGE',
    B,
    B,
    S,
    'the fault detail element changed (old clients find no fault code)',
  ],
  ['FAULT_CODE_ADDED', D, D, D, 'a fault code added (old clients meet a code they do not know)'],
  ['FAULT_CODE_NO_REMOVE', S, S, D, 'a fault code removed (code handling it is dead)'],
  [
    'FAULT_CODE_NO_REMAP',
    D,
    D,
    S,
    "a fault code's SOAP fault code or HTTP status changed, or the statuses SOAP faults keep",
  ],
  [
    'FAULT_RETRY_AFTER_CHANGED',
    S,
    S,
    S,
    "a fault code's Retry-After changed (clients that honour it retry sooner or later)",
  ],
  [
    'INTERFACE_VERSION_CHANGED',
    S,
    S,
    S,
    'the interface version changed (package metadata and WSDL only)',
  ],
  [
    'CONFORMANCE_CHANGED',
    S,
    S,
    S,
    'spec/conformance.yaml changed: how the generated conformance suite finds values and what it checks',
  ],
  ['DOC_CHANGED', S, S, S, 'documentation, sections or gap references changed'],
];

export const RULES: ReadonlyMap<string, Rule> = new Map(
  TABLE.map(([id, lax, strict, ts, catches]) => [
    id,
    { id, catches, severities: { 'wire-lax': lax, 'wire-strict': strict, typescript: ts } },
  ]),
);

export function rule(id: string): Rule {
  const r = RULES.get(id);
  if (!r) throw new Error(`no diff rule ${id}`);
  return r;
}
