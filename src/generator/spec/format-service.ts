// The format of the service-level spec files (service, primitives, authentication, states, errors,
// gaps), checked with positions like the types and operations in format.ts.
import type { Checked } from './format.js';
import { PRIMITIVES } from './primitive-names.js';
import {
  checker,
  dict,
  int,
  list,
  name,
  obj,
  oneOf,
  opt,
  posOf,
  req,
  str,
  type Checker,
} from './schema.js';

const binding = obj({
  id: req(name, 'the name clients choose the binding by'),
  title: req(str, 'shown in help pages and the README'),
  kind: req(oneOf('soap', 'http'), 'a SOAP envelope, or HTTP parameters with a plain XML answer'),
  soapVersion: opt(oneOf('1.1', '1.2'), 'soap: the envelope version'),
  method: req(oneOf('GET', 'POST'), 'the HTTP method'),
  path: req(str, '`{endpoint}`, and for http bindings `{Operation}`'),
  requestContentType: opt(str, 'the Content-Type of requests (none for GET)'),
  responseContentType: req(str, 'the Content-Type of answers'),
  soapAction: opt(
    str,
    'soap: `{soap_namespace}` and `{Operation}`; SOAP 1.1 sends it as the SOAPAction header, SOAP 1.2 as the action parameter of the Content-Type',
  ),
  wsdlName: req(
    name,
    "the binding's name in the WSDL, after wsdl.serviceName (bindings, ports) or wsdl.portTypePrefix (port types)",
  ),
  gap: opt(str, 'the id of the gaps.yaml decision the binding follows'),
  request: req(str, 'how a request looks, in words (help pages)'),
  response: req(str, 'how an answer looks, in words (help pages)'),
});

/**
 * The clients `evgen diff` judges a change for: wire-lax (ignore unknown elements and element
 * order), wire-strict (validate against the schema), typescript (code using the generated types,
 * client and server stub). Which of them a project keeps is its choice (compatibility.audiences).
 */
export const AUDIENCES = ['wire-lax', 'wire-strict', 'typescript'] as const;
export type AudienceName = (typeof AUDIENCES)[number];

/** What each audience is, for the generated README and reports. */
export const AUDIENCE_DOCS: Readonly<Record<AudienceName, string>> = {
  'wire-lax':
    'SOAP and HTTP clients that ignore unknown elements and element order (zeep, node-soap, the generated client)',
  'wire-strict':
    'clients that validate messages against the WSDL schema (JAX-WS with validation, .NET with schema validation)',
  typescript: "code using the package's types, client and server stub",
};

export const serviceFile = obj({
  service: req(
    obj({
      name: req(str, 'the service name'),
      title: req(str, "the document's title"),
      version: req(str, 'the interface version (package description, WSDL)'),
      doc: req(str, "what the service is, in the document's words"),
      endpointPath: req(str, 'the endpoint path below {base_url}'),
      namespace: req(
        obj({
          rule: req(str, "the target namespace rule, in the document's words"),
          scheme: req(oneOf('https', 'http'), 'the scheme of {soap_namespace}'),
        }),
      ),
      wsdl: req(
        obj({
          serviceName: req(name, 'the wsdl:service name'),
          portTypePrefix: req(name, 'the prefix of port type names'),
          contentType: req(str, 'the Content-Type of ?wsdl'),
        }),
      ),
      elementNames: req(
        oneOf('case-sensitive'),
        'the only matching the runtime implements: names are compared exactly',
      ),
    }),
  ),
  bindings: req(list(binding), 'every binding serves every operation; the first is the default'),
  conventions: req(
    obj({
      nil: req(str, 'how nil is written, in words'),
      lists: req(str, 'how lists are written, in words'),
      plainListItems: req(dict(name), 'item element of a list of each primitive'),
      parameterNames: req(str, 'how parameter names are written, in words'),
      parameterOrder: req(str, 'the order of parameters, in words'),
      omittedWhenNull: opt(
        obj({
          values: req(
            list(oneOf(...PRIMITIVES, 'list', 'complex')),
            'string, list, complex…: the kinds whose element a server may leave out',
          ),
          gap: req(str, 'the gap deciding it'),
        }),
        'where a field is not nullable, a server may leave out the element of a value it does not have (ASMX writes nothing for a null .NET reference type); absent in specs released before it',
      ),
    }),
  ),
  compatibility: opt(
    obj({
      audiences: req(
        list(oneOf(...AUDIENCES)),
        'the clients a version keeps working (evgen diff): a change breaking one needs a major version',
      ),
    }),
    'what a version promises; left out: all three audiences are kept. A release keeps its promise for its major line: dropping an audience takes effect at the next major version',
  ),
});

