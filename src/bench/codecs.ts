// Codec throughput on a GetBookings SOAP 1.1 response, next to baselines on the same bytes:
// fast-xml-parser's generic parse (untyped objects), saxes tokenising with no objects built (the
// floor for a saxes-based decoder), and fast-xml-parser's XMLBuilder writing the same graph.
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import { SaxesParser } from 'saxes';
import { parseXml, readSoapEnvelope, writeSoapEnvelope } from '@evgen/runtime';
import { operations } from '../../generated/src/operations.js';
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

export function benchCodecs(n: number, quick: boolean): CodecFigures {
  const value = bookings(n);
  const xml = writeSoapEnvelope('1.1', undefined, op.encodeSoapResponse(value, NS));
  const bytes = Buffer.byteLength(xml);
  const opts = quick ? { rounds: 3, minMs: 150 } : { rounds: 5, minMs: 400 };

  const decode = rate(bytes, () => op.decodeSoapResponse(readSoapEnvelope(parseXml(xml)).payload!, NS), opts);
  const encode = rate(bytes, () => writeSoapEnvelope('1.1', undefined, op.encodeSoapResponse(value, NS)), opts);
  const fxp = new XMLParser({ ignoreAttributes: false, removeNSPrefix: true });
  const fxpParse = rate(bytes, () => fxp.parse(xml), opts);
  const saxes = rate(bytes, () => {
    const p = new SaxesParser({ xmlns: true });
    p.on('opentag', () => undefined);
    p.on('text', () => undefined);
    p.write(xml).close();
  }, opts);
  // The same object graph, shaped the way XMLBuilder expects it.
  const graph = { 'soap:Envelope': { '@_xmlns:soap': 'http://schemas.xmlsoap.org/soap/envelope/', 'soap:Body': { GetBookingsResponse: { '@_xmlns': NS, GetBookingsResult: { BookingResponse: value.map((b) => ({ ...b, Attendees: { AttendeeResponse: b.Attendees } })) } } } } };
  const builder = new XMLBuilder({ ignoreAttributes: false });
  const fxpBuild = rate(bytes, () => builder.build(graph), opts);
  return { bookings: n, bytes, decodeMBs: decode.mbPerSec, encodeMBs: encode.mbPerSec, fxpParseMBs: fxpParse.mbPerSec, saxesMBs: saxes.mbPerSec, fxpBuildMBs: fxpBuild.mbPerSec };
}
