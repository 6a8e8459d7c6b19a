// What generated help pages provide and what the runtime gives them when it renders one. The pages
// themselves (markup, texts, tables, sample values) are generated from the spec; the runtime only
// supplies this server's addresses, the links of the place they are served from, and the four
// samples, which it writes with the operation's own codecs so they are exactly what it accepts
// and sends.
import type { Binding } from '../transport/binding.js';

/** Where links of a page lead: query links on the endpoint when served, files when written. */
export interface HelpLinks {
  readonly service: string;
  readonly gaps: string;
  readonly wsdl: string;
  /** The browser bundle of the generated client and the test-form script. */
  readonly script: string;
  operation(name: string): string;
}

/** This server as a page shows it. Every value is HTML-escaped already. */
export interface HelpSite {
  /** {base_url}, e.g. http://127.0.0.1:8080 */
  readonly baseUrl: string;
  /** The Host header value of requests to {base_url}. */
  readonly host: string;
  /** {soap_namespace} */
  readonly namespace: string;
  /** {endpoint} */
  readonly endpoint: string;
  readonly links: HelpLinks;
  /** Operation pages carry a test form (and load links.script). */
  readonly testForms: boolean;
}

/** One binding's sample request and response, as HTML-escaped text. */
export type HelpSamples = Readonly<
  Record<Binding, { readonly request: string; readonly response: string }>
>;

/** Typed sample values of an operation: what its samples and its test form start from. */
export interface HelpSample<P = unknown, R = unknown> {
  readonly params: P;
  readonly result: R;
}

export interface HelpOperation {
  readonly sample: HelpSample;
  page(site: HelpSite, samples: HelpSamples): string;
}

export interface HelpPages {
  /** The document's placeholders for the signed header values, e.g. `<API_KEY>`. */
  readonly placeholders: {
    readonly Timestamp: string;
    readonly Signature: string;
    readonly APIKey: string;
  };
  service(site: HelpSite): string;
  gaps(site: HelpSite): string;
  /** `name` is HTML-escaped by the caller. */
  notFound(site: HelpSite, name: string): string;
  /** By operation name, in the document's order. */
  readonly operations: Readonly<Record<string, HelpOperation>>;
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text for HTML element content and quoted attribute values. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
