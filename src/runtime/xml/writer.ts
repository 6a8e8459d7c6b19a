// Bytes of a document written in pieces. A small document stays one string (Node writes it with
// its headers in one call). Once it passes STRING_UNITS UTF-16 units, every piece is encoded as it
// comes into 64 KiB chunks: a 30 MB response is never one 30 MB string, and no long string of
// pieces is kept to be flattened later (gathering long strings and encoding each was markedly
// slower on a 1,000-booking page). Bytes made earlier (a kept encoding, writeBytes) are taken as
// they are and copied once, into the document's bytes, never encoded again.
import { isArray, wrongType } from './errors.js';
import { allocBytes, encodeUtf8, encodeUtf8Into, utf8Length } from './utf8.js';

const CHUNK = 64 * 1024;
/**
 * The longest document kept as one string. Encoding it flattens it first, and V8 puts a string of
 * more than 128 KB in its large-object space: pages mapped for that one string and unmapped after
 * the next collection. At 64 Ki units a two-byte string (one en dash in a name makes one) crossed
 * that line on every large answer; 16 Ki units and a piece stay well under it.
 */
export const STRING_UNITS = 16 * 1024;
/** UTF-8 takes at most 3 bytes per UTF-16 unit (a surrogate pair: 4 bytes for 2 units). */
const MAX_BYTES_PER_UNIT = 3;

/** Text and UTF-8 pieces, in order, as one array of the bytes they make (the count given). */
function joined(pieces: readonly (string | Uint8Array)[], size: number): Uint8Array {
  const out = allocBytes(size);
  let at = 0;
  for (const p of pieces) {
    if (typeof p === 'string') at += encodeUtf8Into(p, out, at);
    else {
      out.set(p, at);
      at += p.length;
    }
  }
  return out;
}

export class XmlWriter {
  #pending = '';
  /**
   * While the document is still text: what came before the last writeBytes, strings and the
   * bytes given, in order (#pending follows them). Joined by bytes() in one allocation.
   */
  #parts: (string | Uint8Array)[] | undefined;
  /** Set once the document has outgrown one string: from then on pieces are encoded as they come. */
  #encoding = false;
  /** The chunk being filled, and how much of it is. */
  #chunk: Uint8Array | undefined;
  #at = 0;
  readonly #chunks: Uint8Array[] = [];
  #length = 0;

  write(s: string): void {
    if (this.#encoding) return this.#encode(s);
    this.#pending += s;
    if (this.#pending.length >= STRING_UNITS) this.#startEncoding();
  }

  /**
   * UTF-8 bytes written as they are: not copied until the document's bytes are joined, and never
   * changed or handed out. bytes() and content() give a copy: while the document is text, they
   * join its parts; once encoding, its chunks hold text too (STRING_UNITS of it), so there are
   * several to join.
   */
  writeBytes(bytes: Uint8Array): void {
    if (this.#encoding) {
      this.#seal();
      this.#push(bytes);
      return;
    }
    (this.#parts ??= []).push(this.#pending, bytes);
    this.#pending = '';
  }

  /** The document outgrew one string: what was written so far goes into chunks, in order. */
  #startEncoding(): void {
    this.#encoding = true;
    const parts = this.#parts ?? [];
    const last = this.#pending;
    this.#parts = undefined;
    this.#pending = '';
    // Bytes given one after another leave empty text between them: no chunk is started for it.
    for (const p of parts) {
      if (typeof p !== 'string') this.writeBytes(p);
      else if (p !== '') this.#encode(p);
    }
    this.#encode(last);
  }

  #encode(s: string): void {
    const room = s.length * MAX_BYTES_PER_UNIT;
    if (room > CHUNK) {
      this.#seal();
      this.#push(encodeUtf8(s)); // a piece longer than a chunk: its exact bytes, not 3x room
      return;
    }
    if (this.#chunk === undefined || room > this.#chunk.length - this.#at) {
      this.#seal();
      this.#chunk = new Uint8Array(CHUNK);
    }
    this.#at += encodeUtf8Into(s, this.#chunk, this.#at);
  }

  /** The parts and the text after them as one array of UTF-8: counted first, allocated once. */
  #joinParts(parts: (string | Uint8Array)[]): Uint8Array {
    parts.push(this.#pending);
    let size = 0;
    for (const p of parts) size += typeof p === 'string' ? utf8Length(p) : p.length;
    return joined(parts, size);
  }

  #push(bytes: Uint8Array): void {
    this.#chunks.push(bytes);
    this.#length += bytes.length;
  }

  /** Keeps the bytes of the chunk being filled; the next piece starts a new one. */
  #seal(): void {
    if (this.#chunk !== undefined && this.#at > 0) this.#push(this.#chunk.subarray(0, this.#at));
    this.#chunk = undefined;
    this.#at = 0;
  }

  /** Items of a list, each wrapped in `<itemName>`; anything but an array is refused (`path` names it, and `write` gets it). */
  items<T>(
    items: readonly T[],
    itemName: string,
    write: (item: T, path: string) => string,
    path = 'items',
  ): void {
    if (!isArray(items)) throw wrongType(path, 'list', items);
    const open = `<${itemName}>`;
    const close = `</${itemName}>`;
    for (let i = 0; i < items.length; i++) this.write(open + write(items[i]!, path) + close);
  }

  /** Everything written, as UTF-8. */
  bytes(): Uint8Array {
    if (this.#parts !== undefined) this.#push(this.#joinParts(this.#parts));
    else if (this.#pending !== '') this.#push(encodeUtf8(this.#pending));
    this.#parts = undefined;
    this.#pending = '';
    this.#seal();
    if (this.#chunks.length === 1) return this.#chunks[0]!;
    const out = joined(this.#chunks, this.#length);
    this.#chunks.splice(0, this.#chunks.length, out);
    return out;
  }

  /**
   * Everything written, as an HTTP body: the string itself while it is text under STRING_UNITS
   * (Node writes a string with its headers in one call and allocates no Buffer for it), else UTF-8
   * bytes (a document holding bytes given to writeBytes: encoding it as text would cost more).
   */
  content(): string | Uint8Array {
    return !this.#encoding && this.#parts === undefined && this.#chunks.length === 0
      ? this.#pending
      : this.bytes();
  }

  /** Everything written, as a string (tests, tools, small documents). */
  toString(): string {
    return new TextDecoder().decode(this.bytes());
  }
}

/** The document `write` writes, as a string. */
export function xmlString(write: (out: XmlWriter) => void): string {
  const out = new XmlWriter();
  write(out);
  return out.toString();
}
