// Answers made from kept values (frozen/derivedOnce, the runtime's encodeKept): event details read
// from the read cache are answered with one frozen value whose XML is made once. An answer still
// follows the database: once anything is committed, every binding answers the new record.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINDING_IDS } from '@evgen/event-management/service';
import { startReference, type Reference } from './harness.js';

let ref: Reference;
beforeAll(async () => {
  ref = await startReference({ events: 3, bookings: 20 }, { workers: 0 });
});
afterAll(() => ref.stop());

const EVENT = 2;
/** Each binding's GetEventDetails3 and GetEventDetails7 titles, read twice (the second kept). */
const titles = async () =>
  Promise.all(
    BINDING_IDS.flatMap((b) => {
      const c = ref.client(b);
      return [1, 2].flatMap(() => [
        c.getEventDetails3({ eventId: EVENT }).then((d) => d.Title),
        c.getEventDetails7({ eventId: EVENT }).then((d) => d.Title),
      ]);
    }),
  );

describe('answers from kept values', () => {
  it.each([
    { given: 'Renamed once', want: 'Renamed once' },
    { given: 'Renamed & again <2>', want: 'Renamed & again <2>' },
  ])('answer $want on every binding after it is committed', async ({ given, want }) => {
    const before = await titles();
    expect(new Set(before).size).toBe(1);
    expect(before[0]).not.toBe(want);
    await ref.svc.database.query('UPDATE event SET title = ? WHERE id = ?', given, EVENT);
    expect(new Set(await titles())).toEqual(new Set([want]));
  });
});
