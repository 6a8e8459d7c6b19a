// The operator commands' edges: wrong ports, paths and URLs are one-line usage errors (exit 2);
// only serve and seed create a database; a busy port says what to do and leaves no unseen demo
// key; --public-url (or EVGEN_PUBLIC_URL) fixes the namespace and the WSDL's addresses.
import { execFile, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../support/ir.js';
import { EventServiceClient } from '@evgen/event-management/client';
import { ENDPOINT, sendWithHost } from '../../support/requests.js';
import { completeClient } from '../../support/complete.js';

const BIN = join(PROJECT_ROOT, 'src/cli/bin.js');
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evgen-serve-cli-'));
  await writeFile(join(dir, 'a-file'), 'not a folder');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}
const evgen = (args: string[], env: Record<string, string> = {}): Promise<Run> =>
  new Promise((resolve) => {
    execFile(
      'node',
      [BIN, ...args],
      { cwd: dir, env: { ...process.env, ...env } },
      (e, stdout, stderr) =>
        resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, stdout, stderr }),
    );
  });

/** `evgen serve …` until it prints its addresses; then stopped with SIGTERM. */
async function serving(args: string[], env: Record<string, string> = {}) {
  const child = spawn('node', [BIN, 'serve', '--port', '0', ...args], {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /endpoint: (http:\/\/[^/]+)\//.exec(stderr);
      if (m && stderr.includes('database:')) resolve(m[1]!);
    });
    child.on('exit', () => reject(new Error(stderr)));
  });
  const exited = new Promise((r) => child.on('close', r)); // after stderr has been read to its end
  return {
    url,
    stderr: () => stderr,
    stop: async () => (child.kill('SIGTERM'), await exited),
  };
}

describe('usage errors are one line with exit code 2', () => {
  const cases: { given: string[]; env?: Record<string, string>; want: string }[] = [
    {
      given: ['serve', '--port', '99999'],
      want: "error: option '--port <n>' argument '99999' is invalid. expected a port number from 0 to 65535 (0: any free port)\n",
    },
    {
      given: ['serve', '--port', '80x'],
      want: "error: option '--port <n>' argument '80x' is invalid. expected a port number from 0 to 65535 (0: any free port)\n",
    },
    {
      given: ['serve'],
      env: { PORT: 'eighty' },
      want: "error: option '--port <n>' value 'eighty' from env 'PORT' is invalid. expected a port number from 0 to 65535 (0: any free port)\n",
    },
    {
      given: ['serve', '--public-url', 'ftp://events.example.com'],
      want: "error: option '--public-url <url>' argument 'ftp://events.example.com' is invalid. expected the public base URL, such as https://events.example.com (http or https, no query)\n",
    },
    {
      given: ['serve', '--max-connections', '0'],
      want: "error: option '--max-connections <n>' argument '0' is invalid. expected a whole number above 0\n",
    },
    {
      given: ['serve', '--max-connections-per-client', '0'],
      want: "error: option '--max-connections-per-client <n>' argument '0' is invalid. expected a whole number above 0\n",
    },
    {
      given: ['seed', '--db', 'no-events.sqlite', '--events', '0', '--bookings', '10'],
      want: 'error: --events 0 --bookings 10: 10 bookings need at least one event\n',
    },
    {
      given: ['serve', '--db', 'a-file/events.sqlite'],
      want: 'error: --db {dir}/a-file/events.sqlite: {dir}/a-file is a file, not a folder\n',
    },
    {
      given: ['seed', '--db', 'a-file/deeper/events.sqlite'],
      want: 'error: --db {dir}/a-file/deeper/events.sqlite: {dir}/a-file is a file, not a folder\n',
    },
    {
      given: ['keys', 'list', '--db', 'typo/events.sqlite'],
      want: 'error: no database at {dir}/typo/events.sqlite: evgen serve or evgen seed creates one (check --db or EVGEN_DB)\n',
    },
    {
      given: ['tokens', 'create', '--contact', '1', '--db', 'typo.sqlite'],
      want: 'error: no database at {dir}/typo.sqlite: evgen serve or evgen seed creates one (check --db or EVGEN_DB)\n',
    },
    {
      given: ['keys', 'create', '--name', 'x', '--db', '.'],
      want: 'error: --db {dir} is a folder, not a database file\n',
    },
  ];
  it.each(cases)('$given', async ({ given, env, want }) => {
    const run = await evgen(given, env);
    expect(run).toEqual({ code: 2, stdout: '', stderr: want.replaceAll('{dir}', dir) });
  });

  it('leaves no database behind for a command that refused one', async () => {
    await evgen(['keys', 'list', '--db', 'typo/events.sqlite']);
    expect(existsSync(join(dir, 'typo'))).toBe(false);
    await evgen(['seed', '--db', 'no-events.sqlite', '--events', '0', '--bookings', '10']);
    expect(existsSync(join(dir, 'no-events.sqlite'))).toBe(false);
  });
});

