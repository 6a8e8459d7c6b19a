// XmlWriter gathers strings into UTF-8 chunks: the bytes are exactly the UTF-8 of everything
// written, whatever the sizes and wherever a chunk ends (in the middle of a multi-byte character's
// string, never in its bytes), and bytes given as they are (writeBytes) take their place in order
// without being handed out.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  STRING_UNITS,
  XmlWriter,
  writeSoapEnvelope,
  writeSoapMessage,
  xmlString,
} from '@evgen/runtime/internal';

const piece = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('é', '€', '😀', 'Delegate – Standard'),
  fc.nat(70_000).map((n) => 'x'.repeat(n)),
);

describe('XmlWriter', () => {
  it('writes exactly the UTF-8 of what it was given, across chunk boundaries', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const out = new XmlWriter();
        for (const p of parts) out.write(p);
        const want = new TextEncoder().encode(parts.join(''));
        expect(Buffer.from(out.bytes()).equals(Buffer.from(want))).toBe(true);
        expect(out.toString()).toBe(parts.join(''));
      }),
      { numRuns: 200 },
    );
  });

  it('writes exactly the UTF-8 of text and bytes given as they are, in order, before and past one string', () => {
    const given = fc.oneof(
      piece.map((text) => ({ text })),
      piece.map((text) => ({ bytes: new Uint8Array(Buffer.from(text, 'utf8')) })),
    );
    fc.assert(
      fc.property(fc.array(given, { maxLength: 12 }), (parts) => {
        const out = new XmlWriter();
        for (const p of parts) {
          if ('text' in p) out.write(p.text);
          else out.writeBytes(p.bytes);
        }
        const want = Buffer.concat(parts.map((p) => ('text' in p ? Buffer.from(p.text) : p.bytes)));
        const content = out.content();
        if (typeof content === 'string') {
          expect(parts.every((p) => 'text' in p)).toBe(true);
          expect(Buffer.from(content, 'utf8').equals(want)).toBe(true);
        } else expect(Buffer.from(content).equals(want)).toBe(true);
        expect(Buffer.from(out.bytes()).equals(want)).toBe(true);
        // The bytes given are the writer's to read, never to hand out.
        for (const p of parts)
          if ('bytes' in p && p.bytes.length > 0) expect(content).not.toBe(p.bytes);
      }),
      { numRuns: 200 },
    );
  });

  it('writes exactly the UTF-8 of many mid-sized pieces once past one string (chunks filled and sealed)', () => {
    const mid = fc
      .tuple(fc.nat(30_000), fc.constantFrom('a', 'é', '€', '😀', '\uD800'))
      .map(([n, c]) => c.repeat(Math.ceil(n / c.length)));
    fc.assert(
      fc.property(fc.array(mid, { minLength: 8, maxLength: 40 }), (parts) => {
        const out = new XmlWriter();
        for (const p of parts) out.write(p);
        const want = Buffer.from(parts.join(''), 'utf8');
        expect(Buffer.from(out.bytes()).equals(want)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('gives its content as the string itself while it is under STRING_UNITS, else as the same UTF-8 bytes', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const out = new XmlWriter();
        for (const p of parts) out.write(p);
        const content = out.content();
        const text = parts.join('');
        if (typeof content === 'string') {
          expect(text.length).toBeLessThan(STRING_UNITS);
          expect(content).toBe(text);
        } else {
          expect(text.length).toBeGreaterThanOrEqual(STRING_UNITS);
          expect(Buffer.from(content).equals(Buffer.from(text, 'utf8'))).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('wraps list items, and a long list comes out whole', () => {
    const out = new XmlWriter();
    const items = Array.from({ length: 20_000 }, (_, i) => `n${i}é`);
    out.items(items, 'string', (s) => s);
    const text = out.toString();
    expect(text.startsWith('<string>n0é</string><string>n1é</string>')).toBe(true);
    expect(text.endsWith('<string>n19999é</string>')).toBe(true);
    expect(text.match(/<string>/g)).toHaveLength(20_000);
  });

  it('gives the same bytes when asked twice, and an empty document as no bytes', () => {
    const out = new XmlWriter();
    out.write('<a>€</a>');
    expect([...out.bytes()]).toEqual([...out.bytes()]);
    expect(new XmlWriter().bytes()).toHaveLength(0);
  });

  it('writes a SOAP message in pieces the same as in one string', () => {
    const body = '<R xmlns="urn:x">é</R>';
    expect(writeSoapMessage('1.2', '<H/>', (out) => out.write(body)).toString()).toBe(
      writeSoapEnvelope('1.2', '<H/>', body),
    );
    expect(xmlString((out) => out.write(body))).toBe(body);
  });
});
