// What real SOAP stacks send is read the same whatever the prefixes, spacing and escaping.
import { describe, expect, it } from 'vitest';
import { XmlDecodeError, type XmlDocument } from '@evgen/runtime';
import {
  SOAP11_NS,
  SOAP12_NS,
  parseSoapEnvelope,
  parseXml,
  readComplex,
  readInt,
  readList,
  readString,
  readXml,
} from '@evgen/runtime/internal';

const NS = 'urn:svc';

describe('envelopes by namespace, never by prefix', () => {
  const cases: { given: string; xml: string; want: string }[] = [
    {
      given: 'soap:',
      xml: `<soap:Envelope xmlns:soap="${SOAP11_NS}"><soap:Body><Op xmlns="${NS}"/></soap:Body></soap:Envelope>`,
      want: '1.1',
    },
    {
      given: 'soap-env: with ns0:',
      xml: `<soap-env:Envelope xmlns:soap-env="${SOAP11_NS}"><soap-env:Body><ns0:Op xmlns:ns0="${NS}"/></soap-env:Body></soap-env:Envelope>`,
      want: '1.1',
    },
    {
      given: 'SOAP-ENV: with ns1:',
      xml: `<SOAP-ENV:Envelope xmlns:SOAP-ENV="${SOAP11_NS}"><SOAP-ENV:Header/><SOAP-ENV:Body><ns1:Op xmlns:ns1="${NS}"/></SOAP-ENV:Body></SOAP-ENV:Envelope>`,
      want: '1.1',
    },
    {
      given: 'S: with a default namespace',
      xml: `<S:Envelope xmlns:S="${SOAP12_NS}"><S:Body><Op xmlns="${NS}"/></S:Body></S:Envelope>`,
      want: '1.2',
    },
    {
      given: 'a default SOAP namespace',
      xml: `<Envelope xmlns="${SOAP12_NS}"><Body><x:Op xmlns:x="${NS}"/></Body></Envelope>`,
      want: '1.2',
    },
  ];
  for (const { given, xml, want } of cases) {
    it(`reads ${given}`, () => {
      const env = parseSoapEnvelope(xml);
      expect(env.version).toBe(want);
      expect([env.payload?.name, env.payload?.ns]).toEqual(['Op', NS]);
    });
  }

  it('rejects a non-SOAP root with a clear error', () => {
    expect(() => parseSoapEnvelope('<Envelope xmlns="urn:other"/>')).toThrow(
      'Envelope: expected a SOAP 1.1 or SOAP 1.2 Envelope, got "Envelope in namespace urn:other"',
    );
  });
});

describe('text', () => {
  const cases: { given: string; xml: string; want: string }[] = [
    { given: 'CDATA', xml: '<a><![CDATA[<b>&amp;</b>]]></a>', want: '<b>&amp;</b>' },
    { given: 'entity references', xml: '<a>&lt;&gt;&amp;&quot;&apos;</a>', want: `<>&"'` },
    { given: 'character references', xml: '<a>&#233;&#x20AC;&#xD;</a>', want: 'é€\r' },
    {
      given: 'character references with leading zeros (XML 1.0 [66] allows any number)',
      xml: `<a b="&#x00000000000000041;">&#0000000000000000009;&#x${'0'.repeat(100_000)}20AC;</a>`,
      want: '\t€',
    },
    { given: 'mixed text and CDATA', xml: '<a>x<![CDATA[y]]>z</a>', want: 'xyz' },
    { given: 'comments between text', xml: '<a>x<!-- c -->y</a>', want: 'xy' },
  ];
  for (const { given, xml, want } of cases)
    it(`reads ${given}`, () => expect(readString(readXml(xml), 0)).toBe(want));

  it('skips whitespace and comments between elements', () => {
    const d = readXml(`<r xmlns="${NS}">\n  <!-- first -->\n  <a>1</a>\n\t<a>2</a>\n</r>`);
    expect(readList(d, 0, NS, 'a', readInt)).toEqual([1, 2]);
  });

  it('reads xsi:nil under any prefix, 1 or true, and an un-namespaced nil', () => {
    const root = parseXml(
      `<r xmlns:i="http://www.w3.org/2001/XMLSchema-instance"><a i:nil="true"/><b i:nil="1"/><c nil="true"/><d i:nil="false"/></r>`,
    );
    expect(root.children.map((c) => c.nil)).toEqual([true, true, true, false]);
  });
});

describe('decode errors carry the XML path', () => {
  it('names the list items and elements down to the bad value', () => {
    const bookings = Array.from(
      { length: 4 },
      (_, i) =>
        `<BookingResponse><Attendees>${i === 3 ? '<AttendeeResponse><AttendeeId>abc</AttendeeId></AttendeeResponse>' : ''}</Attendees></BookingResponse>`,
    ).join('');
    const d = readXml(`<GetBookingsResult xmlns="${NS}">${bookings}</GetBookingsResult>`);
    const attendee = (doc: XmlDocument, el: number) => ({
      AttendeeId: readInt(doc, doc.firstChild(el)),
    });
    const booking = (doc: XmlDocument, el: number) => ({
      Attendees: readList(doc, doc.firstChild(el), NS, 'AttendeeResponse', attendee),
    });
    let error: unknown;
    try {
      readList(d, 0, NS, 'BookingResponse', booking);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(XmlDecodeError);
    expect((error as Error).message).toBe(
      'GetBookingsResult/BookingResponse[3]/Attendees/AttendeeResponse[0]/AttendeeId: expected int, got "abc"',
    );
  });

  it('indexes a bad plain-list item', () => {
    const d = readXml(`<Venues xmlns="${NS}"><int>1</int><int>x</int></Venues>`);
    expect(() =>
      readComplex(d, 0, NS, (doc, v, ns) => readList(doc, v, ns, 'int', readInt)),
    ).toThrow('Venues/int[1]: expected int, got "x"');
  });
});
