// A Signature that does not verify is explained with what was signed and the clock offset, and
// with the mistake that makes it verify when one does; the secret and every signature (the one
// sent, the right one) stay out of the explanation.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { explainSignature, signatureOf, type SignedValues } from '../../../src/proxy/signature.js';

const SECRET = 'sec-ret-value';
const base = { Operation: 'GetBooking', Timestamp: '2026-05-01T10:00:00.000Z', APIKey: 'ak_1' };
const mac = (alg: string, key: string, msg: string, enc: 'base64' | 'hex' | 'base64url') =>
  createHmac(alg, key).update(msg).digest(enc);

const mistakes: { name: string; signature: string; body?: string; hint: RegExp }[] = [
  {
    name: "the body's operation signed",
    signature: mac('sha1', SECRET, `GetBookings${base.Timestamp}`, 'base64'),
    body: 'GetBookings',
    hint: /over the body's operation/,
  },
  {
    name: 'a secret with its newline',
    signature: mac('sha1', `${SECRET}\n`, `GetBooking${base.Timestamp}`, 'base64'),
    hint: /line break/,
  },
  {
    name: 'the other order',
    signature: mac('sha1', SECRET, `${base.Timestamp}GetBooking`, 'base64'),
    hint: /Timestamp followed by Operation/,
  },
  {
    name: 'SHA-256',
    signature: mac('sha256', SECRET, `GetBooking${base.Timestamp}`, 'base64'),
    hint: /HMAC-SHA256/,
  },
  {
    name: 'hex',
    signature: mac('sha1', SECRET, `GetBooking${base.Timestamp}`, 'hex'),
    hint: /hexadecimal/,
  },
  {
    name: 'base64url',
    signature: mac('sha1', SECRET, `GetBooking${base.Timestamp}`, 'base64url'),
    hint: /base64url/,
  },
  {
    name: 'the Timestamp alone',
    signature: mac('sha1', SECRET, base.Timestamp, 'base64'),
    hint: /Timestamp alone/,
  },
  {
    name: 'another secret',
    signature: mac('sha1', 'other', `GetBooking${base.Timestamp}`, 'base64'),
    hint: /none of the usual mistakes/,
  },
];

describe('explainSignature', () => {
  it('says nothing of a signature that verifies', () => {
    const v: SignedValues = {
      ...base,
      Signature: signatureOf(SECRET, base.Operation, base.Timestamp),
    };
    expect(explainSignature(SECRET, v, 'GetBooking', 0)).toBeUndefined();
  });

  it.each(mistakes)('$name', ({ signature, body, hint }) => {
    const why = explainSignature(
      SECRET,
      { ...base, Signature: signature },
      body ?? 'GetBooking',
      -1500,
    )!;
    expect(why).toMatch(hint);
    expect(why).toContain(`the string "GetBooking${base.Timestamp}"`);
    expect(why).toContain('clock offset -1.500 s');
    for (const hidden of [SECRET, signature, signatureOf(SECRET, base.Operation, base.Timestamp)])
      expect(why).not.toContain(hidden);
  });
});
