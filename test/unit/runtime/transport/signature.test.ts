// The Signature through the platform (signature.ts): node:crypto and Web Crypto each against
// RFC 2202's vectors and node:crypto's HMAC computed here, and the signature check's exactness:
// only the canonical base64 of the MAC matches. The hand-written SHA-1 this replaced is gone.
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  hmacSha1Base64,
  signatureImplementations,
  signatureMatches,
} from '../../../../src/runtime/transport/signature.js';

const nodeHmac = (key: string, message: string) =>
  createHmac('sha1', Buffer.from(key, 'utf8'))
    .update(Buffer.from(message, 'utf8'))
    .digest('base64');
const hex = (h: string) => Buffer.from(h, 'hex').toString('base64');
const IMPLEMENTATIONS = signatureImplementations();

describe('the platform', () => {
  it('offers node:crypto first, then Web Crypto, here in Node', () => {
    expect(IMPLEMENTATIONS.map((i) => i.name)).toEqual(['node:crypto', 'Web Crypto']);
  });

  it('signs with node:crypto in Node', async () => {
    expect(await hmacSha1Base64('k', 'm')).toBe(nodeHmac('k', 'm'));
    expect(await signatureMatches('k', 'm', nodeHmac('k', 'm'))).toBe(true);
  });

  it('holds no SHA-1 of its own', () => {
    expect(existsSync(new URL('../../../../src/runtime/transport/hmac.ts', import.meta.url))).toBe(
      false,
    );
  });
});

describe.each(IMPLEMENTATIONS)('$name', (impl) => {
  // RFC 2202 section 3, the cases whose key and data are ASCII (the API takes strings as UTF-8).
  it.each([
    { key: '\x0b'.repeat(20), data: 'Hi There', want: 'b617318655057264e28bc0b6fb378c8ef146be00' },
    {
      key: 'Jefe',
      data: 'what do ya want for nothing?',
      want: 'effcdf6ae5eb2fa2d27416d5f184df9c259a7c79',
    },
    {
      key: '\x0c'.repeat(20),
      data: 'Test With Truncation',
      want: '4c1a03424b55e07fe7f27be1d58bb9324a9a5a04',
    },
  ])('gives RFC 2202 test case $data', async ({ key, data, want }) =>
    expect(await impl.sign(key, data)).toBe(hex(want)),
  );

  it('agrees with node:crypto on keys and messages of any length and characters (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 200, unit: 'binary' }),
        fc.string({ maxLength: 200, unit: 'binary' }),
        async (key, message) => {
          expect(await impl.sign(key, message)).toBe(nodeHmac(key, message));
        },
      ),
      { numRuns: 300 },
    );
  });

  describe('matches', () => {
    const secret = 'c2VjcmV0LWtleQ';
    const message = 'GetBooking2026-01-02T03:04:05.678Z';
    const good = nodeHmac(secret, message);

    it('accepts the signature node:crypto computes', async () => {
      expect(await impl.matches(secret, message, good)).toBe(true);
    });

    it('refuses a change at any one of its 28 places', async () => {
      for (let i = 0; i < good.length; i++) {
        const other = good[i] === 'A' ? 'B' : 'A';
        const changed = good.slice(0, i) + other + good.slice(i + 1);
        expect(await impl.matches(secret, message, changed), changed).toBe(false);
      }
    });

    it.each([
      { given: '', why: 'empty' },
      { given: good.slice(0, -1), why: 'without its padding' },
      { given: `${good}=`, why: 'with padding added' },
      { given: ` ${good}`, why: 'with a leading space (decoding would skip it)' },
      { given: `${good.slice(0, 14)}\n${good.slice(14)}`, why: 'with a line break inside' },
      {
        given: `${good.slice(0, 27)}é`,
        why: 'with a character past ASCII in place of the padding',
      },
      { given: nodeHmac(secret, `${message}x`), why: 'of another message' },
      { given: nodeHmac(`${secret}x`, message), why: 'under another key' },
    ])('refuses a signature $why', async ({ given }) =>
      expect(await impl.matches(secret, message, given)).toBe(false),
    );

    it('refuses a non-canonical base64 of the right bytes (the unused low bits set)', async () => {
      // The 27th character carries two bits past the MAC's 160: any other value decodes the same.
      const last = good[26]!;
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
      const twin = alphabet[alphabet.indexOf(last) ^ 1]!;
      const given = `${good.slice(0, 26)}${twin}=`;
      expect(Buffer.from(given, 'base64').equals(Buffer.from(good, 'base64'))).toBe(true);
      expect(await impl.matches(secret, message, given)).toBe(false);
    });
  });
});
