// Help pages at the endpoint, as ASMX serves them: GET {endpoint} with Accept: text/html (the
// service page), ?op=<Name> (an operation page; unknown names a 404 page), ?gaps (the gaps
// register) and ?client.js (the browser bundle behind the test forms). Anything else is left to
// the bindings, so ?wsdl and every operation call behave as without help pages.
import type { AuthScheme } from '../transport/auth.js';
import type { AnyOperationDef, OperationTable } from '../transport/binding.js';
import type { ServiceResponse } from '../transport/server.js';
import type { WireSpec } from '../transport/wire.js';
import { escapeHtml, type HelpLinks, type HelpPages, type HelpSite } from './pages.js';
import { operationSamples, type SampleAddress } from './samples.js';

export interface HelpOptions {
  readonly pages: HelpPages;
  /**
   * The browser bundle (generated client and test-form script) served at {endpoint}?client.js.
   * Operation pages carry a test form only when it is given. Called once, when first needed.
   */
  readonly clientScript?: () => string | Promise<string>;
}

export interface HelpService {
  readonly auth: AuthScheme;
  readonly endpointPath: string;
  /** The service's bindings (the samples are written as each one sends and answers). */
  readonly wire: WireSpec;
  readonly operations: ReadonlyMap<string, AnyOperationDef>;
}

export const helpServiceOf = (
  operations: OperationTable,
  auth: AuthScheme,
  wire: WireSpec,
): HelpService => ({
  auth,
  endpointPath: wire.endpointPath,
  wire,
  operations: new Map(Object.values(operations).map((op) => [op.name, op])),
});

/** Links between pages served at the endpoint: the endpoint's file name with a query. */
export function endpointLinks(endpointPath: string): HelpLinks {
  const file = endpointPath.slice(endpointPath.lastIndexOf('/') + 1);
  return {
    service: file,
    gaps: `${file}?gaps`,
    wsdl: `${file}?wsdl`,
    script: `${file}?client.js`,
    operation: (name) => `${file}?op=${encodeURIComponent(name)}`,
  };
}

export function helpSite(
  service: HelpService,
  a: SampleAddress,
  links: HelpLinks,
  testForms: boolean,
): HelpSite {
  return {
    baseUrl: escapeHtml(a.baseUrl),
    host: escapeHtml(a.host),
    namespace: escapeHtml(a.namespace),
    endpoint: escapeHtml(`${a.baseUrl}${service.endpointPath}`),
    links,
    testForms,
  };
}

/** An operation page, or undefined for a name the pages do not know. */
export async function renderOperationPage(
  pages: HelpPages,
  service: HelpService,
  name: string,
  a: SampleAddress,
  site: HelpSite,
): Promise<string | undefined> {
  const page = Object.hasOwn(pages.operations, name) ? pages.operations[name] : undefined;
  const op = service.operations.get(name);
  if (page === undefined || op === undefined) return undefined;
  const context = { ...service, placeholders: pages.placeholders };
  return page.page(site, await operationSamples(context, op, page.sample, a));
}

/** The longest requested name a 404 page repeats. */
const MAX_NAME_SHOWN = 100;
/**
 * Operation pages kept once rendered (writing the samples costs about a millisecond), by name and
 * address. Bounded: a Host header of each request's choosing can only empty it.
 */
export const MAX_CACHED_PAGES = 64;

// Pages are self-contained: inline CSS, one script from the endpoint, no other requests.
const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-cache',
} as const;

const html = (status: number, body: string): ServiceResponse => ({
  status,
  headers: HTML_HEADERS,
  body,
});

export type HelpResponder = (
  url: URL,
  accept: string | undefined,
  a: SampleAddress,
) => Promise<ServiceResponse | undefined>;

/** Answers GET requests on the endpoint that ask for help; undefined for everything else. */
export function createHelpResponder(options: HelpOptions, service: HelpService): HelpResponder {
  const links = endpointLinks(service.endpointPath);
  const testForms = options.clientScript !== undefined;
  let script: Promise<string> | undefined;
  const loadScript = (load: () => string | Promise<string>) => {
    script ??= Promise.resolve()
      .then(load)
      .catch((e: unknown) => {
        script = undefined; // a failed build is tried again on the next request
        throw e;
      });
    return script;
  };
  const cache = new Map<string, string>();
  const operationPage = async (name: string, a: SampleAddress, site: HelpSite) => {
    const key = `${name}\0${a.baseUrl}\0${a.namespace}`;
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    const page = await renderOperationPage(options.pages, service, name, a, site);
    if (page === undefined) return undefined;
    if (cache.size >= MAX_CACHED_PAGES) cache.clear();
    cache.set(key, page);
    return page;
  };
  return async (url, accept, a) => {
    const q = url.searchParams;
    const site = () => helpSite(service, a, links, testForms);
    if (q.has('op')) {
      const name = q.get('op') ?? '';
      const page = await operationPage(name, a, site());
      return page !== undefined
        ? html(200, page)
        : html(404, options.pages.notFound(site(), escapeHtml(name.slice(0, MAX_NAME_SHOWN))));
    }
    if (q.has('gaps')) return html(200, options.pages.gaps(site()));
    if (q.has('client.js') && options.clientScript !== undefined)
      return {
        status: 200,
        headers: {
          'content-type': 'text/javascript; charset=utf-8',
          'x-content-type-options': 'nosniff',
          'cache-control': 'no-cache',
        },
        body: await loadScript(options.clientScript),
      };
    if (url.search === '' && /\btext\/html\b/i.test(accept ?? ''))
      return html(200, options.pages.service(site()));
    return undefined;
  };
}
