// The AuthenticationHeader's Signature, base64(HMAC-SHA1(utf8(secret), utf8(message))), computed
// by the platform's audited implementation, never by code of ours: node:crypto where there is one
// (Node: the server, and clients on Node), Web Crypto's HMAC elsewhere (browsers). node:crypto is
// fetched at run time, not imported, so a browser bundle of the client needs no configuration.
// `npm run bench` measures both side by side (the row "HMAC-SHA1 signature").
import type * as NodeCrypto from 'node:crypto';

/** One way of computing a signature. */
export interface SignatureImplementation {
  readonly name: 'node:crypto' | 'Web Crypto';
  sign(secret: string, message: string): Promise<string>;
  /** Whether `signature` is exactly the canonical base64 of the MAC, in constant time. */
  matches(secret: string, message: string, signature: string): Promise<boolean>;
}

/** The length of a canonical base64 HMAC-SHA1: 20 bytes, 28 characters with one '='. */
const SIGNATURE_LENGTH = 28;

function nodeCrypto(): typeof NodeCrypto | undefined {
  // `process` is absent in browsers; getBuiltinModule from Node 20.16 on.
  const p = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return p?.getBuiltinModule?.('node:crypto') as typeof NodeCrypto | undefined;
}

function nodeImplementation(crypto: typeof NodeCrypto): SignatureImplementation {
  const mac = (secret: string, message: string) =>
    crypto.createHmac('sha1', secret).update(message).digest('base64');
  return {
    name: 'node:crypto',
    sign: (secret, message) => Promise.resolve(mac(secret, message)),
    matches(secret, message, signature) {
      const expected = Buffer.from(mac(secret, message), 'latin1');
      const given = Buffer.from(signature, 'utf8');
      // The length is public (every signature has 28 characters); the content is compared in
      // constant time, whatever differs first.
      return Promise.resolve(
        given.length === expected.length && crypto.timingSafeEqual(given, expected),
      );
    },
  };
}

/** Base64 by the platform too (btoa: browsers, and Node from 16). */
const base64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));

/** Web Crypto: the key imported for each call (keys are not kept: nothing grows with callers). */
function webCryptoImplementation(subtle: SubtleCrypto): SignatureImplementation {
  const utf8 = new TextEncoder();
  const sign = async (secret: string, message: string) => {
    const raw = utf8.encode(secret);
    const key = await subtle.importKey(
      'raw',
      // Web Crypto refuses an empty key; HMAC pads a key with zero bytes to its block, so one zero
      // byte is the same key.
      raw.length === 0 ? new Uint8Array(1) : raw,
      { name: 'HMAC', hash: 'SHA-1' },
      false,
      ['sign'],
    );
    return base64(new Uint8Array(await subtle.sign('HMAC', key, utf8.encode(message))));
  };
  return {
    name: 'Web Crypto',
    sign,
    async matches(secret, message, signature) {
      const expected = await sign(secret, message);
      // Every place is compared whatever differs first: time depends on the length alone.
      let diff = signature.length ^ SIGNATURE_LENGTH;
      for (let i = 0; i < SIGNATURE_LENGTH; i++)
        diff |= (signature.charCodeAt(i) | 0) ^ expected.charCodeAt(i);
      return diff === 0;
    },
  };
}

/** Every implementation this platform offers, node:crypto first (the bench compares them). */
export function signatureImplementations(): SignatureImplementation[] {
  const node = nodeCrypto();
  const subtle = globalThis.crypto?.subtle as SubtleCrypto | undefined;
  return [
    ...(node ? [nodeImplementation(node)] : []),
    ...(subtle ? [webCryptoImplementation(subtle)] : []),
  ];
}

let chosen: SignatureImplementation | undefined;
function platform(): SignatureImplementation {
  chosen ??= signatureImplementations()[0];
  if (!chosen)
    throw new Error(
      'no HMAC-SHA1 on this platform: signing needs node:crypto or Web Crypto (crypto.subtle, which browsers offer on https pages and localhost only)',
    );
  return chosen;
}

/** base64(HMAC-SHA1(utf8(secret), utf8(message))). */
export const hmacSha1Base64 = (secret: string, message: string): Promise<string> =>
  platform().sign(secret, message);

/**
 * Whether `signature` is exactly the canonical (padded) base64 of the MAC, compared in constant
 * time: decoding it first would let stray characters or other low bits pass.
 */
export const signatureMatches = (
  secret: string,
  message: string,
  signature: string,
): Promise<boolean> => platform().matches(secret, message, signature);
