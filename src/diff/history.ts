// The release record: git history, which no edit of the working tree can change. Every commit that
// touched the spec folder is a state of the spec, and the first `## x.y.z` heading of its
// CHANGELOG.md is the package version that state carried. The version of the newest state is the
// one in progress; every other version history shows is released, as its newest commit left it:
// a version is released when a commit starts the next one. A release tag
// (`@evgen/event-management@1.2.0`, on a commit HEAD contains) says more: that version was
// published from that commit, so its spec is the release, and a version in progress that carries
// a tag is released already.
import { execFile, spawn } from 'node:child_process';
import { relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_PACKAGE } from '../generator/artifacts.js';
import { repositoryOf } from './input.js';
import { compareVersions, firstHeading } from './release.js';

/** The tag of a published release: `<package>@<version>`, as npm workspaces tools write it. */
export const releaseTag = (version: string) => `${DEFAULT_PACKAGE.name}@${version}`;

const run = promisify(execFile);

export interface ReleasedVersion {
  readonly version: string;
  /** The commits whose spec carried it, newest first (abbreviated hashes); a tag's commit alone. */
  readonly commits: readonly string[];
  /** Released by a tag: its commit is the release. */
  readonly tagged: boolean;
}

export interface ReleaseHistory {
  /** The repository, and the spec folder's path in it. */
  readonly top: string;
  readonly inRepo: string;
  /** A shallow clone: releases older than its depth are missing. */
  readonly shallow: boolean;
  /** The version of the newest state (HEAD's): in progress, not released. */
  readonly inProgress: string | undefined;
  /** Every other version history shows, and every tagged one, newest version first. */
  readonly releases: readonly ReleasedVersion[];
  /** Release tags not taken (their commit's CHANGELOG.md names another version). */
  readonly warnings: readonly string[];
}

/** Contents of `<commit>:<path>` for many commits, through one `git cat-file --batch`. */
async function readAt(top: string, specs: readonly string[]): Promise<(string | undefined)[]> {
  if (specs.length === 0) return [];
  const child = spawn('git', ['cat-file', '--batch'], { cwd: top });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((ok, fail) => {
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? ok() : fail(new Error(`git cat-file: ${code}`))));
  });
  child.stdin.end(specs.map((s) => `${s}\n`).join(''));
  await done;
  const out = Buffer.concat(chunks);
  const texts: (string | undefined)[] = [];
  let at = 0;
  for (let i = 0; i < specs.length; i++) {
    const eol = out.indexOf(0x0a, at);
    const header = out.subarray(at, eol).toString();
    const m = / blob (\d+)$/.exec(header);
    if (!m) {
      texts.push(undefined); // "<spec> missing": no CHANGELOG.md in that commit
      at = eol + 1;
      continue;
    }
    const size = Number(m[1]);
    texts.push(out.subarray(eol + 1, eol + 1 + size).toString('utf8'));
    at = eol + 1 + size + 1;
  }
  return texts;
}

/** The versions the history of `specDir` shows, or undefined outside a git repository. */
export async function releaseHistory(specDir: string): Promise<ReleaseHistory | undefined> {
  const top = await repositoryOf(resolve(specDir));
  if (!top) return undefined;
  const inRepo = relative(top, resolve(specDir)).split('\\').join('/') || '.';
  const git = async (...args: string[]) =>
    (await run('git', args, { cwd: top, maxBuffer: 64 * 1024 * 1024 })).stdout.trim();
  const shallow = (await git('rev-parse', '--is-shallow-repository')) === 'true';
  const log = await git('log', '--topo-order', '--format=%H %h', '--', inRepo).catch(() => '');
  const commits = log
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split(' ') as [string, string]);
  const logs = await readAt(
    top,
    commits.map(([full]) => `${full}:${inRepo === '.' ? '' : `${inRepo}/`}CHANGELOG.md`),
  );
  const byVersion = new Map<string, string[]>();
  commits.forEach(([, short], i) => {
    const version = logs[i] === undefined ? undefined : firstHeading(logs[i]);
    if (version === undefined) return;
    const list = byVersion.get(version) ?? [];
    list.push(short);
    byVersion.set(version, list);
  });
  const inProgress = byVersion.keys().next().value;
  const tags = await releaseTags(top, inRepo, git);
  const releases = [...new Set([...byVersion.keys(), ...tags.found.keys()])]
    .filter((version) => version !== inProgress || tags.found.has(version))
    .map((version) => {
      const tagged = tags.found.get(version);
      return { version, commits: tagged ? [tagged] : byVersion.get(version)!, tagged: !!tagged };
    })
    .sort((a, b) => compareVersions(b.version, a.version));
  return { top, inRepo, shallow, inProgress, releases, warnings: tags.warnings };
}

/** Release tags on commits HEAD contains whose CHANGELOG.md carries the tag's version: version → commit. */
async function releaseTags(
  top: string,
  inRepo: string,
  git: (...args: string[]) => Promise<string>,
): Promise<{ found: Map<string, string>; warnings: string[] }> {
  const prefix = releaseTag('');
  const listed = await git(
    'for-each-ref',
    '--merged=HEAD',
    '--format=%(refname:strip=2) %(*objectname:short) %(objectname:short)',
    `refs/tags/${prefix}*`,
  ).catch(() => '');
  const tags = listed
    .split('\n')
    .filter(Boolean)
    // The commit: an annotated tag's peeled object, a lightweight tag's own (the other is empty).
    .map((l) => l.split(' ').filter(Boolean) as [string, string])
    .map(([name, commit]) => ({ name, version: name.slice(prefix.length), commit }))
    .filter((t) => /^\d+\.\d+\.\d+$/.test(t.version));
  const logs = await readAt(
    top,
    tags.map((t) => `${t.commit}:${inRepo === '.' ? '' : `${inRepo}/`}CHANGELOG.md`),
  );
  const found = new Map<string, string>();
  const warnings: string[] = [];
  tags.forEach((t, i) => {
    const heading = logs[i] === undefined ? undefined : firstHeading(logs[i]);
    if (heading === t.version) found.set(t.version, t.commit);
    else
      warnings.push(
        `tag ${t.name} is not taken: the CHANGELOG.md of its commit ${t.commit} heads ${heading ?? 'no version'}`,
      );
  });
  return { found, warnings };
}
