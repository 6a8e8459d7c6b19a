// Checks of one value wherever it is written: its type exists (and can stand there), a decimal's
// scale is declared, a plain list names its items as the conventions say.
import type { CheckCtx } from './check-context.js';
import { didYouMean, type SourcePos } from './diagnostics.js';
import { isPrimitive, primitiveNames } from './format.js';
import type { PartialSpec } from './load.js';

/** The scales decimals may take (primitives.yaml), or undefined when that file did not load. */
function declaredScales(spec: PartialSpec): Set<number> | undefined {
  const decimal = spec.primitives?.primitives.find((p) => p.name === 'decimal');
  return spec.primitives && new Set((decimal?.scales?.entries ?? []).map(([, v]) => v));
}

export function checkScale(
  c: CheckCtx,
  what: string,
  type: string,
  scale: number | undefined,
  pos: SourcePos,
) {
  if (type === 'decimal' && scale === undefined)
    c.report(pos, `decimal ${what} has no scale`, 'add scale: 2 for money, 5 for rates');
  else if (type !== 'decimal' && scale !== undefined)
    c.report(pos, `${what} has a scale but is not a decimal`);
  const scales = declaredScales(c.spec);
  if (scale !== undefined && scales && !scales.has(scale))
    c.report(
      pos,
      `${what} has scale ${scale}, which primitives.yaml does not declare`,
      `declared: ${[...scales].join(', ')}`,
    );
}

/** A list of a primitive names its items as service.yaml's conventions.plainListItems says. */
export function checkPlainItem(c: CheckCtx, of: string, item: string, pos: SourcePos) {
  const conventions = c.spec.service?.conventions;
  if (!conventions || !isPrimitive(of)) return;
  const want = conventions.plainListItems.entries.find(([k]) => k === of)?.[1];
  if (want === undefined)
    c.report(pos, `no item name for lists of ${of} in service.yaml conventions.plainListItems`);
  else if (want !== item)
    c.report(
      pos,
      `items of a list of ${of} are named "${want}" (service.yaml conventions.plainListItems), not "${item}"`,
    );
}

export function checkTypeRef(c: CheckCtx, name: string, pos: SourcePos, allowList: boolean): void {
  const known = [...primitiveNames, 'list', ...c.types.keys()];
  if (!allowList && name === 'list') c.report(pos, 'a list item cannot itself be a list');
  else if (!known.includes(name)) {
    if (!c.declared.types.has(name))
      c.report(
        pos,
        `unknown type "${name}"`,
        didYouMean(name, known) ??
          `primitives: ${primitiveNames.join(', ')}; or a type of spec/types/`,
      );
  } else if (c.types.get(name)?.abstract)
    c.report(pos, `type "${name}" is abstract and cannot be used as a field or result`);
}
