// evgen conformance: hold any server (default: a reference service on a temporary database)
// against the interface document; prints operation × binding and exits 1 on any failure.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { Binding, ConformanceResult } from '@evgen/runtime';

interface Options {
  url?: string;
  apiKey?: string;
  secret?: string;
  allowWrites?: boolean;
  binding?: string;
  report?: string;
  token?: string;
}

export function formatTable(results: ConformanceResult[]): string {
  // The bindings checked, in the order the results name them (the WSDL row sits in the first).
  const cols: Binding[] = [...new Set(results.map((r) => r.binding))].filter((b) => b !== 'wsdl');
  const rows = new Map<string, Map<string, ConformanceResult>>();
  for (const r of results) {
    const key = r.group === r.name || r.name === 'response' ? r.group : `${r.group}: ${r.name}`;
    if (!rows.has(key)) rows.set(key, new Map());
    rows.get(key)!.set(r.binding === 'wsdl' ? (cols[0] ?? 'wsdl') : r.binding, r);
  }
  const mark = (r?: ConformanceResult) =>
    !r ? '' : r.status === 'pass' ? 'pass' : r.status === 'skip' ? 'skip' : 'FAIL';
  const width = Math.max(...[...rows.keys()].map((k) => k.length), 9);
  const lines = [`${'operation'.padEnd(width)}  ${cols.map((c) => c.padEnd(8)).join(' ')}`];
  for (const [key, cells] of rows)
    lines.push(`${key.padEnd(width)}  ${cols.map((c) => mark(cells.get(c)).padEnd(8)).join(' ')}`);
  const failed = results.filter((r) => r.status === 'fail');
  if (failed.length)
    lines.push(
      '',
      'First difference of each failure:',
      ...failed.map((r) => `  ${r.group} ${r.name} [${r.binding}]: ${r.failures[0]}`),
    );
  const counts = {
    pass: results.filter((r) => r.status === 'pass').length,
    fail: failed.length,
    skip: results.filter((r) => r.status === 'skip').length,
  };
  const warnings = results.reduce((n, r) => n + r.warnings.length, 0);
  lines.push(
    '',
    `${counts.pass} passed, ${counts.fail} failed, ${counts.skip} skipped; ${warnings} warning(s)`,
  );
  return lines.join('\n');
}

export function registerConformanceCommand(program: Command): void {
  program
    .command('conformance')
    .description(
      'check a server against the interface document; by default a reference service started on a temporary database',
    )
    .option('--url <base_url>', 'base URL of the server to check, e.g. https://events.example.com')
    .option('--api-key <key>', 'API key for the server')
    .option('--secret <secret>', 'secret key for the server')
    .option(
      '--allow-writes',
      'also run SubmitSimpleBookingWithBookingStatus, CancelAttendee and CancelBooking (they change data)',
    )
    .option('--token <token>', 'a reusable ContactRegistration token for VerifyTokenForContact')
    .option('--binding <list>', "bindings to check, comma-separated (default: all the service's)")
    .option('--report <file>', 'write the results as JSON (.json) or Markdown (.md)')
    .action(async (o: Options) => {
      const { checkConformance } = await import('@evgen/event-management/conformance');
      const { BINDING_IDS } = await import('@evgen/event-management/service');
      const bindings = o.binding?.split(',').map((b) => b.trim()) ?? [...BINDING_IDS];
      for (const b of bindings)
        if (!(BINDING_IDS as readonly string[]).includes(b))
          throw new Error(`unknown binding ${b}; use ${BINDING_IDS.join(', ')}`);
      let stop = async () => undefined as void;
      let target = {
        url: o.url,
        apiKey: o.apiKey,
        secretKey: o.secret,
        allowWrites: o.allowWrites ?? false,
        token: o.token,
      };
      if (!o.url) {
        const { startReferenceService } = await import('../reference/serve.js');
        const { createToken } = await import('../reference/tokens.js');
        const dir = await mkdtemp(join(tmpdir(), 'evgen-conformance-'));
        const svc = await startReferenceService({
          dbPath: join(dir, 'events.sqlite'),
          port: 0,
          log: () => undefined,
          seed: { events: 12, bookings: 300 },
        });
        stop = async () => (await svc.close(), await rm(dir, { recursive: true, force: true }));
        target = {
          url: svc.server.url,
          apiKey: svc.demoKey!.apiKey,
          secretKey: svc.demoKey!.secretKey,
          allowWrites: true,
          token: createToken(svc.db, { contactId: 1, singleUse: false }).token,
        };
        console.error(`checking a reference service at ${svc.server.url} (temporary database)`);
      } else if (!o.apiKey || !o.secret) {
        throw new Error('--url needs --api-key and --secret');
      }
      try {
        const results = await checkConformance({
          url: target.url!,
          apiKey: target.apiKey!,
          secretKey: target.secretKey!,
          allowWrites: target.allowWrites,
          bindings,
          ...(target.token ? { token: target.token } : {}),
        });
        const table = formatTable(results);
        console.log(table);
        if (o.report)
          await writeFile(
            o.report,
            o.report.endsWith('.md')
              ? `# Conformance\n\n\`\`\`\n${table}\n\`\`\`\n`
              : `${JSON.stringify(results, null, 2)}\n`,
          );
        if (results.some((r) => r.status === 'fail')) process.exitCode = 1;
      } finally {
        await stop();
      }
    });
}
