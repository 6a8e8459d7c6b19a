// Spec diagnostics: every problem names file:line:column, says what is wrong and, where it can,
// what was probably meant. Loading collects all of them before failing.
export interface SourcePos {
  readonly file: string; // path relative to the project root, e.g. spec/types/booking.yaml
  readonly line: number; // 1-based
  readonly col: number; // 1-based
}

export interface Diagnostic {
  readonly pos: SourcePos;
  readonly message: string;
  readonly hint?: string;
}

export function formatPos(pos: SourcePos): string {
  return `${pos.file}:${pos.line}:${pos.col}`;
}

export function formatDiagnostic(d: Diagnostic): string {
  return `${formatPos(d.pos)}: ${d.message}${d.hint ? ` (${d.hint})` : ''}`;
}

export class SpecError extends Error {
  constructor(readonly diagnostics: readonly Diagnostic[]) {
    super(
      `spec has ${diagnostics.length} error${diagnostics.length === 1 ? '' : 's'}:\n` +
        diagnostics.map((d) => `  ${formatDiagnostic(d)}`).join('\n'),
    );
    this.name = 'SpecError';
  }
}

/** The candidate closest to `given` by edit distance, if it is close enough to be a likely typo. */
export function didYouMean(given: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(given.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(given.length / 3))
    ? `did you mean "${best}"?`
    : undefined;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(
        prev[j]! + 1,
        cur[j - 1]! + 1,
        prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    prev = cur;
  }
  return prev[b.length]!;
}
