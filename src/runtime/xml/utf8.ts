// UTF-8 with node:buffer when running on Node (validation and slicing without copying, fast
// encoding), and with the Web's TextEncoder/TextDecoder elsewhere, so the runtime also runs in
// browsers. node:buffer is fetched at run time, not imported, so bundlers need no configuration.
// A type-only import: erased, node:buffer is not loaded by it.
import type { Buffer as NodeBuffer } from 'node:buffer';
import type { Utf8Source } from './text.js';

interface NodeBufferModule {
  Buffer: {
    isBuffer(b: unknown): b is NodeBuffer;
    from(a: ArrayBufferLike, offset: number, length: number): NodeBuffer;
    from(s: string, encoding: 'utf8'): NodeBuffer;
    allocUnsafe(byteCount: number): NodeBuffer;
    byteLength(s: string, encoding: 'utf8'): number;
  };
  isUtf8(b: Uint8Array): boolean;
}

const nodeBuffer = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.('node:buffer') as NodeBufferModule | undefined;
const decoder = new TextDecoder();
const encoder = new TextEncoder();

export const encodeUtf8: (s: string) => Uint8Array = nodeBuffer
  ? (s) => nodeBuffer.Buffer.from(s, 'utf8')
  : (s) => encoder.encode(s);

/**
 * Room for that many bytes, every one of which the caller fills: on Node a small one is cut from
 * its shared pool, where a Uint8Array of its own would cost an allocation and zeroing.
 */
export const allocBytes: (byteCount: number) => Uint8Array = nodeBuffer
  ? (byteCount) => nodeBuffer.Buffer.allocUnsafe(byteCount)
  : (byteCount) => new Uint8Array(byteCount);

/** How many bytes the UTF-8 of `s` takes (a lone surrogate: the 3 of U+FFFD, as encoding writes). */
export const utf8Length: (s: string) => number = nodeBuffer
  ? (s) => nodeBuffer.Buffer.byteLength(s, 'utf8')
  : (s) => encoder.encode(s).length;

/** Writes the UTF-8 of `s` into `target` from `at` (the caller leaves room): the bytes written. */
export function encodeUtf8Into(s: string, target: Uint8Array, at: number): number {
  return encoder.encodeInto(s, target.subarray(at)).written;
}

export function isUtf8(bytes: Uint8Array): boolean {
  if (nodeBuffer) return nodeBuffer.isUtf8(bytes);
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

// Classes rather than closures: a request's document is small, and making two closures per
// document showed up in profiles of the server.
class NodeSource implements Utf8Source {
  readonly bytes: NodeBuffer;
  constructor(bytes: Uint8Array, buffer: NodeBufferModule['Buffer']) {
    // A body node:http read is a Buffer already: no second view of it.
    this.bytes = buffer.isBuffer(bytes)
      ? bytes
      : buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  /**
   * Clamped to the end, as subarray() is: Buffer#toString clamps its range. The encoding left to
   * its default (UTF-8) is the documented call without an encoding lookup, as fast as Node's own
   * undocumented utf8Slice, which naming 'utf8' is not.
   */
  slice(start: number, end: number): string {
    return this.bytes.toString(undefined, start, end);
  }
}

class WebSource implements Utf8Source {
  constructor(readonly bytes: Uint8Array) {}
  slice(start: number, end: number): string {
    return decoder.decode(this.bytes.subarray(start, end));
  }
}

/** Bytes known to be UTF-8, and how to read a range of them as a string. */
export const utf8Source = (bytes: Uint8Array): Utf8Source =>
  nodeBuffer ? new NodeSource(bytes, nodeBuffer.Buffer) : new WebSource(bytes);
