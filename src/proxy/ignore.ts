// Differences a replay may be told to ignore: timestamps (two dateTimes), generated ids (values of
// elements named like ids: `…Id`, `…Reference`, `…Key`; and values that differ only by such ids,
// as a URL holding a booking reference), and paths given as patterns. A pattern without a
// slash names an element anywhere (`CreatedDate`); with slashes it is a whole path where `*` stands
// for one step and `**` for any number (`**/Attendees/*/Email`); list positions (`[0]`) need not
// be written.
import type { ValueDifference } from './compare.js';

export interface IgnoreRules {
  readonly timestamps?: boolean;
  readonly ids?: boolean;
  readonly paths?: readonly string[];
}

export type IgnoredAs = 'timestamps' | 'ids' | 'paths';

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;
/** Element and parameter names of generated ids. */
export const ID_NAME = /(Id|ID|Reference|Guid|Key|Token)$/;

const leaf = (path: string) => path.slice(path.lastIndexOf('/') + 1).replace(/\[\d+\]$/, '');
const withoutPositions = (path: string) => path.replace(/\[\d+\]/g, '');

function glob(pattern: string): RegExp {
  const steps = pattern.split('/');
  let re = '^';
  steps.forEach((step, i) => {
    const last = i === steps.length - 1;
    if (step === '**') re += last ? '.*' : '(?:[^/]+/)*';
    else
      re += step.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*') + (last ? '' : '/');
  });
  return new RegExp(`${re}$`);
}

/** Whether a difference is at an element named like a generated id. */
export const atId = (d: ValueDifference): boolean =>
  ID_NAME.test(leaf(d.path)) && !d.path.includes('/@');

/** `recorded` with every id the replay learnt replaced by the replay's. */
const withIds = (recorded: string, ids: ReadonlyMap<string, string>) => {
  let out = recorded;
  for (const [from, to] of ids)
    if (from.length > 2 && out.includes(from)) out = out.split(from).join(to);
  return out;
};

/** Why a difference is ignored, if it is; `ids`: the ids learnt so far (recorded → replayed). */
export function ignoredAs(
  d: ValueDifference,
  rules: IgnoreRules,
  ids: ReadonlyMap<string, string> = new Map(),
): IgnoredAs | undefined {
  if (rules.timestamps && DATE_TIME.test(d.recorded) && DATE_TIME.test(d.replayed))
    return 'timestamps';
  if (rules.ids && (atId(d) || withIds(d.recorded, ids) === d.replayed)) return 'ids';
  for (const p of rules.paths ?? []) {
    const re = p.includes('/') ? glob(p) : glob(`**/${p}`);
    if (re.test(d.path) || re.test(withoutPositions(d.path))) return 'paths';
  }
  return undefined;
}
