// A reference service on a new, freshly seeded database of the tier's backend (a SQLite file, or
// a PostgreSQL database in the pg tier), with a client holding its demo key and ad-hoc reads of
// its database.
import { EventServiceClient } from '@evgen/event-management/client';
import { completeClient, type CompleteClient } from '../../support/complete.js';
import { BINDING_IDS, type BindingId } from '@evgen/event-management/service';
import {
  startReferenceService,
  type ReferenceOptions,
  type ReferenceService,
} from '../../../src/reference/serve.js';
import type { ReferenceDatabase } from '../../../src/reference/database.js';
import { newDatabase, reader } from '../../support/backend.js';

export interface Reference extends ReturnType<typeof reader> {
  readonly svc: ReferenceService;
  /** A client whose results are checked complete: our server sends every element. */
  readonly client: (binding?: BindingId) => CompleteClient;
  readonly logs: string[];
  stop(): Promise<void>;
}

export async function startReference(
  seed = { events: 12, bookings: 400 },
  options: Pick<
    ReferenceOptions,
    | 'cors'
    | 'testForms'
    | 'workers'
    | 'maxConnectionsPerClient'
    | 'admin'
    | 'logLevel'
    | 'testControls'
  > = {},
): Promise<Reference> {
  const db = await newDatabase();
  const logs: string[] = [];
  const svc = await startReferenceService({
    database: db.target,
    port: 0,
    log: (l) => logs.push(l),
    seed,
    ...options,
  });
  const key = svc.demoKey!;
  return {
    svc,
    logs,
    ...reader(svc.database),
    client: (binding: BindingId = BINDING_IDS[0]) =>
      completeClient(
        new EventServiceClient({
          baseUrl: svc.server.url,
          apiKey: key.apiKey,
          secretKey: key.secretKey,
          binding,
        }),
      ),
    async stop() {
      await svc.close();
      await db.remove();
    },
  };
}

/**
 * A new ticket type of `capacity` places on event `eventId`, for its Delegate attendee type (the
 * seeded ones are large): the ids to book it with.
 */
export async function limitedTicketType(
  db: ReferenceDatabase,
  eventId: number,
  capacity: number,
): Promise<{ attendeeTypeId: number; ticketTypeId: number }> {
  const { one } = reader(db);
  const { id: attendeeTypeId } = await one<{ id: number }>(
    "SELECT id FROM attendee_type WHERE event_id = ? AND name = 'Delegate'",
    eventId,
  );
  const { id: ticketTypeId } = await one<{ id: number }>(
    "INSERT INTO ticket_type (event_id, name, capacity, gross_price_e5, tax_rate_e5, days_valid, is_open, available_from, available_to, min_age, external_site) VALUES (?, 'Limited', ?, 1200000, 20000, NULL, 1, '2026-01-01T00:00:00', '2027-01-01T00:00:00', 0, 0) RETURNING id",
    eventId,
    capacity,
  );
  await db.query(
    'INSERT INTO ticket_type_attendee_type (ticket_type_id, attendee_type_id) VALUES (?, ?)',
    ticketTypeId,
    attendeeTypeId,
  );
  return { attendeeTypeId, ticketTypeId };
}
