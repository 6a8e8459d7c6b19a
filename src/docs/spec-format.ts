// docs/reference/spec-format.md: every key of every spec file, its type, whether it is required
// and what it means, walked from the same JSON Schemas the editors get (spec-schema.ts).
import { SPEC_FILE_FORMATS } from '../generator/spec/load.js';
import type { JsonSchema } from '../generator/spec/schema.js';
import { cell, code, generatedHeader, table } from './markdown.js';
import { SCHEMA_DIR, schemaPathOf } from './spec-schema.js';

interface Row {
  readonly key: string;
  readonly type: string;
  readonly required: boolean;
  readonly meaning: string;
}

const sub = (s: JsonSchema, k: string) => s[k] as JsonSchema | undefined;
const hasKeys = (s: JsonSchema | undefined) => s?.properties !== undefined;

/** A short name for what a schema accepts. */
function typeLabel(s: JsonSchema): string {
  if (typeof s.title === 'string') return s.title;
  if (Array.isArray(s.enum)) return `one of ${s.enum.map((v) => code(String(v))).join(', ')}`;
  switch (s.type) {
    case 'string':
      return s.minLength ? 'text' : 'text (may be empty)';
    case 'integer':
    case 'boolean':
      return s.type;
    case 'array':
      return hasKeys(sub(s, 'items'))
        ? 'list of mappings'
        : `list of ${typeLabel(sub(s, 'items')!)}`;
    case 'object': {
      if (hasKeys(s)) return 'mapping';
      const key = sub(s, 'propertyNames');
      const value = sub(s, 'additionalProperties')!;
      return `map of ${key ? typeLabel(key) : 'text'} to ${hasKeys(value) ? 'mappings' : typeLabel(value)}`;
    }
    default:
      throw new Error(`no label for the schema ${JSON.stringify(s)}`);
  }
}

/** Rows for the keys of a mapping, then for the keys of the mappings nested in each. */
function rows(s: JsonSchema, prefix: string): Row[] {
  const required = new Set((s.required as string[] | undefined) ?? []);
  return Object.entries((s.properties ?? {}) as Record<string, JsonSchema>).flatMap(([k, v]) => {
    const key = `${prefix}${k}`;
    const row: Row = {
      key,
      type: typeLabel(v),
      required: required.has(k),
      meaning: typeof v.description === 'string' ? v.description : '',
    };
    const items = sub(v, 'items');
    const values = sub(v, 'additionalProperties');
    const nested = hasKeys(v)
      ? rows(v, `${key}.`)
      : hasKeys(items)
        ? rows(items!, `${key}[].`)
        : hasKeys(values)
          ? rows(values!, `${key}.<key>.`)
          : [];
    return [row, ...nested];
  });
}

const relative = (path: string) =>
  path.slice(`${SCHEMA_DIR.split('/').slice(0, -1).join('/')}/`.length);

export function specFormatPage(): string {
  const sections = SPEC_FILE_FORMATS.map(({ file, format }) => {
    const schema = schemaPathOf(file);
    return [
      `## ${code(`spec/${file}`)}`,
      '',
      `JSON Schema: [${relative(schema)}](${relative(schema)})`,
      '',
      table(
        ['key', 'type', 'required', 'meaning'],
        rows(format.schema, '').map((r) => [
          code(r.key),
          cell(r.type),
          r.required ? 'yes' : '',
          cell(r.meaning),
        ]),
      ),
    ].join('\n');
  });
  return [
    generatedHeader("the loader's checkers (src/generator/spec/format*.ts)"),
    '',
    '# Spec format',
    '',
    '`spec/` holds one file of each kind below and any number of `types/*.yaml`. `evgen validate` checks',
    'every file against its format (unknown keys, missing keys and wrong types, each with',
    '`file:line:col`), then the references between files. Each spec file starts with a',
    '`# yaml-language-server: $schema=…` line naming its JSON Schema, so an editor with the YAML',
    'language server checks keys and types as you type; references are checked by `evgen validate`',
    'only.',
    '',
    'Types: **text** is a non-empty string; a **name** is letters, digits and `_`, not starting with',
    'a digit or `xml`, never `__proto__`, because it becomes both an XML name and a TypeScript',
    'identifier. `a.b` is key `b` of the mapping at `a`; `a[].b` is key `b` of each item of the list',
    '`a`; `a.<key>.b` is key `b` of each value of the map `a`.',
    '',
    sections.join('\n\n'),
    '',
  ].join('\n');
}
