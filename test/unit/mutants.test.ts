// The mutation corpora (test/mutants/*.json, run by scripts/mutants.mjs) stay applicable: each
// mutation's text is in its file exactly once, its tests exist, and names are unique. A corpus
// whose texts no longer match would report its mutations as "stale" only when somebody runs it.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/ir.js';

interface Mutant {
  name: string;
  claim: string;
  file: string;
  find: string;
  replace: string;
  tests: string[];
}

const DIR = join(PROJECT_ROOT, 'test/mutants');
const corpora = readdirSync(DIR).filter((f) => f.endsWith('.json'));

describe.each(corpora)('mutation corpus %s', (corpus) => {
  const mutants = JSON.parse(readFileSync(join(DIR, corpus), 'utf8')) as Mutant[];

  it('names each mutation once and says what it breaks', () => {
    expect(mutants.length).toBeGreaterThan(0);
    expect(new Set(mutants.map((m) => m.name)).size).toBe(mutants.length);
    for (const m of mutants) expect(m.claim, m.name).not.toBe('');
  });

  it.each(mutants.map((m) => [m.name, m] as const))('%s still applies', (_, m) => {
    const source = readFileSync(join(PROJECT_ROOT, m.file), 'utf8');
    expect(source.split(m.find).length - 1, `${m.file}: occurrences`).toBe(1);
    expect(m.replace).not.toBe(m.find);
    expect(m.tests.length).toBeGreaterThan(0);
    for (const t of m.tests) expect(existsSync(join(PROJECT_ROOT, t)), t).toBe(true);
  });
});
