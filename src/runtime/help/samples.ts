// The four sample requests and responses of an operation, written by the same code that sends and
// answers real calls: requests by buildRequest (the client's), responses by the operation's
// encoders, with this server's namespace and address. Credentials are the document's placeholders.
import { XmlWriter, escapeText, writeSoapMessage } from '../xml/index.js';
import type { AuthScheme } from '../transport/auth.js';
import type { AnyOperationDef, Binding } from '../transport/binding.js';
import { buildRequest } from '../transport/client-request.js';
import { bindingById, type WireSpec } from '../transport/wire.js';
import { escapeHtml, type HelpPages, type HelpSample, type HelpSamples } from './pages.js';
import { prettyXml } from './pretty.js';

/** The address a sample is written for (raw values, not escaped). */
export interface SampleAddress {
  readonly baseUrl: string;
  readonly host: string;
  readonly namespace: string;
}

export interface SampleContext {
  readonly auth: AuthScheme;
  readonly endpointPath: string;
  readonly wire: WireSpec;
  readonly placeholders: HelpPages['placeholders'];
}

/** `content-type` → `Content-Type`; SOAP's own header keeps its usual spelling. */
const headerName = (name: string): string =>
  name === 'soapaction'
    ? 'SOAPAction'
    : name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());

/** The document writes credentials as <API_KEY> etc.; XML escaping would show &lt;API_KEY&gt;. */
function showPlaceholders(text: string, placeholders: HelpPages['placeholders']): string {
  let out = text;
  for (const p of Object.values(placeholders)) out = out.split(escapeText(p)).join(p);
  return out;
}

const message = (head: readonly string[], body: string): string =>
  body === '' ? head.join('\n') : `${head.join('\n')}\nContent-Length: length\n\n${body}`;

async function sampleRequest(
  c: SampleContext,
  op: AnyOperationDef,
  params: unknown,
  binding: Binding,
  a: SampleAddress,
): Promise<string> {
  const p = c.placeholders;
  const { url, init } = await buildRequest(
    {
      endpoint: `${a.baseUrl}${c.endpointPath}`,
      ns: a.namespace,
      apiKey: p.APIKey,
      secretKey: 'sample',
      auth: c.auth,
      timestamp: p.Timestamp,
      tamper: (v) => ({ ...v, Signature: p.Signature }),
    },
    op,
    params,
    bindingById(c.wire, binding),
  );
  const target = url.slice(a.baseUrl.length);
  const headers = Object.entries(init.headers as Record<string, string>).map(
    ([k, v]) => `${headerName(k)}: ${v}`,
  );
  const body = typeof init.body === 'string' ? init.body : '';
  const shown = bindingById(c.wire, binding).kind === 'soap' ? prettyXml(body) : body;
  return message(
    [`${init.method} ${target} HTTP/1.1`, `Host: ${a.host}`, ...headers],
    showPlaceholders(shown, p),
  );
}

function sampleResponse(
  c: SampleContext,
  op: AnyOperationDef,
  result: unknown,
  binding: Binding,
  a: SampleAddress,
): string {
  const def = bindingById(c.wire, binding);
  const body = def.soapVersion
    ? writeSoapMessage(def.soapVersion, undefined, (out) =>
        op.encodeSoapResponse(result, a.namespace, out),
      ).toString()
    : (() => {
        const out = new XmlWriter();
        op.encodeHttpResponse(result, a.namespace, out);
        return out.toString();
      })();
  const head = ['HTTP/1.1 200 OK', `Content-Type: ${def.responseContentType}`];
  return body === '' ? `${head.join('\n')}\nContent-Length: 0` : message(head, prettyXml(body));
}

/** Each binding's sample request and response for `op`, HTML-escaped. */
export async function operationSamples(
  c: SampleContext,
  op: AnyOperationDef,
  sample: HelpSample,
  a: SampleAddress,
): Promise<HelpSamples> {
  const one = async (b: Binding) => ({
    request: escapeHtml(await sampleRequest(c, op, sample.params, b, a)),
    response: escapeHtml(sampleResponse(c, op, sample.result, b, a)),
  });
  const out: Record<string, { request: string; response: string }> = {};
  for (const b of c.wire.bindings) out[b.id] = await one(b.id);
  return out;
}
