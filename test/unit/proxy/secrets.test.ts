// The secret files the proxy reads: evgen keys create --json (one pair or a list), lines of
// "<api key> <secret>", or one secret for every key; anything else is refused, saying where.
import { describe, expect, it } from 'vitest';
import { SecretFileError, parseSecretFile } from '../../../src/proxy/secrets.js';

const good: { name: string; given: string; byKey: [string, string][]; any?: string }[] = [
  {
    name: 'keys create --json',
    given: '{"apiKey":"ak_1","secretKey":"s1"}\n',
    byKey: [['ak_1', 's1']],
  },
  {
    name: 'a JSON list',
    given: '[{"apiKey":"a","secretKey":"1"},{"apiKey":"b","secretKey":"2"}]',
    byKey: [
      ['a', '1'],
      ['b', '2'],
    ],
  },
  {
    name: 'lines, comments and blanks',
    given: '# mine\nak_1  s1\n\nak_2\ts2\n',
    byKey: [
      ['ak_1', 's1'],
      ['ak_2', 's2'],
    ],
  },
  { name: 'a secret alone', given: 's3cret\n', byKey: [], any: 's3cret' },
];
const bad: { name: string; given: string; error: RegExp }[] = [
  { name: 'broken JSON', given: '{"apiKey":', error: /^not valid JSON/ },
  { name: 'JSON without the secret', given: '{"apiKey":"a"}', error: /must be \{"apiKey"/ },
  { name: 'three fields', given: 'a b c', error: /^line 1: expected/ },
  { name: 'two secrets for every key', given: 'x\ny', error: /^line 2: a second secret/ },
  { name: 'nothing', given: '# only a comment\n', error: /^no secret/ },
];

describe('parseSecretFile', () => {
  it.each(good)('$name', ({ given, byKey, any }) => {
    const r = parseSecretFile(given);
    expect([...r.byKey]).toEqual(byKey);
    expect(r.any).toBe(any);
  });
  it.each(bad)('refuses $name', ({ given, error }) => {
    expect(() => parseSecretFile(given)).toThrow(SecretFileError);
    expect(() => parseSecretFile(given)).toThrow(error);
  });
});
