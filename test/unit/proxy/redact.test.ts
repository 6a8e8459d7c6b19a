// What a cassette never holds: the Signature wherever it is written (an element with any prefix,
// a header, a query or form parameter, its value anywhere else, URL-encoded or escaped) and the
// secrets the proxy knows; short values are not looked for (they would blank out ordinary text).
import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from '../../../src/proxy/redact.js';

const SIG = 'q1w2+e3r4/t5y6u7i8o9p0a=';
const SECRET = 'my-secret<&>key';
const r = new Redactor('Signature', [SIG, SECRET, 'ab']);

const texts: { name: string; given: string; want: string }[] = [
  {
    name: 'the element, with a prefix and attributes',
    given: '<a:Signature x="1">anything</a:Signature>',
    want: `<a:Signature x="1">${REDACTED}</a:Signature>`,
  },
  {
    name: 'a query parameter',
    given: '/x/Op?bookingId=1&Signature=abc%2B&y=2',
    want: `/x/Op?bookingId=1&Signature=${REDACTED}&y=2`,
  },
  {
    name: 'a form body starting with it',
    given: 'signature=abc&a=b',
    want: `signature=${REDACTED}&a=b`,
  },
  {
    name: 'its value in a fault text',
    given: `wrong signature ${SIG}!`,
    want: `wrong signature ${REDACTED}!`,
  },
  { name: 'its value URL-encoded', given: `v=${encodeURIComponent(SIG)}`, want: `v=${REDACTED}` },
  {
    name: 'its value URL-encoded in lower case',
    given: `v=${encodeURIComponent(SIG).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())}`,
    want: `v=${REDACTED}`,
  },
  {
    name: 'a secret XML-escaped',
    given: '<x>my-secret&lt;&amp;&gt;key</x>',
    want: `<x>${REDACTED}</x>`,
  },
  { name: 'a short value left alone', given: 'about ab', want: 'about ab' },
];

describe('Redactor', () => {
  it.each(texts)('text: $name', ({ given, want }) => expect(r.text(given)).toBe(want));

  it('headers: the Signature and other credentials, whatever their case', () => {
    expect(
      r.headers([
        ['signature', 'x'],
        ['Authorization', 'Basic abc'],
        ['Cookie', 'a=b'],
        ['SOAPAction', `"${SIG}"`],
        ['APIKey', 'ak_1'],
      ]),
    ).toEqual([
      ['signature', REDACTED],
      ['Authorization', REDACTED],
      ['Cookie', REDACTED],
      ['SOAPAction', `"${REDACTED}"`],
      ['APIKey', 'ak_1'],
    ]);
  });
});
