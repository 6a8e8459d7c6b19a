// Codec throughput on a GetBookings SOAP 1.1 response, next to baselines on the same bytes:
// fast-xml-parser's generic parse (untyped objects), saxes tokenising with no objects built (the
// floor for a saxes-based decoder), and fast-xml-parser's XMLBuilder writing the same graph. Every
// figure starts from, or ends in, the UTF-8 bytes of the response body, as on the wire.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import { SaxesParser } from 'saxes';
import { readSoapEnvelope, readXml, writeSoapMessage } from '@evgen/runtime/internal';
import { operations } from '@evgen/event-management/operations';
import { childCommand } from './entries.js';
import { rate } from './measure.js';
import { bookings } from './samples.js';

const NS = 'https://127.0.0.1/API/1_0/SOAP/';
const op = operations.GetBookings;

export interface CodecFigures {
  readonly bookings: number;
  readonly bytes: number;
  readonly decodeMBs: number;
  readonly encodeMBs: number;
  readonly fxpParseMBs: number;
  readonly saxesMBs: number;
  readonly fxpBuildMBs: number;
}

export const MEASURES = ['decode', 'encode', 'fxpParse', 'saxes', 'fxpBuild'] as const;
export type Measure = (typeof MEASURES)[number];

/** One figure, in this process (codec-child.ts runs it in a fresh one). */
export function measureOne(
  which: Measure,
  n: number,
  quick: boolean,
): { bytes: number; mbPerSec: number } {
  const value = bookings(n);
  const encode = () =>
    writeSoapMessage('1.1', undefined, (out) => op.encodeSoapResponse(value, NS, out)).bytes();
  const body = Buffer.from(encode());
  const bytes = body.length;
  const opts = quick ? { rounds: 3, minMs: 150 } : { rounds: 5, minMs: 400 };
  const fns: Record<Measure, () => unknown> = {
    decode: () => {
      const d = readXml(body);
      return op.decodeSoapResponse(d, readSoapEnvelope(d).payload, NS);
    },
    encode,
    // fast-xml-parser's result is untyped: the bench only needs it made.
    fxpParse: (): unknown =>
      new XMLParser({ ignoreAttributes: false, removeNSPrefix: true }).parse(body),
    saxes: () => {
      const p = new SaxesParser({ xmlns: true });
      p.on('opentag', () => undefined);
      p.on('text', () => undefined);
      p.write(body.toString('utf8')).close();
    },
    fxpBuild: () => {
      // The same object graph, shaped the way XMLBuilder expects it.
      const graph = {
        'soap:Envelope': {
          '@_xmlns:soap': 'http://schemas.xmlsoap.org/soap/envelope/',
          'soap:Body': {
            GetBookingsResponse: {
              '@_xmlns': NS,
              GetBookingsResult: {
                BookingResponse: value.map((b) => ({
                  ...b,
                  Attendees: { AttendeeResponse: b.Attendees },
                })),
              },
            },
          },
        },
      };
      return Buffer.from(new XMLBuilder({ ignoreAttributes: false }).build(graph));
    },
  };
  return { bytes, mbPerSec: rate(bytes, fns[which], opts).mbPerSec };
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Every figure in a fresh process: V8 optimises saxes differently depending on what ran before in
 * the same process (saxes ran several times slower after other saxes users), so in-process
 * baselines would depend on their order.
 */
export async function benchCodecs(n: number, quick: boolean): Promise<CodecFigures> {
  const out: Partial<Record<Measure, number>> = {};
  let bytes = 0;
  const { args, env } = childCommand('codec-child');
  for (const which of MEASURES) {
    const { stdout } = await promisify(execFile)(
      'node',
      [...args, which, String(n), quick ? '1' : '0'],
      { cwd: ROOT, env, maxBuffer: 1 << 20 },
    );
    const r = JSON.parse(stdout) as { bytes: number; mbPerSec: number };
    out[which] = r.mbPerSec;
    bytes = r.bytes;
  }
  return {
    bookings: n,
    bytes,
    decodeMBs: out.decode!,
    encodeMBs: out.encode!,
    fxpParseMBs: out.fxpParse!,
    saxesMBs: out.saxes!,
    fxpBuildMBs: out.fxpBuild!,
  };
}
