// evgen proxy and evgen replay: option parsing and checks (usage errors exit 2), then src/proxy.
import { readFileSync } from 'node:fs';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS_PER_CLIENT } from '@evgen/runtime';
import { existingDatabase, portNumber, publicUrl } from './options.js';
import { UsageError } from './usage.js';

const level = (v: string) => {
  if (v !== 'document' && v !== 'evgen')
    throw new InvalidArgumentError('expected document or evgen');
  return v;
};
const reportFile = (v: string) => {
  if (!/\.(json|md)$/.test(v)) throw new InvalidArgumentError('expected a .json or .md file');
  return v;
};
const wholeAbove0 = (v: string) => {
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || n < 1)
    throw new InvalidArgumentError('expected a whole number above 0');
  return n;
};
const ignoreKinds = (v: string) => {
  const kinds = v.split(',').map((k) => k.trim());
  for (const k of kinds)
    if (k !== 'timestamps' && k !== 'ids')
      throw new InvalidArgumentError(`unknown kind ${k}; use timestamps, ids or both`);
  return kinds;
};
const collect = (v: string, all: string[] = []) => [...all, v];

interface ProxyCliOptions {
  target: string;
  port: number;
  host: string;
  level: 'document' | 'evgen';
  record?: string;
  report?: string;
  reportEvery?: number;
  secretFile?: string;
  keysDb?: string;
  rewriteHost?: boolean;
  namespace?: string;
  maxCheckBytes?: number;
  maxConnections: number;
  maxConnectionsPerClient: number;
}

/** Resolves on the first SIGINT or SIGTERM. */
const stopSignal = () =>
  new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });

async function secretsOf(o: ProxyCliOptions) {
  if (o.secretFile !== undefined) {
    const { secretFileLookup, SecretFileError } = await import('../proxy/secrets.js');
    let text: string;
    try {
      text = readFileSync(o.secretFile, 'utf8');
    } catch (e) {
      throw new UsageError(`--secret-file ${o.secretFile}: ${(e as Error).message}`);
    }
    try {
      const { lookup, secrets } = secretFileLookup(text);
      return { lookup, known: () => secrets, close: () => Promise.resolve() };
    } catch (e) {
      if (e instanceof SecretFileError)
        throw new UsageError(`--secret-file ${o.secretFile}: ${e.message}`);
      throw e;
    }
  }
  if (o.keysDb !== undefined) {
    const { openReferenceDatabase, databaseTarget } = await import('../reference/database.js');
    const { databaseLookup } = await import('../proxy/keys-db.js');
    const db = await openReferenceDatabase(databaseTarget(existingDatabase(o.keysDb)), {
      migrate: false,
    });
    return { ...databaseLookup(db), close: () => db.close() };
  }
  return undefined;
}

function registerProxy(program: Command): void {
  program
    .command('proxy')
    .description(
      'forward traffic to a server unchanged, checking every request and answer against the interface (and our decisions at --level evgen)',
    )
    .requiredOption(
      '--target <base_url>',
      'base URL of the server to forward to (https://events.example.com, say).',
      publicUrl,
    )
    .addOption(
      new Option('--port <n>', 'port to listen on, 0 for any free one')
        .argParser(portNumber)
        .default(8081),
    )
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .addOption(
      new Option('--level <level>', "document: the document's rules; evgen: also our gap decisions")
        .argParser(level)
        .default('document'),
    )
    .option(
      '--record <file.jsonl>',
      'append every exchange to this cassette (Signature and secrets redacted)',
    )
    .option(
      '--report <file>',
      'write the report as JSON (.json) or Markdown (.md) on exit',
      reportFile,
    )
    .option('--report-every <seconds>', 'also write the report every so many seconds', wholeAbove0)
    .option(
      '--secret-file <file>',
      'secrets to verify signatures with: "<api key> <secret>" lines, a secret alone, or evgen keys create --json',
    )
    .option(
      '--keys-db <path|url>',
      "verify signatures with the keys of a reference service's database",
    )
    .option(
      '--rewrite-host',
      "send the target's host as Host (default: the client's, so the WSDL's addresses lead back to the proxy)",
    )
    .option(
      '--namespace <uri>',
      'the {soap_namespace} requests and answers must be in (default: from the Host)',
    )
    .option(
      '--max-check-bytes <n>',
      'largest body checked and recorded; longer ones are forwarded unchecked (default 16 MiB)',
      wholeAbove0,
    )
    .addOption(
      new Option(
        '--max-connections <n>',
        'connections open at once; at it the longest idle is closed, else new ones are refused',
      )
        .argParser(wholeAbove0)
        .default(DEFAULT_MAX_CONNECTIONS),
    )
    .addOption(
      new Option(
        '--max-connections-per-client <n>',
        'connections one client address (an IPv6 /64) may hold at once; past it new ones are refused',
      )
        .argParser(wholeAbove0)
        .default(DEFAULT_MAX_CONNECTIONS_PER_CLIENT),
    )
    .action(async (o: ProxyCliOptions) => {
      if (o.secretFile !== undefined && o.keysDb !== undefined)
        throw new UsageError('give --secret-file or --keys-db, not both');
      const { runProxy } = await import('../proxy/run-proxy.js');
      const { GENERATED_TABLES } = await import('../proxy/generated-tables.js');
      const { CassetteWriter } = await import('../proxy/cassette.js');
      const secrets = await secretsOf(o);
      const record = o.record === undefined ? undefined : new CassetteWriter(o.record);
      try {
        await record?.ready();
      } catch (e) {
        throw new UsageError(`--record ${o.record}: ${(e as Error).message}`);
      }
      try {
        process.exitCode = await runProxy({
          target: o.target,
          tables: GENERATED_TABLES,
          host: o.host,
          port: o.port,
          level: o.level,
          ...(secrets ? { secrets: secrets.lookup, knownSecrets: secrets.known() } : {}),
          ...(o.rewriteHost ? { rewriteHost: true } : {}),
          ...(o.namespace !== undefined ? { namespace: o.namespace } : {}),
          ...(record ? { record } : {}),
          ...(o.maxCheckBytes !== undefined ? { maxCheckBytes: o.maxCheckBytes } : {}),
          maxConnections: o.maxConnections,
          maxConnectionsPerClient: o.maxConnectionsPerClient,
          ...(o.report !== undefined ? { reportFile: o.report } : {}),
          ...(o.reportEvery !== undefined ? { reportEverySeconds: o.reportEvery } : {}),
          stop: stopSignal(),
          out: (line) => console.log(line),
          err: (line) => console.error(line),
        });
      } catch (e) {
        if ((e as { code?: string }).code === 'EADDRINUSE')
          throw new Error(`port ${o.port} on ${o.host} is in use: choose another with --port <n>`);
        throw e;
      } finally {
        await secrets?.close();
      }
    });
}

