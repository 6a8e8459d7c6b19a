// The JSON Schema of each kind of spec file, written from the loader's own checkers (their
// `schema`), so editors (yaml-language-server, through the comment each spec file starts with)
// flag the keys and types `evgen validate` refuses. Cross-references (a type that does not exist,
// a scale not declared) stay the loader's: a schema cannot see other files.
import { basename, dirname, posix } from 'node:path';
import type { JsonSchema } from '../generator/spec/schema.js';
import { SPEC_FILE_FORMATS } from '../generator/spec/load.js';

export const SCHEMA_DIR = 'docs/reference/spec-schema';
const DRAFT = 'http://json-schema.org/draft-07/schema#';

/** `service.yaml` → `service`, `types/*.yaml` → `types`. */
const kindOf = (specFile: string) =>
  specFile.includes('/') ? dirname(specFile) : basename(specFile, '.yaml');

/** Where the schema of a spec file (as SPEC_FILE_FORMATS names it) lives, from the project root. */
export const schemaPathOf = (specFile: string): string =>
  `${SCHEMA_DIR}/${kindOf(specFile)}.schema.json`;

/** The format a spec file (relative to spec/, e.g. `types/booking.yaml`) is checked against. */
export function formatOf(specFile: string): (typeof SPEC_FILE_FORMATS)[number] | undefined {
  return SPEC_FILE_FORMATS.find((f) =>
    f.file.endsWith('/*.yaml')
      ? dirname(specFile) === dirname(f.file) && specFile.endsWith('.yaml')
      : f.file === specFile,
  );
}

/** The first line of a spec file: the yaml-language-server comment naming its schema. */
export function schemaComment(specFile: string): string {
  const format = formatOf(specFile);
  if (!format) throw new Error(`${specFile} is not a spec file`);
  const fromFile = posix.relative(posix.join('spec', dirname(specFile)), schemaPathOf(format.file));
  return `# yaml-language-server: $schema=${fromFile}`;
}

/** Each schema by its path from the project root. */
export function specSchemas(): Map<string, JsonSchema> {
  return new Map(
    SPEC_FILE_FORMATS.map(({ file, format }) => [
      schemaPathOf(file),
      {
        $schema: DRAFT,
        $comment:
          'Written by evgen docs --reference from src/generator/spec/format*.ts; do not edit.',
        title: `evgen spec: ${file}`,
        ...format.schema,
      },
    ]),
  );
}
