// The project's IR, loaded once per test file.
import { fileURLToPath } from 'node:url';
import type { IrSpec } from '../../src/generator/ir/model.js';
import { loadIr } from '../../src/generator/pipeline.js';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SPEC_DIR = fileURLToPath(new URL('../../spec', import.meta.url));
export const TEMPLATES_DIR = fileURLToPath(new URL('../../templates', import.meta.url));

let cached: Promise<IrSpec> | undefined;
export function projectIr(): Promise<IrSpec> {
  cached ??= loadIr(SPEC_DIR);
  return cached;
}
