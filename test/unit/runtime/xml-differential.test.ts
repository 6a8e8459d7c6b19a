// The runtime's scanner held to saxes, a conformant XML parser: on generated documents, valid and
// broken in the ways SOAP peers and attackers break them, both refuse the same documents (with the
// same error code) and read the others into the same tree.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { XmlParseError, type XmlElement } from '@evgen/runtime';
import { parseXml } from '@evgen/runtime/internal';
import { parseWithSaxes } from '../../support/saxes-oracle.js';

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

// Mostly what is allowed, now and then what is not: each choice below is one in about twenty.
const mostly = <T>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 19, arbitrary: good }, { weight: 1, arbitrary: bad });

const local = fc.constantFrom(
  'a',
  'b',
  'Op',
  'x1',
  '_u',
  'é',
  'a.b-c',
  'n·x',
  '𐀀z',
  'nil',
  'xmlns2',
);
const prefix = mostly(
  fc.constantFrom('', '', '', '', 'p', 'q', 'xsi', 'xml'),
  fc.constantFrom('xmlns', 'nope'),
);
const badName = fc.constantFrom('1a', '-a', '.a', '\u0300a', 'a:b:c', ':a', 'a:', 'a\u0001', '');
const qname = mostly(
  fc.tuple(prefix, local).map(([p, n]) => (p ? `${p}:${n}` : n)),
  badName,
);

const goodPiece = fc.constantFrom(
  'x',
  'text',
  ' ',
  '\n',
  '\r\n',
  '\r',
  '\t',
  'é',
  '€',
  '😀',
  '"',
  "'",
  '>',
  ']',
  ']]',
  '&amp;',
  '&lt;',
  '&gt;',
  '&quot;',
  '&apos;',
  '&#233;',
  '&#x20AC;',
  '&#xD;',
  '&#9;',
  '&#x1F600;',
  '&#0000000000000000009;',
  '&#x000000000000020AC;',
  '\u0085',
  '\u2028',
);
const badPiece = fc.constantFrom(
  ']]>',
  '&#0;',
  '&#xFFFE;',
  '&#x110000;',
  '&#xD800;',
  '&#00000000000000000000;',
  '&#x000000000000110000;',
  '&#99999999999999999999;',
  '&#12a;',
  '&nope;',
  '& ',
  '&#;',
  '&#x;',
  '&amp',
  '\u0001',
  '\u000B',
  '\uFFFE',
  '\uFFFF',
);
const charData = fc.array(mostly(goodPiece, badPiece), { maxLength: 4 }).map((p) => p.join(''));
const markup = mostly(
  fc.constantFrom(
    '<![CDATA[c<&>]]>',
    '<![CDATA[]]]]>',
    '<![CDATA[\r\nx]]>',
    '<!-- c -->',
    '<!---->',
    '<e xmlns:s="urn:s" xmlns:t="urn:s" s:a="1" t:b="2"/>',
  ),
  // The last: one attribute named twice through two prefixes of one namespace.
  fc.constantFrom(
    '<!-- a--b -->',
    '<!--->',
    '<?pi x?>',
    '<!DOCTYPE a>',
    '</>',
    '<>',
    '<a',
    '&',
    '<e xmlns:s="urn:s" xmlns:t="urn:s" s:a="1" t:a="2"/>',
  ),
);

const attrName = fc.oneof(
  { weight: 6, arbitrary: qname },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'xmlns',
      'xmlns:p',
      'xmlns:q',
      'xsi:nil',
      'nil',
      'xmlns:xml',
      'xmlns:xmlns',
      'xml:lang',
    ),
  },
);
const attrValue = fc.oneof(
  { weight: 4, arbitrary: charData },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'urn:p',
      'urn:q',
      '',
      'true',
      '1',
      ' urn:p ',
      XSI,
      'http://www.w3.org/XML/1998/namespace',
      '<',
    ),
  },
);
const attribute = fc
  .tuple(
    attrName,
    attrValue,
    fc.constantFrom('"', "'"),
    mostly(fc.constantFrom(' ', '\n', '\t'), fc.constant('')),
    mostly(fc.constantFrom('=', ' = '), fc.constant('')),
  )
  .map(
    ([n, v, q, space, eq]) =>
      `${space}${n}${eq}${q}${v.replaceAll(q, q === '"' ? '&quot;' : '&apos;')}${q}`,
  );

const declarations = ` xmlns:p="urn:p" xmlns:q="urn:q" xmlns:xsi="${XSI}"`;

const { element } = fc.letrec<{ element: string; content: string }>((tie) => ({
  element: fc
    .tuple(
      qname,
      fc.array(attribute, { maxLength: 3 }),
      fc.boolean(),
      tie('content'),
      fc.nat(40),
      qname,
      fc.constantFrom('', ' ', '\n'),
    )
    .map(([name, attrs, empty, content, mismatch, other, trailing]) =>
      empty
        ? `<${name}${attrs.join('')}${trailing}/>`
        : `<${name}${attrs.join('')}${trailing}>${content}</${mismatch === 0 ? other : name}${trailing}>`,
    ),
  content: fc
    .array(
      fc.oneof(
        { weight: 4, arbitrary: charData },
        { weight: 3, arbitrary: tie('element') },
        { weight: 1, arbitrary: markup },
      ),
      { maxLength: 4 },
    )
    .map((parts) => parts.join('')),
}));

