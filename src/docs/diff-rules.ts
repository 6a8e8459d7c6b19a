// docs/reference/diff-rules.md: the rule catalogue of `evgen diff`, every rule's ID, what it
// catches and its severity for each audience, read from src/diff/rules.ts.
import { AUDIENCES } from '../diff/model.js';
import { RULE_TABLE } from '../diff/rules.js';
import { cell, code, generatedHeader, table } from './markdown.js';

export function diffRulesPage(): string {
  const rules = RULE_TABLE;
  return [
    generatedHeader('src/diff/rules.ts'),
    '',
    '# `evgen diff` rules',
    '',
    `Every change \`evgen diff\` reports names one of these ${rules.length} rules in brackets, with its`,
    'severity for each audience: `breaking` fails for every value, `dangerous` for some values or',
    'uses, `safe` for none. `wire-lax` clients ignore unknown elements and element order (zeep,',
    'node-soap, the generated client); `wire-strict` clients validate against the schema (sequence',
    'order, new elements, minOccurs and nillable matter); `typescript` is code using the generated',
    'types, client and server handlers. See [Changing the spec](../guides/changing-the-spec.md).',
    '',
    table(
      ['rule', ...AUDIENCES.map(code), 'catches'],
      rules.map((r) => [code(r.id), ...AUDIENCES.map((a) => r.severities[a]), cell(r.catches)]),
    ),
    '',
  ].join('\n');
}
