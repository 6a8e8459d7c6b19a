// View of generated/src/service.ts: the service's constants and its wire tables (endpoint,
// namespace rule, bindings, fault codes) as the literals the engines of @evgen/runtime receive.
import type { IrBinding, IrFault, IrSpec } from '../ir/model.js';
import { FAULT_ROLES, type FaultRole } from '../spec/format-service.js';
import { docLines, header, provenanceLine } from './ts-names.js';

const json = (v: unknown) => JSON.stringify(v);

/** The code the engine raises for `role`: one for each role, none for an optional one left out. */
export const raisedBy = (ir: IrSpec, role: FaultRole): IrFault | undefined =>
  ir.faults.find((f) => f.raisedFor === role);

function bindingView(b: IrBinding) {
  return {
    docs: docLines([
      `${b.title}.`,
      ...b.docs,
      b.gap ? `Where the document is silent: gap ${b.gap} in spec/gaps.yaml.` : undefined,
      provenanceLine(b.provenance),
    ]),
    literal: json({
      id: b.id,
      title: b.title,
      kind: b.kind,
      soapVersion: b.soapVersion,
      method: b.method,
      path: b.path,
      requestContentType: b.requestContentType,
      responseContentType: b.responseContentType,
      soapAction: b.soapAction,
    }),
  };
}

/** How each binding carries a fault code, as the README and help tables show it. */
export function faultCarriage(f: IrFault) {
  return {
    soap11Status: f.soap11Status,
    soap12Status: f.soap12Status,
    http: `${f.httpStatuses.join(', ')}${f.retryAfterSeconds === null ? '' : `, Retry-After: ${f.retryAfterSeconds} s`}`,
  };
}

function faultView(f: IrFault) {
  return {
    docs: docLines([f.doc, provenanceLine(f.provenance)]),
    literal: json({
      code: f.code,
      soap11: f.soap11,
      soap12: f.soap12,
      soap11Status: f.soap11Status,
      soap12Status: f.soap12Status,
      httpStatuses: f.httpStatuses,
      message: f.message,
      retryAfterSeconds: f.retryAfterSeconds,
    }),
  };
}

export function serviceTablesView(ir: IrSpec) {
  const s = ir.service;
  return {
    header: header('spec/service.yaml, spec/authentication.yaml and spec/errors.yaml'),
    docs: docLines([s.doc, provenanceLine(s.provenance)]),
    service: {
      name: json(s.name),
      title: json(s.title),
      version: json(s.version),
      endpointPath: json(s.endpointPath),
      namespace: json(s.namespace),
      clockSkewSeconds: ir.auth.clockSkewSeconds,
      replayRefused: ir.auth.replayRefused,
      timestampFormat: json(ir.auth.timestampFormat),
    },
    wsdlContentType: json(s.wsdlContentType),
    bindings: ir.bindings.map(bindingView),
    bindingIds: ir.bindings.map((b) => json(b.id)),
    faults: {
      detailElement: json(ir.faultDetailElement),
      httpContentType: json(ir.faultHttpContentType),
      transportStatuses: json(ir.faultTransportStatuses),
      // A role without a code (notImplemented, optional) has no entry.
      raisedFor: json(
        Object.fromEntries(
          FAULT_ROLES.flatMap((role) => {
            const f = raisedBy(ir, role);
            return f ? [[role, f.code]] : [];
          }),
        ),
      ),
      codes: ir.faults.map(faultView),
    },
    faultCodes: ir.faults.map((f) => json(f.code)),
  };
}
