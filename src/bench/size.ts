// The reference service at size, run by the bench: `evgen seed` at 1,000,000 bookings (100,000
// with --quick), then two databases (3,000 and 100,000 bookings on two events), each figure side
// by side in one run.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { defaultWorkers } from '../reference/serve.js';
import { withTempDir } from './children.js';
import { EVGEN_BIN } from './entries.js';
import {
  manyNamesRefusal,
  pageCosts,
  pageOverHttp,
  seededDatabase,
  smallUnderLoad,
  type PageCost,
  type SmallUnderLoad,
} from './reference.js';

export interface SizeFigures {
  /** `evgen seed` as an operator runs it, the whole command (progress bar to a pipe). */
  readonly seed: { readonly bookings: number; readonly seconds: number };
  /** 3,000 then 100,000 bookings. */
  readonly pageCost: PageCost[];
  readonly pageOverHttpMs: number;
  /** On the request loop (workers 0), then on worker threads (the default). */
  readonly underLoad: SmallUnderLoad[];
  readonly manyNamesMs: number;
}

export function benchReference(quick: boolean): Promise<SizeFigures> {
  return withTempDir('evgen-size-', async (dir) => {
    const seed = await seedCommand(join(dir, 'seeded.sqlite'), quick ? 100_000 : 1_000_000);
    const sizes = [3_000, 100_000];
    const dbs = sizes.map((n) => seededDatabase(dir, n));
    const pageCost = await pageCosts(
      dbs.map((db, i) => ({ ...db, bookings: sizes[i]! })),
      quick,
    );
    const large = dbs[1]!;
    const seconds = quick ? 4 : 10;
    return {
      seed,
      pageCost,
      pageOverHttpMs: await pageOverHttp(large, defaultWorkers(), quick),
      underLoad: [
        await smallUnderLoad(large, 0, seconds),
        await smallUnderLoad(large, defaultWorkers(), seconds),
      ],
      manyNamesMs: await manyNamesRefusal(large, quick),
    };
  });
}

async function seedCommand(db: string, bookings: number): Promise<SizeFigures['seed']> {
  const args = [EVGEN_BIN, 'seed', '--db', db, '--events', '2', '--bookings', String(bookings)];
  const started = performance.now();
  await promisify(execFile)('node', args, { maxBuffer: 1 << 20 });
  return { bookings, seconds: (performance.now() - started) / 1000 };
}
