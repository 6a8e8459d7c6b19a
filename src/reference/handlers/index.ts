// The reference service: every operation of the generated ServiceHandlers, on the database.
import type { ServiceHandlers } from '@evgen/event-management/server';
import type { Db } from '../db/open.js';
import { withStatementCache } from '../db/statements.js';
import { bookingHandlers } from './bookings.js';
import { contactHandlers } from './contacts.js';
import { eventHandlers } from './events.js';
import { setupHandlers } from './setup.js';
import { submitHandler } from './submit.js';

export function referenceHandlers(database: Db): ServiceHandlers {
  const db = withStatementCache(database);
  return {
    ...bookingHandlers(db),
    ...submitHandler(db),
    ...setupHandlers(db),
    ...eventHandlers(db),
    ...contactHandlers(db),
  };
}
