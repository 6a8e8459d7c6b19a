// Another repository's view: a scratch project outside this one installs the packed runtime and
// generated package, compiles a minimal client and server under tsc --strict, and runs them.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/ir.js';

const exec = promisify(execFile);
let dir: string;

const APP = `
import { listen } from '@evgen/runtime';
import { EventServiceClient } from '@evgen/event-management/client';
import { createEventService, type ServiceHandlers } from '@evgen/event-management/server';
import type { BookingDetails, GetBookingDetailsParams } from '@evgen/event-management/types';

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
const details: BookingDetails = await client.getBookingDetails({ bookingId: 7 });
console.log(JSON.stringify(details));
await server.close();
`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evgen-consumer-'));
  const npm = (cwd: string, ...args: string[]) =>
    exec('npm', args, {
      cwd,
      env: { ...process.env, npm_config_loglevel: 'error' },
      maxBuffer: 16 * 1024 * 1024,
    });
  await npm(join(PROJECT_ROOT, 'src/runtime'), 'pack', '--pack-destination', dir);
  await npm(join(PROJECT_ROOT, 'generated'), 'pack', '--pack-destination', dir);
  const tarballs = (await readdir(dir)).filter((f) => f.endsWith('.tgz')).sort();
  expect(tarballs).toEqual(['evgen-event-management-1.0.0.tgz', 'evgen-runtime-0.1.0.tgz']);
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'consumer',
      private: true,
      type: 'module',
      dependencies: Object.fromEntries([
        ['@evgen/event-management', `file:./${tarballs[0]}`],
        ['@evgen/runtime', `file:./${tarballs[1]}`],
      ]),
    }),
  );
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        skipLibCheck: false,
        outDir: 'out',
        types: ['node'],
        typeRoots: [join(PROJECT_ROOT, 'node_modules/@types')],
      },
      include: ['app.ts'],
    }),
  );
  await writeFile(join(dir, 'app.ts'), APP);
  await npm(dir, 'install', '--no-audit', '--no-fund', '--prefer-offline');
}, 240_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the packed package in another project', () => {
  it('installs the two packages and nothing else: no generator, ts-morph, handlebars or XML library', async () => {
    const installed = (await readdir(join(dir, 'node_modules'))).filter((n) => !n.startsWith('.'));
    expect(installed).toEqual(['@evgen']);
    expect(await readdir(join(dir, 'node_modules/@evgen'))).toEqual([
      'event-management',
      'runtime',
    ]);
  });

  it('compiles a minimal client and server under tsc --strict and calls the running service', async () => {
    const tsc = join(PROJECT_ROOT, 'node_modules/typescript/bin/tsc');
    const compiled = await exec('node', [tsc, '-p', dir]).catch((e: { stdout: string }) => ({
      stdout: e.stdout,
      failed: true,
    }));
    expect(compiled.stdout).toBe('');
    const { stdout } = await exec('node', [join(dir, 'out/app.js')], { cwd: dir });
    expect(JSON.parse(stdout)).toEqual({
      BookingId: 7,
      BookingReference: 'PK-7',
      AttendeeCount: 2,
      InvoiceUrl: 'https://example.com/i',
      SecureKey: 'k',
      LeadAttendeeReference: 'A-1',
    });
  });

  it('rejects a wrongly typed call at compile time', async () => {
    await writeFile(
      join(dir, 'bad.ts'),
      `import { EventServiceClient } from '@evgen/event-management/client';\ndeclare const c: EventServiceClient;\nawait c.getBookingDetails({ bookingId: 'seven' });\n`,
    );
    await writeFile(
      join(dir, 'tsconfig.bad.json'),
      JSON.stringify({
        extends: './tsconfig.json',
        include: ['bad.ts'],
        compilerOptions: { noEmit: true },
      }),
    );
    const tsc = join(PROJECT_ROOT, 'node_modules/typescript/bin/tsc');
    const result = await exec('node', [tsc, '-p', join(dir, 'tsconfig.bad.json')]).catch(
      (e: { stdout: string }) => e,
    );
    expect((result as { stdout: string }).stdout).toMatch(
      /bad\.ts.*Type 'string' is not assignable to type 'number'/,
    );
  });
});
