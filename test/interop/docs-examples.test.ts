// The signing examples of docs/guides/calling-from-other-stacks.md, as written there (only the
// address and the key pair replaced), against the reference service: curl + openssl over HTTP GET
// and POST, Python zeep, and JAX-WS (wsimport with the guide's options, then its Java class
// compiled and run).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE } from '@evgen/event-management/service';
import { docExamples } from '../support/doc-examples.js';
import { startReference, type Reference } from '../integration/reference/harness.js';
import { PYTHON, requireTool, run } from './tools.js';

const GUIDE = 'docs/guides/calling-from-other-stacks.md';
let ref: Reference;
let dir: string;
let example: (name: string) => string;
let reference: string; // BookingReference of booking 1
beforeAll(async () => {
  ref = await startReference({ events: 2, bookings: 10 });
  dir = await mkdtemp(join(tmpdir(), 'evgen-readme-'));
  example = await docExamples(GUIDE, 'interop');
  reference = await ref.value<string>('SELECT reference FROM booking WHERE id = 1');
}, 60_000);
afterAll(async () => {
  await ref.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Replaces whole lines, failing when one is not there (the guide changed under the test). */
function withLines(code: string, lines: [RegExp, string][]): string {
  return lines.reduce((text, [pattern, line]) => {
    expect(text, `example line ${pattern}`).toMatch(pattern);
    return text.replace(pattern, line);
  }, code);
}

describe(`the examples of ${GUIDE}`, () => {
  it('curl + openssl: signed HTTP GET and POST', async () => {
    requireTool('/usr/bin/curl', 'curl');
    requireTool('/usr/bin/openssl', 'openssl');
    const key = ref.svc.demoKey!;
    const script = withLines(example('curl'), [
      [/^ENDPOINT=.*$/m, `ENDPOINT='${ref.svc.server.url}${SERVICE.endpointPath}'`],
      [/^API_KEY=.*$/m, `API_KEY='${key.apiKey}'`],
      [/^SECRET_KEY=.*$/m, `SECRET_KEY='${key.secretKey}'`],
    ]);
    const { code, stdout, stderr } = await run('/bin/bash', ['-euo', 'pipefail', '-c', script]);
    expect(code, stderr).toBe(0);
    const refs = [...stdout.matchAll(/<BookingReference>([^<]*)<\/BookingReference>/g)];
    expect(refs.map((m) => m[1])).toEqual([reference, reference]);
  });

  it('Python zeep: a signed SOAP 1.1 call from the served WSDL', async () => {
    requireTool(PYTHON, 'python3-zeep');
    const key = ref.svc.demoKey!;
    const file = join(dir, 'example.py');
    await writeFile(
      file,
      withLines(example('zeep'), [
        [/^WSDL = .*$/m, `WSDL = '${ref.svc.server.url}${SERVICE.endpointPath}?wsdl'`],
        [
          /^API_KEY, SECRET_KEY = .*$/m,
          `API_KEY, SECRET_KEY = '${key.apiKey}', '${key.secretKey}'`,
        ],
      ]),
    );
    const { code, stdout, stderr } = await run(PYTHON, [file]);
    expect(code, stderr).toBe(0);
    expect(stdout.trim()).toBe(reference);
  }, 60_000);

  it('JAX-WS: wsimport needs -B-XautoNameResolution, and the Java example calls the service', async () => {
    requireTool('/usr/bin/wsimport', 'jaxws');
    const key = ref.svc.demoKey!;
    const wsdl = `${ref.svc.server.url}${SERVICE.endpointPath}?wsdl`;
    const wsimport = withLines(example('wsimport'), [
      [/'http:\/\/127\.0\.0\.1:8080[^']*'/, `'${wsdl}'`],
    ]);
    await mkdir(join(dir, 'generated'));
    const without = await run('/bin/bash', [
      '-c',
      `cd '${dir}' && ${wsimport.replace(' -B-XautoNameResolution', '')}`,
    ]);
    expect(without.code).not.toBe(0);
    expect(without.stdout + without.stderr).toContain(
      'GetSubClientCompanyListResponse" is already in use',
    );
    const made = await run('/bin/bash', ['-c', `cd '${dir}' && ${wsimport}`]);
    expect(made.code, made.stdout + made.stderr).toBe(0);

    await writeFile(
      join(dir, 'Example.java'),
      withLines(example('java'), [
        [/static final String WSDL = .*$/m, `static final String WSDL = "${wsdl}";`],
        [
          /static final String API_KEY = .*$/m,
          `static final String API_KEY = "${key.apiKey}", SECRET_KEY = "${key.secretKey}";`,
        ],
      ]),
    );
    const classpath = `${join(dir, 'generated')}:/usr/share/java/*`;
    const javac = await run('/usr/bin/javac', [
      '-cp',
      classpath,
      '-d',
      join(dir, 'classes'),
      join(dir, 'Example.java'),
    ]);
    expect(javac.code, javac.stderr).toBe(0);
    const java = await run('/usr/bin/java', [
      '-cp',
      `${join(dir, 'classes')}:${classpath}`,
      'Example',
    ]);
    expect(java.code, java.stderr).toBe(0);
    expect(java.stdout.trim()).toBe(reference);
  }, 180_000);
});
