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

const show = (got: string | undefined) => (got === undefined ? 'nothing' : JSON.stringify(got));

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

/** A value cannot be written with its spec type (never silently rounded or truncated). */
export class XmlEncodeError extends Error {
  constructor(
    readonly path: string,
    readonly expected: string,
    readonly got: unknown,
  ) {
    super(
      `${path}: cannot write ${typeof got === 'string' ? JSON.stringify(got) : String(got)}: expected ${expected}`,
    );
    this.name = 'XmlEncodeError';
  }
}
