// Requests answered on the request loop because nothing can serve them (a full or missing worker
// lane, a worker that died holding one, a service still starting): each is recorded as a served
// request is (its log line, metrics and span), so the operator sees every answer given.
import type { LogEntry, ServiceFault, ServiceRequest, ServiceResponse } from '@evgen/runtime';
import { isoNow } from '@evgen/runtime/internal';
import { refusal } from './faults.js';
import { bindingOf, operationOf } from './lanes.js';
import type { RequestRecord } from './ops/logger.js';
import { givenRequestId } from './ops/request-id.js';
import { requestRecord } from './service.js';

/** A request, and when the service took it (performance.now()): its answer's duration. */
export interface Taken {
  readonly req: ServiceRequest;
  readonly since: number;
}

/**
 * `refused` answered in the request's binding, after `onRequest` got its record, with `why` for
 * the operator (the client gets only the fault's text).
 */
export function recordedRefusal(
  taken: Taken,
  refused: ServiceFault,
  why: string,
  onRequest: (record: RequestRecord) => void,
): ServiceResponse {
  const { req } = taken;
  const res = refusal(req, refused);
  const requestId = givenRequestId(req);
  const entry: LogEntry = {
    time: isoNow(),
    operation: operationOf(req),
    binding: bindingOf(req),
    status: res.status,
    durationMs: performance.now() - taken.since,
    apiKeyName: undefined,
    faultCode: refused.code,
    ...(requestId === undefined ? {} : { requestId }),
    error: { name: refused.name, message: why },
  };
  onRequest(requestRecord(entry, req, undefined));
  return res;
}
