import type { SourcePos } from '../spec/diagnostics.js';
import type { Provenance } from './model.js';

/** Provenance of the symbol written at `pos`; the path is spec-relative, whatever the folder's name. */
export function provenance(pos: SourcePos, symbol: string): Provenance {
  return { file: `spec/${pos.file.split('/').slice(1).join('/')}`, line: pos.line, symbol };
}
