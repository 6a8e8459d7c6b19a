// How the bench starts its child modules and finds the files the build does not compile. Apart
// from children.ts (which kills its children on exit) so a child that needs these installs no
// exit or signal handlers by importing them.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Compiled: this module runs from .build/bench/ (as `npm run bench` runs it), not through tsx. */
const COMPILED = import.meta.url.endsWith('.js');

/**
 * The node arguments that run one of the bench's child modules (`server-child`, …) the way this
 * process runs: from the compiled build, as `evgen serve` and the packages' users run the code,
 * or from the sources through tsx (whose transform wraps every function it names in a helper
 * call, about 5% of a small call's time). `env` carries tsx's tsconfig for the latter.
 */
export function childCommand(name: string): { args: string[]; env: NodeJS.ProcessEnv } {
  const file = fileURLToPath(new URL(`./${name}.${COMPILED ? 'js' : 'ts'}`, import.meta.url));
  return COMPILED
    ? { args: [file], env: process.env }
    : {
        args: ['--import', 'tsx', file],
        env: { ...process.env, TSX_TSCONFIG_PATH: join(ROOT, 'tsconfig.json') },
      };
}

/** The evgen command as an operator runs it (bin.js picks the build, or the sources). */
export const EVGEN_BIN = join(ROOT, 'src/cli/bin.js');

/** Files the build does not compile (scripts for other programs), from the sources. */
export const benchAsset = (name: string) => join(ROOT, 'src/bench', name);
