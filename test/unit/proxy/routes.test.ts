// What a request is, from its method, target and Content-Type, by the service's tables.
import { describe, expect, it } from 'vitest';
import { WIRE } from '@evgen/event-management/service';
import { routeOf } from '../../../src/proxy/routes.js';

const E = WIRE.endpointPath;
const cases: { given: [string, string, string | undefined]; want: string }[] = [
  { given: ['POST', E, 'text/xml; charset=utf-8'], want: 'soap soap11' },
  { given: ['POST', E, 'application/soap+xml; charset=utf-8; action="x"'], want: 'soap soap12' },
  { given: ['GET', `${E}/GetBooking?bookingId=1`, undefined], want: 'http httpGet GetBooking' },
  {
    given: ['POST', `${E}/GetBooking`, 'application/x-www-form-urlencoded'],
    want: 'http httpPost GetBooking',
  },
  { given: ['GET', `${E}?WSDL`, undefined], want: 'wsdl' },
  { given: ['GET', `${E}?op=GetBooking`, undefined], want: 'help' },
  { given: ['POST', E, 'application/json'], want: 'stray' },
  { given: ['PUT', `${E}/GetBooking`, undefined], want: 'stray' },
  { given: ['GET', `${E}x`, undefined], want: 'stray' },
  { given: ['OPTIONS', E, undefined], want: 'other' },
  { given: ['GET', '/health', undefined], want: 'other' },
];

describe('routeOf', () => {
  it.each(cases)('$given.0 $given.1 → $want', ({ given, want }) => {
    const r = routeOf(WIRE, ...given);
    const parts = [
      r.kind,
      ...('binding' in r ? [r.binding.id] : []),
      ...('operation' in r ? [r.operation] : []),
    ];
    expect(parts.join(' ')).toBe(want);
  });
});
