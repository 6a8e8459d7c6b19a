// The conformance suite is not vacuous: servers broken in one way each are caught, by name.
import { createHmac } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type Binding, type RunningServer, type ServiceHandler } from '@evgen/runtime';
import { checkConformance } from '@evgen/event-management/conformance';
import { createEventService } from '@evgen/event-management/server';
import { generateFiles } from '../../../src/generator/pipeline.js';
import { openDatabase, type Db } from '../../../src/reference/db/open.js';
import { SqliteStore } from '../../../src/reference/db/store.js';
import { referenceHandlers } from '../../../src/reference/handlers/index.js';
import { createKey, keyLookup } from '../../../src/reference/keys.js';
import { seed } from '../../../src/reference/seed/index.js';
import { SPEC_DIR, TEMPLATES_DIR } from '../../support/ir.js';

let dir: string;
let db: Db;
let key: { apiKey: string; secretKey: string };
let service: ServiceHandler;
const servers: RunningServer[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evgen-broken-'));
  db = openDatabase(join(dir, 'events.sqlite'));
  seed(db, { events: 8, bookings: 120 });
  key = createKey(db, 'conformance');
  service = createEventService(referenceHandlers(new SqliteStore(db)), {
    lookupKey: keyLookup(db),
  });
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  db.close();
  await rm(dir, { recursive: true, force: true });
});

type Mutation = {
  response?: (body: string, type: string) => { body: string; type: string };
  request?: (body: Uint8Array) => Uint8Array;
};

const bindingOf = (req: Parameters<ServiceHandler>[0]): Binding =>
  req.method === 'GET'
    ? 'httpGet'
    : (req.headers['content-type'] ?? '').startsWith('application/soap+xml')
      ? 'soap12'
      : (req.headers['content-type'] ?? '').startsWith('text/xml')
        ? 'soap11'
        : 'httpPost';

/**
 * A server that answers like the reference service, then breaks the answer (or the request) on
 * one binding only: the suite discovers ids over SOAP 1.1, which stays intact unless it is the
 * binding under test.
 */
async function broken(on: Binding | undefined, mutate: Mutation) {
  const handler: ServiceHandler = async (req) => {
    const hit = on === undefined || bindingOf(req) === on;
    const body = hit && mutate.request ? mutate.request(req.body) : req.body;
    const res = await service({ ...req, body });
    if (!hit || !mutate.response || res.status !== 200) return res;
    const text = typeof res.body === 'string' ? res.body : new TextDecoder().decode(res.body);
    const out = mutate.response(text, res.headers['content-type'] ?? '');
    return { ...res, headers: { ...res.headers, 'content-type': out.type }, body: out.body };
  };
  const s = await listen(handler, { host: '127.0.0.1', port: 0 });
  servers.push(s);
  return s.url;
}

async function failures(
  url: string,
  only: string,
  binding: Binding,
  group = only,
): Promise<string[]> {
  const results = await checkConformance({
    url,
    apiKey: key.apiKey,
    secretKey: key.secretKey,
    bindings: [binding],
    only: [only],
  });
  return results.filter((r) => r.group === group && r.status === 'fail').flatMap((r) => r.failures);
}

