// Every fact in spec/ has an effect: each single-value edit below either makes `evgen check` see
// stale output (the generated file that must change is named) or makes `evgen validate` refuse
// the spec. Nothing may pass silently. The spec files come from spec/ itself, so a new file
// without a mutation here fails this test.
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateFiles, type GeneratedFiles } from '../../../src/generator/pipeline.js';
import { SpecError } from '../../../src/generator/spec/diagnostics.js';
import { loadSpec } from '../../../src/generator/spec/load.js';
import { SPEC_DIR, TEMPLATES_DIR } from '../../support/ir.js';
import { removeSpecCopies, specCopy, type SpecEdit } from '../../support/spec-copy.js';

afterAll(removeSpecCopies);

/** `refused`: validate refuses the edit; otherwise the generated file that must change. */
type Caught = 'refused' | `src/${string}` | 'DECISIONS.md' | 'README.md';
interface Mutation extends SpecEdit {
  readonly want: Caught;
}

const MUTATIONS: readonly Mutation[] = [
  // service.yaml: bindings, endpoint, namespace, WSDL names, conventions
  {
    file: 'service.yaml',
    from: 'responseContentType: application/soap+xml; charset=utf-8',
    to: 'responseContentType: application/soap+xml',
    want: 'src/service.ts',
  },
  {
    file: 'service.yaml',
    from: `soapAction: '"{soap_namespace}{Operation}"'`,
    to: `soapAction: '"{soap_namespace}/{Operation}"'`,
    want: 'src/service.ts',
  },
  {
    file: 'service.yaml',
    from: `soapAction: '"{soap_namespace}{Operation}"'`,
    to: `soapAction: '"urn:{Operation}"'`,
    want: 'src/wsdl.ts',
  },
  {
    file: 'service.yaml',
    from: 'endpointPath: /API/1_0/SOAP/ServiceAPI.asmx',
    to: 'endpointPath: /API/1_0/SOAP/EventAPI.asmx',
    want: 'src/service.ts',
  },
  {
    file: 'service.yaml',
    from: '    method: GET\n    path: "{endpoint}/{Operation}"',
    to: '    method: GET\n    path: "{endpoint}/get/{Operation}"',
    want: 'src/service.ts',
  },
  {
    file: 'service.yaml',
    from: '    method: POST\n    path: "{endpoint}/{Operation}"',
    to: '    method: GET\n    path: "{endpoint}/{Operation}"',
    want: 'refused',
  },
  {
    file: 'service.yaml',
    from: 'requestContentType: application/x-www-form-urlencoded',
    to: 'requestContentType: multipart/form-data',
    want: 'refused',
  },
  { file: 'service.yaml', from: 'scheme: https', to: 'scheme: http', want: 'src/service.ts' },
  {
    file: 'service.yaml',
    from: 'portTypePrefix: ServiceAPI',
    to: 'portTypePrefix: EventAPI',
    want: 'src/wsdl.ts',
  },
  {
    file: 'service.yaml',
    from: 'wsdlName: Soap12',
    to: 'wsdlName: Soap12Binding',
    want: 'src/wsdl.ts',
  },
  {
    file: 'service.yaml',
    from: 'contentType: text/xml; charset=utf-8',
    to: 'contentType: application/xml; charset=utf-8',
    want: 'src/service.ts',
  },
  { file: 'service.yaml', from: '    int: int', to: '    int: integer', want: 'refused' },
  {
    file: 'service.yaml',
    from: 'audiences: [wire-lax, typescript]',
    to: 'audiences: [wire-lax, wire-strict, typescript]',
    want: 'README.md',
  },
  {
    file: 'service.yaml',
    from: 'audiences: [wire-lax, typescript]',
    to: 'audiences: [wire-lax, wire_strict]',
    want: 'refused',
  },
  {
    file: 'service.yaml',
    from: 'elementNames: case-sensitive',
    to: 'elementNames: case-insensitive',
    want: 'refused',
  },
  // primitives.yaml: XSD names, scales, docs
  { file: 'primitives.yaml', from: 'xsd: decimal', to: 'xsd: double', want: 'src/wsdl.ts' },
  { file: 'primitives.yaml', from: 'money: 2', to: 'money: 3', want: 'refused' },
  {
    file: 'primitives.yaml',
    from: 'ticketTypePriceAndTaxRate: 5',
    to: 'rate: 5',
    want: 'src/types.ts',
  },
  {
    file: 'primitives.yaml',
    from: 'lexical: yyyy-MM-ddTHH:mm:ss',
    to: 'lexical: yyyy-MM-dd HH:mm:ss',
    want: 'src/types.ts',
  },
  // authentication.yaml
  {
    file: 'authentication.yaml',
    from: 'clockSkewSeconds: 300',
    to: 'clockSkewSeconds: 120',
    want: 'src/service.ts',
  },
  {
    file: 'authentication.yaml',
    from: 'apiKey: APIKey',
    to: 'apiKey: X-Api-Key',
    want: 'src/auth.ts',
  },
  {
    file: 'authentication.yaml',
    from: 'replay: refused',
    to: 'replay: allowed',
    want: 'src/server.ts',
  },
  {
    file: 'authentication.yaml',
    from: 'element: AuthenticationHeader',
    to: 'element: AuthHeader',
    want: 'src/auth.ts',
  },
  {
    file: 'authentication.yaml',
    from: 'message: utf8(Operation + Timestamp)',
    to: 'message: utf8(Timestamp + Operation)',
    want: 'refused',
  },
  // errors.yaml: codes, SOAP codes, statuses, detail element
  { file: 'errors.yaml', from: 'http: [404]', to: 'http: [410]', want: 'src/service.ts' },
  {
    file: 'errors.yaml',
    from: 'detailElement: ErrorCode',
    to: 'detailElement: FaultCode',
    want: 'src/service.ts',
  },
  {
    file: 'errors.yaml',
    from: 'message: Internal error\n      soap11: soap:Server\n      soap12: soap12:Receiver',
    to: 'message: Internal error\n      soap11: soap:Server\n      soap12: soap12:Sender',
    want: 'src/service.ts',
  },
  {
    file: 'errors.yaml',
    from: 'soap11Status: 500',
    to: 'soap11Status: 400',
    want: 'src/service.ts',
  },
  {
    file: 'errors.yaml',
    from: 'transportStatuses: [413, 415, 503]',
    to: 'transportStatuses: [413, 415]',
    want: 'src/service.ts',
  },
  {
    file: 'errors.yaml',
    from: 'retryAfterSeconds: 1',
    to: 'retryAfterSeconds: 2',
    want: 'src/service.ts',
  },
  { file: 'errors.yaml', from: '      retryAfterSeconds: 1\n', to: '', want: 'src/service.ts' },
  {
    file: 'errors.yaml',
    from: 'httpContentType: text/plain; charset=utf-8',
    to: 'httpContentType: text/x-fault',
    want: 'src/service.ts',
  },
  {
    file: 'errors.yaml',
    from: 'message: Internal error',
    to: 'message: Something failed',
    want: 'src/service.ts',
  },
  { file: 'errors.yaml', from: 'raisedFor: parameter', to: 'raisedFor: request', want: 'refused' },
  // NotImplemented: the code the engine raises for an operation without a handler
  { file: 'errors.yaml', from: 'http: [501]', to: 'http: [503]', want: 'src/service.ts' },
  // The role is optional: a code without it leaves the engine no code to answer partial servers with.
  {
    file: 'errors.yaml',
    from: '      raisedFor: notImplemented\n',
    to: '',
    want: 'src/service.ts',
  },
  {
    file: 'errors.yaml',
    from: '- code: NotImplemented\n',
    to: '- code: Unimplemented\n',
    want: 'src/server.ts',
  },
  // operations.yaml: parameter types, flags, roots, result text
  {
    file: 'operations.yaml',
    from: '{ name: roadshowId, type: int }',
    to: '{ name: roadshowId, type: string }',
    want: 'src/operations.ts',
  },
  {
    file: 'operations.yaml',
    from: '{ name: clientUserId, type: int }',
    to: '{ name: clientUserId, type: decimal }',
    want: 'refused', // a decimal parameter names its scale
  },
  {
    file: 'operations.yaml',
    from: 'root: ArrayOfBookingExtResponse',
    to: 'root: ArrayOfBookingExt',
    want: 'src/operations.ts',
  },
  {
    file: 'operations.yaml',
    from: 'http: { shown: false, gap: http-note-a, root: AccommodationResponse }',
    to: 'http: { shown: false, gap: http-note-a, root: AccommodationResponse }\n    mutating: true',
    want: 'refused', // every write is listed in conformance.yaml
  },
  {
    file: 'operations.yaml',
    from: 'text: list of BookingExtResponse',
    to: 'text: a list of bookings',
    want: 'src/types.ts',
  },
  // paging: the client's iterators
  {
    file: 'operations.yaml',
    from: 'paging: { skip: skip, size: size }',
    to: 'paging: { skip: skip }',
    want: 'src/client.ts',
  },
  {
    file: 'operations.yaml',
    from: 'paging: { skip: skip, size: size }',
    to: 'paging: { skip: skip, size: count }',
    want: 'refused',
  },
  // states.yaml
  {
    file: 'states.yaml',
    from: 'trigger: CancelAttendee',
    to: 'trigger: CancelAtendee',
    want: 'refused',
  },
  { file: 'states.yaml', from: 'with: bookingStatusId', to: 'with: statusId', want: 'refused' },
  {
    file: 'states.yaml',
    from: 'to: the default cancelled status',
    to: 'to: the cancelled status',
    want: 'src/client.ts',
  },
  {
    file: 'states.yaml',
    from: 'notShown: [other-transitions, cancel-booking-effect]',
    to: 'notShown: [other-transitions]',
    want: 'DECISIONS.md',
  },
  // gaps.yaml
  {
    file: 'gaps.yaml',
    from: 'No rate limit in the interface or the reference service.',
    to: 'No rate limit.',
    want: 'DECISIONS.md',
  },
  { file: 'gaps.yaml', from: 'id: soap12-action', to: 'id: soap12-actions', want: 'refused' },
  {
    file: 'gaps.yaml',
    from: 'A zone or offset is dropped and the wall-clock value kept,',
    to: 'A zone or offset is converted to the server zone,',
    want: 'DECISIONS.md',
  },
  // conformance.yaml: how the conformance checker finds values, and its hostile sizes
  {
    file: 'conformance.yaml',
    from: 'bodyBytes: 2097152',
    to: 'bodyBytes: 4194304',
    want: 'src/conformance.ts',
  },
  {
    file: 'conformance.yaml',
    from: '{ name: size, parameters: [size], fixed: "5" }',
    to: '{ name: size, parameters: [sizes], fixed: "5" }',
    want: 'refused',
  },
  // types/*.yaml: nullability, optionality, scales, types, item names, one at least per file
  {
    file: 'types/booking.yaml',
    from: '{ name: PAName, type: string, optional: true,',
    to: '{ name: PAName, type: string, optional: false,',
    want: 'src/codecs.ts',
  },
  {
    file: 'types/booking.yaml',
    from: '{ name: GrossCost, type: decimal, scale: 2,',
    to: '{ name: GrossCost, type: decimal, scale: 5,',
    want: 'src/codecs.ts',
  },
  {
    file: 'types/calendar.yaml',
    from: '{ name: SystemOwnerEmail, type: string }',
    to: '{ name: SystemOwnerEmail, type: string, nullable: true }',
    want: 'src/codecs.ts',
  },
  {
    file: 'types/contact.yaml',
    from: 'nullable: true, alwaysNil: true, gap: contact-password',
    to: 'nullable: true, gap: contact-password',
    want: 'src/conformance.ts',
  },
  {
    file: 'types/contact.yaml',
    from: '{ name: Password, type: string, nullable: true, alwaysNil: true,',
    to: '{ name: Password, type: string,',
    want: 'src/codecs.ts',
  },
  {
    file: 'types/event-setup.yaml',
    from: '{ name: AttendeeStatusId, type: int }',
    to: '{ name: AttendeeStatusId, type: string }',
    want: 'src/types.ts',
  },
  {
    file: 'types/event.yaml',
    from: '{ name: ClientCompanyReference, type: EntityReference, nullable: true,',
    to: '{ name: ClientCompanyReference, type: EntityReference,',
    want: 'src/codecs.ts',
  },
  {
    file: 'types/show.yaml',
    from: '{ name: ShowStatus, type: int }',
    to: '{ name: ShowStatus, type: boolean }',
    want: 'src/codecs.ts',
  },
  {
    file: 'types/submission.yaml',
    from: '{ name: LeadAttendeeName, type: string }',
    to: '{ name: LeadAttendeeName, type: string, optional: true }',
    want: 'src/types.ts',
  },
  {
    file: 'types/ticketing.yaml',
    from: '{ name: AttendeeTicketTypes, type: list, of: AttendeeTicketTypeResponse, item: AttendeeTicketTypeResponse }',
    to: '{ name: AttendeeTicketTypes, type: list, of: AttendeeTicketTypeResponse, item: TicketType }',
    want: 'src/wsdl.ts',
  },
];

