// `evgen proxy` and `evgen replay` as operators run them: the proxy in its own process prints each
// new finding as one line while it runs, writes its report (JSON or Markdown) when stopped by a
// signal, and exits 1 when it found anything, 0 otherwise; the replay exits 1 on a difference.
// Bad options are one-line usage errors (exit 2).
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WIRE } from '@evgen/event-management/service';
import { runEvgen } from '../../support/evgen.js';
import { startReference, type Reference } from '../reference/harness.js';
import { BIN } from '../reference/serve-process.js';
import { send } from './harness.js';

let ref: Reference;
let dir: string;
beforeAll(async () => {
  ref = await startReference({ events: 2, bookings: 10 }, { workers: 0 });
  dir = await mkdtemp(join(tmpdir(), 'evgen-proxy-cli-'));
});
afterAll(async () => {
  await ref.stop();
  await rm(dir, { recursive: true, force: true });
});

/** `evgen proxy …` until `traffic` is done, then SIGINT (or SIGTERM): its output and exit code. */
async function proxyRun(
  args: string[],
  traffic: (url: string) => Promise<unknown>,
  signal: NodeJS.Signals = 'SIGINT',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    'node',
    [BIN, 'proxy', '--target', ref.svc.server.url, '--port', '0', ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner: ${stderr}`)), 60_000);
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /listening at (http:\/\/\S+),/.exec(stderr);
      if (!m) return;
      clearTimeout(timer);
      resolve(m[1]!);
    });
    void exited.then(() => reject(new Error(`exited: ${stderr}`)));
  });
  try {
    await traffic(url); // on a signal the proxy still checks (and prints) what is in flight
  } finally {
    child.kill(signal);
  }
  return { code: await exited, stdout, stderr };
}

describe('evgen proxy', () => {
  it('prints each finding as a line, writes the report on SIGINT, exits 1', async () => {
    const report = join(dir, 'findings.json');
    const r = await proxyRun(['--report', report, '--level', 'evgen'], (url) =>
      send(`${url}${WIRE.endpointPath}/GetBookingDetails?bookingId=1`),
    );
    expect(r.code).toBe(1);
    expect(r.stdout.trim().split('\n')).toEqual([
      'request httpGet GetBookingDetails · credential headers [evgen] · header APIKey, header Timestamp, header Signature: expected the HTTP headers APIKey, Timestamp and Signature, got no APIKey, Timestamp, Signature',
    ]);
    expect(r.stderr).toMatch(
      /evgen proxy: 1 exchanges, 1 findings \(1 distinct\), 0 without an answer from the target; report written to/,
    );
    const written = JSON.parse(await readFile(report, 'utf8')) as {
      findings: number;
      distinct: { check: string }[];
    };
    expect(written.findings).toBe(1);
    expect(written.distinct.map((f) => f.check)).toEqual(['credential headers']);
  });

  it('exits 0 on SIGTERM when nothing was found, with a Markdown report, bounded by --max-check-bytes', async () => {
    const report = join(dir, 'clean.md');
    // --max-check-bytes reaches the proxy: the WSDL, longer, goes through unchecked.
    const r = await proxyRun(
      ['--report', report, '--max-check-bytes', '100'],
      (url) => send(`${url}${WIRE.endpointPath}?wsdl`),
      'SIGTERM',
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const md = await readFile(report, 'utf8');
    expect(md).toMatch(/^# evgen proxy report \(level document\)/);
    expect(md).toContain(
      '1 exchanges (wsdl 1); 0 findings, 0 distinct; 0 without an answer from the target.',
    );
    expect(md).toContain('- answer over the check bound: 1');
  });

  it('reads secrets from --secret-file (evgen keys create --json) and says which signature failed', async () => {
    const key = ref.svc.demoKey!;
    const file = join(dir, 'key.json');
    await writeFile(file, JSON.stringify({ apiKey: key.apiKey, secretKey: 'not-the-secret' }));
    const written = ['--record', join(dir, 'bad-sig.jsonl'), '--report', join(dir, 'bad-sig.md')];
    const proxied = await proxyRun(['--secret-file', file, ...written], async (url) => {
      const { EventServiceClient } = await import('@evgen/event-management/client');
      await new EventServiceClient({ baseUrl: url, ...key }).getBookingDetails({ bookingId: 1 });
    });
    expect(proxied.code).toBe(1);
    expect(proxied.stdout).toMatch(
      /^request soap11 GetBookingDetails · signature \[document\] · the Signature does not verify with the secret of API key /,
    );
    expect(proxied.stdout).not.toContain(key.secretKey);
  });

  it('verifies signatures with the keys of a reference database (--keys-db)', async () => {
    const t = ref.svc.target;
    const db = t.dialect === 'sqlite' ? t.path : t.url;
    const report = join(dir, 'keys-db.json');
    const key = ref.svc.demoKey!;
    const r = await proxyRun(['--keys-db', db, '--report', report], async (url) => {
      const { EventServiceClient } = await import('@evgen/event-management/client');
      await new EventServiceClient({ baseUrl: url, ...key }).getBookingDetails({ bookingId: 1 });
      await new EventServiceClient({ baseUrl: url, apiKey: key.apiKey, secretKey: 'wrong-secret' })
        .getBookingDetails({ bookingId: 1 })
        .catch(() => undefined);
    });
    expect(r.code).toBe(1);
    const written = JSON.parse(await readFile(report, 'utf8')) as {
      signatures: { verified: number; failed: number; unverified: number };
    };
    expect(written.signatures).toEqual({
      verified: 1,
      failed: 1,
      unverified: 0,
      keysWithoutSecret: [],
    });
  });

  it('writes the report while it runs with --report-every', async () => {
    const report = join(dir, 'periodic.json');
    await proxyRun(['--report', report, '--report-every', '1'], async (url) => {
      await send(`${url}${WIRE.endpointPath}?wsdl`);
      // The first write comes a second after the start; wait for one that counts the exchange.
      for (let i = 0; i < 50; i++) {
        const text = await readFile(report, 'utf8').catch(() => '');
        if (text && (JSON.parse(text) as { exchanges: number }).exchanges === 1) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('no periodic report counting the exchange within 5 s');
    });
  });

  const replayArgs = (cassette: string) => [
    'replay',
    cassette,
    '--url',
    'http://x',
    '--api-key',
    'k',
    '--secret',
    's',
  ];
  const usage: { name: string; args: string[]; error: RegExp }[] = [
    {
      name: 'no target',
      args: ['proxy'],
      error: /required option '--target <base_url>' not specified/,
    },
    {
      name: 'a target that is no http URL',
      args: ['proxy', '--target', 'ftp://x'],
      error: /expected the public base URL/,
    },
    {
      name: 'an unknown level',
      args: ['proxy', '--target', 'http://x', '--level', 'strict'],
      error: /expected document or evgen/,
    },
    {
      name: 'a report that is neither .json nor .md',
      args: ['proxy', '--target', 'http://x', '--report', 'r.txt'],
      error: /expected a \.json or \.md file/,
    },
    {
      name: 'a secret file that is not there',
      args: ['proxy', '--target', 'http://x', '--secret-file', '/nonexistent/secrets'],
      error: /^error: --secret-file \/nonexistent\/secrets: ENOENT/m,
    },
    {
      name: 'a cassette in a folder that is not there',
      args: ['proxy', '--target', 'http://x', '--record', '/nonexistent/dir/c.jsonl'],
      error: /^error: --record \/nonexistent\/dir\/c\.jsonl: ENOENT/m,
    },
    {
      name: 'replay without a secret',
      args: ['replay', 'c.jsonl', '--url', 'http://x', '--api-key', 'k'],
      error: /required option '--secret <secret>' not specified/,
    },
    {
      name: 'replay ignoring an unknown kind',
      args: [...replayArgs('c.jsonl'), '--ignore', 'dates'],
      error: /unknown kind dates; use timestamps, ids or both/,
    },
    {
      name: 'a cassette that is not there',
      args: replayArgs('/nonexistent.jsonl'),
      error: /^error: \/nonexistent\.jsonl: ENOENT/m,
    },
  ];
  it.each(usage)('$name: usage error', async ({ args, error }) => {
    const r = await runEvgen(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(error);
  });
});

describe('evgen replay', () => {
  it('exits 0 without differences and 1 with one, listing it by operation and path', async () => {
    const cassette = join(dir, 'c.jsonl');
    const key = ref.svc.demoKey!;
    await proxyRun(['--record', cassette], async (url) => {
      const { EventServiceClient } = await import('@evgen/event-management/client');
      await new EventServiceClient({ baseUrl: url, ...key }).getBookingDetails({ bookingId: 1 });
    });
    const args = [
      'replay',
      cassette,
      '--url',
      ref.svc.server.url,
      '--api-key',
      key.apiKey,
      '--secret',
      key.secretKey,
    ];
    const same = await runEvgen([...args, '--report', join(dir, 'replay.md')]);
    expect(same.stderr).toContain(
      'evgen replay: 1 exchanges, 1 the same, 0 different, 0 skipped, 0 without an answer',
    );
    expect(same.code).toBe(0);
    const [booking] = await ref.svc.database.query<{ reference: string }>(
      'SELECT reference FROM booking WHERE id = 1',
    );
    await ref.svc.database.query("UPDATE booking SET reference = 'CHANGED-1' WHERE id = 1");
    try {
      const changed = await runEvgen(args);
      expect(changed.code).toBe(1);
      expect(changed.stdout).toContain(
        `GetBookingDetails soap11 (line 1) GetBookingDetailsResponse/GetBookingDetailsResult/BookingReference: recorded ${JSON.stringify(booking!.reference)}, replayed "CHANGED-1"`,
      );
    } finally {
      await ref.svc.database.query(
        'UPDATE booking SET reference = ? WHERE id = 1',
        booking!.reference,
      );
    }
  });
});

describe('what the commands wrote', () => {
  it('holds no secret and no Signature value: every cassette and report above, grepped', async () => {
    const files = await readdir(dir);
    expect(files.filter((f) => /\.(jsonl|json|md)$/.test(f)).length).toBeGreaterThanOrEqual(5);
    for (const f of files) {
      const text = await readFile(join(dir, f), 'utf8');
      if (f === 'key.json') continue; // the --secret-file given
      for (const secret of [ref.svc.demoKey!.secretKey, 'not-the-secret', 'wrong-secret'])
        expect(text.includes(secret), `${f} holds ${secret}`).toBe(false);
      for (const m of text.matchAll(/<(?:[\w.-]+:)?Signature>([^<]*)</g))
        expect(m[1], f).toBe('[redacted]');
      for (const m of text.matchAll(/\["Signature","([^"]*)"\]/gi))
        expect(m[1], f).toBe('[redacted]');
    }
  });
});
