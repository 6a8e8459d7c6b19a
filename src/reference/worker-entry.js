// Entry of a worker thread. From the sources the reference service is TypeScript run through tsx
// (as the CLI is), so each thread registers tsx before loading worker.ts; in the compiled CLI
// (.build/reference/) the compiled worker.js sits beside this file and is loaded as it is.
import { existsSync } from 'node:fs';

const compiled = new URL('./worker.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: new URL('../../tsconfig.json', import.meta.url).pathname });
  await import('./worker.ts');
}
