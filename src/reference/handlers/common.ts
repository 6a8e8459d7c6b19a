// Shared by the handlers: exact money formatting, booleans, and the faults for missing records.
import { ServiceFault } from '@evgen/runtime';
import type { Db } from '../db/open.js';

/** Integer minor units → a decimal string with exactly `scale` places, with no float in between. */
export function fixed(units: number, scale: number): string {
  const digits = String(Math.abs(units)).padStart(scale + 1, '0');
  return `${units < 0 ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}
export const money = (cents: number) => fixed(cents, 2);
export const e5 = (units: number) => fixed(units, 5);
export const bool = (v: number) => v === 1;

/** A SQLite row. Values are checked by the generated encoders on the way out (int32, decimal scale, dateTime form). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Row = Record<string, any>;

export const notFound = (what: string) => new ServiceFault('NotFound', `${what} does not exist`);
export const invalid = (message: string) => new ServiceFault('InvalidParameter', message);

export function requireEvent(db: Db, eventId: number): void {
  if (!db.prepare('SELECT 1 FROM event WHERE id = ?').get(eventId))
    throw notFound(`event ${eventId}`);
}

/**
 * The rows of a query whose one value is `json_group_array(json_array(<columns>) ORDER BY ...)`,
 * as arrays. On Node 20 better-sqlite3 converts every value through its own V8 API call; for long
 * or wide results SQLite writing JSON and one JSON.parse cost a third of that (the attendees of a
 * 100-booking page: 1.5 ms as row objects, 0.9 ms as raw arrays, 0.5 ms as JSON). Exact for TEXT
 * and INTEGER columns (integers beyond 2^53 round as better-sqlite3 rounds them); SQLite would
 * print a REAL with 15 significant digits, so read no REAL column this way.
 */
export function jsonRows<T>(db: Db, sql: string, ...params: unknown[]): T[] {
  return JSON.parse(
    db
      .prepare(sql)
      .pluck()
      .get(...params) as string,
  ) as T[];
}

/** Rows for a list of ids through json_each, so the id list is one bound parameter. */
export const idList = (ids: readonly number[]) => JSON.stringify(ids);

export function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}
