// Entry of a worker thread: the reference service is TypeScript run through tsx (as the CLI is),
// so each thread registers tsx before loading worker.ts.
import { register } from 'tsx/esm/api';

register({ tsconfig: new URL('../../tsconfig.json', import.meta.url).pathname });
await import('./worker.ts');
