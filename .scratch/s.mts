import { openDatabase } from '../src/reference/db/open.ts';
import { seed } from '../src/reference/seed/index.ts';
import { rmSync } from 'node:fs';
rmSync('/tmp/seedtest', { recursive: true, force: true });
const db = openDatabase('/tmp/seedtest/e.sqlite');
const t = performance.now();
console.log(seed(db, { bookings: Number(process.argv[2] ?? 3000) }), Math.round(performance.now() - t), 'ms');
for (const t of ['event','attendee','booking','contact','attendee_day','session_signup','reservation','submission','ticket_type']) console.log(t, db.prepare(`select count(*) from ${t}`).pluck().get());
