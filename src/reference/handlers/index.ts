// The reference service: every operation of the generated ServiceHandlers, on a ReferenceStore.
import type { ServiceHandlers } from '@evgen/event-management/server';
import type { ReferenceStore } from '../store/store.js';
import { bookingHandlers } from './bookings.js';
import { contactHandlers } from './contacts.js';
import { eventHandlers } from './events.js';
import { setupHandlers } from './setup.js';
import { submitHandler } from './submit.js';

export function referenceHandlers(store: ReferenceStore): ServiceHandlers {
  return {
    ...bookingHandlers(store),
    ...submitHandler(store),
    ...setupHandlers(store),
    ...eventHandlers(store),
    ...contactHandlers(store),
  };
}
