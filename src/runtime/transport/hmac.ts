// HMAC-SHA1 (RFC 2104 over FIPS 180-4's SHA-1) for the AuthenticationHeader's Signature, in plain
// JavaScript. node:crypto's createHmac costs several times more a request in the server (a native
// object, the digest looked up by name, the key hashed again each time); here a key's two padded states
// are computed once and a signature of Operation + Timestamp is two compressions, no allocation.
// Synchronous and the same in browsers, so client and server sign with this one piece of code
// (Web Crypto's HMAC is asynchronous, slower still, and offered only on https and localhost).
import { encodeUtf8 } from '../xml/utf8.js';

/** One key: the SHA-1 states after its inner and outer padded blocks. */
interface KeyState {
  readonly inner: Int32Array;
  readonly outer: Int32Array;
}

const BLOCK = 64;
const IV = Int32Array.of(0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476, 0xc3d2e1f0 | 0);
const W = new Int32Array(16);
const STATE = new Int32Array(5);
/**
 * The message's blocks and the digest, reused by every call; a message too long for `SMALL` gets
 * room of its own for that call only, so nothing stays grown.
 */
const SMALL = new Uint8Array(4 * BLOCK);
let scratch = SMALL;
const DIGEST = new Uint8Array(20);

/**
 * One 64-byte block of `block` at `at` into state `h`; the schedule is a ring of 16 words. Written
 * out, without helper functions: TurboFan's inlining budget left some of them as calls, a third
 * slower a block.
 */
function compress(h: Int32Array, block: Uint8Array, at: number): void {
  const w = W;
  for (let i = 0; i < 16; i++, at += 4)
    w[i] = (block[at]! << 24) | (block[at + 1]! << 16) | (block[at + 2]! << 8) | block[at + 3]!;
  let a = h[0]!;
  let b = h[1]!;
  let c = h[2]!;
  let d = h[3]!;
  let e = h[4]!;
  let i = 0;
  let x = 0;
  let t = 0;
  // One loop per round function (a branch per step cost a fifth of the time); from step 16 on,
  // the schedule word replaces the one 16 steps back.
  for (; i < 16; i++) {
    t = (((a << 5) | (a >>> 27)) + ((b & c) | (~b & d)) + e + 0x5a827999 + w[i]!) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = t;
  }
  for (; i < 20; i++) {
    x = w[(i + 13) & 15]! ^ w[(i + 8) & 15]! ^ w[(i + 2) & 15]! ^ w[i & 15]!;
    x = w[i & 15] = (x << 1) | (x >>> 31);
    t = (((a << 5) | (a >>> 27)) + ((b & c) | (~b & d)) + e + 0x5a827999 + x) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = t;
  }
  for (; i < 40; i++) {
    x = w[(i + 13) & 15]! ^ w[(i + 8) & 15]! ^ w[(i + 2) & 15]! ^ w[i & 15]!;
    x = w[i & 15] = (x << 1) | (x >>> 31);
    t = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + 0x6ed9eba1 + x) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = t;
  }
  for (; i < 60; i++) {
    x = w[(i + 13) & 15]! ^ w[(i + 8) & 15]! ^ w[(i + 2) & 15]! ^ w[i & 15]!;
    x = w[i & 15] = (x << 1) | (x >>> 31);
    t = (((a << 5) | (a >>> 27)) + ((b & c) | (b & d) | (c & d)) + e - 0x70e44324 + x) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = t;
  }
  for (; i < 80; i++) {
    x = w[(i + 13) & 15]! ^ w[(i + 8) & 15]! ^ w[(i + 2) & 15]! ^ w[i & 15]!;
    x = w[i & 15] = (x << 1) | (x >>> 31);
    t = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e - 0x359d3e2a + x) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = t;
  }
  h[0] = (h[0]! + a) | 0;
  h[1] = (h[1]! + b) | 0;
  h[2] = (h[2]! + c) | 0;
  h[3] = (h[3]! + d) | 0;
  h[4] = (h[4]! + e) | 0;
}

/**
 * Runs SHA-1 from state `h` (which has already taken `prefix` bytes, a multiple of 64) over the
 * first `length` bytes of `data` (`data` has room for the padding), and writes the digest to `out`.
 */
