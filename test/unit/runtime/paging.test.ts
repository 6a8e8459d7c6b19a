// iteratePages: where it stops, and that it asks for a page only once the last one is consumed.
import { describe, expect, it } from 'vitest';
import { iteratePages, type Paging } from '@evgen/runtime/internal';

interface Params {
  readonly skip: number;
  readonly size?: number;
}

/** A server holding `total` records and answering at most `pageSize` (or `size`) per call. */
function server(total: number, pageSize: number) {
  const calls: Params[] = [];
  const call = (p: Params) => {
    calls.push(p);
    const n = Math.max(0, Math.min(p.size ?? pageSize, pageSize, total - p.skip));
    return Promise.resolve(Array.from({ length: n }, (_, i) => p.skip + i));
  };
  return { call, calls };
}

const collect = async <T>(it: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};

describe('iteratePages', () => {
  const cases: {
    given: { total: number; pageSize: number; params: Params; paging: Paging };
    want: { items: number; skips: number[] };
  }[] = [
    // size chosen by the caller: the first page shorter than size is the last
    {
      given: {
        total: 7,
        pageSize: 1000,
        params: { skip: 0, size: 3 },
        paging: { skip: 'skip', size: 'size' },
      },
      want: { items: 7, skips: [0, 3, 6] },
    },
    {
      given: {
        total: 6,
        pageSize: 1000,
        params: { skip: 0, size: 3 },
        paging: { skip: 'skip', size: 'size' },
      },
      want: { items: 6, skips: [0, 3, 6] },
    },
    {
      given: {
        total: 6,
        pageSize: 1000,
        params: { skip: 4, size: 5 },
        paging: { skip: 'skip', size: 'size' },
      },
      want: { items: 2, skips: [4] },
    },
    // the server's page size: a page shorter than the first, or an empty one, is the last
    {
      given: { total: 7, pageSize: 3, params: { skip: 0 }, paging: { skip: 'skip' } },
      want: { items: 7, skips: [0, 3, 6] },
    },
    {
      given: { total: 6, pageSize: 3, params: { skip: 0 }, paging: { skip: 'skip' } },
      want: { items: 6, skips: [0, 3, 6] },
    },
    {
      given: { total: 2, pageSize: 3, params: { skip: 0 }, paging: { skip: 'skip' } },
      want: { items: 2, skips: [0, 2] },
    },
    {
      given: { total: 0, pageSize: 3, params: { skip: 0 }, paging: { skip: 'skip' } },
      want: { items: 0, skips: [0] },
    },
  ];
  it.each(cases)('$given → $want', async ({ given, want }) => {
    const s = server(given.total, given.pageSize);
    const items = await collect(iteratePages(s.call, given.params, given.paging));
    expect(items).toEqual(Array.from({ length: want.items }, (_, i) => given.params.skip + i));
    expect(s.calls.map((c) => c.skip)).toEqual(want.skips);
  });

  it('asks for the next page only when the consumer needs its first item', async () => {
    const s = server(10, 1000);
    const it = iteratePages(s.call, { skip: 0, size: 4 }, { skip: 'skip', size: 'size' });
    for (let i = 0; i < 4; i++) await it.next();
    expect(s.calls).toHaveLength(1);
    await it.next();
    expect(s.calls).toHaveLength(2);
    await it.return();
    expect(s.calls).toHaveLength(2);
  });

  it('ends at a page the server sent none of (a null list, no Result element)', async () => {
    const calls: number[] = [];
    const call = (p: Params) => {
      calls.push(p.skip);
      return Promise.resolve(p.skip === 0 ? [0, 1] : undefined);
    };
    const items = await collect(
      iteratePages(call, { skip: 0, size: 2 }, { skip: 'skip', size: 'size' }),
    );
    expect([items, calls]).toEqual([
      [0, 1],
      [0, 2],
    ]);
  });

  it.each([0, -1, Number.NaN])('refuses a page size of %s (it would never end)', async (size) => {
    const s = server(10, 1000);
    await expect(
      collect(iteratePages(s.call, { skip: 0, size }, { skip: 'skip', size: 'size' })),
    ).rejects.toThrow(`size must be a number above 0 to page, got ${JSON.stringify(size)}`);
    expect(s.calls).toEqual([]);
  });
});
