// The reference service at size, run by the bench: two databases (3,000 and 100,000 bookings on
// two events), each figure side by side in one run.
import { defaultWorkers } from '../reference/serve.js';
import { withTempDir } from './children.js';
import {
  manyNamesRefusal,
  pageCost,
  pageOverHttp,
  seededDatabase,
  smallUnderLoad,
  type PageCost,
  type SmallUnderLoad,
} from './reference.js';

export interface SizeFigures {
  /** 3,000 then 100,000 bookings. */
  readonly pageCost: PageCost[];
  readonly pageOverHttpMs: number;
  /** On the request loop (workers 0), then on worker threads (the default). */
  readonly underLoad: SmallUnderLoad[];
  readonly manyNamesMs: number;
}

export function benchReference(quick: boolean): Promise<SizeFigures> {
  return withTempDir('evgen-size-', async (dir) => {
    const sizes = [3_000, 100_000];
    const dbs = sizes.map((n) => seededDatabase(dir, n));
    const pageCosts: PageCost[] = [];
    for (const [i, db] of dbs.entries()) pageCosts.push(await pageCost(db, sizes[i]!, quick));
    const large = dbs[1]!;
    const seconds = quick ? 4 : 10;
    return {
      pageCost: pageCosts,
      pageOverHttpMs: await pageOverHttp(large, defaultWorkers(), quick),
      underLoad: [
        await smallUnderLoad(large, 0, seconds),
        await smallUnderLoad(large, defaultWorkers(), seconds),
      ],
      manyNamesMs: await manyNamesRefusal(large, quick),
    };
  });
}