function finish(h: Int32Array, data: Uint8Array, length: number, prefix: number, out: Uint8Array) {
  const padded = Math.ceil((length + 9) / BLOCK) * BLOCK;
  data.fill(0, length, padded);
  data[length] = 0x80;
  const bits = (prefix + length) * 8; // exact below 2^53: messages here are far shorter
  const end = padded - 8;
  const high = Math.floor(bits / 0x100000000);
  for (let i = 0; i < 4; i++) {
    data[end + 3 - i] = (high >>> (8 * i)) & 0xff;
    data[end + 7 - i] = (bits >>> (8 * i)) & 0xff;
  }
  for (let at = 0; at < padded; at += BLOCK) compress(h, data, at);
  for (let i = 0; i < 5; i++) {
    const v = h[i]!;
    out[4 * i] = v >>> 24;
    out[4 * i + 1] = (v >>> 16) & 0xff;
    out[4 * i + 2] = (v >>> 8) & 0xff;
    out[4 * i + 3] = v & 0xff;
  }
}

/** The UTF-8 bytes of `s` in `scratch` (replaced when short of room for them and the padding). */
function encode(s: string): number {
  // An ASCII string (an operation name and a timestamp) is copied without TextEncoder's call.
  if (scratch.length < s.length + 2 * BLOCK) scratch = new Uint8Array(s.length + 2 * BLOCK);
  const out = scratch; // a local: the module binding is read again at every step otherwise
  let i = 0;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f) break;
    out[i] = c;
  }
  if (i === s.length) return i;
  const bytes = encodeUtf8(s);
  if (scratch.length < bytes.length + 2 * BLOCK) scratch = new Uint8Array(bytes.length + 2 * BLOCK);
  scratch.set(bytes);
  return bytes.length;
}

function keyState(secret: string): KeyState {
  let key = encodeUtf8(secret);
  if (key.length > BLOCK) {
    const h = IV.slice();
    const data = new Uint8Array(key.length + 2 * BLOCK);
    data.set(key);
    const digest = new Uint8Array(20);
    finish(h, data, key.length, 0, digest);
    key = digest;
  }
  const pad = new Uint8Array(BLOCK);
  const state = (x: number) => {
    for (let i = 0; i < BLOCK; i++) pad[i] = (key[i] ?? 0) ^ x;
    const h = IV.slice();
    compress(h, pad, 0);
    return h;
  };
  return { inner: state(0x36), outer: state(0x5c) };
}

/**
 * At most this many keys' states are kept: a server sees one per API key in use. A key's first
 * signature takes longer than the next ones; a request under a key that does not exist is signed
 * with one fixed secret (verify.ts), so that difference tells nothing about which keys exist
 * beyond the first request of each valid key.
 */
const MAX_KEYS = 1024;
const keys = new Map<string, KeyState>();

function stateOf(secret: string): KeyState {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= MAX_KEYS) keys.clear();
    key = keyState(secret);
    keys.set(secret, key);
  }
  return key;
}

/** HMAC-SHA1 of the UTF-8 bytes of `message` under the UTF-8 bytes of `secret`, in `DIGEST`. */
function mac(secret: string, message: string): Uint8Array {
  const key = stateOf(secret);
  const length = encode(message); // first: it may replace `scratch`
  STATE.set(key.inner);
  finish(STATE, scratch, length, BLOCK, DIGEST);
  STATE.set(key.outer);
  scratch = SMALL;
  scratch.set(DIGEST);
  finish(STATE, scratch, DIGEST.length, BLOCK, DIGEST);
  return DIGEST;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
const PAD = 61; // '='
/** The base64 of a digest: 28 characters, the last one padding. */
const SIGNATURE = new Uint8Array(28);

function base64Codes(bytes: Uint8Array): Uint8Array {
  const out = SIGNATURE;
  const codes = CODES;
  let o = 0;
  for (let i = 0; i < 18; i += 3, o += 4) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[o] = codes[n >>> 18]!;
    out[o + 1] = codes[(n >>> 12) & 63]!;
    out[o + 2] = codes[(n >>> 6) & 63]!;
    out[o + 3] = codes[n & 63]!;
  }
  const n = (bytes[18]! << 16) | (bytes[19]! << 8); // the last two bytes: three places and '='
  out[24] = codes[n >>> 18]!;
  out[25] = codes[(n >>> 12) & 63]!;
  out[26] = codes[(n >>> 6) & 63]!;
  out[27] = PAD;
  return out;
}

/** base64(HMAC-SHA1(utf8(secret), utf8(message))). */
export function hmacSha1Base64(secret: string, message: string): string {
  return String.fromCharCode(...base64Codes(mac(secret, message)));
}

/**
 * Whether `signature` is exactly the (canonical, padded) base64 of the MAC, in time that depends
 * only on the signature's length: every one of the 28 places is compared whatever differs first.
 */
export function signatureMatches(secret: string, message: string, signature: string): boolean {
  const expected = base64Codes(mac(secret, message));
  let diff = signature.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) diff |= (signature.charCodeAt(i) | 0) ^ expected[i]!;
  return diff === 0;
}
