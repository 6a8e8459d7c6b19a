// The ASMX tier's server: Mono's System.Web.Services hosting the service that Mono's `wsdl -server`
// generates from our WSDL, with the fixed data of Fixed.cs, under the small host of Host.cs. Built
// into a temporary folder with mcs on every run; listens on 127.0.0.1 on a port the system
// chooses. Every wait is bounded; stop() ends the Mono process and removes the folder.
import { execFile, spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { OPERATION_NAMES } from '@evgen/event-management/types';
import { renderWsdl } from '@evgen/event-management/wsdl';
import { requireTool } from '../interop/tools.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
/** The service's base URL as compiled into it: the namespace is fixed, the port is not. */
export const ASMX_BASE = 'https://asmx.evgen.test';
export const ASMX_NAMESPACE = `${ASMX_BASE}/API/1_0/SOAP/`;
export const ASMX_KEY = { apiKey: 'asmx-key', secretKey: 'asmx-secret' }; // as in Fixed.cs
export const ASMX_TIME_ZONE = 'Europe/Berlin';
const ENDPOINT = '/API/1_0/SOAP/ServiceAPI.asmx';
const TOOL_MS = 120_000;
const START_MS = 60_000;

export interface AsmxServer {
  /** The base URL it listens on. */
  readonly url: string;
  stop(): Promise<void>;
}

const run = (cmd: string, args: string[], cwd: string) =>
  promisify(execFile)(cmd, args, { cwd, timeout: TOOL_MS, maxBuffer: 16 * 1024 * 1024 });

/**
 * `wsdl -server` writes an abstract class whose methods carry the ASMX attributes; Mono does not
 * look for them on an override, so each method is made concrete here, authenticating the call and
 * delegating to the method of the same name of Fixed.cs.
 */
export function concrete(generated: string): string {
  let methods = 0;
  const out = generated
    .replace('public abstract partial class ServiceAPI', 'public partial class ServiceAPI')
    .replace(
      /public abstract ([\w.[\]]+) (\w+)\(([^)]*)\);/g,
      (_all, type: string, name: string, params: string) => {
        methods++;
        const args = params
          .split(',')
          .map((p) => p.trim().split(' ').pop())
          .filter(Boolean)
          .join(', ');
        const call = `Fixed.${name}(${args})`;
        return `public ${type} ${name}(${params}) { Fixed.Authenticate(this, "${name}"); ${type === 'void' ? '' : 'return '}${call}; }`;
      },
    );
  if (methods !== OPERATION_NAMES.length)
    throw new Error(`wsdl -server wrote ${methods} methods, expected ${OPERATION_NAMES.length}`);
  return out;
}

/** Generates, compiles and starts the service; the caller stops it. */
export async function startAsmx(): Promise<AsmxServer> {
  for (const [tool, pkg] of [
    ['/usr/bin/mono', 'mono-devel'],
    ['/usr/bin/mcs', 'mono-devel'],
    ['/usr/bin/wsdl', 'mono-devel'],
  ] as const)
    requireTool(tool, pkg);
  const dir = await mkdtemp(join(tmpdir(), 'evgen-asmx-'));
  try {
    const app = join(dir, 'app');
    await mkdir(join(app, 'bin'), { recursive: true });
    await mkdir(join(app, 'API/1_0/SOAP'), { recursive: true });
    await writeFile(
      join(dir, 'service.wsdl'),
      renderWsdl(`${ASMX_BASE}${ENDPOINT}`, ASMX_NAMESPACE),
    );
    await run('wsdl', ['-server', '-nologo', '-out:Generated.cs', 'service.wsdl'], dir);
    await writeFile(
      join(dir, 'Service.cs'),
      concrete(await readFile(join(dir, 'Generated.cs'), 'utf8')),
    );
    const refs = ['-r:System.Web.dll', '-r:System.Web.Services.dll', '-r:System.Xml.dll'];
    await run(
      'mcs',
      [
        '-nologo',
        '-nowarn:618',
        '-target:library',
        '-out:app/bin/EventService.dll',
        ...refs,
        'Service.cs',
        join(HERE, 'Fixed.cs'),
      ],
      dir,
    );
    await run(
      'mcs',
      [
        '-nologo',
        '-target:exe',
        '-out:app/bin/AsmxHost.exe',
        '-r:System.Web.dll',
        join(HERE, 'Host.cs'),
      ],
      dir,
    );
    await copyFile(join(HERE, 'web.config'), join(app, 'web.config'));
    await writeFile(
      join(app, 'API/1_0/SOAP/ServiceAPI.asmx'),
      '<%@ WebService Language="C#" Class="ServiceAPI" %>\n',
    );
    return await listen(dir, app);
  } catch (e) {
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
}

async function listen(dir: string, app: string): Promise<AsmxServer> {
  // ASP.NET's compilation cache goes to the temporary folder too (Mono reads TMPDIR). A zone with
  // an offset, so that DateTimeKind.Local values carry one on the wire, as on a server in Europe.
  const mono = spawn('mono', [join(app, 'bin/AsmxHost.exe'), app], {
    cwd: dir,
    env: { ...process.env, TMPDIR: dir, TZ: ASMX_TIME_ZONE },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  mono.stderr.on('data', (d: Buffer) => (stderr = (stderr + String(d)).slice(-8_000)));
  const exited = new Promise<void>((resolve) => mono.once('exit', () => resolve()));
  const stop = async () => {
    mono.stdin.end(); // Host.cs exits when its standard input closes
    const timer = setTimeout(() => mono.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(
        () => reject(new Error(`Mono did not listen within ${START_MS} ms: ${stderr}`)),
        START_MS,
      );
      mono.stdout.on('data', (d: Buffer) => {
        out += String(d);
        const m = /listening (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (!m) return;
        clearTimeout(timer);
        resolve(m[1]!);
      });
      mono.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`Mono exited ${code}: ${stderr}`));
      });
    });
    return { url, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
