// The version gate and the last release, in a temporary git repository whose history releases
// 1.0.0 and 1.1.0 and has 1.2.0 in progress: every way a CHANGELOG.md edit once let a version
// understate the diff is refused, with the changes counted, the version needed and the heading to
// write; `evgen diff` proposes from the same release the gate checks against.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEvgen } from '../../support/evgen.js';
import type { SpecEdit } from '../../support/spec-copy.js';
import { specRepo, type SpecRepo } from '../../support/spec-repo.js';

let history: SpecRepo;
let repo: string;
let spec: string;
/** Commits: 1.0.0 released, 1.1.0 released (an optional field), 1.2.0 started. */
const at: Record<'v100' | 'v110' | 'v120', string> = { v100: '', v110: '', v120: '' };

const git = (...args: string[]) => history.git(...args);
const commit = (message: string) => history.commit(message);
const apply = (edits: readonly SpecEdit[]) => history.edit(...edits);
/** A new first heading (and section) above the one in progress, as a maintainer starts one. */
const heading = (version: string, section = ''): SpecEdit => ({
  file: 'CHANGELOG.md',
  from: '## 1.2.0\n',
  to: `## ${version}\n\n${section}- What changed.\n\n## 1.2.0\n`,
});
const RENAME: SpecEdit = {
  file: 'types/booking.yaml',
  from: '{ name: CreatedDate, type: dateTime }',
  to: '{ name: DateCreated, type: dateTime }',
};
/** Breaking for TypeScript code only: the wire name stays. */
const TS_RENAME: SpecEdit = {
  ...RENAME,
  to: '{ name: DateCreated, xmlName: CreatedDate, type: dateTime }',
};
const DROP_TYPESCRIPT: SpecEdit = {
  file: 'service.yaml',
  from: 'audiences: [wire-lax, typescript]',
  to: 'audiences: [wire-lax]',
};
const SECURE_KEY = '      - { name: SecureKey, type: string }';
const optionalField = (name: string): SpecEdit => ({
  file: 'types/booking.yaml',
  from: SECURE_KEY,
  to: `${SECURE_KEY}\n      - { name: ${name}, type: string, optional: true }`,
});

beforeAll(async () => {
  history = await specRepo('gate');
  ({ dir: repo, spec } = history);
  at.v100 = await commit('1.0.0');
  // Sections name their base the way the old gate read them: none of it may lower the bar.
  await apply([
    optionalField('Channel'),
    {
      file: 'CHANGELOG.md',
      from: '## 1.0.0\n',
      to: `## 1.1.0\n\nBase: 1.0.0 at ${at.v100}\n\n- Channel.\n\n## 1.0.0\n`,
    },
  ]);
  at.v110 = await commit('1.1.0: BookingDetails.Channel');
  await apply([
    {
      file: 'CHANGELOG.md',
      from: '## 1.1.0\n',
      to: `## 1.2.0\n\nBase: 1.1.0 at ${at.v110}\n\n## 1.1.0\n`,
    },
  ]);
  at.v120 = await commit('start 1.2.0');
});
afterAll(() => history.remove());

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const reset = async () => {
  await git('reset', '-q', '--hard', at.v120);
  await git('clean', '-qfd');
  for (const t of (await git('tag', '--list')).split('\n').filter(Boolean))
    await git('tag', '-d', t);
};
/** Marks a commit published, as a maintainer does after npm publish. */
const tag = (version: string, commit: string) =>
  git('tag', `@evgen/event-management@${version}`, commit);
const gate = () => runEvgen(['diff', '--head', spec, '--fail-on', 'none', '--check-version'], repo);

interface Bypass {
  readonly given: string;
  /** Release tags set first: version → the commit published. */
  readonly tags?: Readonly<Record<string, keyof typeof at>>;
  /** Committed in order before the working tree's edits. */
  readonly commits?: readonly (readonly SpecEdit[])[];
  readonly edits?: (head: string) => readonly SpecEdit[];
  /** The release the refusal names (the last one, or an older one needing more), the version it
   * needs, the heading it replaces. */
  readonly against: {
    readonly version: string;
    readonly at: keyof typeof at;
    readonly last: boolean;
  };
  readonly need: string;
  readonly written: string;
}

