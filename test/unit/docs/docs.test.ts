// The docs as a product: the README stays a front door whose CLI table is the CLI's; every
// relative link resolves inside the repository and none leaves it; the value-representation table
// is kept once; tarball names match the packages' versions and no page offers installing a
// package by its folder; and no page quotes a figure the latest `npm run bench` table
// (docs/performance.md, between its markers) does not hold.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProgram } from '../../../src/cli/program.js';
import { regionOf } from '../../../src/bench/results-page.js';
import { PROJECT_ROOT } from '../../support/ir.js';

const read = (path: string) => readFileSync(join(PROJECT_ROOT, path), 'utf8');

/** Markdown files of the project (not of installed packages, builds or generated output). */
function markdownFiles(dir = ''): string[] {
  return readdirSync(join(PROJECT_ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory())
      return ['node_modules', 'dist', '.git', '.build', 'data', 'test'].includes(e.name) ||
        e.name.startsWith('.')
        ? []
        : markdownFiles(path);
    return e.name.endsWith('.md') ? [path] : [];
  });
}
/** The pages a reader of the repository reads: README, CONTRIBUTING and docs/. */
const DOCS = markdownFiles().filter(
  (p) => p === 'README.md' || p === 'CONTRIBUTING.md' || p.startsWith('docs/'),
);

describe('README.md', () => {
  const readme = read('README.md');

  it('is a front door: at most 250 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
  });

  it("lists exactly the CLI's commands in its table", () => {
    const leaves = (c: ReturnType<typeof createProgram>, prefix: string): string[] =>
      c.commands.flatMap((s) =>
        s.commands.length ? leaves(s, `${prefix} ${s.name()}`) : [`${prefix} ${s.name()}`],
      );
    const listed = [...readme.matchAll(/^\| `(evgen [a-z ]+)` \|/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual(leaves(createProgram(), 'evgen').sort());
  });

  it('states how long npm test takes', () => {
    expect(readme).toMatch(/npm test[\s\S]{0,600}takes\s+about \d+ minutes/);
  });
});

/** Links of a markdown text: [text](target) and <a href>, without the fenced code. */
function links(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)|href="([^"]+)"/g)].map((m) => (m[1] ?? m[2])!);
}

describe('links in the docs', () => {
  it.each(DOCS)('%s: every relative link names a file in the repository', (page) => {
    const broken = links(read(page))
      .filter((l) => !/^[a-z]+:/.test(l) && !l.startsWith('#'))
      .filter((l) => {
        const target = resolve(PROJECT_ROOT, dirname(page), decodeURI(l.split('#')[0]!));
        if (relative(PROJECT_ROOT, target).startsWith('..')) return true;
        try {
          statSync(target);
          return false;
        } catch {
          return true;
        }
      });
    expect(broken).toEqual([]);
  });

  it.each(DOCS)('%s: names no path outside the repository', (page) => {
    expect(read(page)).not.toMatch(/\.\.\/shared\b|\/work\/|file:\/\//);
  });
});

describe('facts kept once', () => {
  it('the value-representation table is in docs/reference/value-representation.md only', () => {
    const holders = markdownFiles().filter((p) => /^\| spec type \| TypeScript \|/m.test(read(p)));
    expect(holders).toEqual(['docs/reference/value-representation.md']);
  });

  const version = (dir: string) =>
    (JSON.parse(read(`${dir}/package.json`)) as { version: string }).version;
  const VERSIONS = {
    'evgen-runtime': version('src/runtime'),
    'evgen-event-management': version('generated'),
  };
  const cases: { given: string; want: string[] }[] = [
    {
      given: 'npm install /path/to/evgen-event-management-0.0.1.tgz',
      want: ['evgen-event-management-0.0.1.tgz'],
    },
    { given: `evgen-runtime-${VERSIONS['evgen-runtime']}.tgz, evgen-*.tgz`, want: [] },
  ];
  it.each(cases)('a tarball of another version is stale: $given', ({ given, want }) => {
    expect(staleTarballs(given, VERSIONS)).toEqual(want);
  });
  it.each(DOCS)('%s names no tarball but those npm pack makes of the current versions', (page) => {
    expect(staleTarballs(read(page), VERSIONS)).toEqual([]);
  });
});

/** Tarball names of our packages whose version is not the package's current one. */
function staleTarballs(text: string, versions: Record<string, string>): string[] {
  return [...text.matchAll(/(evgen-runtime|evgen-event-management)-(\d+\.\d+\.\d+)\.tgz/g)]
    .filter((m) => versions[m[1]!] !== m[2])
    .map((m) => m[0]);
}

/** Figures with a unit of measurement, as the bench writes them: `7455 req/s`, `3.38x`, `22.4 ms`. */
const FIGURE =
  /(?<![\w.,-])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?:[–-]\d+(?:\.\d+)?)? ?(req\/s|calls\/s|pages\/s|MB\/s|µs|ms|MB|GB|x)(?![\w/])/g;

