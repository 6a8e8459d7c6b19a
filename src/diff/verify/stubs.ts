// One version's generated package, written to a temporary folder and loaded: its client class and
// a server stub on 127.0.0.1 whose handlers answer every operation with that version's samples
// and record the parameters they received.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { IrOperation } from '../../generator/ir/model.js';
import { renderIr, type GeneratedFiles } from '../../generator/pipeline.js';
import { listen, ServiceFault, type RunningServer } from '../../runtime/index.js';
import type { SpecVersion } from '../input.js';
import { readPackageVersion } from '../release.js';
import { resultSample, type Sample } from './values.js';

export const API_KEY = 'evgen-verify';
/** The code of the `fault` sample: one every version of the spec has so far. */
export const FAULT_CODE = 'NotFound';
const SECRET = 'evgen-verify-secret';

type Method = (params: object, options?: object) => Promise<unknown>;
export type Client = Record<string, Method>;

export interface LoadedVersion {
  readonly version: SpecVersion;
  /** The generated package, as written under `dir`. */
  readonly dir: string;
  readonly files: GeneratedFiles;
  /** `options`: more client options (hooks). */
  client(baseUrl: string, binding: string, options?: object): Client;
  /** The stub: `sample` decides what every handler returns; `received` what the last call got. */
  readonly server: RunningServer;
  sample: Sample;
  received: { op: string; params: Record<string, unknown> } | null;
  dispose(): Promise<void>;
}

const rendered = new Map<string, GeneratedFiles>();

export async function loadVersionPackage(
  version: SpecVersion,
  templatesDir: string,
): Promise<LoadedVersion> {
  const packageVersion = await readPackageVersion(version.specDir).then(
    (r) => r.version,
    () => '0.0.0',
  );
  const key = JSON.stringify([templatesDir, packageVersion, version.ir]);
  // A run of diffs against one base (the rule tests) renders the base once.
  let files = rendered.get(key);
  if (!files) {
    files = await renderIr(version.ir, templatesDir, packageVersion);
    // Bounded: the oldest goes first past four versions.
    if (rendered.size >= 4) rendered.delete(rendered.keys().next().value!);
    rendered.set(key, files);
  }
  const dir = await mkdtemp(join(tmpdir(), 'evgen-verify-'));
  for (const [path, text] of files) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  const clientModule = (await import(pathToFileURL(join(dir, 'src/client.ts')).href)) as {
    EventServiceClient: new (o: object) => Client;
  };
  const serverModule = (await import(pathToFileURL(join(dir, 'src/server.ts')).href)) as {
    createEventService: (handlers: object, options: object) => Parameters<typeof listen>[0];
  };
  const loaded = { sample: 'full' as Sample, received: null as LoadedVersion['received'] };
  const handlers = Object.fromEntries(
    version.ir.operations.map((op: IrOperation) => [
      op.method,
      (params: Record<string, unknown>) => {
        loaded.received = { op: op.name, params };
        if (loaded.sample === 'fault') throw new ServiceFault(FAULT_CODE, 'verify: a fault sample');
        return resultSample(version.ir, op, loaded.sample);
      },
    ]),
  );
  const server = await listen(
    serverModule.createEventService(handlers, {
      lookupKey: (key: string) => Promise.resolve(key === API_KEY ? { secret: SECRET } : undefined),
      replayStore: false,
    }),
    { port: 0, host: '127.0.0.1' },
  );
  return Object.assign(loaded, {
    version,
    dir,
    files,
    server,
    client: (baseUrl: string, binding: string, options: object = {}) =>
      new clientModule.EventServiceClient({
        baseUrl,
        apiKey: API_KEY,
        secretKey: SECRET,
        binding,
        timeoutMs: 5000,
        ...options,
      }),
    dispose: async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  });
}