interface ReplayCliOptions {
  url: string;
  apiKey: string;
  secret: string;
  report?: string;
  ignore?: string[];
  ignorePath?: string[];
  namespace?: string;
}

function registerReplay(program: Command): void {
  program
    .command('replay')
    .description(
      'send the operation calls of a cassette (evgen proxy --record) to a server, re-signed, and compare its answers value by value with the recorded ones',
    )
    .argument('<cassette>', 'a .jsonl file written by evgen proxy --record')
    .requiredOption('--url <base_url>', 'base URL of the server to replay against', publicUrl)
    .requiredOption('--api-key <key>', 'API key for that server')
    .requiredOption('--secret <secret>', 'its secret key')
    .option('--report <file>', 'write the report as JSON (.json) or Markdown (.md)', reportFile)
    .option(
      '--ignore <kinds>',
      'ignore differences between timestamps, generated ids, or both (timestamps,ids)',
      ignoreKinds,
    )
    .option(
      '--ignore-path <pattern>',
      'ignore differences at these paths (CreatedDate, **/Attendees/*/Email); repeatable',
      collect,
    )
    .option('--namespace <uri>', "the server's {soap_namespace} (default: from --url)")
    .action(async (cassette: string, o: ReplayCliOptions) => {
      const { replay, differenceLine, formatReplayMarkdown } = await import('../proxy/replay.js');
      const { writeReportFile } = await import('../proxy/run-proxy.js');
      const { GENERATED_TABLES } = await import('../proxy/generated-tables.js');
      const { CassetteError } = await import('../proxy/cassette.js');
      try {
        readFileSync(cassette, { flag: 'r' }).subarray(0, 0);
      } catch (e) {
        throw new UsageError(`${cassette}: ${(e as Error).message}`);
      }
      let report;
      try {
        report = await replay({
          cassette,
          url: o.url,
          apiKey: o.apiKey,
          secretKey: o.secret,
          tables: GENERATED_TABLES,
          ...(o.namespace !== undefined ? { namespace: o.namespace } : {}),
          ignore: {
            timestamps: o.ignore?.includes('timestamps') ?? false,
            ids: o.ignore?.includes('ids') ?? false,
            paths: o.ignorePath ?? [],
          },
          onExchange: (e) => {
            for (const d of e.differences) console.log(differenceLine(d));
            if (e.outcome === 'skipped' || e.outcome === 'failed')
              console.error(`${e.outcome} line ${e.line} ${e.operation} ${e.binding}: ${e.reason}`);
          },
        });
      } catch (e) {
        if (e instanceof CassetteError) throw new Error(`${cassette}: ${e.message}`);
        throw e;
      }
      const i = report.ignored;
      console.error(
        `evgen replay: ${report.exchanges} exchanges, ${report.same} the same, ${report.different} different, ${report.skippedCount} skipped, ${report.failedCount} without an answer (ignored: timestamps ${i.timestamps}, ids ${i.ids}, paths ${i.paths})`,
      );
      if (o.report !== undefined)
        await writeReportFile(
          o.report,
          o.report.endsWith('.md')
            ? formatReplayMarkdown(report)
            : `${JSON.stringify(report, null, 2)}\n`,
        );
      if (report.different > 0 || report.failedCount > 0) process.exitCode = 1;
    });
}

export function registerProxyCommands(program: Command): void {
  registerProxy(program);
  registerReplay(program);
}
