// The bindings and content types the conformance checks' hand-built requests were written for.
// The transport engines take these from the service's WireSpec (generated from spec/service.yaml)
// and know none of them; the checks here still name them until they read the same table.
export const BINDINGS = ['soap11', 'soap12', 'httpGet', 'httpPost'] as const;

export const CONTENT_TYPES = {
  soap11: 'text/xml; charset=utf-8',
  soap12: 'application/soap+xml; charset=utf-8',
  form: 'application/x-www-form-urlencoded',
  xml: 'text/xml; charset=utf-8',
} as const;
