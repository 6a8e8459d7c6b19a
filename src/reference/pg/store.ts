// The PostgreSQL store: the store programs on a pool of connections. A read of one statement runs
// alone; a read of several in one snapshot; the booking and token transactions lock the rows they
// decide on (booking-tx.ts), so any number of nodes on one database never overbook and never use
// a single-use token twice.
import type { InTransaction } from '../store/booking-tx.js';
import type { Program } from '../store/program.js';
import { ProgramStore } from '../store/program-store.js';
import type { StoreObservers } from '../ops/instance-stats.js';
import { PgDatabase } from './database.js';
import { PostgresReplayStore } from './replay-store.js';

export class PostgresStore extends ProgramStore {
  readonly replay: PostgresReplayStore;

  constructor(
    readonly db: PgDatabase,
    observe: StoreObservers = {},
  ) {
    super();
    this.replay = new PostgresReplayStore(db, observe.replay);
  }

  /** A store with a pool of at most `poolSize` connections. */
  static open(url: string, poolSize: number, observe: StoreObservers = {}): PostgresStore {
    const db = PgDatabase.open(url, {
      poolSize,
      ...(observe.pool ? { onPoolChange: observe.pool } : {}),
    });
    return new PostgresStore(db, observe);
  }

  protected one<T>(p: Program<T>) {
    return this.db.run(p, 'statement');
  }
  protected read<T>(p: Program<T>) {
    return this.db.run(p, 'read');
  }
  protected write<T>(p: Program<T>) {
    return this.db.run(p, 'write');
  }
  protected transaction<T>(fn: (inTx: InTransaction) => Promise<T>) {
    return this.db.transaction(fn);
  }

  close() {
    return this.db.close();
  }
}
