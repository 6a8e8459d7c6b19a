// The format of the service-level spec files (service, primitives, authentication, states, errors,
// gaps), checked with positions like the types and operations in format.ts.
import type { Checked } from './format.js';
import { PRIMITIVES } from './primitive-names.js';
import { dict, int, list, name, obj, oneOf, opt, posOf, req, str, type Checker } from './schema.js';

const binding = obj({
  /** the name clients choose the binding by */
  id: req(name),
  title: req(str),
  kind: req(oneOf('soap', 'http')),
  /** soap: the envelope version */
  soapVersion: opt(oneOf('1.1', '1.2')),
  method: req(oneOf('GET', 'POST')),
  /** `{endpoint}`, and for http bindings `{Operation}` */
  path: req(str),
  requestContentType: opt(str),
  responseContentType: req(str),
  /** soap: `{soap_namespace}` and `{Operation}`; SOAP 1.1 sends it as the SOAPAction header, SOAP 1.2 as the action parameter of the Content-Type */
  soapAction: opt(str),
  /** the binding's name in the WSDL, after wsdl.serviceName (bindings, ports) or wsdl.portTypePrefix (port types) */
  wsdlName: req(name),
  gap: opt(str),
  request: req(str),
  response: req(str),
});

export const serviceFile = obj({
  service: req(
    obj({
      name: req(str),
      title: req(str),
      version: req(str),
      doc: req(str),
      endpointPath: req(str),
      namespace: req(obj({ rule: req(str), scheme: req(oneOf('https', 'http')) })),
      wsdl: req(obj({ serviceName: req(name), portTypePrefix: req(name), contentType: req(str) })),
      /** the only matching the runtime implements: names are compared exactly */
      elementNames: req(oneOf('case-sensitive')),
    }),
  ),
  bindings: req(list(binding)),
  conventions: req(
    obj({
      nil: req(str),
      lists: req(str),
      /** item element of a list of each primitive */
      plainListItems: req(dict(name)),
      parameterNames: req(str),
      parameterOrder: req(str),
    }),
  ),
});

export const primitivesFile = obj({
  primitives: req(
    list(
      obj({
        name: req(oneOf(...PRIMITIVES)),
        xsd: req(name),
        doc: req(str),
        lexical: req(str),
        /** decimal: the scales fields and parameters may take, by name */
        scales: opt(dict(int)),
      }),
    ),
  ),
});

/** An HTTP header name (RFC 9110 token). */
const headerName: Checker<string> = (node, ctx, parentPos) => {
  const v = str(node, ctx, parentPos);
  if (v === undefined || /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(v)) return v;
  ctx.report({
    pos: posOf(node, ctx, parentPos),
    message: `${JSON.stringify(v)} is not an HTTP header name`,
  });
  return undefined;
};

export const authenticationFile = obj({
  authentication: req(
    obj({
      doc: req(str),
      header: req(
        obj({
          element: req(name),
          // The runtime signs and verifies these four values; the spec gives their order and docs.
          fields: req(
            list(
              obj({
                name: req(oneOf('Timestamp', 'Operation', 'Signature', 'APIKey')),
                type: req(oneOf('string')),
                format: opt(oneOf('yyyy-MM-ddTHH:mm:ss.fffZ')),
                doc: req(str),
              }),
            ),
          ),
        }),
      ),
      // The one signature the runtime implements (transport/auth.ts, transport/verify.ts).
      signature: req(
        obj({
          algorithm: req(oneOf('HMAC-SHA1')),
          key: req(oneOf('utf8(secretKey)')),
          message: req(oneOf('utf8(Operation + Timestamp)')),
          encoding: req(oneOf('base64')),
        }),
      ),
      rules: req(list(str)),
      httpHeaders: req(
        obj({
          apiKey: req(headerName),
          timestamp: req(headerName),
          signature: req(headerName),
          operation: req(headerName),
        }),
      ),
      window: req(obj({ clockSkewSeconds: req(int), replay: req(oneOf('refused', 'allowed')) })),
    }),
  ),
});

export const statesFile = obj({
  states: req(
    obj({
      doc: req(str),
      transitions: req(
        list(
          obj({
            from: req(str),
            /** the operation that makes the transition */
            trigger: req(name),
            /** the trigger's parameter that selects the record */
            with: req(name),
            condition: req(str),
            to: req(str),
            also: req(str),
          }),
        ),
      ),
      /** gaps (ids in gaps.yaml) about states the document does not show */
      notShown: req(list(str)),
    }),
  ),
});

/**
 * The situations in which the server engine itself raises a fault (the code says which);
 * notImplemented: a server created with some handlers only is called for another operation.
 */
export const FAULT_ROLES = [
  'authentication',
  'request',
  'parameter',
  'notImplemented',
  'internal',
] as const;
export type FaultRole = (typeof FAULT_ROLES)[number];
/**
 * Roles a spec may leave without a code (at most one code each; the others exactly one): without
 * notImplemented a server serves complete handlers only, as before the role existed (1.0.0).
 */
export const OPTIONAL_FAULT_ROLES: readonly FaultRole[] = ['notImplemented'];

export const errorsFile = obj({
  faults: req(
    obj({
      detailElement: req(name),
      /** of the HTTP GET/POST fault body `<Code>: <message>` */
      httpContentType: req(str),
      codes: req(
        list(
          obj({
            code: req(name),
            doc: req(str),
            raisedFor: opt(oneOf(...FAULT_ROLES)),
            /** the only message this code carries on the wire (the original goes to the log) */
            message: opt(str),
            soap11: req(oneOf('soap:Client', 'soap:Server')),
            soap12: req(oneOf('soap12:Sender', 'soap12:Receiver')),
            /** HTTP GET/POST statuses; the first is the default */
            http: req(list(int)),
            /** the Retry-After header of every answer with this code, on every binding */
            retryAfterSeconds: opt(int),
          }),
        ),
      ),
      soap11Status: req(int),
      soap12Status: req(obj({ sender: req(int), receiver: req(int) })),
      /** statuses about the HTTP exchange, kept by SOAP faults too (as a hint or a code's default) */
      transportStatuses: req(list(int)),
    }),
  ),
});

export const gapsFile = obj({
  gaps: req(
    list(
      obj({
        id: req(str),
        section: req(str),
        document: req(str),
        status: req(oneOf('decided', 'open')),
        issue: opt(int),
        decision: req(str),
      }),
    ),
  ),
});

export type ServiceFile = Checked<typeof serviceFile>;
export type SpecBinding = ServiceFile['bindings'][number];
export type PrimitivesFile = Checked<typeof primitivesFile>;
export type AuthenticationFile = Checked<typeof authenticationFile>;
export type ErrorsFile = Checked<typeof errorsFile>;
export type GapsFile = Checked<typeof gapsFile>;
export type StatesFile = Checked<typeof statesFile>;
