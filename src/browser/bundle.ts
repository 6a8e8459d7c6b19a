// Builds the browser bundle (src/browser/entry.ts with the generated client and the runtime) with
// esbuild, from the TypeScript sources as tsconfig.json maps them. Deterministic: the same sources
// give the same bytes.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

// From the project root, so that the compiled CLI (.build/browser/bundle.js, at the same depth)
// bundles the same TypeScript source.
const ENTRY = fileURLToPath(new URL('../../src/browser/entry.ts', import.meta.url));
const TSCONFIG = fileURLToPath(new URL('../../tsconfig.json', import.meta.url));

/** The bundle as an ES module's source text. */
export async function buildBrowserClient(): Promise<string> {
  const result = await build({
    entryPoints: [ENTRY],
    tsconfig: TSCONFIG,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
