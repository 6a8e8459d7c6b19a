// The time now in ISO 8601 (Date.prototype.toISOString), formatted once per millisecond: a busy
// service stamps many log entries in one, and formatting a date cost a sizeable part of a small
// request's log line.
let stampMs = NaN;
let stamp = '';

/** `new Date().toISOString()`, kept for the millisecond it was made in. */
export function isoNow(): string {
  const ms = Date.now();
  if (ms !== stampMs) {
    stampMs = ms;
    stamp = new Date(ms).toISOString();
  }
  return stamp;
}
