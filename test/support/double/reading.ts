// How the test double reads a request body: its own small tag scanner (nothing from the runtime),
// enough for the requests a conformance checker sends. Refuses DTDs, deep nesting and malformed
// XML unless a defect says otherwise.
import type { Defect } from './defects.js';

export class Refusal extends Error {
  constructor(
    readonly code: 'InvalidRequest' | 'AuthenticationFailed' | 'NotFound' | 'Internal',
    message: string,
    readonly httpStatus: number,
  ) {
    super(message);
  }
}

const MAX_DEPTH = 64;
const TAG = /<(\/?)([A-Za-z_][\w.:-]*)[^>]*?(\/?)>/g;

/** The tags of a document, start (+1), end (-1) or empty (0), with their names. */
function tags(xml: string): { name: string; step: number }[] {
  return [...xml.replace(/<\?[^>]*\?>/g, '').matchAll(TAG)].map((m) => ({
    name: m[2]!,
    step: m[1] ? -1 : m[3] ? 0 : 1,
  }));
}

/** Recursive descent, as a naive reader would: deep nesting exhausts the stack. */
function depthRecursive(t: { step: number }[], i: number): [number, number] {
  let deepest = 0;
  while (i < t.length) {
    const step = t[i]!.step;
    if (step === -1) return [deepest, i + 1];
    if (step === 0) {
      deepest = Math.max(deepest, 1);
      i++;
    } else {
      const [d, next] = depthRecursive(t, i + 1);
      deepest = Math.max(deepest, d + 1);
      i = next;
    }
  }
  return [deepest, i];
}

/** Entities declared in an internal DTD subset, expanded as a careless reader would. */
function expandEntities(xml: string): string {
  const entities = new Map(
    [...xml.matchAll(/<!ENTITY\s+(\w+)\s+"([^"]*)"\s*>/g)].map((m) => [m[1]!, m[2]!]),
  );
  return xml
    .replace(/<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>/, '')
    .replace(
      /&(\w+);/g,
      (all, name: string) =>
        entities.get(name) ?? (['amp', 'lt', 'gt', 'quot', 'apos'].includes(name) ? all : ''),
    );
}

export function readDocument(text: string, has: (d: Defect) => boolean): string {
  let xml = text;
  if (/<!DOCTYPE/i.test(xml)) {
    if (!has('xxe-echoed'))
      throw new Refusal('InvalidRequest', 'a DTD is not allowed in SOAP messages', 400);
    xml = expandEntities(xml);
  }
  const t = tags(xml);
  if (has('no-depth-limit')) {
    try {
      depthRecursive(t, 0);
    } catch {
      throw new Refusal('Internal', 'Internal error', 500);
    }
  }
  const stack: string[] = [];
  for (const { name, step } of t) {
    if (step === 1) stack.push(name);
    else if (step === -1 && stack.pop() !== name) {
      throw has('malformed-server-fault')
        ? new Refusal('Internal', 'Internal error', 500)
        : new Refusal('InvalidRequest', `mismatched end tag ${name}`, 400);
    }
    if (stack.length > MAX_DEPTH && !has('no-depth-limit'))
      throw new Refusal('InvalidRequest', `nesting deeper than ${MAX_DEPTH}`, 400);
  }
  if (stack.length || !t.length || !xml.trim().startsWith('<'))
    throw has('malformed-server-fault')
      ? new Refusal('Internal', 'Internal error', 500)
      : new Refusal('InvalidRequest', 'the body is not well-formed XML', 400);
  return xml;
}

const unescape = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** The text of the first element named `name` (any prefix) inside `xml`. */
export function textOf(xml: string, name: string): string | undefined {
  const m = new RegExp(`<(?:[\\w.-]+:)?${name}(?:\\s[^>]*)?>([^<]*)</(?:[\\w.-]+:)?${name}>`).exec(
    xml,
  );
  return m ? unescape(m[1]!) : undefined;
}

/** The Body's operation element: its name, namespace and content. */
export function bodyOperation(
  xml: string,
): { name: string; ns: string; content: string } | undefined {
  const m = /<(?:[\w.-]+:)?Body[^>]*>\s*<([\w.-]+)((?:\s[^>]*?)?)(\/?)>/.exec(xml);
  if (!m) return undefined;
  const ns = /xmlns="([^"]*)"/.exec(m[2] ?? '')?.[1] ?? '';
  const rest = xml.slice(m.index + m[0].length);
  return { name: m[1]!, ns, content: m[3] ? '' : rest.slice(0, rest.indexOf(`</${m[1]}>`)) };
}
