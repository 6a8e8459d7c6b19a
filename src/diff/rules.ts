// The rule catalogue: stable IDs, what each catches, and its severity for each audience. The
// comparison emits changes by ID only, so a severity is decided here once. `RuleId` is the union
// of the IDs: a misspelt rule does not compile. `RULE_TABLE` is the catalogue as typed records,
// in catalogue order, for reports and the reference page.
import type { Severities, Severity } from './model.js';

interface RuleDef {
  /** What the rule catches, as one sentence fragment. */
  readonly catches: string;
  readonly severities: Severities;
}

export interface Rule extends RuleDef {
  readonly id: RuleId;
}

const B: Severity = 'breaking';
const D: Severity = 'dangerous';
const S: Severity = 'safe';

const r = (lax: Severity, strict: Severity, ts: Severity, catches: string): RuleDef => ({
  catches,
  severities: { 'wire-lax': lax, 'wire-strict': strict, typescript: ts },
});

// r(wire-lax, wire-strict, typescript, what it catches)
const RULES = {
  OPERATION_ADDED: r(S, S, D, 'an operation added (server implementations must add a handler)'),
  OPERATION_NO_REMOVE: r(
    B,
    B,
    B,
    'an operation removed or renamed (old clients call a missing operation)',
  ),
  OPERATION_RETRY_CHANGED: r(
    S,
    S,
    D,
    'an operation now (no longer) changes data, so the generated client (no longer) retries it',
  ),
  PARAMETER_ADDED: r(
    B,
    B,
    B,
    'a parameter added (every parameter is required: old clients do not send it)',
  ),
  PARAMETER_NO_REMOVE: r(
    B,
    B,
    B,
    'a parameter removed or renamed (the server drops what old clients send)',
  ),
  PARAMETER_TS_RENAMED: r(
    S,
    S,
    B,
    'a parameter renamed in TypeScript only (xmlName keeps its name on the wire)',
  ),
  PARAMETER_XML_RENAMED: r(
    B,
    B,
    S,
    'a parameter renamed on the wire only (the server no longer reads what old clients send)',
  ),
  PARAMETER_NO_REORDER: r(
    S,
    B,
    S,
    'parameters reordered (xsd:sequence order of the request element)',
  ),
  PARAMETER_NO_CHANGE_TYPE: r(
    B,
    B,
    B,
    'a parameter retyped so that values old clients send may not parse',
  ),
  PARAMETER_TYPE_WIDENED: r(
    S,
    B,
    B,
    'a parameter retyped so that every value old clients send still parses (e.g. int to string)',
  ),
  RESULT_ADDED: r(S, B, B, 'an operation without result now returns one'),
  RESULT_NO_CHANGE_KIND: r(
    B,
    B,
    B,
    'a result changed between none, one value and a list, or lost its value',
  ),
  RESULT_NO_CHANGE_TYPE: r(B, B, B, 'a result retyped to a type of another shape'),
  RESULT_TYPE_RENAMED: r(
    S,
    S,
    S,
    'a result retyped to a type of the same shape under another name',
  ),
  RESULT_TYPE_NARROWED: r(
    S,
    B,
    B,
    'a scalar result retyped so that every value the server sends still parses in old clients (e.g. string to int)',
  ),
  RESULT_SCALE_INCREASED: r(
    B,
    B,
    S,
    'a decimal result given more decimal places (old clients refuse the extra digits)',
  ),
  RESULT_SCALE_DECREASED: r(
    S,
    S,
    D,
    'a decimal result given fewer decimal places (servers with more digits fail at run time)',
  ),
  RESULT_ITEM_NO_RENAME: r(
    B,
    B,
    S,
    "a list result's item element renamed (old clients see an empty list)",
  ),
  HTTP_ROOT_NO_CHANGE: r(B, B, S, 'the root element of HTTP GET/POST responses changed'),
  // paging is client API only (client.iterate.<method>): the wire never sees it.
  PAGING_ADDED: r(S, S, S, 'paging added to an operation (client.iterate.<method>)'),
  PAGING_NO_REMOVE: r(
    S,
    S,
    B,
    'paging removed from an operation (code calling client.iterate.<method> breaks)',
  ),
  PAGING_NO_CHANGE_SKIP: r(
    S,
    S,
    B,
    'the skip parameter of paging changed (client.iterate.<method> now requires the old one)',
  ),
  PAGING_SIZE_CHANGED: r(
    S,
    S,
    D,
    'the page size parameter of paging changed (client.iterate.<method> ends on another last page)',
  ),
  FIELD_ADDED_REQUIRED: r(
    S,
    B,
    B,
    'a required field added to a type (strict clients reject the element; servers must set it)',
  ),
  FIELD_ADDED_OPTIONAL: r(
    S,
    B,
    S,
    'an optional field added to a type (strict clients reject the element)',
  ),
  FIELD_NO_REMOVE: r(
    B,
    B,
    B,
    'a field removed or renamed (old clients fail or silently lose the value)',
  ),
  FIELD_TS_RENAMED: r(
    S,
    S,
    B,
    'a field renamed in TypeScript only (xmlName keeps its element on the wire)',
  ),
  FIELD_XML_RENAMED: r(
    B,
    B,
    S,
    "a field's element renamed on the wire only (old clients fail or lose the value)",
  ),
  FIELD_NO_CHANGE_TYPE: r(
    B,
    B,
    B,
    'a field retyped so that values the server sends may not parse in old clients',
  ),
  FIELD_TYPE_NARROWED: r(
    S,
    B,
    B,
    'a field retyped so that every value the server sends still parses in old clients (e.g. string to int)',
  ),
  FIELD_TYPE_RENAMED: r(
    S,
    S,
    S,
    'a field retyped to a complex type of the same shape under another name',
  ),
  FIELD_OPTIONAL_TO_REQUIRED: r(
    S,
    S,
    B,
    'an optional field made required (servers must now set it)',
  ),
  FIELD_REQUIRED_TO_OPTIONAL: r(
    D,
    D,
    B,
    'a required field made optional (old clients fail when it is absent)',
  ),
  FIELD_NULLABLE_ADDED: r(D, D, B, 'a field made nullable (old clients fail on xsi:nil)'),
  FIELD_NULLABLE_REMOVED: r(
    S,
    S,
    B,
    'a field no longer nullable (servers returning null no longer compile)',
  ),
  FIELD_NO_MOVE: r(S, B, S, 'a field moved within a type whose wire order is known (xsd:sequence)'),
  FIELD_LIST_ITEM_NO_RENAME: r(
    B,
    B,
    S,
    "a list field's item element renamed (old clients see an empty list)",
  ),
  FIELD_SCALE_INCREASED: r(
    B,
    B,
    S,
    'a decimal field given more decimal places (old clients refuse the extra digits)',
  ),
  FIELD_SCALE_DECREASED: r(
    S,
    S,
    D,
    'a decimal field given fewer decimal places (servers with more digits fail at run time)',
  ),
  OMITTED_WHEN_NULL_WIDENED: r(
    D,
    D,
    B,
    'more kinds of value a server may leave out when it has none (received types make them optional)',
  ),
  OMITTED_WHEN_NULL_NARROWED: r(
    S,
    S,
    D,
    'fewer kinds of value a server may leave out when it has none (received types make them required)',
  ),
  TYPE_ADDED: r(S, S, S, 'a complex type added'),
  TYPE_NO_REMOVE: r(
    S,
    S,
    B,
    'a complex type removed or renamed (code naming the TypeScript type breaks)',
  ),
  TYPE_TS_RENAMED: r(
    S,
    S,
    B,
    'a complex type renamed in TypeScript only (xmlName keeps its WSDL name)',
  ),
  TYPE_XML_RENAMED: r(
    S,
    D,
    S,
    "a complex type's WSDL name changed (no message changes; code generated from the WSDL names the old type)",
  ),
  BINDING_ADDED: r(S, S, S, 'a binding added'),
  BINDING_NO_REMOVE: r(B, B, B, 'a binding removed (clients on it fail)'),
  BINDING_NO_CHANGE: r(B, B, S, "a binding's HTTP method or content types changed"),
  BINDING_PATH_NO_CHANGE: r(B, B, S, "a binding's request path rule changed"),
  SOAP_ACTION_NO_CHANGE: r(B, B, S, 'the SOAPAction rule changed'),
  ENDPOINT_PATH_NO_CHANGE: r(B, B, S, 'the endpoint path changed'),
  NAMESPACE_NO_CHANGE: r(B, B, S, 'the namespace rule changed'),
  AUTH_NO_CHANGE: r(
    B,
    B,
    S,
    'the authentication header element, its fields or the HTTP credential headers changed',
  ),
  AUTH_WINDOW_CHANGED: r(
    D,
    D,
    S,
    'the accepted clock skew changed (a narrower window refuses clients with skewed clocks)',
  ),
  FAULT_DETAIL_NO_CHANGE: r(
    B,
    B,
    S,
    'the fault detail element changed (old clients find no fault code)',
  ),
  FAULT_CODE_ADDED: r(D, D, D, 'a fault code added (old clients meet a code they do not know)'),
  FAULT_CODE_NO_REMOVE: r(S, S, D, 'a fault code removed (code handling it is dead)'),
  FAULT_CODE_NO_REMAP: r(
    D,
    D,
    S,
    "a fault code's SOAP fault code or HTTP status changed, or the statuses SOAP faults keep",
  ),
  FAULT_RETRY_AFTER_CHANGED: r(
    S,
    S,
    S,
    "a fault code's Retry-After changed (clients that honour it retry sooner or later)",
  ),
  INTERFACE_VERSION_CHANGED: r(
    S,
    S,
    S,
    'the interface version changed (package metadata and WSDL only)',
  ),
  CONFORMANCE_CHANGED: r(
    S,
    S,
    S,
    'spec/conformance.yaml changed: how the generated conformance suite finds values and what it checks',
  ),
  DOC_CHANGED: r(S, S, S, 'documentation, sections or gap references changed'),
} satisfies Record<string, RuleDef>;

export type RuleId = keyof typeof RULES;

export const RULE_TABLE: readonly Rule[] = (Object.keys(RULES) as RuleId[]).map((id) => ({
  id,
  ...RULES[id],
}));

export function rule(id: RuleId): Rule {
  const def = Object.hasOwn(RULES, id) ? RULES[id] : undefined;
  if (!def) throw new Error(`no diff rule ${id}`);
  return { id, ...def };
}