/** Figures of `text` that `table` does not hold (thousands separators ignored). */
function unbackedFigures(text: string, table: string): string[] {
  const norm = (s: string) => s.replace(/,(?=\d{3})/g, '');
  const held = new Set([...norm(table).matchAll(FIGURE)].map((m) => `${m[1]}${m[2]}`));
  return [...text.matchAll(FIGURE)]
    .filter((m) => !held.has(`${norm(m[1]!)}${m[2]}`))
    .map((m) => m[0]);
}

describe('figures in the docs', () => {
  const TABLE =
    '| GetEventDetails7: stub vs node-soap | 32448 req/s p99 3.90 ms | 9428 req/s | 3.38x (target 3x) |';
  const cases: { given: string; want: string[] }[] = [
    { given: 'The stub serves 32,448 req/s, 3.38x node-soap.', want: [] },
    { given: 'The stub does 8,125 req/s (3.18x).', want: ['8,125 req/s', '3.18x'] },
    { given: 'Hence the missed 60 ms, at 3.90 ms p99.', want: ['60 ms'] },
    { given: 'a 1 MiB body limit, ±300 s, 512 connections, 32 bytes', want: [] },
  ];
  it.each(cases)('$given', ({ given, want }) => {
    expect(unbackedFigures(given, TABLE)).toEqual(want);
  });

  const performance = read('docs/performance.md');
  const region = regionOf(performance);
  it('docs/performance.md holds the table npm run bench writes', () => {
    expect(region).toBeDefined();
  });

  it.each(DOCS)('%s quotes no figure the bench table does not hold', (page) => {
    const text = read(page);
    const outside = page === 'docs/performance.md' ? text.replace(region ?? '', '') : text;
    expect(unbackedFigures(outside, region ?? '')).toEqual([]);
  });
});

// Installing a package by its folder (`npm install ../evgen/generated`) needs its dist/, which only
// `npm pack` (prepack) builds: the docs offer the packed tarballs instead, and never the folders.
describe('install lines', () => {
  const cases: { given: string; want: string[] }[] = [
    { given: 'npm install ../evgen/generated', want: ['npm install ../evgen/generated'] },
    { given: 'npm i /work/evgen/src/runtime', want: ['npm i /work/evgen/src/runtime'] },
    {
      given: '"@evgen/event-management": "file:../evgen/generated"',
      want: ['file:../evgen/generated'],
    },
    { given: 'npm install /tmp/evgen-packages/evgen-*.tgz', want: [] },
    { given: 'npm install @evgen/event-management', want: [] },
    { given: 'npm install && npm start', want: [] },
  ];
  it.each(cases)('a folder install is found: $given', ({ given, want }) => {
    expect(folderInstalls(given)).toEqual(want);
  });
  it.each([...DOCS, 'generated/README.md'])('%s offers no install of a package folder', (page) => {
    expect(folderInstalls(read(page))).toEqual([]);
  });
});

/** Install commands or dependencies that name one of our packages by its folder. */
function folderInstalls(text: string): string[] {
  const commands = [...text.matchAll(/\bnpm (?:install|i|add)\b[^\n&|;]*/g)]
    .map((m) => m[0].trim())
    .filter((c) => /(^|[\s/])(generated|src\/runtime)\/?(\s|$)/.test(c));
  const deps = [...text.matchAll(/file:[^\s"'`]*(?:generated|runtime)\b/g)].map((m) => m[0]);
  return [...commands, ...deps];
}