const BYPASSES: readonly Bypass[] = [
  {
    given: 'a new heading without Base, with a breaking rename',
    edits: () => [RENAME, heading('1.3.0')],
    against: { version: '1.1.0', at: 'v110', last: true },
    need: '2.0.0',
    written: '1.3.0',
  },
  {
    given: 'the same, committed (what CI sees on a fresh clone)',
    commits: [[RENAME, heading('1.3.0')]],
    against: { version: '1.2.0', at: 'v120', last: true },
    need: '2.0.0',
    written: '1.3.0',
  },
  {
    given: 'a Base naming a later commit that holds the change',
    commits: [[RENAME]],
    edits: (head) => [heading('1.3.0', `Base: 1.2.0 at ${head}\n\n`)],
    against: { version: '1.1.0', at: 'v110', last: true },
    need: '2.0.0',
    written: '1.3.0',
  },
  {
    given: 'a deleted section: 1.1.0 again, whose Base is 1.0.0',
    edits: () => [
      optionalField('Region'),
      { file: 'CHANGELOG.md', from: `## 1.2.0\n\nBase: 1.1.0 at ${at.v110}\n\n`, to: '' },
    ],
    against: { version: '1.1.0', at: 'v110', last: true },
    need: '1.2.0',
    written: '1.1.0',
  },
  {
    given: 'a breaking change in an earlier commit, then a new minor heading',
    commits: [[RENAME], [heading('1.3.0')]],
    against: { version: '1.1.0', at: 'v110', last: false },
    need: '2.0.0',
    written: '1.3.0',
  },
  {
    given: 'a published version still written to: its tag makes it a release',
    tags: { '1.2.0': 'v120' },
    edits: () => [optionalField('Region')],
    against: { version: '1.2.0', at: 'v120', last: true },
    need: '1.3.0',
    written: '1.2.0',
  },
  {
    given: 'the audience a change breaks dropped from the kept ones in the same edit',
    edits: () => [TS_RENAME, DROP_TYPESCRIPT, heading('1.3.0')],
    against: { version: '1.1.0', at: 'v110', last: true },
    need: '2.0.0',
    written: '1.3.0',
  },
];

