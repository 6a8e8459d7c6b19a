// Entry of a worker thread: loads the module `workerData.module` names (a path from this folder,
// without extension; default the service's worker.ts). From the sources the reference service is
// TypeScript run through tsx (as the CLI is), so each thread registers tsx before loading it; in
// the compiled CLI (.build/reference/) the compiled .js sits at the same place and is loaded as
// it is.
import { existsSync } from 'node:fs';
import { workerData } from 'node:worker_threads';

const name = workerData?.module ?? 'worker';
const compiled = new URL(`./${name}.js`, import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: new URL('../../tsconfig.json', import.meta.url).pathname });
  await import(new URL(`./${name}.ts`, import.meta.url).href);
}
