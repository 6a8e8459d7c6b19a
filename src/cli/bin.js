#!/usr/bin/env node
// The evgen command. It runs the compiled CLI in .build/ (made by `npm install` through the
// prepare script, or `npm run build`), which starts in a fraction of the time tsx takes to load
// the TypeScript sources. When a source differs from what that build was made from (an edit, a
// checkout), it runs the sources through tsx instead, so it never runs stale code; with
// EVGEN_BUILD=required (CI) a stale or missing build is an error instead.
import { ROOT, buildIsCurrent } from './build-state.js';

// diff --verify imports the TypeScript of generated packages while it runs, so it runs from the
// sources: one copy of every module in the process. The bench measures the code as it is run
// (compiled, and so are its child processes): a stale build is rebuilt first.
const [command] = process.argv.slice(2);
const loadsTypeScript = command === 'diff' && process.argv.includes('--verify');

let current = !loadsTypeScript && buildIsCurrent();
if (command === 'bench' && !current) {
  console.error('the build is older than the sources: building .build/ for the bench…');
  await (await import('./build.mjs')).build();
  current = true;
}
if (current) {
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
