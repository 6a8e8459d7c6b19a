// HMAC-SHA1 in plain JavaScript (hmac.ts) against RFC 2202's vectors and node:crypto, and the
// signature check's exactness: only the canonical base64 of the MAC matches.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hmacSha1Base64, signatureMatches } from '../../../../src/runtime/transport/hmac.js';

const nodeHmac = (key: string, message: string) =>
  createHmac('sha1', Buffer.from(key, 'utf8'))
    .update(Buffer.from(message, 'utf8'))
    .digest('base64');
const hex = (h: string) => Buffer.from(h, 'hex').toString('base64');

describe('hmacSha1Base64', () => {
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
  ])('gives RFC 2202 test case $data', ({ key, data, want }) =>
    expect(hmacSha1Base64(key, data)).toBe(hex(want)),
  );

  it('agrees with node:crypto on keys and messages of every length around a block (property)', () => {
    // Lengths up to 200: keys past 64 bytes are hashed first, messages span one to four blocks,
    // and the 55/56-byte edge moves the length into a block of its own.
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200, unit: 'binary' }),
        fc.string({ maxLength: 200, unit: 'binary' }),
        (key, message) => {
          expect(hmacSha1Base64(key, message)).toBe(nodeHmac(key, message));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it.each([0, 1, 63, 64, 65, 66, 100, 200])(
    'agrees with node:crypto under a key of %i bytes (past 64 it is hashed first)',
    (n) =>
      expect(hmacSha1Base64('k'.repeat(n), 'message')).toBe(nodeHmac('k'.repeat(n), 'message')),
  );

  it.each([0, 1, 54, 55, 56, 63, 64, 65, 119, 120, 128, 1000])(
    'agrees with node:crypto on a message of %i ASCII bytes, after a longer one',
    (n) => {
      hmacSha1Base64('k', 'x'.repeat(5000)); // the scratch space grows, then serves short ones
      expect(hmacSha1Base64('k', 'm'.repeat(n))).toBe(nodeHmac('k', 'm'.repeat(n)));
    },
  );
});

describe('signatureMatches', () => {
  const secret = 'c2VjcmV0LWtleQ';
  const message = 'GetBooking2026-01-02T03:04:05.678Z';
  const good = nodeHmac(secret, message);

  it('accepts the signature node:crypto computes', () => {
    expect(signatureMatches(secret, message, good)).toBe(true);
  });

  it('refuses a change at any one of its 28 places', () => {
    for (let i = 0; i < good.length; i++) {
      const other = good[i] === 'A' ? 'B' : 'A';
      expect(signatureMatches(secret, message, good.slice(0, i) + other + good.slice(i + 1))).toBe(
        false,
      );
    }
  });

  it.each([
    { given: '', why: 'empty' },
    { given: good.slice(0, -1), why: 'without its padding' },
    { given: `${good}=`, why: 'with padding added' },
    { given: ` ${good}`, why: 'with a leading space (decoding would skip it)' },
    { given: `${good.slice(0, 14)}\n${good.slice(14)}`, why: 'with a line break inside' },
    { given: nodeHmac(secret, `${message}x`), why: 'of another message' },
    { given: nodeHmac(`${secret}x`, message), why: 'under another key' },
  ])('refuses a signature $why', ({ given }) =>
    expect(signatureMatches(secret, message, given)).toBe(false),
  );

  it('refuses a non-canonical base64 of the right bytes (the unused low bits set)', () => {
    // The 27th character carries two bits past the MAC's 160: any other value decodes the same.
    const last = good[26]!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const twin = alphabet[alphabet.indexOf(last) ^ 1]!;
    const given = `${good.slice(0, 26)}${twin}=`;
    expect(Buffer.from(given, 'base64').equals(Buffer.from(good, 'base64'))).toBe(true);
    expect(signatureMatches(secret, message, given)).toBe(false);
  });
});
