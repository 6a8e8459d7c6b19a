#!/usr/bin/env node
// The evgen command. It runs the compiled CLI in .build/ (made by `npm install` through the
// prepare script, or `npm run build`), which starts in a fraction of the time tsx takes to load
// the TypeScript sources. Whether the build is still what the sources say is decided by their
// content (build-state.js): a checkout or a clone that rewrites files without changing them keeps
// it; a source that did change is compiled again first (build.mjs's rebuild: only the outputs it
// reaches, a fraction of a second), so evgen never runs stale code and never falls back to tsx
// for it. Only if that rebuild fails does it run the sources through tsx, saying so; with
// EVGEN_BUILD=required (CI) that is an error instead.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUILD_DIR, ROOT, buildIsCurrent } from './build-state.js';

// diff --verify imports the TypeScript of generated packages while it runs, so it runs from the
// sources: one copy of every module in the process.
const [command] = process.argv.slice(2);
const loadsTypeScript = command === 'diff' && process.argv.includes('--verify');

let compiled = !loadsTypeScript && buildIsCurrent();
if (!loadsTypeScript && !compiled) {
  try {
    await (await import('./build.mjs')).rebuild(BUILD_DIR);
    compiled = true;
  } catch (e) {
    const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
    if (process.env.EVGEN_BUILD === 'required') {
      console.error(
        `error: .build/ is stale and could not be rebuilt (EVGEN_BUILD=required): ${why}`,
      );
      process.exitCode = 1;
    } else console.error(`evgen: .build/ could not be rebuilt (${why}); running the sources`);
  }
}
if (compiled) {
  await import(pathToFileURL(join(BUILD_DIR, 'cli/main.js')).href);
} else if (loadsTypeScript || process.env.EVGEN_BUILD !== 'required') {
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: `${ROOT}/tsconfig.json` });
  await import('./main.ts');
}
