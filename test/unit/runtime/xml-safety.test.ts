// The reader refuses what a SOAP message must not contain, fast, and cannot be made to pollute
// objects or explode in memory.
import { describe, expect, it } from 'vitest';
import { XmlParseError } from '@evgen/runtime';
import { DEFAULT_XML_LIMITS, parseXml, readXml } from '@evgen/runtime/internal';

/** For the tests of linear work over many distinct names: lifts the per-document name bound. */
const MANY_NAMES = { maxNames: Number.POSITIVE_INFINITY };

function refusal(
  input: string | Uint8Array,
  limits?: Parameters<typeof parseXml>[1],
): { code: string; message: string; ms: number } {
  const started = performance.now();
  try {
    parseXml(input, limits);
  } catch (e) {
    expect(e).toBeInstanceOf(XmlParseError);
    return {
      code: (e as XmlParseError).code,
      message: (e as Error).message,
      ms: performance.now() - started,
    };
  }
  throw new Error('document was accepted');
}

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<lolz>&lol9;</lolz>`;
const XXE = `<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><foo>&xxe;</foo>`;

describe('refusals', () => {
  const cases: {
    given: string;
    input: () => string | Uint8Array;
    limits?: Parameters<typeof parseXml>[1];
    want: { code: string; message: RegExp };
  }[] = [
    {
      given: 'billion laughs',
      input: () => BILLION_LAUGHS,
      want: { code: 'doctype', message: /DOCTYPE is not allowed/ },
    },
    {
      given: 'XXE (external entity)',
      input: () => XXE,
      want: { code: 'doctype', message: /DOCTYPE is not allowed/ },
    },
    {
      given: 'a processing instruction',
      input: () => '<?xml version="1.0"?><?evil run?><a/>',
      want: { code: 'processing-instruction', message: /<\?evil\?> is not allowed/ },
    },
    {
      given: 'too deep',
      input: () => `${'<a>'.repeat(65)}${'</a>'.repeat(65)}`,
      want: { code: 'limit', message: /nesting deeper than 64/ },
    },
    {
      given: 'too large (string)',
      input: () => `<a>${'x'.repeat(2000)}</a>`,
      limits: { maxBytes: 1000 },
      want: { code: 'limit', message: /larger than the limit of 1000 bytes/ },
    },
    {
      given: 'too large (bytes)',
      input: () => new TextEncoder().encode(`<a>${'é'.repeat(600)}</a>`),
      limits: { maxBytes: 1000 },
      want: { code: 'limit', message: /1000 bytes/ },
    },
    {
      given: 'too many elements',
      input: () => `<a>${'<b/>'.repeat(101)}</a>`,
      limits: { maxElements: 100 },
      want: { code: 'limit', message: /more than 100 elements/ },
    },
    {
      given: 'bytes that are not UTF-8',
      input: () => new Uint8Array([0x3c, 0x61, 0x3e, 0xff, 0x3c, 0x2f, 0x61, 0x3e]),
      want: { code: 'encoding', message: /not valid UTF-8/ },
    },
    {
      given: 'another declared encoding',
      input: () => new TextEncoder().encode('<?xml version="1.0" encoding="ISO-8859-1"?><a/>'),
      want: { code: 'encoding', message: /ISO-8859-1 is not supported/ },
    },
  ];
  for (const { given, input, limits, want } of cases) {
    it(`refuses ${given}, fast`, () => {
      const got = refusal(input(), limits);
      expect(got.code).toBe(want.code);
      expect(got.message).toMatch(want.message);
      expect(got.ms).toBeLessThan(1000); // an expanding parser would take far longer or run out of memory
    });
  }

  it('refuses a huge document before parsing it', () => {
    const big = `<a>${'x'.repeat(70 * 1024 * 1024)}</a>`;
    expect(refusal(big).code).toBe('limit');
  });
});

describe('malformed probes', () => {
  const probes: Record<string, string> = {
    'mismatched tag': '<a><b></a></b>',
    'unclosed tag': '<a><b></b>',
    'two roots': '<a/><b/>',
    'duplicate attribute': '<a x="1" x="2"/>',
    'undeclared prefix': '<p:a/>',
    'undefined entity': '<a>&nope;</a>',
    '< in an attribute': '<a x="<"/>',
    '&#0;': '<a>&#0;</a>',
    'text after the root': '<a/>text',
    'bad name': '<1a/>',
  };
  for (const [name, xml] of Object.entries(probes)) {
    it(`refuses ${name}`, () => {
      const got = refusal(xml);
      expect(got.code).toBe('syntax');
      expect(got.message).toMatch(/^malformed XML: \d+:\d+/);
    });
  }
});

describe('work that stays linear in the size of the document', () => {
  it('reads a start tag of 200,000 attributes (duplicates are found with a set, not pairwise)', () => {
    const attrs = Array.from({ length: 200_000 }, (_, i) => ` a${i}="${i}"`).join('');
    const d = readXml(`<r${attrs}/>`, MANY_NAMES);
    expect(d.attributes(0).a199999).toBe('199999');
    expect(() =>
      readXml(`<r xmlns:p="urn:x" xmlns:q="urn:x"${attrs} p:z="1" q:z="2"/>`, MANY_NAMES),
    ).toThrow(/duplicate attribute \{urn:x\}z/);
  });

  it('finds one attribute written with two prefixes of one namespace, among few attributes too', () => {
    expect(() => readXml('<r xmlns:p="urn:x" xmlns:q="urn:x" p:z="1" q:z="2"/>')).toThrow(
      /duplicate attribute \{urn:x\}z/,
    );
    expect(readXml('<r xmlns:p="urn:x" xmlns:q="urn:y" p:z="1" q:z="2"/>').attributes(0)).toEqual({
      '{urn:x}z': '1',
      '{urn:y}z': '2',
    });
  });

  it('resolves names in linear time under 30,000 namespace declarations', () => {
    const declarations = Array.from({ length: 30_000 }, (_, i) => ` xmlns:p${i}="urn:${i}"`).join(
      '',
    );
    const d = readXml(
      `<r${declarations}>${Array.from({ length: 30_000 }, (_, i) => `<n${i}/><p${i}:m/>`).join('')}</r>`,
      MANY_NAMES,
    );
    expect([d.count, d.ns(60_000), d.ns(59_999)]).toEqual([60_001, 'urn:29999', '']);
  });

  it('reads 100,000 distinct element names (the name cache stays bounded)', () => {
    const d = readXml(
      `<r>${Array.from({ length: 100_000 }, (_, i) => `<n${i}/>`).join('')}</r>`,
      MANY_NAMES,
    );
    expect([d.count, d.name(100_000)]).toEqual([100_001, 'n99999']);
  });

  it('refuses a document bringing more new names than maxNames, naming the limit', () => {
    const { maxNames } = DEFAULT_XML_LIMITS;
    // Names no earlier test used, so the name cache has none of them.
    const names = (n: number, tag: string) =>
      Array.from({ length: n }, (_, i) => `<${tag}${i}/>`).join('');
    expect(() => readXml(`<r>${names(maxNames + 1, 'limitA')}</r>`)).toThrow(
      `document has more than ${maxNames} distinct names (limit)`,
    );
    // The bound is per document; names met before (cached) cost nothing and do not count.
    expect(readXml(`<r>${names(maxNames - 1, 'limitB')}</r>`).count).toBe(maxNames);
    expect(readXml(`<r>${names(maxNames - 1, 'limitB')}${names(10, 'limitC')}</r>`).count).toBe(
      maxNames + 10,
    );
  });
});

describe('object safety', () => {
  it('keeps __proto__ and constructor as plain names', () => {
    const root = parseXml(
      '<__proto__ constructor="x" __proto__="y"><constructor>1</constructor><prototype/></__proto__>',
    );
    expect(root.name).toBe('__proto__');
    expect(root.children.map((c) => c.name)).toEqual(['constructor', 'prototype']);
    expect(Object.getPrototypeOf(root.attributes)).toBeNull();
    expect(root.attributes.constructor).toBe('x');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('y');
  });
});
