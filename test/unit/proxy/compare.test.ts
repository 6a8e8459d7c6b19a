// Two answers compared value by value, each difference at its path; the namespace and host of
// the address a service was called at are not differences. Then which differences the replay's
// rules ignore: timestamps, generated ids (and values holding them), paths.
import { describe, expect, it } from 'vitest';
import { compareAnswers, type ValueDifference } from '../../../src/proxy/compare.js';
import { ignoredAs } from '../../../src/proxy/ignore.js';

const NS_A = 'https://a:1/API/1_0/SOAP/';
const NS_B = 'https://b:2/API/1_0/SOAP/';
const soap = (ns: string, inner: string) =>
  `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><R xmlns="${ns}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">${inner}</R></s:Body></s:Envelope>`;
const XML = 'text/xml; charset=utf-8';
const rebase = { from: [NS_A, 'a:1'], to: [NS_B, 'b:2'] };

const cases: {
  name: string;
  recorded: [number, string, string];
  replayed: [number, string, string];
  want: ValueDifference[];
}[] = [
  {
    name: 'the same values in another namespace and host',
    recorded: [200, XML, soap(NS_A, '<Url>https://a:1/x</Url><L><I>1</I><I>2</I></L>')],
    replayed: [200, XML, soap(NS_B, '<Url>https://b:2/x</Url><L><I>1</I><I>2</I></L>')],
    want: [],
  },
  {
    name: 'a value, a list item, a nil',
    recorded: [200, XML, soap(NS_A, '<T>a</T><L><I>1</I><I>2</I></L><N xsi:nil="true"/>')],
    replayed: [200, XML, soap(NS_B, '<T>b</T><L><I>1</I><I>3</I></L><N>0</N>')],
    want: [
      { path: 'R/T', recorded: 'a', replayed: 'b' },
      { path: 'R/L/I[1]', recorded: '2', replayed: '3' },
      {
        path: 'R/N/@{http://www.w3.org/2001/XMLSchema-instance}nil',
        recorded: 'true',
        replayed: '(none)',
      },
      { path: 'R/N', recorded: '', replayed: '0' },
    ],
  },
  {
    name: 'an element on one side only',
    recorded: [200, XML, soap(NS_A, '<T>a</T>')],
    replayed: [200, XML, soap(NS_B, '<T>a</T><U>u</U>')],
    want: [{ path: 'R/U', recorded: '(absent)', replayed: '(present)' }],
  },
  {
    name: 'status, content type and a text body',
    recorded: [404, 'text/plain; charset=utf-8', 'NotFound: no booking 1\n'],
    replayed: [403, 'text/plain', 'AuthenticationFailed: no\n'],
    want: [
      { path: '(status)', recorded: '404', replayed: '403' },
      { path: '(content type)', recorded: 'text/plain; charset=utf-8', replayed: 'text/plain' },
      {
        path: '(body)',
        recorded: 'NotFound: no booking 1\n',
        replayed: 'AuthenticationFailed: no\n',
      },
    ],
  },
];

describe('compareAnswers', () => {
  it.each(cases)('$name', ({ recorded, replayed, want }) => {
    const [s1, t1, b1] = recorded;
    const [s2, t2, b2] = replayed;
    expect(
      compareAnswers(
        { status: s1, type: t1, body: b1 },
        { status: s2, type: t2, body: b2 },
        rebase,
      ),
    ).toEqual(want);
  });
});

const d = (path: string, recorded: string, replayed: string): ValueDifference => ({
  path,
  recorded,
  replayed,
});
const rules: {
  name: string;
  given: ValueDifference;
  rules: Parameters<typeof ignoredAs>[1];
  ids?: Map<string, string>;
  want: string | undefined;
}[] = [
  {
    name: 'two dateTimes',
    given: d('R/CreatedDate', '2026-01-01T10:00:00', '2026-01-02T11:00:00.5Z'),
    rules: { timestamps: true },
    want: 'timestamps',
  },
  {
    name: 'a dateTime and text',
    given: d('R/CreatedDate', '2026-01-01T10:00:00', 'later'),
    rules: { timestamps: true },
    want: undefined,
  },
  {
    name: 'timestamps not asked for',
    given: d('R/CreatedDate', '2026-01-01T10:00:00', '2026-01-02T10:00:00'),
    rules: {},
    want: undefined,
  },
  { name: 'an id', given: d('R/BookingId', '31', '33'), rules: { ids: true }, want: 'ids' },
  {
    name: 'a reference in a list',
    given: d('R/A[2]/AttendeeReference', 'x', 'y'),
    rules: { ids: true },
    want: 'ids',
  },
  {
    name: 'a value holding a learnt id',
    given: d('R/InvoiceUrl', 'https://h/i/BK-31', 'https://h/i/BK-33'),
    rules: { ids: true },
    ids: new Map([['BK-31', 'BK-33']]),
    want: 'ids',
  },
  {
    name: 'a value holding no learnt id',
    given: d('R/InvoiceUrl', 'https://h/i/BK-31', 'https://h/j/BK-33'),
    rules: { ids: true },
    ids: new Map([['BK-31', 'BK-33']]),
    want: undefined,
  },
  {
    name: 'an element name anywhere',
    given: d('R/A[0]/Email', 'a', 'b'),
    rules: { paths: ['Email'] },
    want: 'paths',
  },
  {
    name: 'a path with * and **',
    given: d('R/Attendees/A[3]/Email', 'a', 'b'),
    rules: { paths: ['**/Attendees/*/Email'] },
    want: 'paths',
  },
  {
    name: 'a path that does not match',
    given: d('R/Attendees/A[3]/Email', 'a', 'b'),
    rules: { paths: ['R/Email'] },
    want: undefined,
  },
];

describe('ignoredAs', () => {
  it.each(rules)('$name', ({ given, rules: r, ids, want }) =>
    expect(ignoredAs(given, r, ids)).toBe(want),
  );
});