describe('a busy port', () => {
  let busy: Server;
  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
  });
  afterAll(() => new Promise((r) => busy.close(r)));

  it('is one line naming --port, and the demo key comes with the first start that listens', async () => {
    const port = (busy.address() as { port: number }).port;
    const db = join(dir, 'busy/events.sqlite');
    const failed = await evgen(['serve', '--db', db, '--port', String(port)]);
    expect(failed.code).toBe(1);
    expect(failed.stderr.trimEnd().split('\n').at(-1)).toBe(
      `port ${port} on 127.0.0.1 is in use: choose another with --port <n> (or PORT)`,
    );
    expect(failed.stderr).not.toContain('APIKey');
    expect((await evgen(['keys', 'list', '--db', db])).stdout).toBe(''); // no key nobody saw

    const svc = await serving(['--db', db]);
    await svc.stop();
    expect(svc.stderr()).toMatch(
      /DEMO KEY PAIR[^\n]*\n {4}APIKey: {4}ak_[0-9a-f]{24}\n {4}SecretKey: \S+\n/,
    );
    expect((await evgen(['keys', 'list', '--db', db])).stdout).toMatch(/^ak_[0-9a-f]{24} {2}demo /);
  }, 60_000);
});

describe('serve --public-url', () => {
  const PUBLIC = 'https://events.example.com';
  it.each([
    ['the flag', ['--public-url', `${PUBLIC}/`], {}],
    ['EVGEN_PUBLIC_URL', [], { EVGEN_PUBLIC_URL: PUBLIC }],
  ])(
    'fixes the namespace and every WSDL address (%s)',
    async (_, args, env) => {
      const svc = await serving(['--db', join(dir, 'public.sqlite'), ...args], env);
      try {
        const wsdl = await sendWithHost(`${svc.url}${ENDPOINT}?wsdl`, 'evil.example');
        expect(wsdl.text).toContain(`targetNamespace="${PUBLIC}/API/1_0/SOAP/"`);
        const addresses = [...wsdl.text.matchAll(/address location="([^"]*)"/g)].map((m) => m[1]);
        expect(addresses.length).toBeGreaterThan(0);
        expect(new Set(addresses)).toEqual(new Set([`${PUBLIC}${ENDPOINT}`]));
        expect(wsdl.text).not.toContain('evil.example');
        expect(svc.stderr()).toContain(
          `public:   ${PUBLIC}${ENDPOINT} (namespace ${PUBLIC}/API/1_0/SOAP/, in the WSDL)`,
        );
      } finally {
        await svc.stop();
      }
    },
    60_000,
  );
});

describe('serve on a hardened node (--disallow-code-generation-from-strings)', () => {
  // Operators switch off eval-like code generation to harden a service; the reference service
  // must still start and answer with every field (row functions compiled where it is allowed,
  // filled field by field where it is not).
  it('starts and answers a page of bookings, booleans and all', async () => {
    const svc = await serving(['--db', join(dir, 'hardened.sqlite'), '--workers', '1'], {
      NODE_OPTIONS: '--disallow-code-generation-from-strings',
    });
    try {
      const key = /APIKey: {4}(\S+)\n {4}SecretKey: (\S+)\n/.exec(svc.stderr());
      expect(key).not.toBeNull();
      const client = completeClient(
        new EventServiceClient({ baseUrl: svc.url, apiKey: key![1]!, secretKey: key![2]! }),
      );
      const page = await client.getBookingsBatch({ eventId: 1, skip: 0, size: 5 });
      expect(page).toHaveLength(5);
      for (const b of page) {
        expect(typeof b.IsTest).toBe('boolean');
        expect(b.Attendees.length).toBeGreaterThan(0);
        for (const a of b.Attendees) expect(typeof a.IsLeadAttendee).toBe('boolean');
      }
    } finally {
      await svc.stop();
    }
  }, 60_000);
});

describe('the banner', () => {
  /** `evgen serve` with stdout and stderr in one file, as a terminal shows them; until the banner. */
  async function startOutput(db: string): Promise<string> {
    const file = join(dir, `out-${Date.now()}.txt`);
    const fd = openSync(file, 'w');
    const child = spawn('node', [BIN, 'serve', '--port', '0', '--workers', '1', '--db', db], {
      cwd: dir,
      stdio: ['ignore', fd, fd],
    });
    const exited = new Promise((r) => child.on('close', r));
    try {
      for (let i = 0; i < 600 && !readFileSync(file, 'utf8').includes('connections:'); i++)
        await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 300)); // the rest of the banner's one write
    } finally {
      child.kill('SIGTERM');
      await exited;
      closeSync(fd);
    }
    return readFileSync(file, 'utf8');
  }
  const HINT =
    /^ {2}API keys: npx evgen keys create --name <you> --db \S+ \(the secret is shown once\)$/m;

  it('comes after the worker lines, says how to get a key, and ends with the demo key pair', async () => {
    const db = join(dir, 'banner/events.sqlite');
    const first = await startOutput(db);
    const lines = first.split('\n');
    const banner = lines.indexOf('Event Management reference service');
    const lastWorker = lines.findLastIndex((l) => l.includes('"event":"worker started"'));
    expect(lastWorker).toBeGreaterThan(0);
    expect(banner).toBeGreaterThan(lastWorker);
    expect(first).toMatch(HINT);
    // the key pair closes the banner: the last lines before any request is logged
    expect(first.slice(first.indexOf('DEMO KEY PAIR'))).toMatch(
      /^DEMO KEY PAIR[^\n]*\n {4}APIKey: {4}ak_[0-9a-f]{24}\n {4}SecretKey: \S+\n(SIGTERM[^\n]*\n)?$/,
    );

    // a later start shows no key pair, and still says how to get one
    const second = await startOutput(db);
    expect(second).not.toContain('DEMO KEY PAIR');
    expect(second).toMatch(HINT);
    expect(second).toContain('the demo key pair was printed when this database was created');
  }, 120_000);
});
