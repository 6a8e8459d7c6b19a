// What tests of the help pages share: the samples of an operation page, read back from its HTML
// or its DOM text, turned into a real request (placeholders replaced by a fresh signature), and a
// service whose handlers record their parameters and answer each operation's sample result, so a
// sample can be posted as is and its answer compared with the response sample.
import {
  listen,
  type Binding,
  type ListenOptions,
  type RunningServer,
  type ServiceHandlerOptions,
} from '@evgen/runtime';
import {
  endpointLinks,
  helpServiceOf,
  helpSite,
  renderOperationPage,
} from '@evgen/runtime/internal';
import { authScheme } from '@evgen/event-management/auth';
import { SERVICE, WIRE } from '@evgen/event-management/service';
import { helpPages } from '@evgen/event-management/help';
import { operations } from '@evgen/event-management/operations';
import { createEventService, type ServiceHandlers } from '@evgen/event-management/server';
import { KEY, freshTimestamp, sign } from './requests.js';

export const OPERATION_NAMES: readonly string[] = Object.values(operations).map((op) => op.name);

/** A server as pages show it, for rendering pages without one. */
export const TEST_ADDRESS = {
  baseUrl: 'http://svc.example:8080',
  host: 'svc.example:8080',
  namespace: 'https://svc.example:8080/API/1_0/SOAP/',
} as const;
export const HELP_SERVICE = helpServiceOf(operations, authScheme, WIRE);
export const testSite = (testForms: boolean) =>
  helpSite(HELP_SERVICE, TEST_ADDRESS, endpointLinks(SERVICE.endpointPath), testForms);

/** An operation page as served at TEST_ADDRESS (undefined for an unknown name). */
export const renderTestPage = (name: string, testForms = true) =>
  renderOperationPage(helpPages, HELP_SERVICE, name, TEST_ADDRESS, testSite(testForms));

const ENTITIES: Readonly<Record<string, string>> = {
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&amp;': '&',
};
export const unescapeHtml = (s: string): string =>
  s.replace(/&(lt|gt|quot|#39|amp);/g, (m) => ENTITIES[m]!);

export interface PageSample {
  readonly binding: Binding;
  readonly part: 'request' | 'response';
  readonly text: string;
}

/** The sample blocks of an operation page, as text (what a reader copies). */
export function pageSamples(html: string): PageSample[] {
  const re =
    /<pre class="sample"[^>]*data-binding="(\w+)" data-part="(request|response)"><code>([\s\S]*?)<\/code><\/pre>/g;
  return [...html.matchAll(re)].map((m) => ({
    binding: m[1] as Binding,
    part: m[2] as 'request' | 'response',
    text: unescapeHtml(m[3]!),
  }));
}

export interface SampleRequest {
  readonly method: string;
  /** Path and query. */
  readonly target: string;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
}

/**
 * A sample request as it would be sent: the document's placeholders replaced by a fresh
 * timestamp, its signature and the test key; Host and Content-Length are left to fetch.
 */
export function sampleToRequest(
  text: string,
  operation: string,
  secret = KEY.secret,
): SampleRequest {
  const timestamp = freshTimestamp();
  const real = text
    .split(helpPages.placeholders.Timestamp)
    .join(timestamp)
    .split(helpPages.placeholders.Signature)
    .join(sign(operation, timestamp, secret))
    .split(helpPages.placeholders.APIKey)
    .join(KEY.apiKey);
  const split = real.indexOf('\n\n');
  const head = (split < 0 ? real : real.slice(0, split)).split('\n');
  const [method = '', target = ''] = head[0]!.split(' ');
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const i = line.indexOf(': ');
    const name = line.slice(0, i);
    if (!/^(host|content-length)$/i.test(name)) headers[name] = line.slice(i + 2);
  }
  return { method, target, headers, body: split < 0 ? undefined : real.slice(split + 2) };
}

/** The body of a sample response (after its head), '' when it has none. */
export const sampleBody = (text: string): string => {
  const split = text.indexOf('\n\n');
  return split < 0 ? '' : text.slice(split + 2);
};

export interface EchoService {
  readonly server: RunningServer;
  /** Operations called and the parameters they got, in order. */
  readonly calls: { operation: string; params: unknown }[];
}

/** A generated server whose every handler records its parameters and answers the sample result. */
export async function startEchoService(
  options: Partial<ServiceHandlerOptions> & ListenOptions = {},
): Promise<EchoService> {
  const calls: EchoService['calls'] = [];
  const handlers = Object.fromEntries(
    Object.values(operations).map((op) => [
      op.method,
      (params: unknown) => {
        calls.push({ operation: op.name, params });
        return helpPages.operations[op.name]!.sample.result;
      },
    ]),
  ) as unknown as ServiceHandlers;
  const service = createEventService(handlers, {
    lookupKey: (k) =>
      Promise.resolve(k === KEY.apiKey ? { secret: KEY.secret, name: 'test' } : undefined),
    ...options,
  });
  return { server: await listen(service, { port: 0, ...options }), calls };
}
