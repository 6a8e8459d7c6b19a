// The service-level part of the IR: service, primitives, bindings, authentication, faults, states
// and gaps.
import { AUDIENCES } from '../spec/format-service.js';
import type { RawSpec } from '../spec/load.js';
import { provenance } from './provenance.js';
import type { IrSpec } from './model.js';

type ServicePart = Omit<IrSpec, 'types' | 'operations' | 'conformance' | 'sourceFiles'>;

export function buildService(spec: RawSpec): ServicePart {
  const s = spec.service.service;
  const c = spec.service.conventions;
  const a = spec.authentication.authentication;
  const f = spec.errors.faults;
  const st = spec.states.states;
  const kept = spec.service.compatibility?.audiences;
  return {
    compatibility: {
      audiences: AUDIENCES.filter((a) => kept?.includes(a) ?? true),
      provenance: provenance(spec.service.compatibility?.pos ?? s.pos, 'compatibility'),
    },
    service: {
      name: s.name,
      title: s.title,
      version: s.version,
      doc: s.doc,
      endpointPath: s.endpointPath,
      namespaceRule: s.namespace.rule,
      namespace: { scheme: s.namespace.scheme, path: s.namespace.rule.replace('{base_url}', '') },
      wsdlServiceName: s.wsdl.serviceName,
      wsdlPortTypePrefix: s.wsdl.portTypePrefix,
      wsdlContentType: s.wsdl.contentType,
      elementNames: s.elementNames,
      conventions: [
        `Nil: ${c.nil}`,
        `Lists: ${c.lists} Items of plain lists: ${c.plainListItems.entries.map(([k, v]) => `${k} → <${v}>`).join(', ')}.`,
        `Parameter names: ${c.parameterNames}`,
        `Parameter order: ${c.parameterOrder}`,
        `Element names: ${s.elementNames}.`,
        ...(c.omittedWhenNull
          ? [
              `Omitted when null: a server may leave out the element of a ${c.omittedWhenNull.values.join(', ')} value it does not have, where the field is not nullable (gap ${c.omittedWhenNull.gap}).`,
            ]
          : []),
      ],
      omittedWhenNull: c.omittedWhenNull
        ? { values: c.omittedWhenNull.values, gap: c.omittedWhenNull.gap }
        : null,
      provenance: provenance(s.pos, s.name),
    },
    primitives: spec.primitives.primitives.map((p) => ({
      name: p.name,
      xsd: p.xsd,
      docs: [p.doc],
      lexical: p.lexical,
      scales: (p.scales?.entries ?? []).map(([name, value]) => ({ name, value })),
    })),
    bindings: spec.service.bindings.map((b) => ({
      id: b.id,
      title: b.title,
      kind: b.kind,
      soapVersion: b.soapVersion ?? null,
      method: b.method,
      path: b.path,
      requestContentType: b.requestContentType ?? null,
      responseContentType: b.responseContentType,
      soapAction: b.soapAction ?? null,
      wsdlName: b.wsdlName,
      docs: [`Request: ${b.request}`, `Response: ${b.response}`],
      gap: b.gap ?? null,
      provenance: provenance(b.pos, b.id),
    })),
    auth: {
      docs: [a.doc, ...a.rules],
      headerElement: a.header.element,
      fields: a.header.fields.map((x) => ({ name: x.name, docs: [x.doc] })),
      timestampFormat: a.header.fields.find((x) => x.format !== undefined)?.format ?? '',
      httpHeaders: {
        apiKey: a.httpHeaders.apiKey,
        timestamp: a.httpHeaders.timestamp,
        signature: a.httpHeaders.signature,
        operation: a.httpHeaders.operation,
      },
      clockSkewSeconds: a.window.clockSkewSeconds,
      replayRefused: a.window.replay === 'refused',
      provenance: provenance(a.header.pos, a.header.element),
    },
    faults: f.codes.map((x) => {
      // A code whose default status is about the HTTP exchange (503) keeps it on SOAP too.
      const kept = f.transportStatuses.includes(x.http[0]!) ? x.http[0]! : undefined;
      return {
        code: x.code,
        doc: x.doc,
        raisedFor: x.raisedFor ?? null,
        message: x.message ?? null,
        soap11: x.soap11,
        soap12: x.soap12,
        soap11Status: kept ?? f.soap11Status,
        soap12Status:
          kept ?? (x.soap12.endsWith(':Sender') ? f.soap12Status.sender : f.soap12Status.receiver),
        httpStatuses: x.http,
        retryAfterSeconds: x.retryAfterSeconds ?? null,
        provenance: provenance(x.pos, x.code),
      };
    }),
    faultDetailElement: f.detailElement,
    soapFaultStatuses: {
      soap11: f.soap11Status,
      soap12Sender: f.soap12Status.sender,
      soap12Receiver: f.soap12Status.receiver,
    },
    faultHttpContentType: f.httpContentType,
    faultTransportStatuses: f.transportStatuses,
    states: {
      docs: [st.doc],
      transitions: st.transitions.map((t) => ({
        from: t.from,
        trigger: t.trigger,
        with: t.with,
        condition: t.condition,
        to: t.to,
        also: t.also,
      })),
      notShown: st.notShown,
    },
    gaps: spec.gaps.gaps.map((g) => ({
      id: g.id,
      section: g.section,
      document: g.document,
      status: g.status,
      issue: g.issue ?? null,
      decision: g.decision,
    })),
  };
}
