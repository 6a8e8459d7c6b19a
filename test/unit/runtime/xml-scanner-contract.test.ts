// The scanner's single-threaded contract (src/runtime/xml/scan.ts): one reused scanner and the
// per-document slots of cached names serve one scan at a time, so a scan started while another is
// running is refused instead of overwriting the running one's state.
import { describe, expect, it } from 'vitest';
import { readXml } from '@evgen/runtime/internal';
import { scanDocument, type ScanOptions } from '../../../src/runtime/xml/scan.js';
import { utf8Source } from '../../../src/runtime/xml/utf8.js';
import type { Utf8Source } from '../../../src/runtime/xml/text.js';

const OPTIONS: ScanOptions = {
  maxDepth: 64,
  maxElements: 1000,
  maxNames: 1000,
  checkEncoding: true,
};
const bytes = (s: string) => new TextEncoder().encode(s);

/** A source that starts another scan the first time the scanner reads a string from it. */
function reentrantSource(xml: string, nested: () => unknown): Utf8Source {
  const inner = utf8Source(bytes(xml));
  let entered = false;
  return {
    bytes: inner.bytes,
    slice(start, end) {
      if (!entered) {
        entered = true;
        nested();
      }
      return inner.slice(start, end);
    },
  };
}

describe('the scanner is single-threaded', () => {
  const cases: { given: string; nested: () => unknown }[] = [
    { given: 'readXml during a scan', nested: () => readXml('<inner/>') },
    {
      given: 'scanDocument during a scan',
      nested: () => scanDocument(utf8Source(bytes('<inner/>')), OPTIONS),
    },
  ];
  let fresh = 0;
  it.each(cases)('refuses $given, and scans again once the outer scan is over', ({ nested }) => {
    // A root name never met before: the scanner reads it from the source as a string.
    const root = `scanContract${++fresh}`;
    const source = reentrantSource(`<${root}><a>1</a></${root}>`, nested);
    expect(() => scanDocument(source, OPTIONS)).toThrow(
      /a document is being scanned already: the scanner is single-threaded/,
    );
    expect(readXml('<outer><a>1</a></outer>').text(1)).toBe('1');
  });

  it('scans again after a document it refused', () => {
    expect(() => readXml('<a>')).toThrow(/not closed/);
    expect(readXml('<a>2</a>').text(0)).toBe('2');
  });
});

// Small documents' element tables are views carved from shared pools (src/runtime/xml/slots.ts):
// every document must keep its own, however many are alive and whatever their sizes.
describe('element tables of documents alive together', () => {
  it('keep each document its own elements and attributes', () => {
    const docs = Array.from({ length: 400 }, (_, i) => {
      const children = '<c k="v">x</c>'.repeat(i % 40); // some outgrow the pooled size
      return { i, doc: readXml(`<r n="${i}"><v>${i}</v>${children}<w a="${i}"/></r>`) };
    });
    for (const { i, doc } of docs) {
      const v = doc.firstChild(0);
      expect(doc.text(v)).toBe(String(i));
      expect(doc.attributes(0).n).toBe(String(i));
      expect(doc.attributes(doc.count - 1).a).toBe(String(i));
      expect(doc.name(doc.count - 1)).toBe('w');
      expect(doc.count).toBe(3 + (i % 40));
    }
  });
});
