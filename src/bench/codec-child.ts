// Runs one codec measurement in a process of its own and prints {"bytes":…,"mbPerSec":…}.
import { MEASURES, measureOne, type Measure } from './codecs.js';

const [which, n, quick] = process.argv.slice(2) as [Measure, string, string];
if (!MEASURES.includes(which)) throw new Error(`unknown measure ${which}`);
process.stdout.write(JSON.stringify(measureOne(which, Number(n), quick === '1')));
