// OpenTelemetry: one server span per request, when the process registered a tracer provider
// (@opentelemetry/api; without one the API's tracer records nothing). The span is made on the
// request loop from the request's record, whichever worker served it: named by the operation,
// child of the caller's span when a valid W3C traceparent came with the request, with the
// operation, binding, status and fault code as attributes; a fault that says the service failed
// (SOAP 1.2 Receiver: Unavailable, Internal) is an error, one that says the request was wrong is not.
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import { serviceFailed, type RequestRecord } from './logger.js';
import { traceContextOf } from './request-id.js';

const TRACER = 'evgen-reference-service';

/** The span's attributes, those the record has (assigned, not spread: one per request). */
function spanAttributes(r: RequestRecord): Attributes {
  const a: Attributes = { 'rpc.system': 'soap', 'http.response.status_code': r.status };
  if (r.operation) a['rpc.method'] = r.operation;
  if (r.binding) a['evgen.binding'] = r.binding;
  if (r.faultCode) a['evgen.fault_code'] = r.faultCode;
  if (r.requestId) a['evgen.request_id'] = r.requestId;
  return a;
}

export function recordServerSpan(r: RequestRecord): void {
  const caller = traceContextOf(r.traceparent);
  const parent = caller
    ? trace.setSpanContext(ROOT_CONTEXT, {
        traceId: caller.traceId,
        spanId: caller.parentId,
        traceFlags: caller.flags,
        isRemote: true,
      })
    : ROOT_CONTEXT;
  const end = Date.now();
  const span = trace.getTracer(TRACER).startSpan(
    r.operation ?? r.binding ?? 'request',
    {
      kind: SpanKind.SERVER,
      startTime: end - r.durationMs,
      attributes: spanAttributes(r),
    },
    parent,
  );
  if (serviceFailed(r.faultCode))
    span.setStatus({ code: SpanStatusCode.ERROR, message: r.faultCode });
  span.end(end);
}
