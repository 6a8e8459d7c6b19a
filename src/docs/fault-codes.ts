// docs/reference/fault-codes.md: the closed set of fault codes, how each binding carries it and
// when the engine raises it, read from spec/errors.yaml through the IR.
import type { FaultRole, IrSpec } from '../generator/ir/model.js';
import { faultCarriage } from '../generator/views/service-tables-view.js';
import { cell, code, generatedHeader, table } from './markdown.js';

/** What each fault role means, in the words a caller needs (spec/format-service.ts FAULT_ROLES). */
const ROLE: Record<FaultRole, string> = {
  authentication: 'the signed header is missing, stale, replayed or wrong',
  request: 'the request cannot be read',
  parameter: 'a parameter is missing or out of range',
  notImplemented: 'a partial server is called for an operation it lacks',
  internal: 'a handler failed',
};

export function faultCodesPage(ir: IrSpec): string {
  return [
    generatedHeader('spec/errors.yaml'),
    '',
    '# Fault codes',
    '',
    `Every fault carries one code in \`<detail><${ir.faultDetailElement}>\` (SOAP) or as`,
    `\`<Code>: <message>\` in a \`${ir.faultHttpContentType}\` body (HTTP GET and POST). The set is`,
    'closed: the generated package exports it as `FAULT_CODES` and `ServiceError.code` holds one',
    'of them.',
    '',
    table(
      [
        'code',
        'SOAP 1.1 (HTTP status)',
        'SOAP 1.2 (HTTP status)',
        'HTTP GET/POST',
        'raised by the engine when',
        'meaning',
      ],
      ir.faults.map((f) => {
        const carriage = faultCarriage(f);
        return [
          code(f.code),
          `${code(f.soap11)} (${carriage.soap11Status})`,
          `${code(f.soap12)} (${carriage.soap12Status})`,
          cell(carriage.http),
          f.raisedFor === null ? '' : cell(ROLE[f.raisedFor]),
          cell(f.doc),
        ];
      }),
    ),
    '',
    `The first HTTP status is the one an HTTP GET/POST fault gets unless the server names another;`,
    `SOAP faults keep ${ir.faultTransportStatuses.map(String).join(', ')} (statuses about the HTTP exchange) on every binding.`,
    '',
  ].join('\n');
}