const document = fc
  .tuple(
    mostly(
      fc.constantFrom(
        '',
        '',
        '<?xml version="1.0" encoding="utf-8"?>',
        '<?xml version="1.0" encoding="UTF-8"?>',
        "<?xml version='1.0' encoding='utf-8'?>",
        '<?xml version="1.0" encoding="utf-8" ?>',
        "<?xml version='1.0'?>",
        '<?xml version="1.0" standalone="yes"?>',
        '<?xml\tversion = "1.0"\r\n?>',
        '\uFEFF',
      ),
      fc.constantFrom(
        '<?xml version="1.0" encoding="ISO-8859-1"?>',
        ' <?xml version="1.0"?>',
        '<?xml version="2.0"?>',
        '<?xml version="1.0"\u00A0?>',
        '<?xml version="1.0" standalone="maybe"?>',
        '<?xml version="1.0" encoding="utf-8"?',
        '<?xml version="1.0" encoding="utf-8"?>\uFEFF',
      ),
    ),
    mostly(
      fc.constantFrom('', '\n', '<!-- before -->'),
      fc.constantFrom('<?pi?>', 'x', '<!DOCTYPE r>'),
    ),
    fc.nat(4).map((n) => n > 0),
    element,
    mostly(
      fc.constantFrom('', '\n', '<!-- after -->', ' \r\n'),
      fc.constantFrom('<b/>', 'x', '<?pi?>'),
    ),
  )
  .map(
    ([decl, before, declare, root, after]) =>
      `${decl}${before}${declare ? root.replace(/^(<[^\s/>]*)/, `$1${declarations}`) : root}${after}`,
  );

type Outcome = { tree: XmlElement } | { refused: string };
function outcome(read: () => XmlElement): Outcome {
  try {
    return { tree: read() };
  } catch (e) {
    if (e instanceof XmlParseError) return { refused: e.code };
    throw e;
  }
}

// Where we are stricter than saxes, by the letter of Namespaces in XML 1.0 §3: no prefix other than
// xml may be bound to the XML namespace.
const stricter = (xml: string) =>
  /xmlns:(?!xml=)[^=\s]*\s*=\s*["']\s*http:\/\/www\.w3\.org\/XML\/1998\/namespace/.test(xml);

/** The tree as plain data (attribute maps have null prototypes). */
const plain = (o: Outcome): unknown => JSON.parse(JSON.stringify(o));

describe('the scanner agrees with saxes', () => {
  it('on generated documents, as strings', () => {
    fc.assert(
      fc.property(document, (xml) => {
        fc.pre(!stricter(xml));
        expect(plain(outcome(() => parseXml(xml)))).toEqual(
          plain(outcome(() => parseWithSaxes(xml))),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('on generated documents, as UTF-8 bytes (declared encodings are checked)', () => {
    fc.assert(
      fc.property(document, (xml) => {
        fc.pre(!stricter(xml));
        const bytes = new TextEncoder().encode(xml);
        expect(plain(outcome(() => parseXml(bytes)))).toEqual(
          plain(outcome(() => parseWithSaxes(bytes))),
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('on real SOAP messages with random edits (inserted, deleted and repeated bytes)', () => {
    const messages = [
      `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="${XSI}"><soap:Header><AuthenticationHeader xmlns="urn:svc"><Timestamp>2026-01-02T03:04:05.678Z</Timestamp><Operation>GetBooking</Operation><Signature>q+/=</Signature><APIKey>k</APIKey></AuthenticationHeader></soap:Header><soap:Body><GetBooking xmlns="urn:svc"><bookingId>42</bookingId></GetBooking></soap:Body></soap:Envelope>`,
      `<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://www.w3.org/2003/05/soap-envelope">\r\n <SOAP-ENV:Body>\n  <ns1:R xmlns:ns1="urn:svc"><ns1:B i:nil='true' xmlns:i="${XSI}"/><ns1:T>a &amp; b<![CDATA[<x>]]><!-- c --></ns1:T></ns1:R></SOAP-ENV:Body></SOAP-ENV:Envelope>`,
    ];
    const edit = fc.tuple(
      fc.nat(),
      fc.nat(12),
      fc.constantFrom(
        '',
        '<',
        '>',
        '/',
        '"',
        "'",
        '=',
        ' ',
        '&',
        ':',
        'x',
        '<!--',
        '-->',
        ']]>',
        '<![CDATA[',
        '</a>',
        '<a>',
        '&#',
        ';',
        '\u0000',
        'é',
      ),
      fc.constantFrom('insert', 'delete', 'repeat'),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...messages),
        fc.array(edit, { minLength: 1, maxLength: 3 }),
        (message, edits) => {
          let xml = message;
          for (const [at, length, text, how] of edits) {
            const i = at % (xml.length + 1);
            xml =
              how === 'insert'
                ? xml.slice(0, i) + text + xml.slice(i)
                : how === 'delete'
                  ? xml.slice(0, i) + xml.slice(i + length)
                  : xml.slice(0, i + length) + xml.slice(i, i + length) + xml.slice(i + length);
          }
          expect(plain(outcome(() => parseXml(xml)))).toEqual(
            plain(outcome(() => parseWithSaxes(xml))),
          );
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('reads a good share of the generated documents (the comparison is not only of refusals)', () => {
    const samples = fc.sample(document, { numRuns: 1000, seed: 7 });
    const read = samples.filter((xml) => 'tree' in outcome(() => parseWithSaxes(xml))).length;
    expect(read).toBeGreaterThan(300);
  });
});