describe('broken servers are caught by name', () => {
  it('a renamed field', async () => {
    const url = await broken('soap12', {
      response: (b, type) => ({ body: b.replace(/<(\/?)Title>/g, '<$1Titel>'), type }),
    });
    expect(await failures(url, 'GetEventDetails7', 'soap12')).toContain(
      'GetEventDetails7Result/Title: missing element',
    );
  });

  it('a boolean written True', async () => {
    const url = await broken('httpGet', {
      response: (b, type) => ({
        body: b.replace('<IsArchived>false</IsArchived>', '<IsArchived>False</IsArchived>'),
        type,
      }),
    });
    expect(await failures(url, 'GetEventDetails7', 'httpGet')).toContain(
      'EventDetailsResponse7/IsArchived: expected lowercase boolean true or false, got "False"',
    );
  });

  it('a decimal with the wrong scale', async () => {
    const url = await broken('httpGet', {
      response: (b, type) => ({
        body: b.replace(/<TaxRate>0\.20000<\/TaxRate>/, '<TaxRate>0.2</TaxRate>'),
        type,
      }),
    });
    const got = await failures(url, 'GetAttendeeTypes', 'httpGet');
    expect(
      got.some((f) =>
        /TicketTypes\/TicketTypeResponse\[0\]\/TaxRate: expected decimal with exactly 5 decimal places, got "0.2"$/.test(
          f,
        ),
      ),
    ).toBe(true);
  });

  it('a missing nil', async () => {
    const url = await broken('httpPost', {
      response: (b, type) => ({ body: b.replace(/<Capacity xsi:nil="true" \/>/, ''), type }),
    });
    const got = await failures(url, 'GetAttendeeTypes', 'httpPost');
    expect(
      got.some((f) =>
        /\/Capacity: missing element \(a nil element is expected when there is no value\)$/.test(f),
      ),
    ).toBe(true);
  });

  it('a wrong content type', async () => {
    const url = await broken('soap12', {
      response: (body) => ({ body, type: 'text/xml; charset=utf-8' }),
    });
    expect(await failures(url, 'GetShows', 'soap12')).toContain(
      'content type "text/xml; charset=utf-8", expected "application/soap+xml; charset=utf-8"',
    );
  });

  it('a server that accepts a bad signature', async () => {
    // Re-signs every SOAP request correctly before the real service sees it: any signature passes.
    const url = await broken(undefined, {
      request: (body) => {
        const text = new TextDecoder().decode(body);
        const op = /<Operation>([^<]*)<\/Operation>/.exec(text)?.[1] ?? '';
        const ts = /<Timestamp>([^<]*)<\/Timestamp>/.exec(text)?.[1] ?? '';
        return new TextEncoder().encode(
          text.replace(
            /<Signature>[^<]*<\/Signature>/,
            `<Signature>${createHmac('sha1', key.secretKey)
              .update(op + ts)
              .digest('base64')}</Signature>`,
          ),
        );
      },
    });
    const results = await checkConformance({
      url,
      apiKey: key.apiKey,
      secretKey: key.secretKey,
      bindings: ['soap11'],
      only: ['GetShows'],
    });
    const bad = results.find(
      (r) => r.group === 'Authentication' && r.name === 'refuses wrong signature',
    )!;
    expect(bad.status).toBe('fail');
    expect(bad.failures[0]).toBe('HTTP status 200, expected 500 with a SOAP Fault');
  });

  it('passes the unbroken server', async () => {
    const url = await broken(undefined, {});
    const results = await checkConformance({
      url,
      apiKey: key.apiKey,
      secretKey: key.secretKey,
      bindings: ['soap11', 'httpPost'],
      only: ['GetEventDetails7', 'GetAttendeeTypes'],
    });
    expect(results.filter((r) => r.status === 'fail')).toEqual([]);
  });
});

describe('the suite follows the spec', () => {
  it('gains an assertion when a field is added to a copy of the spec', async () => {
    const copy = await mkdtemp(join(tmpdir(), 'evgen-spec-'));
    try {
      await cp(SPEC_DIR, join(copy, 'spec'), { recursive: true });
      const file = join(copy, 'spec/types/event.yaml');
      await writeFile(
        file,
        (await readFile(file, 'utf8')).replace(
          '      - { name: SubClientCompanyName, type: string, note: version 7 only }',
          '      - { name: SubClientCompanyName, type: string, note: version 7 only }\n      - { name: VenueCapacity, type: int }',
        ),
      );
      const before = (await generateFiles({ specDir: SPEC_DIR, templatesDir: TEMPLATES_DIR })).get(
        'src/conformance.ts',
      )!;
      const after = (
        await generateFiles({ specDir: join(copy, 'spec'), templatesDir: TEMPLATES_DIR })
      ).get('src/conformance.ts')!;
      // Compared without white space: prettier decides where the generated lines break.
      const assertion =
        "{name:'VenueCapacity',value:{kind:'int'},nullable:false,optional:false,item:null";
      expect(before).not.toMatch(/VenueCapacity/);
      expect(
        after.split('EventDetailsResponse7: [')[1]!.split('\n    ],')[0]!.replace(/\s+/g, ''),
      ).toContain(assertion);
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });
});
