// The faults the reference service throws, by the codes of spec/errors.yaml: a code the spec does
// not have fails to compile (the engine would answer an unknown code as Internal).
import { ServiceFault, type ServiceRequest, type ServiceResponse } from '@evgen/runtime';
import {
  encodeHttpFault,
  encodeSoapFault,
  isPlainHost,
  namespaceFor,
  resolveFault,
  withRequestId,
} from '@evgen/runtime/internal';
import { WIRE, type FaultCode } from '@evgen/event-management/service';
import { soapBindingOf } from './lanes.js';
import { givenRequestId } from './ops/request-id.js';

export const fault = (code: FaultCode, message: string) => new ServiceFault(code, message);

/**
 * The service cannot take the request now and did nothing (503 with Retry-After on every
 * binding). `cause`, the error underneath, goes to the log line only.
 */
export const unavailable = (why: string, cause?: unknown) =>
  new ServiceFault('Unavailable' satisfies FaultCode, why, undefined, { cause });

/**
 * A fault answered on the request loop, in the request's binding (its SOAP form for a POST of a
 * SOAP binding), when no instance of the service can answer it: a full or missing worker lane, a
 * service still starting.
 */
export function refusal(req: ServiceRequest, refused: ServiceFault): ServiceResponse {
  const soap = req.method === 'POST' ? soapBindingOf(req) : undefined;
  const sent = req.headers.host ?? '';
  const ns = namespaceFor(isPlainHost(sent) ? sent : 'localhost', WIRE.namespace);
  // An Internal refusal (the worker died) names the request's id, as the service's own do.
  const resolved = withRequestId(
    resolveFault(refused, WIRE.faults),
    WIRE.faults,
    givenRequestId(req),
  );
  return soap === undefined
    ? encodeHttpFault(resolved, WIRE.faults)
    : encodeSoapFault(soap, resolved, ns, WIRE.faults);
}
