// vitest global setup of the asmx tier: one Mono ASMX server for every file of the tier, stopped
// at the end.
import type { TestProject } from 'vitest/node';
import { startAsmx } from './server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The base URL of the tier's Mono ASMX server. */
    asmxUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startAsmx();
  project.provide('asmxUrl', server.url);
  return () => server.stop();
}
