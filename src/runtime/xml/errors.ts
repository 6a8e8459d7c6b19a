// Errors of XML reading and writing. Decode errors carry the XML path of the offending element
// (built as the error travels up through the decoders) and what was expected.
export type XmlParseErrorCode =
  | 'syntax'
  | 'doctype'
  | 'processing-instruction'
  | 'limit'
  | 'encoding';

/** The document is not acceptable XML (or is refused for safety) before any value is read. */
export class XmlParseError extends Error {
  constructor(
    readonly code: XmlParseErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'XmlParseError';
  }
}

/** A lexical value does not have its type's form. */
export class ValueError extends Error {
  constructor(readonly expected: string) {
    super(`expected ${expected}`);
    this.name = 'ValueError';
  }
}

/** Characters of a value from a message that an error or fault text shows. */
export const QUOTED_INPUT_CHARS = 64;

/**
 * A value that came in a message, as error and fault texts show it: quoted, and past
 * QUOTED_INPUT_CHARS cut, saying how long it was (`"aaaa…" (9992 characters)`), so a text never
 * grows with what a caller sent.
 */
export function quoteInput(value: string): string {
  if (value.length <= QUOTED_INPUT_CHARS) return JSON.stringify(value);
  return `${JSON.stringify(`${value.slice(0, QUOTED_INPUT_CHARS)}…`)} (${value.length} characters)`;
}

/** The same without quotes, for a name or path in running text (`aaaa… (9992 characters)`). */
export function cutInput(value: string): string {
  if (value.length <= QUOTED_INPUT_CHARS) return value;
  return `${value.slice(0, QUOTED_INPUT_CHARS)}… (${value.length} characters)`;
}

const show = (got: string | undefined) => (got === undefined ? 'nothing' : quoteInput(got));

/** A value in a well-formed document is not what the spec says, e.g. `A/B[3]/C: expected int, got "x"`. */
export class XmlDecodeError extends Error {
  #path: string;
  /** The element (number in its XmlDocument) the error was raised for, until a caller adds a segment above it. */
  origin: number | undefined;

  constructor(
    path: string,
    readonly expected: string,
    readonly got: string | undefined,
    origin?: number,
  ) {
    super(`${path}: expected ${expected}, got ${show(got)}`);
    this.name = 'XmlDecodeError';
    this.#path = path;
    this.origin = origin;
  }

  get path(): string {
    return this.#path;
  }

  /** Adds a parent segment in front of the path. */
  prepend(segment: string): this {
    return this.#setPath(`${segment}/${this.#path}`);
  }

  /** Replaces the first segment (the origin element's own name), e.g. with an indexed list item. */
  renameOrigin(segment: string): this {
    const slash = this.#path.indexOf('/');
    return this.#setPath(slash < 0 ? segment : segment + this.#path.slice(slash));
  }

  #setPath(path: string): this {
    this.#path = path;
    this.origin = undefined;
    this.message = `${path}: expected ${this.expected}, got ${show(this.got)}`;
    return this;
  }
}

/** How a value that cannot be written is shown in an error: never more than 40 characters of it. */
function showValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (v === null || typeof v !== 'object')
    return typeof v === 'function' ? 'a function' : String(v);
  return Array.isArray(v) ? 'an array' : 'an object';
}

/**
 * A value cannot be written with its spec type (never silently rounded or truncated), e.g.
 * `EventDetailsResponse7.Code: required string, got undefined` or
 * `BookingResponse.GrossCost: expected decimal with at most 2 decimal places, got "1.005"`.
 */
export class XmlEncodeError extends Error {
  constructor(
    /** `Type.Field` (or `Operation.parameter`, `OperationResult`). */
    readonly path: string,
    /** What the field needs: `required <type>` for a value of the wrong kind, `expected …` for a wrong form. */
    readonly expected: string,
    readonly got: unknown,
  ) {
    super(`${path}: ${expected}, got ${showValue(got)}`);
    this.name = 'XmlEncodeError';
  }
}

/** A value of the wrong kind for its field: undefined, null where not nullable, a number for a string... */
export const wrongType = (path: string, type: string, got: unknown): XmlEncodeError =>
  new XmlEncodeError(path, `required ${type}`, got);

/** Array.isArray without narrowing the caller's typed list to any[]. */
export const isArray = (v: unknown): boolean => Array.isArray(v);