async function specFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.yaml'))
    .map((e) => relative(dir, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
}

/** What the edit does: refused by validate, or the generated files that change. */
async function outcome(baseline: GeneratedFiles, m: Mutation): Promise<'refused' | string[]> {
  const specDir = await specCopy([m]);
  try {
    await loadSpec(specDir);
  } catch (e) {
    if (e instanceof SpecError) return 'refused';
    throw e;
  }
  const files = await generateFiles({ specDir, templatesDir: TEMPLATES_DIR });
  return [...files.keys()].filter((p) => files.get(p) !== baseline.get(p));
}

describe('every spec fact has an effect', () => {
  let baseline: GeneratedFiles;
  const base = async () =>
    (baseline ??= await generateFiles({ specDir: SPEC_DIR, templatesDir: TEMPLATES_DIR }));

  it('has at least 15 mutations and one for every spec file', async () => {
    expect(MUTATIONS.length).toBeGreaterThanOrEqual(15);
    const covered = new Set(MUTATIONS.map((m) => m.file));
    expect((await specFiles(SPEC_DIR)).filter((f) => !covered.has(f))).toEqual([]);
  });

  for (const m of MUTATIONS)
    it(`spec/${m.file}: ${m.from.trim()} → ${m.to.trim() || '(removed)'} is ${m.want === 'refused' ? 'refused' : `stale in ${m.want}`}`, async () => {
      const got = await outcome(await base(), m);
      if (m.want === 'refused') expect(got).toBe('refused');
      else expect(got === 'refused' ? got : got.includes(m.want), String(got)).toBe(true);
    }, 60_000);
});
