// The audiences a project keeps (spec/service.yaml compatibility.audiences, default all three):
// the headline severity, --fail-on and the counts follow the kept ones; every line and the
// summary still say what happens to each audience, marking the ones not kept.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEvgen } from '../../support/evgen.js';
import { SPEC_DIR } from '../../support/ir.js';

let dir: string;
const SECURE_KEY = '      - { name: SecureKey, type: string }';
const EDITS = {
  'optional field added': [
    SECURE_KEY,
    `${SECURE_KEY}\n      - { name: Channel, type: string, optional: true }`,
  ],
  'required field made optional': [
    SECURE_KEY,
    '      - { name: SecureKey, type: string, optional: true }',
  ],
} as const;
type Edit = keyof typeof EDITS;

/** A copy of the spec keeping `audiences` (none: the key left out), with `edit` applied. */
async function spec(name: string, audiences: string | null, edit?: Edit): Promise<string> {
  const to = join(dir, name, 'spec');
  await cp(SPEC_DIR, to, { recursive: true });
  const service = join(to, 'service.yaml');
  const text = (await readFile(service, 'utf8')).replace(/\ncompatibility:\n(  .*\n)*/, '\n');
  await writeFile(
    service,
    audiences === null ? text : `${text}\ncompatibility:\n  audiences: ${audiences}\n`,
  );
  if (edit) {
    const file = join(to, 'types/booking.yaml');
    const [from, by] = EDITS[edit];
    await writeFile(file, (await readFile(file, 'utf8')).replace(from, by));
  }
  return to;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evgen-audiences-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const diff = async (audiences: string | null, edit: Edit, ...args: string[]) => {
  const name = `${audiences ?? 'default'}-${edit}`.replace(/\W+/g, '-');
  const base = await spec(`${name}-base`, audiences);
  const head = await spec(`${name}-head`, audiences, edit);
  return runEvgen(['diff', '--base', base, '--head', head, ...args], dir);
};

describe('evgen diff per audience', () => {
  const cases = [
    {
      given: 'all three kept (no compatibility key)',
      audiences: null,
      edit: 'optional field added' as Edit,
      args: [],
      code: 1,
      line: /^BREAKING .*\[FIELD_ADDED_OPTIONAL\] \(wire-lax safe, wire-strict breaking, typescript safe\)$/m,
      counts: '1 change: 1 breaking, 0 dangerous, 0 safe',
      perAudience: 'per audience: wire-lax 1 safe; wire-strict 1 breaking; typescript 1 safe',
    },
    {
      given: 'wire-strict not kept',
      audiences: '[wire-lax, typescript]',
      edit: 'optional field added' as Edit,
      args: [],
      code: 0,
      line: /^SAFE .*\[FIELD_ADDED_OPTIONAL\] \(wire-lax safe, wire-strict breaking: not kept, typescript safe\)$/m,
      counts:
        '1 change: 0 breaking, 0 dangerous, 1 safe for the audiences kept (wire-lax, typescript)',
      perAudience:
        'per audience: wire-lax 1 safe; wire-strict (not kept) 1 breaking; typescript 1 safe',
    },
    {
      given: 'wire-strict not kept, a change breaking typescript',
      audiences: '[wire-lax, typescript]',
      edit: 'required field made optional' as Edit,
      args: [],
      code: 1,
      line: /^BREAKING .*\[FIELD_REQUIRED_TO_OPTIONAL\] \(wire-lax dangerous, wire-strict dangerous: not kept, typescript breaking\)$/m,
      counts:
        '1 change: 1 breaking, 0 dangerous, 0 safe for the audiences kept (wire-lax, typescript)',
      perAudience:
        'per audience: wire-lax 1 dangerous; wire-strict (not kept) 1 dangerous; typescript 1 breaking',
    },
    {
      given: 'only wire-strict kept, --fail-on dangerous',
      audiences: '[wire-strict]',
      edit: 'required field made optional' as Edit,
      args: ['--fail-on', 'dangerous'],
      code: 1,
      line: /^DANGEROUS .*\[FIELD_REQUIRED_TO_OPTIONAL\] \(wire-lax dangerous: not kept, wire-strict dangerous, typescript breaking: not kept\)$/m,
      counts: '1 change: 0 breaking, 1 dangerous, 0 safe for the audiences kept (wire-strict)',
      perAudience:
        'per audience: wire-lax (not kept) 1 dangerous; wire-strict 1 dangerous; typescript (not kept) 1 breaking',
    },
    {
      given: 'only wire-strict kept, --fail-on breaking',
      audiences: '[wire-strict]',
      edit: 'required field made optional' as Edit,
      args: [],
      code: 0,
      line: /^DANGEROUS /m,
      counts: '1 change: 0 breaking, 1 dangerous, 0 safe for the audiences kept (wire-strict)',
      perAudience: 'per audience:',
    },
  ];
  for (const c of cases)
    it(`${c.given}: ${c.edit} → exit ${c.code}`, async () => {
      const r = await diff(c.audiences, c.edit, ...c.args);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(c.code);
      expect(r.stdout).toMatch(c.line);
      expect(r.stdout).toContain(c.counts);
      expect(r.stdout).toContain(c.perAudience);
    });

  it('marks the audiences not kept in the Markdown table, and lists the kept ones in JSON', async () => {
    const md = await diff('[wire-lax, typescript]', 'optional field added', '--format', 'markdown');
    expect(md.stdout).toContain(
      '| severity | wire-lax | wire-strict (not kept) | typescript | where | change | rule |',
    );
    expect(md.stdout).toMatch(/^\| \*\*safe\*\* \| safe \| breaking \| safe \| /m);
    const json = await diff('[wire-lax, typescript]', 'optional field added', '--format', 'json');
    const report = JSON.parse(json.stdout) as {
      changes: Record<string, unknown>[];
      summary: Record<string, unknown>;
    };
    expect(report.changes[0]).toMatchObject({
      severity: 'safe',
      audience: ['wire-lax', 'typescript'],
      severities: { 'wire-lax': 'safe', 'wire-strict': 'breaking', typescript: 'safe' },
    });
    expect(report.summary).toMatchObject({
      kept: ['wire-lax', 'typescript'],
      breaking: 0,
      safe: 1,
    });
  });

  it('validate refuses an audience it does not know, at its line', async () => {
    const s = await spec('typo', '[wire-lax, wire-stict]');
    const r = await runEvgen(['validate', '--spec', s], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /spec\/service\.yaml:\d+:\d+: expected one of wire-lax, wire-strict, typescript, got "wire-stict" \(did you mean "wire-strict"\?\)/,
    );
  });

  it('validate refuses an empty or repeated list of audiences', async () => {
    for (const audiences of ['[]', '[typescript, typescript]']) {
      const r = await runEvgen(
        ['validate', '--spec', await spec(`bad-${audiences.length}`, audiences)],
        dir,
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /spec\/service\.yaml:\d+:\d+: compatibility\.audiences (is empty|names typescript twice)/,
      );
    }
  });
});
