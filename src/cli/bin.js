#!/usr/bin/env node
// The evgen command. It runs the compiled CLI in .build/ (made by `npm install` through the
// prepare script, or `npm run build`), which starts in a fraction of the time tsx takes to load
// the TypeScript sources. When a source differs from what that build was made from (an edit, a
// checkout), it runs the sources through tsx instead, so it never runs stale code; with
// EVGEN_BUILD=required (CI) a stale or missing build is an error instead.
import { ROOT, buildIsCurrent } from './build-state.js';

// These import TypeScript while they run (the bench's children, the generated packages diff
// --verify loads), so they run from the sources: one copy of every module in the process.
const [command] = process.argv.slice(2);
const loadsTypeScript =
  command === 'bench' || (command === 'diff' && process.argv.includes('--verify'));

if (!loadsTypeScript && buildIsCurrent()) {
  await import('../../.build/cli/main.js');
} else if (!loadsTypeScript && process.env.EVGEN_BUILD === 'required') {
  console.error(
    'error: .build/ is missing or older than the sources (EVGEN_BUILD=required): run npm run build',
  );
  process.exitCode = 1;
} else {
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: `${ROOT}/tsconfig.json` });
  await import('./main.ts');
}
