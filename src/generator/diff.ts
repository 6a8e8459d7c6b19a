// Line diffs for `evgen check`: one hunk per change with 3 lines of context, `--- generated
// (spec)` against `+++ on disk`, line endings reported as such.

export const CONTEXT = 3;
/** Beyond this many differing lines the edit script is not worth computing: say so instead. */
const MAX_EDITS = 1000;
/** Hunks shown per file; the rest are counted. */
const MAX_HUNKS = 10;

type Edit = { readonly op: ' ' | '-' | '+'; readonly line: string };

/** The shortest edit script from `a` to `b` (Myers), or undefined past `maxEdits` edits. */
export function diffLines(
  a: readonly string[],
  b: readonly string[],
  maxEdits = MAX_EDITS,
): Edit[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxEdits);
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!)
          ? v[off + k + 1]!
          : v[off + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) [x, y] = [x + 1, y + 1];
      v[off + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace, off);
    }
  }
  return undefined;
}

function backtrack(
  a: readonly string[],
  b: readonly string[],
  trace: Int32Array[],
  off: number,
): Edit[] {
  const edits: Edit[] = [];
  let [x, y] = [a.length, b.length];
  for (let d = trace.length - 1; d >= 0; d--) {
    const v = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!) ? k + 1 : k - 1;
    const prevX = v[off + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) edits.push({ op: ' ', line: a[((x -= 1), (y -= 1), x)]! });
    if (d === 0) break;
    if (x === prevX) edits.push({ op: '+', line: b[(y -= 1)]! });
    else edits.push({ op: '-', line: a[(x -= 1)]! });
  }
  return edits.reverse();
}

/** Unified-diff hunks of an edit script, each change with `CONTEXT` lines around it. */
function hunks(edits: readonly Edit[]): string[] {
  // Ranges of edits to show: a change and its context; ranges that meet become one hunk.
  const ranges: [number, number][] = [];
  edits.forEach((e, i) => {
    if (e.op === ' ') return;
    const [from, to] = [Math.max(0, i - CONTEXT), Math.min(edits.length, i + CONTEXT + 1)];
    const last = ranges[ranges.length - 1];
    if (last && from <= last[1]) last[1] = to;
    else ranges.push([from, to]);
  });
  const out: string[] = [];
  for (const [from, to] of ranges.slice(0, MAX_HUNKS)) {
    const before = edits.slice(0, from);
    const body = edits.slice(from, to);
    const count = (list: readonly Edit[], skip: Edit['op']) =>
      list.filter((e) => e.op !== skip).length;
    out.push(
      `@@ -${count(before, '+') + 1},${count(body, '+')} +${count(before, '-') + 1},${count(body, '-')} @@`,
      ...body.map((e) => `${e.op} ${e.line}`),
    );
  }
  if (ranges.length > MAX_HUNKS) out.push(`… ${ranges.length - MAX_HUNKS} more hunk(s)`);
  return out;
}

/**
 * How the file on disk differs from what the spec generates, or undefined when they are equal.
 * Line endings are compared apart: a file that differs only in them says so and nothing else.
 */
export function describeDifference(generated: string, onDisk: string): string | undefined {
  if (generated === onDisk) return undefined;
  const crlf = onDisk.includes('\r\n');
  const normalised = crlf ? onDisk.replace(/\r\n/g, '\n') : onDisk;
  const endings = crlf ? ['line endings: CRLF on disk, LF generated'] : [];
  if (normalised === generated) return [...endings, '(nothing else differs)'].join('\n');
  const edits = diffLines(generated.split('\n'), normalised.split('\n'));
  const body = edits
    ? hunks(edits)
    : [`more than ${MAX_EDITS} lines differ: the file was rewritten rather than edited`];
  return ['--- generated (spec)', '+++ on disk', ...endings, ...body].join('\n');
}
