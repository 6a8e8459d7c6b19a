// evgen conformance: hold any server (default: a reference service on a temporary database)
// against the interface document (level document) and our gap decisions (level evgen); prints
// per level an operation × binding table with every failure, writes a JSON or Markdown report,
// and exits 1 when anything at the chosen level failed.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { formatMarkdown, formatReport, type Binding, type ConformanceReport } from '@evgen/runtime';
import { CONFORMANCE_MODEL, checkConformance } from '@evgen/event-management/conformance';
import { BINDING_IDS } from '@evgen/event-management/service';

interface Options {
  url?: string;
  apiKey?: string;
  secret?: string;
  level?: string;
  allowWrites?: boolean;
  hostile?: boolean;
  binding: string;
  only?: string;
  report?: string;
  namespace?: string;
  [value: string]: unknown;
}

/** commander's property name of a long option: event-id → eventId. */
const camel = (option: string) => option.replace(/-([a-z])/g, (_, ch: string) => ch.toUpperCase());

/** The values the user gave (`--event-id 12`...), by the model's value names. */
function givenValues(o: Options): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of CONFORMANCE_MODEL.values) {
    const given = v.option !== null ? o[camel(v.option)] : undefined;
    if (typeof given === 'string') out[v.name] = given;
  }
  return out;
}

async function startReference(): Promise<{
  target: { url: string; apiKey: string; secretKey: string; values: Record<string, string> };
  stop: () => Promise<void>;
}> {
  const { startReferenceService } = await import('../reference/serve.js');
  const { createToken } = await import('../reference/tokens.js');
  const dir = await mkdtemp(join(tmpdir(), 'evgen-conformance-'));
  const svc = await startReferenceService({
    database: join(dir, 'events.sqlite'),
    port: 0,
    log: () => undefined,
    seed: { events: 12, bookings: 300 },
  });
  const token = CONFORMANCE_MODEL.values.find((v) => v.option === 'token');
  console.error(`checking a reference service at ${svc.server.url} (temporary database)`);
  return {
    target: {
      url: svc.server.url,
      apiKey: svc.demoKey!.apiKey,
      secretKey: svc.demoKey!.secretKey,
      values: token
        ? {
            [token.name]: (await svc.database.run(createToken({ contactId: 1, singleUse: false })))
              .token,
          }
        : {},
    },
    stop: async () => (await svc.close(), await rm(dir, { recursive: true, force: true })),
  };
}

async function writeReport(file: string, report: ConformanceReport): Promise<void> {
  await writeFile(
    file,
    file.endsWith('.md') ? formatMarkdown(report) : `${JSON.stringify(report, null, 2)}\n`,
  );
}

export function registerConformanceCommand(program: Command): void {
  const cmd = program
    .command('conformance')
    .description(
      'check a server against the interface document; by default a reference service started on a temporary database',
    )
    .option('--url <base_url>', 'base URL of the server to check, e.g. https://events.example.com')
    .option('--api-key <key>', 'API key for the server')
    .option('--secret <secret>', 'secret key for the server')
    .option(
      '--level <level>',
      "document: the document's rules only; evgen: also our gap decisions (default: document with --url, evgen without)",
    )
    .option(
      '--allow-writes',
      'also run the operations that change data (bookings, cancellations, tokens)',
    )
    .option(
      '--hostile',
      'also send hostile input: oversized body, deep nesting, DTD, wrong SOAPAction, malformed XML, held-open requests (default: on without --url)',
    )
    .option('--binding <list>', 'bindings to check, comma-separated', BINDING_IDS.join(','))
    .option('--only <operations>', "check only these operations' responses, comma-separated")
    .option('--report <file>', 'write the report as JSON (.json) or Markdown (.md)')
    .option(
      '--namespace <uri>',
      "the server's {soap_namespace}, when it is not the one --url gives (a tunnel, a proxy, a namespace compiled in)",
    );
  for (const v of CONFORMANCE_MODEL.values)
    if (v.option !== null)
      cmd.option(`--${v.option} <value>`, `the ${v.name} to call operations with (not discovered)`);
  cmd.action(async (o: Options) => {
    const bindings: Binding[] = o.binding.split(',').map((b) => b.trim());
    for (const b of bindings)
      if (!(BINDING_IDS as readonly string[]).includes(b))
        throw new Error(`unknown binding ${b}; use ${BINDING_IDS.join(', ')}`);
    if (o.level !== undefined && o.level !== 'document' && o.level !== 'evgen')
      throw new Error(`unknown level ${o.level}; use document or evgen`);
    if (o.url && (!o.apiKey || !o.secret)) throw new Error('--url needs --api-key and --secret');
    const own = o.url ? undefined : await startReference();
    try {
      const target = own?.target ?? {
        url: o.url!,
        apiKey: o.apiKey!,
        secretKey: o.secret!,
        values: {},
      };
      const report = await checkConformance({
        url: target.url,
        apiKey: target.apiKey,
        secretKey: target.secretKey,
        level: o.level === 'document' || o.level === 'evgen' ? o.level : own ? 'evgen' : 'document',
        allowWrites: own ? true : (o.allowWrites ?? false),
        hostile: o.hostile ?? Boolean(own),
        bindings,
        values: { ...target.values, ...givenValues(o) },
        ...(o.only ? { only: o.only.split(',').map((s) => s.trim()) } : {}),
        ...(o.namespace ? { namespace: o.namespace } : {}),
      });
      console.log(formatReport(report));
      if (o.report) await writeReport(o.report, report);
      if (report.results.some((r) => r.status === 'fail')) process.exitCode = 1;
    } finally {
      await own?.stop();
    }
  });
}
