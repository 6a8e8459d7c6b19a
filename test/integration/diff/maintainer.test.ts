// A maintainer's three changes, as docs/guides/changing-the-spec.md walks them, in a git
// repository of their own whose 1.0.0 is released (tagged): an optional response field, a new
// operation with a scalar result, and a rename that keeps the wire name; then a rename on the
// wire. Each step edits the spec, runs validate, diff, the version gate and generate as a
// maintainer does (exit codes 0, 1 and 2 checked), and ends with the generated server stub
// answering the generated clients of that version and of the release before it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadVersion } from '../../../src/diff/input.js';
import { loadVersionPackage, type LoadedVersion } from '../../../src/diff/verify/stubs.js';
import { runEvgen } from '../../support/evgen.js';
import { TEMPLATES_DIR } from '../../support/ir.js';
import type { SpecEdit } from '../../support/spec-copy.js';
import { specRepo, type SpecRepo } from '../../support/spec-repo.js';

let history: SpecRepo;
let repo: string;
let spec: string;
const evgen = (...args: string[]) => runEvgen(args, repo);
const edit = (...edits: SpecEdit[]) => history.edit(...edits);
/** The version being written: a new first heading with a line for the change. */
const heading = (from: string, to: string, line: string): SpecEdit => ({
  file: 'CHANGELOG.md',
  from: `## ${from}\n`,
  to: `## ${to}\n\n- ${line}\n\n## ${from}\n`,
});
/** Commits and tags the release, as a maintainer does after npm publish. */
const release = async (version: string) => {
  await history.commit(`release ${version}`);
  await history.git('tag', `@evgen/event-management@${version}`);
};
const diff = (...more: string[]) => evgen('diff', '--head', spec, ...more);
const gate = () => diff('--fail-on', 'none', '--check-version');
// The type check of what generate writes is held by result-kinds.test and wire-names.test.
const generate = () =>
  evgen(
    'generate',
    ...['--spec', spec, '--templates', TEMPLATES_DIR, '--out', join(repo, 'gen')],
    '--no-typecheck',
  );
/** The line of `spec/<file>` that holds `text`. */
const lineOf = async (file: string, text: string) =>
  (await readFile(join(spec, file), 'utf8')).split('\n').findIndex((l) => l.includes(text)) + 1;

/** The generated package of the working spec (what generate wrote), its stub listening. */
async function served(): Promise<LoadedVersion> {
  const loaded = await loadVersionPackage(await loadVersion(spec), TEMPLATES_DIR);
  packages.push(loaded);
  for (const file of ['src/client.ts', 'src/server.ts', 'src/codecs.ts', 'package.json'])
    expect(loaded.files.get(file), file).toBe(await readFile(join(repo, 'gen', file), 'utf8'));
  return loaded;
}
const packages: LoadedVersion[] = [];

/** `client` (a version's generated client) calls `server`'s stub over SOAP 1.1: result and body. */
async function call(client: LoadedVersion, server: LoadedVersion, method: string, params: object) {
  let body = '';
  const c = client.client(server.server.url, 'soap11', {
    onResponse: (r: { body: string }) => void (body = r.body),
  });
  const result = (await c[method]!(params).catch((e: unknown) => e)) as Record<string, unknown>;
  return { result, body };
}

beforeAll(async () => {
  history = await specRepo('maintainer');
  ({ dir: repo, spec } = history);
  await release('1.0.0');
  expect((await generate()).code).toBe(0);
  await served();
}, 120_000);
afterAll(async () => {
  await Promise.all(packages.map((p) => p.dispose()));
  await history.remove();
});