export const primitivesFile = obj({
  primitives: req(
    list(
      obj({
        name: req(oneOf(...PRIMITIVES), 'a primitive the generator implements'),
        xsd: req(name, 'the XSD type name'),
        doc: req(str, 'what the document says of it'),
        lexical: req(str, 'its written form'),
        scales: opt(dict(int), 'decimal: the scales fields and parameters may take, by name'),
      }),
    ),
  ),
});

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const headerName: Checker<string> = checker(
  { title: 'HTTP header name', type: 'string', pattern: HEADER_NAME.source },
  (node, ctx, parentPos) => {
    const v = str(node, ctx, parentPos);
    if (v === undefined || HEADER_NAME.test(v)) return v;
    ctx.report({
      pos: posOf(node, ctx, parentPos),
      message: `${JSON.stringify(v)} is not an HTTP header name`,
    });
    return undefined;
  },
);

export const authenticationFile = obj({
  authentication: req(
    obj({
      doc: req(str, "the document's words on authentication"),
      header: req(
        obj({
          element: req(name, 'the SOAP header element'),
          // The runtime signs and verifies these four values; the spec gives their order and docs.
          fields: req(
            list(
              obj({
                name: req(oneOf('Timestamp', 'Operation', 'Signature', 'APIKey')),
                type: req(oneOf('string')),
                format: opt(oneOf('yyyy-MM-ddTHH:mm:ss.fffZ'), 'Timestamp: its format'),
                doc: req(str, 'what the field holds (help pages, README)'),
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
      rules: req(list(str), "the document's rules"),
      httpHeaders: req(
        obj({
          apiKey: req(headerName),
          timestamp: req(headerName),
          signature: req(headerName),
          operation: req(headerName),
        }),
      ),
      window: req(
        obj({
          clockSkewSeconds: req(int, 'how far a Timestamp may be from the server clock'),
          replay: req(oneOf('refused', 'allowed'), 'a repeated signed header inside the window'),
        }),
      ),
    }),
  ),
});

export const statesFile = obj({
  states: req(
    obj({
      doc: req(str, "the document's words on states"),
      transitions: req(
        list(
          obj({
            from: req(str, 'the state before'),
            trigger: req(name, 'the operation that makes the transition'),
            with: req(name, "the trigger's parameter that selects the record"),
            condition: req(str, 'when it applies'),
            to: req(str, 'the state after'),
            also: req(str, 'what else changes'),
          }),
        ),
      ),
      notShown: req(list(str), 'gaps (ids in gaps.yaml) about states the document does not show'),
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
      detailElement: req(name, 'the element of the fault detail holding the code'),
      httpContentType: req(str, 'of the HTTP GET/POST fault body `<Code>: <message>`'),
      codes: req(
        list(
          obj({
            code: req(name, 'the ErrorCode value'),
            doc: req(str, 'what it means'),
            raisedFor: opt(oneOf(...FAULT_ROLES), 'the situation in which the engine raises it'),
            message: opt(
              str,
              'the only message this code carries on the wire (the original goes to the log)',
            ),
            soap11: req(oneOf('soap:Client', 'soap:Server'), 'the SOAP 1.1 faultcode'),
            soap12: req(oneOf('soap12:Sender', 'soap12:Receiver'), 'the SOAP 1.2 Code'),
            http: req(list(int), 'HTTP GET/POST statuses; the first is the default'),
            retryAfterSeconds: opt(
              int,
              'the Retry-After header of every answer with this code, on every binding',
            ),
          }),
        ),
      ),
      soap11Status: req(int, 'the HTTP status of SOAP 1.1 faults'),
      soap12Status: req(
        obj({ sender: req(int), receiver: req(int) }),
        'the HTTP status of SOAP 1.2 faults, by Code',
      ),
      transportStatuses: req(
        list(int),
        "statuses about the HTTP exchange, kept by SOAP faults too (as a hint or a code's default)",
      ),
    }),
  ),
});

export const gapsFile = obj({
  gaps: req(
    list(
      obj({
        id: req(str, 'named by `gap:` keys and in texts as "gap <id>"'),
        section: req(str, 'the section of the document'),
        document: req(str, 'what the document leaves unsaid'),
        status: req(oneOf('decided', 'open')),
        issue: opt(int, 'the issue that decided it'),
        decision: req(str, 'what this project does'),
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
