// Another repository's view. `npm publish --dry-run` on both packages lists exactly the files a
// user gets (no sources, no tests); the packed tarballs then install into scratch projects that
// compile under each module setting people use and run: ESM, CommonJS through require(esm),
// bundler, node10 through typesVersions; node16 CommonJS gets TypeScript's own clear refusal.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_CODES } from '@evgen/event-management/service';
import { packageEntries } from '../../src/generator/artifacts.js';
import { docExamples } from '../support/doc-examples.js';
import { PROJECT_ROOT } from '../support/ir.js';

const exec = promisify(execFile);
const TSC = join(PROJECT_ROOT, 'node_modules/typescript/bin/tsc');
const RUNTIME_DIR = join(PROJECT_ROOT, 'src/runtime');
const GENERATED_DIR = join(PROJECT_ROOT, 'generated');
const GUIDE = 'docs/guides/using-the-generated-package.md';
/** The folder the guide packs into. */
const GUIDE_FOLDER = '/tmp/evgen-packages';
let dir: string;
const tarballs: string[] = [];
const published: Record<string, { name: string; files: string[] }> = {};

const npm = (cwd: string, ...args: string[]) =>
  exec('npm', args, {
    cwd,
    env: { ...process.env, npm_config_loglevel: 'error' },
    maxBuffer: 16 * 1024 * 1024,
  });

/** A docs example in bash, as a user's shell runs it (quietly: no audit, no funding notes). */
const shell = (cwd: string, script: string) =>
  exec('/bin/bash', ['-euo', 'pipefail', '-c', script], {
    cwd,
    env: {
      ...process.env,
      npm_config_loglevel: 'error',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_prefer_offline: 'true',
    },
    maxBuffer: 16 * 1024 * 1024,
  });

/** tsc on a scratch project; stdout holds the diagnostics. */
const tsc = (...args: string[]) =>
  exec('node', [TSC, ...args]).then(
    () => '',
    (e: { stdout: string }) => e.stdout,
  );

const ESM_APP = `
import { listen } from '@evgen/runtime';
import { EventServiceClient } from '@evgen/event-management/client';
import { createEventService, type ServiceHandlers } from '@evgen/event-management/server';
import type {
  BookingDetails,
  BookingDetailsReceived,
  GetBookingDetailsParams,
} from '@evgen/event-management/types';

const handlers: Pick<ServiceHandlers, 'getBookingDetails'> = {
  getBookingDetails: ({ bookingId }: GetBookingDetailsParams): BookingDetails => ({
    BookingId: bookingId, BookingReference: 'PK-' + bookingId, AttendeeCount: 2,
    InvoiceUrl: 'https://example.com/i', SecureKey: 'k', LeadAttendeeReference: 'A-1',
  }),
};
const server = await listen(createEventService(handlers, {
  lookupKey: async (key) => (key === 'demo' ? { secret: 'demo-secret' } : undefined),
  partial: true,
  onDiagnostic: () => undefined,
}));
const client = new EventServiceClient({ baseUrl: server.url, apiKey: 'demo', secretKey: 'demo-secret' });
// Handlers return every field; the client receives what a server sent (an ASMX one leaves nulls out).
const details: BookingDetailsReceived | undefined = await client.getBookingDetails({ bookingId: 7 });
console.log(JSON.stringify(details));
await server.close();
`;

// CommonJS: no top-level await, and the packages come in through require().
const CJS_APP = `
import { EventServiceClient } from '@evgen/event-management/client';
import { createEventService } from '@evgen/event-management/server';
import { ServiceFault } from '@evgen/event-management/errors';
import { listen } from '@evgen/runtime';

async function main(): Promise<void> {
  const server = await listen(createEventService({
    getBookingDetails: ({ bookingId }) => {
      throw new ServiceFault('NotFound', 'no booking ' + bookingId);
    },
  }, { lookupKey: async () => ({ secret: 's' }), partial: true, onDiagnostic: () => undefined }));
  const client = new EventServiceClient({ baseUrl: server.url, apiKey: 'k', secretKey: 's' });
  const error: unknown = await client.getBookingDetails({ bookingId: 3 }).catch((e: unknown) => e);
  console.log(typeof require, (error as { code: string }).code);
  await server.close();
}
void main();
`;

