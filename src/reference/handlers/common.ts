// Shared by the handlers: exact money formatting, the faults for missing records, grouping.
import { fault } from '../faults.js';

/** Integer minor units → a decimal string with exactly `scale` places, with no float in between. */
export function fixed(units: number, scale: number): string {
  const digits = String(Math.abs(units)).padStart(scale + 1, '0');
  return `${units < 0 ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}
/** Money amounts have 2 places; ticket-type prices and tax rates 5 (spec/primitives.yaml). */
export const MONEY_SCALE = 2;
export const PRICE_SCALE = 5;
export const money = (cents: number) => fixed(cents, MONEY_SCALE);
export const e5 = (units: number) => fixed(units, PRICE_SCALE);

export const notFound = (what: string) => fault('NotFound', `${what} does not exist`);
export const invalid = (message: string) => fault('InvalidParameter', message);

/** The record, or a NotFound fault naming what is missing. */
export function found<T>(record: T | undefined, what: string): T {
  if (record === undefined) throw notFound(what);
  return record;
}

/** The local dateTime now (yyyy-MM-ddTHH:mm:ss, UTC clock): ISO's first 19 characters. */
export const LOCAL_DATE_TIME_LENGTH = 19;
export const nowLocal = () => new Date().toISOString().slice(0, LOCAL_DATE_TIME_LENGTH);

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

/** The rows grouped under `key`, each mapped; a key with no rows gets an empty list. */
export function listsBy<T, K, U>(
  rows: readonly T[],
  key: (row: T) => K,
  map: (row: T) => U,
): (k: K) => U[] {
  const groups = groupBy(rows, key);
  return (k) => (groups.get(k) ?? []).map(map);
}
