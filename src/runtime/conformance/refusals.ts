// The refusals a faithful server makes, in one table: the runner provokes them with requests of its
// own and names its checks by it; a proxy that sees a request a server must refuse names the same
// check when the answer is not that refusal (AnswerChecker.refusal). The fault role says which
// code of the fault table the refusal carries.
import type { FaultRole } from '../transport/index.js';
import type { CheckFamily } from './model.js';

export interface RefusalDef {
  /** The check's name in reports. */
  readonly check: string;
  /** Its family on SOAP bindings, and on HTTP bindings (whose credentials are a gap decision). */
  readonly family: readonly [CheckFamily, CheckFamily];
  /** The fault table's role whose code the refusal carries. */
  readonly role: FaultRole;
  /** Also refused as the client's error: a 4xx, or a SOAP Client/Sender fault. */
  readonly clientError?: true;
}

const AUTH = ['authentication', 'httpCredentials'] as const;
const WINDOW = ['timestampWindow', 'timestampWindow'] as const;

export const REFUSALS = {
  wrongSignature: { check: 'refuses a wrong signature', family: AUTH, role: 'authentication' },
  unknownKey: { check: 'refuses an unknown API key', family: AUTH, role: 'authentication' },
  noCredentials: {
    check: 'refuses a request without credentials',
    family: AUTH,
    role: 'authentication',
  },
  operationHeader: {
    check: 'refuses an Operation naming another operation (signed)',
    family: AUTH,
    role: 'authentication',
  },
  staleTimestamp: {
    check: 'refuses a stale timestamp (signed)',
    family: WINDOW,
    role: 'authentication',
  },
  futureTimestamp: {
    check: 'refuses a future timestamp (signed)',
    family: WINDOW,
    role: 'authentication',
  },
  malformedTimestamp: {
    check: 'refuses a malformed timestamp (signed)',
    family: WINDOW,
    role: 'authentication',
  },
  replay: { check: 'refuses a replayed request', family: WINDOW, role: 'authentication' },
  unknownOperation: {
    check: 'refuses an operation the interface does not have',
    family: ['unknownOperation', 'unknownOperation'],
    role: 'request',
  },
  soapAction: {
    check: 'refuses a SOAPAction naming another operation',
    family: ['soapAction', 'soapAction'],
    role: 'request',
  },
  malformed: {
    check: 'refuses malformed XML with a fault',
    family: ['wellFormed', 'wellFormed'],
    role: 'request',
    clientError: true,
  },
  // The runner sends no such requests; a proxy sees them, and a faithful server refuses them.
  badRequest: {
    check: "refuses a request in no binding's form",
    family: ['responses', 'responses'],
    role: 'request',
    clientError: true,
  },
  credentialsInQuery: {
    check: 'refuses credentials in the query or form body',
    family: ['httpCredentials', 'httpCredentials'],
    role: 'request',
  },
  invalidParameter: {
    check: 'refuses a parameter the spec does not allow',
    family: ['responses', 'responses'],
    role: 'parameter',
  },
} as const satisfies Record<string, RefusalDef>;

export type RefusalKind = keyof typeof REFUSALS;