// The errors a caller switches on, from the generated package: every fault code of the spec
// (derived here from FAULT_CODES), 'Unknown', and every TransportError code; a case left out
// fails the \`never\` check, a misspelt one is not comparable.
const ERRORS_APP = `
import {
  ServiceError,
  ServiceFault,
  TransportError,
  XmlDecodeError,
  XmlEncodeError,
  type TransportErrorCode,
} from '@evgen/event-management';

export function advice(e: unknown): string {
  if (e instanceof ServiceError) {
    switch (e.code) {
${FAULT_CODES.map((c) => `      case '${c}':`).join('\n')}
        return 'the service said ' + e.code + ': ' + e.faultString;
      case 'Unknown':
        return 'a fault without a code';
      default: {
        const none: never = e.code;
        return none;
      }
    }
  }
  if (e instanceof TransportError) {
    const code: TransportErrorCode = e.code;
    switch (code) {
      case 'network':
      case 'timeout':
      case 'aborted':
      case 'status':
      case 'content-type':
      case 'unexpected-element':
        return 'no answer: ' + code;
      default: {
        const none: never = code;
        return none;
      }
    }
  }
  if (e instanceof XmlEncodeError || e instanceof XmlDecodeError) return e.path;
  return String(e);
}
export const refused = new ServiceFault('${FAULT_CODES[0]}', 'a handler refuses');
`;

const BAD_ERRORS_APP = `
import { ServiceError, ServiceFault } from '@evgen/event-management/errors';
export function advice(e: unknown): string {
  if (e instanceof ServiceError && e.code === 'NoSuchCode') return 'never';
  return '';
}
export const refused = new ServiceFault('NoSuchCode', 'x');
`;

