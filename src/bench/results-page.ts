// The latest table of `npm run bench`, written into docs/performance.md between its markers (or
// into a file of its own), so the page shows the figures of one run and nothing copied by hand.
import { readFile, writeFile } from 'node:fs/promises';

export const BEGIN = '<!-- bench:results:begin (written by npm run bench; do not edit) -->';
export const END = '<!-- bench:results:end -->';

export type Row = readonly [string, string, string, string];

const cell = (s: string) => s.replace(/\|/g, '\\|');

/** The region: the run's machine and load generator, then the table. */
export function resultsRegion(rows: readonly Row[], about: string): string {
  return [
    BEGIN,
    '',
    about,
    '',
    '| measure | ours | baseline | ratio |',
    '| --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
    '',
    END,
  ].join('\n');
}

/** The figures region of a page: between the markers, or undefined when it has none. */
export function regionOf(page: string): string | undefined {
  const begin = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  return begin === -1 || end < begin ? undefined : page.slice(begin, end + END.length);
}

/** Replaces the region of the page at `file`; a file without one becomes the region alone. */
export async function writeResults(file: string, region: string): Promise<void> {
  const page = await readFile(file, 'utf8').catch(() => '');
  const old = regionOf(page);
  await writeFile(file, old === undefined ? `${region}\n` : page.replace(old, region));
}
