// The defects the conformance test double can be switched to, one at a time.
export const DEFECTS = [
  'renamed-field',
  'boolean-case',
  'decimal-scale',
  'nil-content',
  'content-type',
  'wrong-namespace',
  'bad-signature-accepted',
  'unknown-key-accepted',
  'no-credentials-accepted',
  'operation-header-ignored',
  'no-timestamp-window',
  'lenient-timestamp',
  'no-replay-refusal',
  'replay-other-binding',
  'stack-trace',
  'soapaction-ignored',
  'no-body-limit',
  'no-depth-limit',
  'xxe-echoed',
  'malformed-server-fault',
  'one-at-a-time',
  'one-connection-at-a-time',
  'stalls-while-held',
  'no-answer-to-malformed',
  'missing-required',
  'unknown-operation-accepted',
  'list-item-name',
  'datetime-zone',
  'http-wrong-root',
  'note-a-root',
  'http-plain-nil',
  'no-error-code',
  'wsdl-missing-operation',
  'future-timestamp-accepted',
  'attendee-type-names',
  'session-price-scale',
  'accommodation-content',
  'custom-field-item-name',
  'contact-login-data',
  'contact-password-sent',
  'website-wrong-model',
] as const;

/**
 * Forms a real ASMX service answers in that are no defect, which the checker once misjudged: a void
 * answer over HTTP GET/POST with an empty body and no Content-Type, Entity Framework reference
 * content in the Event record's reference elements, and null values left out (XmlSerializer writes
 * nothing for a null string, list or complex value; a null result is no Result element over SOAP
 * and a nil root over HTTP GET/POST).
 */
export const ASMX_FORMS = ['asmx-void-answer', 'entity-references', 'omitted-nulls'] as const;

export type Defect = (typeof DEFECTS)[number] | (typeof ASMX_FORMS)[number];
