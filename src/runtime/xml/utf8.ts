// UTF-8 with node:buffer when running on Node (validation and slicing without copying, fast
// encoding), and with the Web's TextEncoder/TextDecoder elsewhere, so the runtime also runs in
// browsers. node:buffer is fetched at run time, not imported, so bundlers need no configuration.
import type { Utf8Source } from './text.js';

type NodeBuffer = Uint8Array & { utf8Slice(start: number, end: number): string };
interface NodeBufferModule {
  Buffer: { from(a: ArrayBufferLike, offset: number, length: number): NodeBuffer; from(s: string, encoding: 'utf8'): NodeBuffer };
  isUtf8(b: Uint8Array): boolean;
}

const nodeBuffer = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:buffer') as NodeBufferModule | undefined;
const decoder = new TextDecoder();
const encoder = new TextEncoder();

export const encodeUtf8: (s: string) => Uint8Array = nodeBuffer ? (s) => nodeBuffer.Buffer.from(s, 'utf8') : (s) => encoder.encode(s);

export function isUtf8(bytes: Uint8Array): boolean {
  if (nodeBuffer) return nodeBuffer.isUtf8(bytes);
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Bytes known to be UTF-8, and how to read a range of them as a string (clamped to the end, as subarray() is). */
export function utf8Source(bytes: Uint8Array): Utf8Source {
  if (nodeBuffer) {
    const buf = nodeBuffer.Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const length = buf.length;
    return { bytes: buf, slice: (start, end) => (end <= length ? buf.utf8Slice(start, end) : start < length ? buf.utf8Slice(start, length) : '') };
  }
  return { bytes, slice: (start, end) => decoder.decode(bytes.subarray(start, end)) };
}