describe('the version gate refuses every edit that would understate the diff', () => {
  for (const b of BYPASSES)
    it(b.given, async () => {
      await reset();
      for (const [version, commit] of Object.entries(b.tags ?? {})) await tag(version, at[commit]);
      for (const edits of b.commits ?? []) {
        await apply(edits);
        await commit(b.given);
      }
      await apply(b.edits?.(await git('rev-parse', '--short', 'HEAD')) ?? []);
      const r = await gate();
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `write "## ${b.need}" as the first heading of spec/CHANGELOG.md, in place of "## ${b.written}"`,
      );
      // The refusal names the release, the changes it counts and the version they need.
      const release = `${b.against.last ? 'the last release' : 'the release'}, ${b.against.version} (${at[b.against.at]})`;
      const counted = new RegExp(
        `understates the diff against ${esc(release)}: (\\d+) change\\(s\\) need a (major|minor) version, at least ${esc(b.need)}:`,
      ).exec(r.stderr);
      expect(counted, r.stderr).not.toBeNull();
      const listed = r.stderr.split('\n').filter((l) => /^ {2}(BREAKING|DANGEROUS|SAFE) /.test(l));
      expect(listed).toHaveLength(Number(counted![1]));
      // `evgen diff` compares with the same release and proposes the same version.
      expect(r.stdout).toContain(
        `next package version ${b.need} (${counted![2]}, from ${b.against.last ? 'the last release' : 'the release'} ${b.against.version} at ${at[b.against.at]}`,
      );
      expect(r.stdout.split('\n').filter((l) => /^(BREAKING|DANGEROUS|SAFE) /.test(l))).toEqual(
        listed.map((l) => l.slice(2)),
      );
      const g = await runEvgen(
        ['generate', '--spec', spec, '--out', join(repo, 'out'), '--no-typecheck'],
        repo,
      );
      expect(g.code).toBe(1);
      expect(g.stderr).toContain('nothing written (or pass --allow-breaking)');
    });

  it('skips a release whose spec this evgen cannot read, with a warning, and holds the others', async () => {
    await reset();
    await apply([
      RENAME,
      heading('1.3.0'),
      {
        file: 'types/broken.yaml',
        from: '',
        to: 'types: [{ name: X, doc: x, section: x, fields: [{ name: A, type: Nope }] }]\n',
      },
    ]);
    const unreadable = await commit('1.3.0 with a spec that does not load');
    await rm(join(spec, 'types/broken.yaml'));
    await apply([{ ...heading('1.4.0'), from: '## 1.3.0\n', to: '## 1.4.0\n\n## 1.3.0\n' }]);
    await commit('start 1.4.0: 1.3.0 is released');
    const r = await gate();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `warning: no commit of release 1.3.0 (${unreadable}) has a spec this evgen can read: the version is not checked against it`,
    );
    expect(r.stderr).toContain(
      `package version 1.4.0 understates the diff against the release, 1.2.0 (${at.v120}): 2 change(s) need a major version, at least 2.0.0:`,
    );
    expect(r.stdout).toContain(
      `next package version 2.0.0 (major, from the release 1.2.0 at ${at.v120})`,
    );
  });

  it('a version lower than a release is refused even without changes', async () => {
    await reset();
    await apply([
      { file: 'CHANGELOG.md', from: `## 1.2.0\n\nBase: 1.1.0 at ${at.v110}\n\n`, to: '' },
    ]);
    const r = await gate();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'package version 1.1.0 is not newer than 1.1.0, which git history shows released',
    );
    expect(r.stderr).toContain('write "## 1.1.1" as the first heading');
  });
});

describe('the version gate accepts what the diff allows', () => {
  const cases = [
    { given: 'an optional field under the version in progress', edits: [optionalField('Region')] },
    {
      given: 'a breaking rename under a new major version',
      edits: [RENAME, heading('2.0.0')],
    },
    {
      given: 'an audience dropped under a new major version, with a change breaking it',
      edits: [TS_RENAME, DROP_TYPESCRIPT, heading('2.0.0')],
    },
    { given: 'no change at all', edits: [] },
  ];
  for (const c of cases)
    it(c.given, async () => {
      await reset();
      await apply(c.edits);
      const r = await gate();
      expect(r.stderr).not.toContain('understates');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(
        /package version \d+\.\d+\.\d+ satisfies the diff against the last release, 1\.1\.0/,
      );
    });

  it('a checkout of a tagged release, unchanged, is that release', async () => {
    await reset();
    await tag('1.2.0', at.v120);
    const r = await gate();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      `package version 1.2.0 satisfies the diff against the last release, 1.2.0 (${at.v120}): no change`,
    );
  });

  it('takes no tag whose commit carries another version, and says so', async () => {
    await reset();
    await tag('1.1.0', at.v100);
    await apply([optionalField('Region')]);
    const r = await gate();
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `warning: tag @evgen/event-management@1.1.0 is not taken: the CHANGELOG.md of its commit ${at.v100} heads 1.0.0`,
    );
    expect(r.stdout).toMatch(/satisfies the diff against the last release, 1\.1\.0 \(/);
  });

  it('ignores Base lines, and says so', async () => {
    await reset();
    const r = await gate();
    const line =
      (await readFile(join(spec, 'CHANGELOG.md'), 'utf8'))
        .split('\n')
        .indexOf(`Base: 1.1.0 at ${at.v110}`) + 1;
    expect(r.stderr).toContain(
      `warning: spec/CHANGELOG.md:${line}: "Base: 1.1.0 at ${at.v110}" is not read: the last release comes from git history`,
    );
  });
});
