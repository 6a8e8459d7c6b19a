// Load generator, run as its own process so it does not share an event loop with the server under
// test. Signs every SOAP request afresh (new Timestamp, new Signature), as a real client must.
import { createHmac } from 'node:crypto';
import autocannon from 'autocannon';

const o = JSON.parse(process.argv[2]);
// Strictly increasing timestamps: the server refuses a repeated one as a replay.
let last = 0;
const setupRequest = (req) => {
  if (!o.sign) return req;
  last = Math.max(last + 1, Date.now());
  const ts = new Date(last).toISOString();
  const sig = createHmac('sha1', o.sign.secret)
    .update(o.sign.operation + ts)
    .digest('base64');
  return { ...req, body: o.body.replace('__TIMESTAMP__', ts).replace('__SIGNATURE__', sig) };
};
const cpu0 = process.cpuUsage();
autocannon(
  {
    url: o.url,
    connections: o.connections,
    duration: o.duration,
    pipelining: 1,
    requests: [{ method: 'POST', path: o.path, headers: o.headers, body: o.body, setupRequest }],
  },
  (err, r) => {
    if (err) throw err;
    const cpu = process.cpuUsage(cpu0);
    process.stdout.write(
      JSON.stringify({
        rps: r.requests.average,
        p50: r.latency.p50,
        p99: r.latency.p99,
        non2xx: r.non2xx,
        errors: r.errors,
        bytes: r.throughput.average,
        cpuMs: (cpu.user + cpu.system) / 1000,
      }),
    );
  },
);
