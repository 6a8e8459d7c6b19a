// One thing the proxy found wrong in an exchange: which way it went, on which binding and
// operation, the check (named as `evgen conformance` names it) with its level and source, and
// where (an XML path), what was expected and what was found.
import type { ConformanceResult, Level } from '@evgen/runtime';

export type Direction = 'request' | 'response';

export interface Finding {
  readonly direction: Direction;
  /** A binding id, `wsdl` for the WSDL, or `-` when the request matched no binding. */
  readonly binding: string;
  /** The operation named by the request, or `-`. */
  readonly operation: string;
  readonly check: string;
  readonly level: Level;
  /** A document section, or `gap:<id>` of spec/gaps.yaml. */
  readonly source: string;
  /** An XML path (`GetBookingResult/Attendees/AttendeeResponse[0]/Email`), a header, or ''. */
  readonly path: string;
  readonly expected: string;
  readonly found: string;
  /** The whole finding as one sentence (the checker's own words for response checks). */
  readonly message: string;
}

/** An element path of the checker's messages: names with optional `[n]`, joined by `/`. */
const PATH = /^([\w.-]+(?:\[\d+\])?(?:\/[\w.-]+(?:\[\d+\])?)*): ([\s\S]*)$/;

/**
 * The path, expected and found parts of a checker's message. Its messages read
 * `<path>: expected <e>, got <f>`, `<path>: <f>, expected <e>`, `<path>: <e>, got <f>`, or the
 * same without a path (the whole answer: status, content type, root element).
 */
export function messageParts(message: string): { path: string; expected: string; found: string } {
  const m = PATH.exec(message);
  const path = m ? m[1]! : '';
  const what = m ? m[2]! : message;
  const a = /^expected ([\s\S]+?), got ([\s\S]+)$/.exec(what);
  if (a) return { path, expected: a[1]!, found: a[2]! };
  const b = /^([\s\S]+?), expected ([\s\S]+)$/.exec(what);
  if (b) return { path, expected: b[2]!, found: b[1]! };
  const c = /^([\s\S]+), got ([\s\S]+)$/.exec(what);
  if (c) return { path, expected: c[1]!, found: c[2]! };
  return { path, expected: '', found: what };
}

/** Every failure of a checker's result, as findings. */
export function resultFindings(
  r: ConformanceResult,
  at: { direction: Direction; operation: string; binding: string },
): Finding[] {
  if (r.status !== 'fail') return [];
  return r.failures.map((message) => ({
    ...at,
    check: r.check,
    level: r.level,
    source: r.source,
    ...messageParts(message),
    message,
  }));
}

/**
 * One line: `response soap11 GetBooking · response [document] · GetBookingResult/…: expected …`;
 * what was expected is added when the message says only what was found (`accepted: HTTP 200
 * (expected a refusal (AuthenticationFailed))`).
 */
export function findingLine(f: Finding): string {
  const due = f.expected && f.message === f.found ? ` (expected ${f.expected})` : '';
  return `${f.direction} ${f.binding} ${f.operation} · ${f.check} [${f.level}] · ${f.message}${due}`;
}

/** The finding's identity: the same one seen again is counted, not listed again. */
export const findingKey = (f: Finding): string =>
  [f.direction, f.binding, f.operation, f.check, f.message].join('\u0000');

/** Longest text a finding keeps of a field: a value a client or a server sent may be megabytes. */
export const MAX_FINDING_TEXT = 500;

/** `s`, or its start and how long it was. */
export function clip(s: string, max = MAX_FINDING_TEXT): string {
  return s.length <= max ? s : `${s.slice(0, max)}… (${s.length} characters)`;
}

/** The finding with every text field clipped, so what the report keeps of it is bounded. */
export const clipped = (f: Finding): Finding => ({
  ...f,
  binding: clip(f.binding, 100),
  operation: clip(f.operation, 200),
  path: clip(f.path),
  expected: clip(f.expected),
  found: clip(f.found),
  message: clip(f.message),
});
