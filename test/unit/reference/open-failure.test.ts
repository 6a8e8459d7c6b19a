// What start-up says about a database it cannot open: the file system's cause (what access(2)
// reports, read-only mounts included), and "damaged" only for what SQLite reports as corrupt.
// The causes a test can make for real are in test/integration/reference/startup.test.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { accessProblem, openFailure } from '../../../src/reference/sqlite/open-failure.js';

const dir = mkdtempSync(join(tmpdir(), 'evgen-open-failure-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sqlite = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('accessProblem', () => {
  it.each([
    { code: 'EACCES', want: /^permission denied on folder \/x \(EACCES\): give the user/ },
    { code: 'EPERM', want: /^permission denied on folder \/x \(EPERM\): .*chattr -i/ },
    { code: 'EROFS', want: /^folder \/x is on a read-only file system: serve it with --read-only/ },
    { code: 'ENOTDIR', want: /^folder \/x is not a folder/ },
    { code: 'EIO', want: undefined },
  ])('$code', ({ code, want }) => {
    const got = accessProblem(code, 'folder /x');
    if (want === undefined) expect(got).toBeUndefined();
    else expect(got).toMatch(want);
  });
});

describe('openFailure on a path the file system has no quarrel with', () => {
  const file = join(dir, 'events.sqlite');
  writeFileSync(file, 'not a database');

  it.each([
    {
      code: 'SQLITE_CORRUPT',
      message: 'database disk image is malformed',
      want: /is damaged \(database disk image is malformed\); restore it/,
    },
    {
      code: 'SQLITE_NOTADB',
      message: 'file is not a database',
      want: /is damaged \(file is not a database\)/,
    },
    {
      code: 'SQLITE_READONLY_DIRECTORY',
      message: 'attempt to write a readonly database',
      want: /is read-only \(.*\); make it writable, or serve reads only with --read-only/,
    },
    {
      code: 'SQLITE_IOERR_READ',
      message: 'disk I/O error',
      want: /cannot be opened: disk I\/O error$/,
    },
  ])('$code', ({ code, message, want }) => {
    const got = openFailure(file, sqlite(code, message), false);
    expect(got).toMatch(want);
    if (!code.match(/CORRUPT|NOTADB/)) expect(got).not.toMatch(/damaged/);
  });

  it('names a file standing where a folder should be', () => {
    expect(
      openFailure(
        join(file, 'sub', 'events.sqlite'),
        sqlite('SQLITE_CANTOPEN', 'unable to open database file'),
        false,
      ),
    ).toBe(`database ${join(file, 'sub', 'events.sqlite')}: ${file} is not a folder`);
  });
});
