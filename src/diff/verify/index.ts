// --verify: both versions generated, loaded and run against each other, for the operations the
// changes touch. wire-lax verdicts are held against what the generated clients observe over the
// four bindings (wire.ts); typescript verdicts against what the compiler says of base code
// compiled with the head package (typescript.ts). wire-strict has no strict client here.
import { fileURLToPath } from 'node:url';
import type { SpecVersion } from '../input.js';
import type { Change } from '../model.js';
import type { CheckedChange, Observation, Verdict, VerifyResult } from './model.js';
import { loadVersionPackage } from './stubs.js';
import { checkTypescript, runTypeProbes, typeProbes, type Probe } from './typescript.js';
import { checkWire, observe } from './wire.js';

export type { CheckedChange, Observation, Verdict, VerifyResult } from './model.js';

const TEMPLATES = fileURLToPath(new URL('../../../templates', import.meta.url));

export async function verifyChanges(
  base: SpecVersion,
  head: SpecVersion,
  changes: readonly Change[],
  templatesDir = TEMPLATES,
): Promise<VerifyResult> {
  const touched = [...new Set(changes.flatMap((c) => c.operations))].sort();
  let observations: Observation[] = [];
  let probes: Probe[] = [];
  if (touched.length > 0) {
    const [b, h] = await Promise.all([
      loadVersionPackage(base, templatesDir),
      loadVersionPackage(head, templatesDir),
    ]);
    try {
      observations = [
        ...(await observe(b, h, touched, 'old-client/new-server')),
        ...(await observe(h, b, touched, 'new-client/old-server')),
      ];
      probes = runTypeProbes(b, h, typeProbes(base.ir, head.ir));
    } finally {
      await Promise.all([b.dispose(), h.dispose()]);
    }
  }
  const checked = [...checkWire(changes, observations), ...checkTypescript(changes, probes)];
  return {
    observations,
    changes: checked,
    disagreements: checked.filter((c) => c.verdict === 'contradicted'),
  };
}

export function formatVerify(r: VerifyResult): string {
  const lines = r.changes.map(
    (c: CheckedChange) =>
      `verify ${c.audience.padEnd(10)} ${c.verdict.padEnd(12)} ${c.severity.padEnd(9)} ${c.path}  [${c.rule}]${c.detail ? `  ${c.detail.split('\n')[0]}` : ''}`,
  );
  const back = r.observations.filter(
    (o) => o.direction === 'new-client/old-server' && o.outcome !== 'ok',
  );
  const ops = [...new Set(back.map((o) => o.operation))];
  if (ops.length)
    lines.push(
      `new clients against old servers: ${ops.length} operation(s) fail or lose values: ${ops.join(', ')}`,
    );
  const count = (v: Verdict) => r.changes.filter((c) => c.verdict === v).length;
  lines.push(
    `verify: ${r.observations.length} calls; ${count('confirmed')} confirmed, ${count('consistent')} consistent, ${count('contradicted')} contradicted, ${count('masked')} masked, ${count('not observed')} not observed`,
  );
  return lines.join('\n');
}