// Only the first ESM project checks the packages' declarations themselves (skipLibCheck false):
// the rest skip that, which is most of tsc's time.
const tsconfig = (compilerOptions: object, include: string[]) =>
  JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      strict: true,
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [join(PROJECT_ROOT, 'node_modules/@types')],
      ...compilerOptions,
    },
    include,
  });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evgen-consumer-'));
  // publish --dry-run runs prepack (the build) and lists what would be published.
  for (const pkgDir of [RUNTIME_DIR, GENERATED_DIR]) {
    const { stdout } = await npm(pkgDir, 'publish', '--dry-run', '--json');
    const [result] = Object.values(JSON.parse(stdout) as Record<string, unknown>) as {
      name: string;
      files: { path: string }[];
    }[];
    published[pkgDir] = { name: result!.name, files: result!.files.map((f) => f.path).sort() };
  }
  // The lines the guide gives another project, as written there, the folder replaced.
  const example = await docExamples(GUIDE, 'package');
  const packages = join(dir, 'packages');
  const lines = (name: string) => example(name).replaceAll(GUIDE_FOLDER, packages);
  expect(example('pack')).toContain(GUIDE_FOLDER);
  await shell(PROJECT_ROOT, lines('pack'));
  tarballs.push(...(await readdir(packages)).sort());
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  await writeFile(join(dir, 'app.ts'), ESM_APP);
  await mkdir(join(dir, 'cjs'));
  await writeFile(join(dir, 'cjs/package.json'), JSON.stringify({ name: 'cjs', private: true }));
  await writeFile(join(dir, 'cjs/app.ts'), CJS_APP);
  await shell(dir, lines('install'));
}, 300_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('npm publish --dry-run', () => {
  it('publishes @evgen/runtime as its build, README and LICENSE: no sources, no tests', async () => {
    const sources = (await readdir(RUNTIME_DIR, { recursive: true, encoding: 'utf8' }))
      .filter((f) => f.endsWith('.ts') && !f.startsWith('dist') && !f.startsWith('node_modules'))
      .map((f) => f.replace(/\.ts$/, ''));
    expect(sources.length).toBeGreaterThan(10);
    const want = [
      'LICENSE',
      'README.md',
      'package.json',
      ...sources.flatMap((s) => [`dist/${s}.js`, `dist/${s}.d.ts`, `dist/${s}.js.map`]),
    ].sort();
    expect(published[RUNTIME_DIR]).toEqual({ name: '@evgen/runtime', files: want });
  });

  it('publishes the generated package as its entry points, README, DECISIONS and LICENSE', () => {
    const modules = packageEntries().map((e) => e.js.replace(/^\.\/|\.js$/g, ''));
    const want = [
      'DECISIONS.md',
      'LICENSE',
      'README.md',
      'package.json',
      ...modules.flatMap((m) => [`${m}.js`, `${m}.d.ts`, `${m}.js.map`]),
    ].sort();
    expect(published[GENERATED_DIR]).toEqual({ name: '@evgen/event-management', files: want });
    expect(want.some((f) => f.includes('test'))).toBe(false);
  });

  it('ships LICENSE files equal to the repository one', async () => {
    const license = await readFile(join(PROJECT_ROOT, 'LICENSE'), 'utf8');
    for (const pkg of ['@evgen/runtime', '@evgen/event-management'])
      expect(await readFile(join(dir, 'node_modules', pkg, 'LICENSE'), 'utf8')).toBe(license);
  });

  it('declares what a registry needs: public access, repository, the exact runtime version', async () => {
    const runtime = JSON.parse(await readFile(join(RUNTIME_DIR, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    > & { version: string };
    const generated = JSON.parse(
      await readFile(join(GENERATED_DIR, 'package.json'), 'utf8'),
    ) as Record<string, unknown>;
    for (const pkg of [runtime, generated]) {
      expect(pkg.publishConfig).toEqual({ access: 'public' });
      expect(pkg.repository).toMatchObject({ type: 'git' });
      expect((pkg.repository as { url: string }).url).toMatch(/^git\+https:/);
      expect(pkg.license).toBe('MIT');
    }
    // Exact: generated code calls @evgen/runtime/internal, which has no semver promise.
    expect(generated.dependencies).toEqual({ '@evgen/runtime': runtime.version });
  });
});

describe('the packed packages in another project', () => {
  it("are the guide's tarballs, named as npm pack names them after each package.json version", async () => {
    const version = async (pkgDir: string) =>
      (JSON.parse(await readFile(join(pkgDir, 'package.json'), 'utf8')) as { version: string })
        .version;
    const runtime = await version(RUNTIME_DIR);
    const generated = await version(GENERATED_DIR);
    expect(tarballs).toEqual([
      `evgen-event-management-${generated}.tgz`,
      `evgen-runtime-${runtime}.tgz`,
    ]);
    expect(await version(join(dir, 'node_modules/@evgen/runtime'))).toBe(runtime);
    expect(await version(join(dir, 'node_modules/@evgen/event-management'))).toBe(generated);
  });

  it('install the two packages and nothing else: no generator, ts-morph, handlebars or XML library', async () => {
    const installed = (await readdir(join(dir, 'node_modules'))).filter((n) => !n.startsWith('.'));
    expect(installed).toEqual(['@evgen']);
    expect(await readdir(join(dir, 'node_modules/@evgen'))).toEqual([
      'event-management',
      'runtime',
    ]);
  });

  it('ESM (module nodenext): compiles under --strict and calls the running service', async () => {
    await writeFile(
      join(dir, 'tsconfig.json'),
      tsconfig(
        { module: 'NodeNext', moduleResolution: 'NodeNext', outDir: 'out', skipLibCheck: false },
        ['app.ts'],
      ),
    );
    expect(await tsc('-p', dir)).toBe('');
    const { stdout } = await exec('node', [join(dir, 'out/app.js')], { cwd: dir });
    expect(JSON.parse(stdout)).toMatchObject({ BookingId: 7, BookingReference: 'PK-7' });
  });

  it("the README's client example type-checks against the installed packages", async () => {
    const example = await docExamples('README.md', 'package');
    await writeFile(join(dir, 'readme.ts'), example('readme-client'));
    await writeFile(
      join(dir, 'tsconfig.readme.json'),
      tsconfig({ module: 'NodeNext', moduleResolution: 'NodeNext', noEmit: true }, ['readme.ts']),
    );
    expect(await tsc('-p', join(dir, 'tsconfig.readme.json'))).toBe('');
  });

  it('ESM (moduleResolution bundler): the same code type-checks', async () => {
    await writeFile(
      join(dir, 'tsconfig.bundler.json'),
      tsconfig({ module: 'preserve', moduleResolution: 'bundler', noEmit: true }, ['app.ts']),
    );
    expect(await tsc('-p', join(dir, 'tsconfig.bundler.json'))).toBe('');
  });

  it.each([
    ['nodenext', 'nodenext'],
    ['node20', 'node16'],
    ['commonjs', 'node10'],
  ])(
    'CommonJS (module %s, moduleResolution %s): compiles and require()s the packages',
    async (module, moduleResolution) => {
      const out = `out-${module}`;
      await writeFile(
        join(dir, 'cjs', `tsconfig.${module}.json`),
        tsconfig({ module, moduleResolution, outDir: out }, ['app.ts']),
      );
      expect(await tsc('-p', join(dir, 'cjs', `tsconfig.${module}.json`))).toBe('');
      const compiled = await readFile(join(dir, 'cjs', out, 'app.js'), 'utf8');
      expect(compiled).toContain('require("@evgen/event-management/client")');
      const { stdout, stderr } = await exec('node', [join(dir, 'cjs', out, 'app.js')]);
      expect(stdout.trim()).toBe('function NotFound');
      expect(stderr).toBe(''); // no ExperimentalWarning for require(esm) on Node >= 20.19
    },
  );

  it('CommonJS with module node16: TypeScript refuses the require() and says what to do', async () => {
    await writeFile(
      join(dir, 'cjs', 'tsconfig.node16.json'),
      tsconfig({ module: 'node16', moduleResolution: 'node16', noEmit: true }, ['app.ts']),
    );
    expect(await tsc('-p', join(dir, 'cjs', 'tsconfig.node16.json'))).toMatch(
      /error TS1479: The current file is a CommonJS module whose imports will produce 'require' calls; however, the referenced file is an ECMAScript module and cannot be imported with 'require'\. Consider writing a dynamic 'import\("@evgen\/event-management\/client"\)' call instead\./,
    );
  });

  it('exports the errors typed by the spec: a switch on their codes narrows, a wrong code does not compile', async () => {
    await writeFile(join(dir, 'errors.ts'), ERRORS_APP);
    await writeFile(join(dir, 'bad-errors.ts'), BAD_ERRORS_APP);
    const config = (file: string) =>
      tsconfig({ module: 'NodeNext', moduleResolution: 'NodeNext', noEmit: true }, [file]);
    await writeFile(join(dir, 'tsconfig.errors.json'), config('errors.ts'));
    await writeFile(join(dir, 'tsconfig.bad-errors.json'), config('bad-errors.ts'));
    expect(await tsc('-p', join(dir, 'tsconfig.errors.json'))).toBe('');
    const out = await tsc('-p', join(dir, 'tsconfig.bad-errors.json'));
    expect(out).toMatch(/bad-errors\.ts\(4,\d+\): error TS2367: .*'"NoSuchCode"'/);
    expect(out).toMatch(/bad-errors\.ts\(7,\d+\): error TS2345: Argument of type '"NoSuchCode"'/);
  });

  it('refuses at compile time a wrongly typed call, and a subset of handlers without partial', async () => {
    await writeFile(
      join(dir, 'bad.ts'),
      `import { EventServiceClient } from '@evgen/event-management/client';\ndeclare const c: EventServiceClient;\nawait c.getBookingDetails({ bookingId: 'seven' });\n`,
    );
    await writeFile(
      join(dir, 'subset.ts'),
      `import { createEventService } from '@evgen/event-management/server';\ncreateEventService({ getShows: () => [] }, { lookupKey: async () => undefined });\nexport {};\n`,
    );
    await writeFile(
      join(dir, 'tsconfig.bad.json'),
      tsconfig({ module: 'NodeNext', moduleResolution: 'NodeNext', noEmit: true }, [
        'bad.ts',
        'subset.ts',
      ]),
    );
    const out = await tsc('-p', join(dir, 'tsconfig.bad.json'));
    expect(out).toMatch(/bad\.ts.*Type 'string' is not assignable to type 'number'/);
    expect(out).toMatch(
      /subset\.ts.*No overload matches this call[\s\S]*Property 'partial' is missing/,
    );
  });
});
