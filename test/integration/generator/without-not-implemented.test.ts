// The notImplemented role is optional: a spec without a code for it (as the released 1.0.0 was)
// validates, generates and type-checks, so the version gate can read it. Its WIRE has no
// notImplemented entry, its README and server docs say nothing of the code, and its generated
// server refuses { partial: true } when created, naming what the spec lacks.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateFiles, type GeneratedFiles } from '../../../src/generator/pipeline.js';
import { loadSpec } from '../../../src/generator/spec/load.js';
import { typecheckGenerated } from '../../../src/generator/typecheck.js';
import { PROJECT_ROOT, TEMPLATES_DIR } from '../../support/ir.js';
import { removeSpecCopies, specCopy } from '../../support/spec-copy.js';
import { withoutNotImplemented } from '../../support/without-not-implemented.js';

const edit = withoutNotImplemented();
let specDir: string;
let files: GeneratedFiles;
let out: string;

beforeAll(async () => {
  specDir = await specCopy([edit]);
  files = await generateFiles({ specDir, templatesDir: TEMPLATES_DIR });
  out = await mkdtemp(join(tmpdir(), 'evgen-no-ni-'));
  for (const [path, text] of files) {
    await mkdir(dirname(join(out, path)), { recursive: true });
    await writeFile(join(out, path), text);
  }
}, 120_000);
afterAll(async () => {
  await removeSpecCopies();
  await rm(out, { recursive: true, force: true });
});

describe(`a spec without ${edit.code} (raisedFor: notImplemented)`, () => {
  it('validates', async () => {
    await expect(loadSpec(specDir)).resolves.toBeDefined();
  });

  it('generates code that type-checks', () => {
    expect(typecheckGenerated(files, join(PROJECT_ROOT, 'generated'), PROJECT_ROOT)).toEqual([]);
  }, 120_000);

  it('has no notImplemented entry in WIRE.faults.raisedFor, and no such code', async () => {
    const { WIRE } = (await import(pathToFileURL(join(out, 'src/service.ts')).href)) as {
      WIRE: { faults: { raisedFor: object; codes: { code: string }[] } };
    };
    expect(Object.keys(WIRE.faults.raisedFor)).not.toContain('notImplemented');
    expect(Object.keys(WIRE.faults.raisedFor).length).toBeGreaterThan(0);
    expect(WIRE.faults.codes.map((c) => c.code)).not.toContain(edit.code);
  });

  it('says nothing of the code in the README and the server docs', () => {
    for (const path of ['README.md', 'src/server.ts'])
      expect(files.get(path), path).not.toContain(edit.code);
  });

  it('refuses { partial: true } when the service is created, naming what the spec lacks', async () => {
    const { createEventService } = (await import(
      pathToFileURL(join(out, 'src/server.ts')).href
    )) as { createEventService: (handlers: object, options: object) => unknown };
    const create = () =>
      createEventService({}, { lookupKey: () => Promise.resolve(undefined), partial: true });
    expect(create).toThrow(TypeError);
    expect(create).toThrow('raisedFor: notImplemented in spec/errors.yaml');
  });
});

describe('the project spec, which has the code', () => {
  it('names it in the README and the server docs', async () => {
    const own = await generateFiles({
      specDir: join(PROJECT_ROOT, 'spec'),
      templatesDir: TEMPLATES_DIR,
    });
    for (const path of ['README.md', 'src/server.ts'])
      expect(own.get(path), path).toContain(`${edit.code} fault`);
  }, 120_000);
});
