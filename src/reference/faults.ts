// The faults the reference service throws, by the codes of spec/errors.yaml: a code the spec does
// not have fails to compile (the engine would answer an unknown code as Internal).
import { ServiceFault } from '@evgen/runtime';
import type { FaultCode } from '@evgen/event-management/service';

export const fault = (code: FaultCode, message: string) => new ServiceFault(code, message);

/**
 * The service cannot take the request now and did nothing (503 with Retry-After on every
 * binding). `cause`, the error underneath, goes to the log line only.
 */
export const unavailable = (why: string, cause?: unknown) =>
  new ServiceFault('Unavailable' satisfies FaultCode, why, undefined, { cause });
