// A cassette: one exchange a line (JSONL), as the proxy saw it, with the Signature and every known
// secret redacted. Writing is bounded: past `maxPendingBytes` not yet on disk, exchanges are
// counted as not recorded instead of held in memory. Reading yields one exchange at a time.
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { createInterface } from 'node:readline';

export type HeaderPairs = [string, string][];

export interface RecordedMessage {
  readonly headers: HeaderPairs;
  /** The body as UTF-8 text; absent when not kept (see `omitted`). */
  readonly body?: string;
  readonly bodyBytes: number;
  /** Why the body is absent: longer than the proxy checks, or not UTF-8. */
  readonly omitted?: string;
  /** The Content-Encoding the body was sent in; `body` is decoded. */
  readonly decoded?: string;
}

export interface RecordedExchange {
  readonly time: string;
  readonly durationMs: number;
  /** A binding id, `wsdl`, `help`, or `-`. */
  readonly binding: string;
  readonly operation: string;
  readonly request: RecordedMessage & { readonly method: string; readonly url: string };
  readonly response: RecordedMessage & {
    readonly status: number;
    readonly statusMessage: string;
    /** Set when the target gave no answer: what the proxy answered instead, and why. */
    readonly error?: string;
  };
}

/** A body as cassette text, or why it is not kept. */
export function bodyText(
  body: Uint8Array | undefined,
  why: string | undefined,
): { body?: string; omitted?: string } {
  if (body === undefined) return { omitted: why ?? 'not kept' };
  try {
    return { body: new TextDecoder('utf-8', { fatal: true }).decode(body) };
  } catch {
    return { omitted: 'not UTF-8' };
  }
}

export class CassetteWriter {
  readonly #out: WriteStream;
  #failure: Error | undefined;
  written = 0;
  dropped = 0;

  constructor(
    readonly file: string,
    private readonly maxPendingBytes = 16 * 1024 * 1024,
  ) {
    this.#out = createWriteStream(file, { flags: 'a' });
    this.#out.on('error', (e) => (this.#failure = e));
  }

  /** Opened and writable, or the reason it is not (a missing folder, no permission). */
  ready(): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.#failure) return reject(this.#failure);
      this.#out.once('ready', resolve).once('error', reject);
    });
  }

  record(e: RecordedExchange): void {
    if (this.#failure || this.#out.writableLength > this.maxPendingBytes) {
      this.dropped++;
      return;
    }
    this.#out.write(`${JSON.stringify(e)}\n`);
    this.written++;
  }

  /** An exchange not recorded: the proxy could not check it. */
  skipped(): void {
    this.dropped++;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#out.end(resolve));
  }
}

export class CassetteError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
    this.name = 'CassetteError';
  }
}

function isExchange(v: unknown): v is RecordedExchange {
  const e = v as RecordedExchange;
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.binding === 'string' &&
    typeof e.operation === 'string' &&
    typeof e.request?.url === 'string' &&
    typeof e.request.method === 'string' &&
    Array.isArray(e.request.headers) &&
    typeof e.response?.status === 'number' &&
    Array.isArray(e.response.headers)
  );
}

/** The exchanges of a cassette in order, with their line numbers; a bad line is a CassetteError. */
export async function* readCassette(
  file: string,
): AsyncGenerator<{ line: number; exchange: RecordedExchange }> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let n = 0;
  for await (const text of lines) {
    n++;
    if (text.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw new CassetteError(n, `not JSON: ${(e as Error).message}`);
    }
    if (!isExchange(parsed)) throw new CassetteError(n, 'not an exchange of evgen proxy --record');
    yield { line: n, exchange: parsed };
  }
}
