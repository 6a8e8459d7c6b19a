// A writer of the replay log in a process of its own (replay-log.test.ts): from `startAt` (ms, so
// that several start together), records keys `prefix`0 .. `prefix`(count-1) in turns of `turn`,
// starting at key `from` and going round, then prints which it saw as a JSON array (by key);
// with `progress`, prints instead after every turn how many keys it has recorded (answered).
import { ReplayLog } from '../../src/reference/replay-log/replay-log.js';

const [dir, prefix, count, turn, now, startAt, from, mode] = process.argv.slice(2).map(String);
const n = Number(count);
const log = new ReplayLog(dir!, { nowMs: Number(now) });
while (Date.now() < Number(startAt));
const seen: boolean[] = [];
for (let i = 0; i < n; i += Number(turn)) {
  const keys = Array.from(
    { length: Math.min(Number(turn), n - i) },
    (_, k) => (Number(from) + i + k) % n,
  );
  const at = Number(now);
  const found = await Promise.all(keys.map((k) => log.seen(`${prefix}${k}`, at + 300_000, at)));
  if (mode === 'progress') process.stdout.write(`${i + keys.length}\n`);
  else keys.forEach((k, j) => (seen[k] = found[j]!));
}
log.close();
process.stdout.write(JSON.stringify(seen));
