// Bounds any key holder could otherwise push: the statement cache (1,754 searches of different
// shapes once took RSS from 225 MB to 1.76 GB: every SQL text was prepared and kept), and search
// input (994 terms or a 50,000-character word answered Internal, from SQLite's own limits).
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/reference/sqlite/open.js';
import { StatementCache } from '../../../src/reference/sqlite/statements.js';
import { SqliteStore } from '../../../src/reference/sqlite/store.js';
import { referenceHandlers } from '../../../src/reference/handlers/index.js';
import {
  MAX_QUERY_LENGTH,
  MAX_SEARCH_TERMS,
  MAX_TERM_LENGTH,
} from '../../../src/reference/search.js';
import { seed } from '../../../src/reference/seed/index.js';

const db = openDatabase(':memory:');
seed(db, { events: 8, bookings: 50 });
const store = new SqliteStore(db);
const h = referenceHandlers(store);
const ctx = {
  apiKey: 'k',
  apiKeyName: 'k',
  operation: 'EventProfileSearch',
  binding: 'soap11',
} as const;
const search = (searchQuery: string) => h.eventProfileSearch({ searchQuery }, ctx);

describe('statement cache', () => {
  it('never holds more than its bound, dropping the least recently used', () => {
    const cache = new StatementCache(db, 3);
    for (let i = 0; i < 10; i++) cache.cached(`SELECT ${i}`);
    expect(cache.size).toBe(3);
    cache.cached('SELECT 7'); // used again: kept
    cache.cached('SELECT 100');
    expect(cache.size).toBe(3);
    const kept = cache.cached('SELECT 7');
    expect(cache.cached('SELECT 7')).toBe(kept);
  });

  it('gains nothing from searches of different shapes: search SQL has one shape', async () => {
    await search('warm');
    const size = store.sql.size;
    const words = [
      'data',
      'ai',
      'code:X1',
      'country:UK',
      'type:Webinar',
      'from:2026-01-01',
      '"a b"',
    ];
    for (let n = 1; n <= 200; n++)
      await search(
        Array.from({ length: 1 + (n % 20) }, (_, i) => words[(n + i) % words.length]).join(' '),
      );
    expect(store.sql.size).toBe(size);
  });
});

describe('search input limits', () => {
  it.each([
    { given: 'x '.repeat(994), want: `more than ${MAX_SEARCH_TERMS} terms` },
    { given: 'w'.repeat(50_000), want: `longer than ${MAX_QUERY_LENGTH} characters` },
    {
      given: 'w'.repeat(MAX_TERM_LENGTH + 1),
      want: `a term is longer than ${MAX_TERM_LENGTH} characters`,
    },
  ])('$want', async ({ given, want }) => {
    await expect(search(given)).rejects.toMatchObject({
      code: 'InvalidParameter',
      message: expect.stringContaining(want) as string,
    });
  });

  it('still answers the longest and widest queries within the limits', async () => {
    const words = Array.from({ length: MAX_SEARCH_TERMS }, () => 'e'.repeat(MAX_TERM_LENGTH / 4));
    await expect(search(words.join(' '))).resolves.toMatchObject({ Events: [] });
    await expect(search('%_\\')).resolves.toMatchObject({ Events: [] });
  });
});
