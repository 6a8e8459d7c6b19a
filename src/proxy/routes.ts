// What a request is, from its method, target and headers alone (before its body arrives), by the
// service's WireSpec: a SOAP binding's POST, an HTTP binding's operation call, the WSDL, a help
// page, something under the endpoint that is no binding's, or something else (forwarded, not
// checked).
import { type BindingDef, type WireSpec } from '@evgen/runtime';
import { fill, httpOperationAt, mediaType, soapBindingsByPath } from '@evgen/runtime/internal';

export type Route =
  | { readonly kind: 'soap'; readonly binding: BindingDef }
  | { readonly kind: 'http'; readonly binding: BindingDef; readonly operation: string }
  | { readonly kind: 'wsdl' }
  | { readonly kind: 'help' }
  /** Under the endpoint, but no binding takes it (method or content type): why. */
  | { readonly kind: 'stray'; readonly expected: string; readonly found: string }
  | { readonly kind: 'other' };

const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
};

/** The bindings' forms, for a request that fits none: `POST /…asmx (text/xml; …)`. */
export function bindingForms(wire: WireSpec): string {
  return wire.bindings
    .map((b) => {
      const path = fill(b.path, { endpoint: wire.endpointPath });
      const type = b.kind === 'soap' && b.requestContentType ? ` with ${b.requestContentType}` : '';
      return `${b.method} ${path}${type} (${b.title})`;
    })
    .join(', ');
}

export function routeOf(
  wire: WireSpec,
  method: string,
  url: string,
  contentType: string | undefined,
): Route {
  const path = pathOf(url);
  const soapHere = soapBindingsByPath(wire).get(path);
  const found = `${method} ${path}${contentType ? ` with ${contentType}` : ''}`;
  if (path === wire.endpointPath && method === 'GET') {
    const query = new URLSearchParams(url.slice(path.length + 1));
    return [...query.keys()].some((k) => k.toLowerCase() === 'wsdl')
      ? { kind: 'wsdl' }
      : { kind: 'help' };
  }
  if (method === 'OPTIONS') return { kind: 'other' }; // a browser's CORS preflight
  if (soapHere) {
    const binding = method === 'POST' ? soapHere.get(mediaType(contentType).type) : undefined;
    return binding
      ? { kind: 'soap', binding }
      : { kind: 'stray', expected: bindingForms(wire), found };
  }
  const operation = httpOperationAt(wire, url);
  if (operation === undefined)
    return path.startsWith(wire.endpointPath)
      ? { kind: 'stray', expected: bindingForms(wire), found }
      : { kind: 'other' };
  const binding = wire.bindings.find((b) => b.kind === 'http' && b.method === method);
  return binding
    ? { kind: 'http', binding, operation }
    : { kind: 'stray', expected: bindingForms(wire), found };
}
