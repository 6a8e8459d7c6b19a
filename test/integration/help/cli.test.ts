// evgen docs writes the pages as static files (--out) or checks the reference pages
// (--reference --check); evgen serve takes --cors and --no-test-forms.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE } from '@evgen/event-management/service';
import { OPERATION_NAMES } from '../../support/help.js';
import { PROJECT_ROOT } from '../../support/ir.js';

const BIN = join(PROJECT_ROOT, 'src/cli/bin.js');
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evgen-help-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const run = (...args: string[]) =>
  promisify(execFile)('node', [BIN, ...args], { cwd: PROJECT_ROOT }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );

describe('evgen docs', () => {
  it('writes the service page, the gaps register, one page per operation and the WSDL', async () => {
    const out = join(dir, 'docs');
    const r = await run('docs', '--out', out);
    expect(r.code).toBe(0);
    const files = (await readdir(out)).sort();
    expect(files).toEqual(
      [
        'gaps.html',
        'index.html',
        'service.wsdl',
        ...OPERATION_NAMES.map((n) => `${n}.html`),
      ].sort(),
    );
    const page = await readFile(join(out, 'GetBooking.html'), 'utf8');
    expect(page).toContain('Host: {host}');
    expect(page).toContain('SOAPAction: &quot;{soap_namespace}GetBooking&quot;');
    expect(page).not.toContain('<form');
    const index = await readFile(join(out, 'index.html'), 'utf8');
    expect(index).toContain(`<code>{base_url}${SERVICE.endpointPath}</code>`);
    // every link between the files leads to a file that exists
    for (const f of files.filter((x) => x.endsWith('.html'))) {
      const html = await readFile(join(out, f), 'utf8');
      for (const [, href] of html.matchAll(/href="([^"#]+)/g))
        if (!href!.startsWith('data:')) expect(files, `${f} → ${href}`).toContain(href);
    }
    expect(await readFile(join(out, 'service.wsdl'), 'utf8')).toContain(
      `location="{base_url}${SERVICE.endpointPath}"`,
    );
  });
});

describe('evgen docs, its two modes', () => {
  it.each([
    { given: [], want: 'error: evgen docs needs either --out <dir> or --reference\n' },
    {
      given: ['--out', 'x', '--reference'],
      want: 'error: evgen docs needs either --out <dir> or --reference\n',
    },
    { given: ['--out', 'x', '--check'], want: 'error: --check goes with --reference\n' },
  ])('refuses $given as a usage error', async ({ given, want }) => {
    const r = await run('docs', ...given);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 2, stderr: want });
  });

  it('--reference --check passes on the repository and writes nothing', async () => {
    const r = await run('docs', '--reference', '--check');
    expect({ code: r.code, stdout: r.stdout }).toEqual({
      code: 0,
      stdout: 'docs/reference/ is current\n',
    });
  });
});

describe('evgen serve', () => {
  it('refuses a --cors value that is not an origin, as a usage error', async () => {
    const r = await run('serve', '--cors', 'app.example.com', '--db', join(dir, 'x.sqlite'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('CORS origin "app.example.com" is not an origin');
  });

  it('serves CORS for --cors origins and pages without forms with --no-test-forms', async () => {
    const child = spawn(
      'node',
      [
        BIN,
        'serve',
        '--db',
        join(dir, 'e.sqlite'),
        '--port',
        '0',
        '--cors',
        'http://a.example,http://b.example',
        '--no-test-forms',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      let err = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (d: Buffer) => {
          err += d.toString();
          const m = /endpoint: (http:\/\/[^/]+)\//.exec(err);
          if (m) resolve(m[1]!);
        });
        setTimeout(() => reject(new Error(err)), 30_000);
      });
      const endpoint = `${url}${SERVICE.endpointPath}`;
      for (const origin of ['http://a.example', 'http://b.example']) {
        const pre = await fetch(endpoint, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'POST' },
        });
        expect([pre.status, pre.headers.get('access-control-allow-origin')]).toEqual([204, origin]);
      }
      const page = await (await fetch(`${endpoint}?op=GetBooking`)).text();
      expect(page).toContain('<h1>GetBooking</h1>');
      expect(page).not.toContain('<form');
      expect((await fetch(`${endpoint}?client.js`)).status).toBe(405);
    } finally {
      const exit = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exit;
    }
  }, 60_000);
});
