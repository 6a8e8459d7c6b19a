// Peak memory of decoding one large GetBookings response, in a process of its own that only reads
// the document from a file and decodes it, so nothing else sets its peak RSS. The baseline is the
// RSS with the document's bytes read; the peak is VmHWM, restarted just before decoding.
// Prints {"bytes":…,"baselineRss":…,"peakRss":…,"decoded":…}.
import { readFileSync } from 'node:fs';
import { readSoapEnvelope, readXml } from '@evgen/runtime/internal';
import { operations } from '@evgen/event-management/operations';
import { peakRss, resetPeakRss } from './measure.js';

const [file, ns] = process.argv.slice(2) as [string, string];
const bytes = readFileSync(file);
const baselineRss = process.memoryUsage.rss();
resetPeakRss();
const d = readXml(bytes);
const decoded = operations.GetBookings.decodeSoapResponse(d, readSoapEnvelope(d).payload, ns);
process.stdout.write(
  JSON.stringify({
    bytes: bytes.length,
    baselineRss,
    peakRss: peakRss(),
    decoded: decoded?.length,
  }),
);