// Each step runs evgen a few times and loads a package.
describe.sequential(
  "a maintainer's changes, from spec edit to a served answer",
  { timeout: 300_000 },
  () => {
    it('adds an optional response field: a minor version', async () => {
      await edit({
        file: 'types/booking.yaml',
        from: '      - { name: SecureKey, type: string }\n',
        to: '      - { name: SecureKey, type: string }\n      - { name: Channel, type: string, optional: true, doc: Where the booking was made. }\n',
      });
      expect((await evgen('validate', '--spec', spec)).code).toBe(0);
      const line = await lineOf('types/booking.yaml', 'name: Channel');
      // Safe for the audiences the spec keeps (exit 0); wire-strict, not kept, is named.
      const d = await diff();
      expect(d.code).toBe(0);
      expect(d.stdout).toContain(
        `SAFE      spec/types/booking.yaml:${line}  BookingDetails.Channel added (optional): strict clients reject the new element  [FIELD_ADDED_OPTIONAL] (wire-lax safe, wire-strict breaking: not kept, typescript safe)`,
      );
      expect(d.stdout).toMatch(
        /next package version 1\.1\.0 \(minor, from the last release 1\.0\.0/,
      );
      // 1.0.0 is released: the gate and generate refuse to write it again, and say what to write.
      const refused = await gate();
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        'write "## 1.1.0" as the first heading of spec/CHANGELOG.md, in place of "## 1.0.0"',
      );
      expect((await generate()).code).toBe(1);
      await edit(heading('1.0.0', '1.1.0', 'BookingDetails.Channel: where the booking was made.'));
      expect((await gate()).code).toBe(0);
      expect((await generate()).code).toBe(0);
      expect((await evgen('check', '--spec', spec, '--out', join(repo, 'gen'))).code).toBe(0);
      const v110 = await served();
      const read = await call(v110, v110, 'getBookingDetails', { bookingId: 1 });
      expect(read.body).toMatch(/<Channel>[^<]+<\/Channel>/);
      expect(read.result.Channel).toEqual(expect.any(String));
      // The 1.0.0 client reads the new server's answer: it ignores the element it does not know.
      const old = await call(packages[0]!, v110, 'getBookingDetails', { bookingId: 1 });
      expect(old.result.BookingReference).toBe(read.result.BookingReference);
      await release('1.1.0');
    });

    it('adds an operation with a scalar result: a minor version', async () => {
      await edit({
        file: 'operations.yaml',
        from: '  - name: GetBookingDetails\n',
        to: `  - name: GetAttendeeCount
    purpose: How many attendees an event has.
    parameters:
      - { name: eventId, type: int }
    result: { kind: type, type: int, text: the number of attendees }
    http: { shown: false, gap: http-note-a, root: int }

  - name: GetBookingDetails
`,
      });
      expect((await evgen('validate', '--spec', spec)).code).toBe(0);
      const d = await diff();
      expect(d.code).toBe(0);
      expect(d.stdout).toContain('GetAttendeeCount added');
      expect(d.stdout).toMatch(
        /next package version 1\.2\.0 \(minor, from the last release 1\.1\.0/,
      );
      const refused = await gate();
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        'package version 1.1.0 is not newer than 1.1.0, which its tag @evgen/event-management@1.1.0 shows released',
      );
      await edit(heading('1.1.0', '1.2.0', 'GetAttendeeCount: how many attendees an event has.'));
      expect((await gate()).code).toBe(0);
      expect((await generate()).code).toBe(0);
      const v120 = await served();
      // As an ASMX service answers a scalar: the number itself in the Result element.
      const { result, body } = await call(v120, v120, 'getAttendeeCount', { eventId: 1 });
      const count = result as unknown as number;
      expect(count).toEqual(expect.any(Number));
      expect(body).toContain(`<GetAttendeeCountResult>${count}</GetAttendeeCountResult>`);
      await release('1.2.0');
    });

    it('renames a field in TypeScript only: the wire keeps it, TypeScript code breaks: major', async () => {
      const invoiceUrl = '      - { name: InvoiceUrl, type: string }';
      // A wire name taken by another field is refused with its place: validate exits 1, diff 2.
      await edit({
        file: 'types/booking.yaml',
        from: invoiceUrl,
        to: '      - { name: InvoiceLink, xmlName: SecureKey, type: string }',
      });
      const line = await lineOf('types/booking.yaml', 'name: InvoiceLink');
      const invalid = await evgen('validate', '--spec', spec);
      expect(invalid.code).toBe(1);
      expect(invalid.stderr).toContain(
        `spec/types/booking.yaml:${line + 1}:9: duplicate wire name "SecureKey" in type "BookingDetails" (first used at spec/types/booking.yaml:${line}:9)`,
      );
      expect((await diff()).code).toBe(2);
      await edit({
        file: 'types/booking.yaml',
        from: 'xmlName: SecureKey',
        to: 'xmlName: InvoiceUrl',
      });
      expect((await evgen('validate', '--spec', spec)).code).toBe(0);
      const d = await diff();
      expect(d.code).toBe(1);
      expect(d.stdout).toContain(
        `BREAKING  spec/types/booking.yaml:${line}  BookingDetails.InvoiceLink renamed from InvoiceUrl in TypeScript (still <InvoiceUrl> on the wire): code reading InvoiceUrl no longer compiles  [FIELD_TS_RENAMED] (wire-lax safe, wire-strict safe: not kept, typescript breaking)`,
      );
      expect(d.stdout).toMatch(
        /next package version 2\.0\.0 \(major, from the last release 1\.2\.0/,
      );
      // A minor heading understates it: refused, with the change counted and the version needed.
      await edit(heading('1.2.0', '1.3.0', 'BookingDetails.InvoiceLink.'));
      const refused = await gate();
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /package version 1\.3\.0 understates the diff against the last release, 1\.2\.0 \(\w+\): 1 change\(s\) need a major version, at least 2\.0\.0:/,
      );
      expect(refused.stderr).toContain('write "## 2.0.0" as the first heading');
      await edit({ file: 'CHANGELOG.md', from: '## 1.3.0\n', to: '## 2.0.0\n' });
      expect((await gate()).code).toBe(0);
      expect((await generate()).code).toBe(0);
      const v200 = await served();
      const now = await call(v200, v200, 'getBookingDetails', { bookingId: 1 });
      expect(now.body).toMatch(/<InvoiceUrl>[^<]+<\/InvoiceUrl>/);
      expect(now.result.InvoiceLink).toEqual(expect.any(String));
      // The 1.2.0 client reads the same value under its old name: nothing changed on the wire.
      const old = await call(packages.at(-2)!, v200, 'getBookingDetails', { bookingId: 1 });
      expect(old.result.InvoiceUrl).toBe(now.result.InvoiceLink);
      await release('2.0.0');
    });

    it('renames it on the wire: old clients break, a major version again', async () => {
      await edit({ file: 'types/booking.yaml', from: 'xmlName: InvoiceUrl, ', to: '' });
      const d = await diff();
      expect(d.code).toBe(1);
      // A string a server may leave out (conventions.omittedWhenNull): old clients read none.
      expect(d.stdout).toContain(
        'BookingDetails.InvoiceLink element <InvoiceUrl> → <InvoiceLink> on the wire: old clients silently lose its value  [FIELD_XML_RENAMED] (wire-lax breaking, wire-strict breaking: not kept, typescript safe)',
      );
      expect(d.stdout).toMatch(
        /next package version 3\.0\.0 \(major, from the last release 2\.0\.0/,
      );
      await edit(heading('2.0.0', '2.1.0', 'InvoiceLink on the wire.'));
      expect((await gate()).code).toBe(1);
      await edit({ file: 'CHANGELOG.md', from: '## 2.1.0\n', to: '## 3.0.0\n' });
      expect((await gate()).code).toBe(0);
      expect((await generate()).code).toBe(0);
      const v300 = await served();
      const now = await call(v300, v300, 'getBookingDetails', { bookingId: 1 });
      expect(now.body).toMatch(/<InvoiceLink>[^<]+<\/InvoiceLink>/);
      // The 2.0.0 client looks for <InvoiceUrl>, finds none, and takes it for a string the server
      // left out (conventions.omittedWhenNull): the value is lost.
      const old = await call(packages.at(-2)!, v300, 'getBookingDetails', { bookingId: 1 });
      expect(now.result.InvoiceLink).toEqual(expect.any(String));
      expect(old.result.BookingReference).toBe(now.result.BookingReference);
      expect(old.result.InvoiceUrl).toBeUndefined();
    });

    it('a base that is neither a folder nor a commit: exit 2', async () => {
      expect((await diff('--base', 'no-such-ref')).code).toBe(2);
    });
  },
);
