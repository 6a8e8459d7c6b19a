// The generated client calls every operation over every binding against the generated server
// (in-memory handlers, real HTTP on 127.0.0.1), and the values survive the trip exactly.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '@evgen/runtime';
import { EventServiceClient } from '@evgen/event-management/client';
import { createEventService, type ServiceHandlers } from '@evgen/event-management/server';
import { BINDING_IDS } from '@evgen/event-management/service';
import { OPERATION_NAMES } from '@evgen/event-management/types';
import { sampleResult, scalarArb, typeArbitraries } from '../../support/arbitraries.js';
import { projectIr } from '../../support/ir.js';

const ir = await projectIr();
const arbs = typeArbitraries(ir);
const KEYS = { apiKey: 'test-key', secretKey: 'test-secret ünïcode' };

// One sample result and one sample parameter set per operation, fixed by seed.
const samples = new Map(
  ir.operations.map((op, i) => {
    const result = sampleResult(arbs, op.result, i, { maxLength: 3 });
    const params = Object.fromEntries(
      op.parameters.map((p, j) => [
        p.name,
        fc.sample(scalarArb(p.scalar, null), { seed: i * 10 + j, numRuns: 1 })[0],
      ]),
    );
    return [op.name, { op, result, params }] as const;
  }),
);

const received: { method: string; params: unknown; apiKey: string }[] = [];
const handlers = Object.fromEntries(
  [...samples.values()].map(({ op, result }) => [
    op.method,
    (params: unknown, ctx: { apiKey: string }) => {
      received.push({ method: op.method, params, apiKey: ctx.apiKey });
      return result;
    },
  ]),
) as unknown as ServiceHandlers;

let server: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  const service = createEventService(handlers, {
    lookupKey: (k) =>
      Promise.resolve(k === KEYS.apiKey ? { secret: KEYS.secretKey, name: 'test' } : undefined),
  });
  server = await listen(service, { host: '127.0.0.1', port: 0 });
});
afterAll(() => server.close());

describe.each([...BINDING_IDS])('over %s', (binding) => {
  it.each([...OPERATION_NAMES])('%s round-trips parameters and result', async (name) => {
    const { op, result, params } = samples.get(name)!;
    const client = new EventServiceClient({ baseUrl: server.url, ...KEYS, binding });
    received.length = 0;
    const got = await (client as unknown as Record<string, (p: unknown) => Promise<unknown>>)[
      op.method
    ]!(params);
    expect(got).toEqual(result);
    expect(received).toEqual([{ method: op.method, params, apiKey: KEYS.apiKey }]);
  });
});
