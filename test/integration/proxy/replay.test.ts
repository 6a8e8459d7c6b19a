// A cassette recorded through the proxy against one reference service, replayed against a second
// one seeded alike: no difference. Replayed against one where a single value was changed: exactly
// that value, at each path it is shown. A write replayed where ids differ: differences at the ids
// (and the timestamps a write stamps), none once those are ignored, and the read after the write
// asks for the replay's own record. No cassette or report holds a secret or a Signature.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverConformanceValues, CONFORMANCE_MODEL } from '@evgen/event-management/conformance';
import { CassetteWriter, readCassette } from '../../../src/proxy/cassette.js';
import { GENERATED_TABLES } from '../../../src/proxy/generated-tables.js';
import { formatProxyMarkdown } from '../../../src/proxy/report.js';
import { formatReplayMarkdown, replay, type ReplayReport } from '../../../src/proxy/replay.js';
import { createKey } from '../../../src/reference/keys.js';
import { startReference, type Reference } from '../reference/harness.js';
import { namespaceFor } from '@evgen/runtime/internal';
import { SERVICE } from '@evgen/event-management/service';
import { callAll, handMade, sendMade, watch, type Params } from './harness.js';

const SEED = { events: 3, bookings: 30 };
let a: Reference;
let dir: string;
let cassette: string;
let values: Params;
const signatures = new Set<string>();
const secrets: string[] = [];
/** Every file written: cassettes and reports, for the grep at the end. */
const written: string[] = [];
const reads = CONFORMANCE_MODEL.operations.filter((op) => !op.mutating).map((op) => op.name);

const keyOf = (r: Reference) => r.svc.demoKey!;

/** Records `names` called on every binding through a proxy in front of `target`. */
async function record(
  target: Reference,
  file: string,
  names: readonly string[],
  v: Params,
  clientKey = keyOf(target),
) {
  const key = keyOf(target);
  const w = await watch(target.svc.server.url, {
    level: 'evgen',
    secrets: (k) => Promise.resolve(k === key.apiKey ? key.secretKey : undefined),
    record: new CassetteWriter(file),
  });
  await callAll(w.proxy.url, clientKey, names, v, (req) => {
    const sig = /<Signature>([^<]*)<\/Signature>/.exec(req.body)?.[1] ?? req.headers.Signature;
    if (sig) signatures.add(sig);
  });
  const report = await w.proxy.close();
  const json = join(dir, `${file.split('/').pop()}.report.json`);
  const md = json.replace(/json$/, 'md');
  await writeFile(json, JSON.stringify(report));
  await writeFile(md, formatProxyMarkdown(report));
  written.push(file, json, md);
  return { report, findings: w.findings };
}

