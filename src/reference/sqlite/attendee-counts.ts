// Migration 2: live attendee counts per event and per ticket type, by attendee status type, equal
// to the GROUP BYs over attendee they replace. GetEventDetails, the calendar, GetAttendeeTypes and
// the capacity checks read a few rows here instead of counting every attendee of an event.
// Triggers keep the counts inside the writing statement's own transaction, whoever writes
// (handlers, `evgen seed`, another process), so no reader ever sees a count that disagrees with the
// rows, and there is no cache to invalidate. Exact while foreign keys hold (openDatabase turns them
// on for every connection). Rows that reach 0 stay.

/** The attendee's contribution: to the event of its booking and to its ticket type. */
const ADD = (row: 'NEW' | 'OLD') => `
    INSERT INTO event_attendee_count (event_id, status_type, n)
      SELECT b.event_id, s.status_type, 1 FROM booking b, attendee_status s WHERE b.id = ${row}.booking_id AND s.id = ${row}.status_id
      ON CONFLICT DO UPDATE SET n = n + 1;
    INSERT INTO ticket_attendee_count (ticket_type_id, status_type, n)
      SELECT ${row}.ticket_type_id, s.status_type, 1 FROM attendee_status s WHERE s.id = ${row}.status_id
      ON CONFLICT DO UPDATE SET n = n + 1;`;
const SUBTRACT = (row: 'NEW' | 'OLD') => `
    UPDATE event_attendee_count SET n = n - 1
      WHERE (event_id, status_type) = (SELECT b.event_id, s.status_type FROM booking b, attendee_status s WHERE b.id = ${row}.booking_id AND s.id = ${row}.status_id);
    UPDATE ticket_attendee_count SET n = n - 1
      WHERE ticket_type_id = ${row}.ticket_type_id AND status_type = (SELECT status_type FROM attendee_status WHERE id = ${row}.status_id);`;

/** The trigger counting inserted attendees (seeding sets it aside and tallies its own: seed/tally.ts). */
export const INSERT_TRIGGER = `CREATE TRIGGER attendee_count_insert AFTER INSERT ON attendee BEGIN ${ADD('NEW')}
  END;`;

export const ATTENDEE_COUNTS = `
  CREATE TABLE event_attendee_count (event_id INTEGER NOT NULL, status_type TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (event_id, status_type)) WITHOUT ROWID;
  CREATE TABLE ticket_attendee_count (ticket_type_id INTEGER NOT NULL, status_type TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (ticket_type_id, status_type)) WITHOUT ROWID;
  INSERT INTO event_attendee_count (event_id, status_type, n)
    SELECT b.event_id, s.status_type, count(*) FROM attendee a JOIN attendee_status s ON s.id = a.status_id JOIN booking b ON b.id = a.booking_id GROUP BY b.event_id, s.status_type;
  INSERT INTO ticket_attendee_count (ticket_type_id, status_type, n)
    SELECT a.ticket_type_id, s.status_type, count(*) FROM attendee a JOIN attendee_status s ON s.id = a.status_id GROUP BY a.ticket_type_id, s.status_type;

  ${INSERT_TRIGGER}
  CREATE TRIGGER attendee_count_delete AFTER DELETE ON attendee BEGIN ${SUBTRACT('OLD')}
  END;
  CREATE TRIGGER attendee_count_update AFTER UPDATE OF booking_id, status_id, ticket_type_id ON attendee
    WHEN OLD.booking_id IS NOT NEW.booking_id OR OLD.status_id IS NOT NEW.status_id OR OLD.ticket_type_id IS NOT NEW.ticket_type_id
  BEGIN ${SUBTRACT('OLD')} ${ADD('NEW')}
  END;

  -- Rare (no handler does either), but counted exactly: a booking moved to another event, and a
  -- status whose type changes, move their attendees' counts.
  CREATE TRIGGER booking_event_count AFTER UPDATE OF event_id ON booking WHEN OLD.event_id IS NOT NEW.event_id BEGIN
    UPDATE event_attendee_count SET n = n - m.moved
      FROM (SELECT s.status_type, count(*) AS moved FROM attendee a JOIN attendee_status s ON s.id = a.status_id WHERE a.booking_id = NEW.id GROUP BY s.status_type) AS m
      WHERE event_attendee_count.event_id = OLD.event_id AND event_attendee_count.status_type = m.status_type;
    INSERT INTO event_attendee_count (event_id, status_type, n)
      SELECT NEW.event_id, s.status_type, count(*) FROM attendee a JOIN attendee_status s ON s.id = a.status_id WHERE a.booking_id = NEW.id GROUP BY s.status_type
      ON CONFLICT DO UPDATE SET n = n + excluded.n;
  END;
  CREATE TRIGGER attendee_status_type_count AFTER UPDATE OF status_type ON attendee_status WHEN OLD.status_type IS NOT NEW.status_type BEGIN
    UPDATE event_attendee_count SET n = n - m.moved
      FROM (SELECT b.event_id, count(*) AS moved FROM attendee a JOIN booking b ON b.id = a.booking_id WHERE a.status_id = NEW.id GROUP BY b.event_id) AS m
      WHERE event_attendee_count.event_id = m.event_id AND event_attendee_count.status_type = OLD.status_type;
    INSERT INTO event_attendee_count (event_id, status_type, n)
      SELECT b.event_id, NEW.status_type, count(*) FROM attendee a JOIN booking b ON b.id = a.booking_id WHERE a.status_id = NEW.id GROUP BY b.event_id
      ON CONFLICT DO UPDATE SET n = n + excluded.n;
    UPDATE ticket_attendee_count SET n = n - m.moved
      FROM (SELECT ticket_type_id, count(*) AS moved FROM attendee WHERE status_id = NEW.id GROUP BY ticket_type_id) AS m
      WHERE ticket_attendee_count.ticket_type_id = m.ticket_type_id AND ticket_attendee_count.status_type = OLD.status_type;
    INSERT INTO ticket_attendee_count (ticket_type_id, status_type, n)
      SELECT ticket_type_id, NEW.status_type, count(*) FROM attendee WHERE status_id = NEW.id GROUP BY ticket_type_id
      ON CONFLICT DO UPDATE SET n = n + excluded.n;
  END;
`;

/** The same counts from the rows, as the handlers computed them before migration 2 (for tests and checks). */
export const LIVE_EVENT_COUNTS =
  'SELECT b.event_id, s.status_type, count(*) AS n FROM attendee a JOIN attendee_status s ON s.id = a.status_id JOIN booking b ON b.id = a.booking_id GROUP BY b.event_id, s.status_type ORDER BY 1, 2';
export const LIVE_TICKET_COUNTS =
  'SELECT a.ticket_type_id, s.status_type, count(*) AS n FROM attendee a JOIN attendee_status s ON s.id = a.status_id GROUP BY a.ticket_type_id, s.status_type ORDER BY 1, 2';