async function replayed(target: Reference, file: string, ignore = {}): Promise<ReplayReport> {
  const key = keyOf(target);
  const report = await replay({
    cassette: file,
    url: target.svc.server.url,
    ...key,
    tables: GENERATED_TABLES,
    ignore,
  });
  const json = join(dir, `replay-${written.length}.json`);
  await writeFile(json, JSON.stringify(report));
  await writeFile(`${json}.md`, formatReplayMarkdown(report));
  written.push(json, `${json}.md`);
  return report;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evgen-replay-'));
  a = await startReference(SEED, { workers: 0 });
  secrets.push(keyOf(a).secretKey);
  values = await discoverConformanceValues({ url: a.svc.server.url, ...keyOf(a) });
  cassette = join(dir, 'reads.jsonl');
  const { report, findings } = await record(a, cassette, reads, values);
  expect(findings).toEqual([]); // the client's traffic and the service's answers are right
  expect(report.recording?.written).toBe(report.exchanges);
}, 60_000);
afterAll(async () => {
  await a.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('a cassette of reads', () => {
  it('holds one exchange a line, every read on every binding', async () => {
    const seen: string[] = [];
    for await (const { exchange } of readCassette(cassette))
      seen.push(`${exchange.operation} ${exchange.binding}`);
    expect(seen.length).toBeGreaterThan(reads.length);
    expect(new Set(seen.map((s) => s.split(' ')[1]))).toEqual(
      new Set(['soap11', 'soap12', 'httpGet', 'httpPost']),
    );
  });

  it('replayed against a second service seeded alike: no difference', async () => {
    const b = await startReference(SEED, { workers: 0 });
    secrets.push(keyOf(b).secretKey);
    try {
      const r = await replayed(b, cassette);
      expect(r.differences).toEqual([]);
      expect(r.skipped).toEqual([]);
      expect(r.failed).toEqual([]);
      expect(r.same).toBe(r.exchanges);
    } finally {
      await b.stop();
    }
  });

  it('replayed against one where a single value was changed: exactly that value', async () => {
    const b = await startReference(SEED, { workers: 0 });
    secrets.push(keyOf(b).secretKey);
    try {
      const [company] = await b.svc.database.query<{ id: number; name: string }>(
        'SELECT id, name FROM client_company WHERE parent_id IS NOT NULL ORDER BY id LIMIT 1',
      );
      await b.svc.database.query(
        'UPDATE client_company SET name = ? WHERE id = ?',
        'Changed Ltd',
        company!.id,
      );
      const r = await replayed(b, cassette);
      expect(r.differences.length).toBeGreaterThan(0);
      expect(new Set(r.differences.map((d) => `${d.recorded} → ${d.replayed}`))).toEqual(
        new Set([`${company!.name} → Changed Ltd`]),
      );
      expect(r.differences).toContainEqual(
        expect.objectContaining({
          operation: 'GetSubClientCompanyList',
          binding: 'soap11',
          path: expect.stringMatching(
            /^GetSubClientCompanyListResponse\/GetSubClientCompanyListResult\/GetSubClientCompanyListResponse(\[\d+\])?\/Name$/,
          ) as string,
        }),
      );
    } finally {
      await b.stop();
    }
  });
});

describe('a write replayed where ids differ', () => {
  it("differs at the ids and timestamps, not once those are ignored, and reads the replay's own booking", async () => {
    const write = join(dir, 'write.jsonl');
    const booking = Object.fromEntries(
      GENERATED_TABLES.operations.SubmitSimpleBookingWithBookingStatus!.paramNames.map((n) => [
        n,
        values[n]!,
      ]),
    );
    // Book through the proxy, then read the booking the answer names.
    const key = keyOf(a);
    const w = await watch(a.svc.server.url, { record: new CassetteWriter(write) });
    const { createTransport } = await import('@evgen/runtime/internal');
    const { authScheme } = await import('@evgen/event-management/auth');
    const { WIRE } = await import('@evgen/event-management/service');
    const client = createTransport({ baseUrl: w.proxy.url, ...key, auth: authScheme, wire: WIRE });
    const made = (await client.call(
      GENERATED_TABLES.operations.SubmitSimpleBookingWithBookingStatus!,
      booking,
    )) as { BookingId: number };
    await client.call(GENERATED_TABLES.operations.GetBookingDetails!, {
      bookingId: made.BookingId,
    });
    await w.proxy.close();
    written.push(write);

    const b = await startReference(SEED, { workers: 0 });
    secrets.push(keyOf(b).secretKey);
    try {
      // B has one booking more: the replay's booking gets another id.
      const bClient = b.client();
      await bClient.submitSimpleBookingWithBookingStatus(booking as never);
      const plain = await replayed(b, write);
      expect(plain.differences.map((d) => d.path.split('/').pop())).toEqual(
        expect.arrayContaining(['BookingId', 'BookingReference']),
      );
      const lenient = await replayed(b, write, { timestamps: true, ids: true });
      expect(lenient.differences).toEqual([]);
      expect(lenient.same).toBe(2);
      expect(lenient.ignored.ids).toBeGreaterThan(0);
    } finally {
      await b.stop();
    }
  });
});

describe('an answer longer than the replay reads', () => {
  it('is not held: that exchange fails, saying why', async () => {
    const file = join(dir, 'one.jsonl');
    await record(a, file, ['GetSubClientCompanyList'], values);
    const r = await replay({
      cassette: file,
      url: a.svc.server.url,
      ...keyOf(a),
      tables: GENERATED_TABLES,
      maxAnswerBytes: 100,
    });
    expect(r.failed.map((f) => f.reason)).toEqual(
      Array(4).fill('answer longer than 100 bytes: not compared'),
    );
  });
});

describe('a recorded refusal of the credentials', () => {
  it('is skipped, saying so: the replay signs with its own key', async () => {
    const file = join(dir, 'refused.jsonl');
    await record(a, file, ['GetSubClientCompanyList'], values, {
      ...keyOf(a),
      secretKey: 'not-the-secret',
    });
    const r = await replayed(a, file);
    expect(r.skipped.length).toBe(4);
    expect(new Set(r.skipped.map((x) => x.reason))).toEqual(
      new Set([
        'the recorded answer refused the credentials (AuthenticationFailed), which the replay signs anew',
      ]),
    );
    expect(r.differences).toEqual([]);
  });
});

describe('a secret a client sent by mistake', () => {
  it('is redacted in the cassette, wherever in the request it is', async () => {
    const file = join(dir, 'leaked.jsonl');
    // An XML comment cannot hold "--" or end in "-", and a secret is base64url: one that would
    // makes the request malformed (a fault, not the redaction under test), so take another key.
    const commentSafe = (s: string) => !s.includes('--') && !s.endsWith('-');
    let key = keyOf(a);
    while (!commentSafe(key.secretKey)) key = await a.svc.database.run(createKey('comment-safe'));
    secrets.push(key.secretKey);
    const w = await watch(a.svc.server.url, {
      secrets: (k) => Promise.resolve(k === key.apiKey ? key.secretKey : undefined),
      record: new CassetteWriter(file),
    });
    const made = await handMade(
      {
        base: w.proxy.url,
        key,
        ns: namespaceFor(w.proxy.url, SERVICE.namespace),
        operation: 'GetBookingDetails',
        params: { bookingId: 1 },
        stamp: () => new Date().toISOString(),
      },
      {
        change: (r) =>
          (r.body = r.body.replace('<bookingId>', `<!--${key.secretKey}--><bookingId>`)),
      },
    );
    expect((await sendMade(made)).status).toBe(200);
    await w.proxy.close();
    written.push(file);
    expect(await readFile(file, 'utf8')).toContain('<!--[redacted]-->');
  });
});

describe('no cassette or report holds a secret or a Signature', () => {
  it('greps every file written', async () => {
    expect(signatures.size).toBeGreaterThan(0);
    for (const file of written) {
      const text = await readFile(file, 'utf8');
      for (const s of [...secrets, ...signatures])
        expect(text.includes(s), `${file} holds ${s}`).toBe(false);
      for (const m of text.matchAll(/<(?:[\w.-]+:)?Signature>([^<]*)</g))
        expect(m[1], file).toBe('[redacted]');
      for (const m of text.matchAll(/\["Signature","([^"]*)"\]/g))
        expect(m[1], file).toBe('[redacted]');
    }
  });
});
