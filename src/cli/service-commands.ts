// Operator commands of the reference service: serve, seed, keys, tokens. Every command takes
// --db <path or postgres:// URL> (default ./data/events.sqlite, or EVGEN_DB, or DATABASE_URL);
// only serve and seed create a SQLite file.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS_PER_CLIENT } from '@evgen/runtime';
import { corsOrigins } from '@evgen/runtime/internal';
import type { ReferenceDatabase } from '../reference/database.js';
import { creatableDatabase, existingDatabase, portNumber, publicUrl } from './options.js';
import { UsageError } from './usage.js';
import { DEFAULT_ADMIN_HOST, LOG_LEVELS, type LogLevel } from '../reference/ops/options.js';

// The reference service (better-sqlite3 and the generated server) loads only when one of these
// commands runs, so the generator's commands start without it.
const reference = async () => ({
  ...(await import('../reference/database.js')),
  ...(await import('../reference/keys.js')),
  ...(await import('../reference/serve.js')),
  ...(await import('../reference/tokens.js')),
  ...(await import('../reference/seed/index.js')),
});

const DEFAULT_DB = './data/events.sqlite';
const dbOption = (cmd: Command) =>
  cmd.addOption(
    new Option(
      '--db <path|url>',
      'SQLite file, or postgres://user@host:port/db (env EVGEN_DB, DATABASE_URL)',
    ).default(process.env.EVGEN_DB ?? process.env.DATABASE_URL ?? DEFAULT_DB, DEFAULT_DB),
  );

/** `fn` on the database `--db` names (migrated first), closed afterwards. */
async function withDatabase<T>(
  db: string,
  fn: (d: Awaited<ReturnType<typeof reference>>, open: ReferenceDatabase) => Promise<T>,
): Promise<T> {
  const r = await reference();
  const open = await r.openReferenceDatabase(r.databaseTarget(existingDatabase(db)));
  try {
    return await fn(r, open);
  } finally {
    await open.close();
  }
}
const positiveInt = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number');
  return n;
};
const countFromOne = (v: string) => {
  const n = positiveInt(v);
  if (n === 0) throw new InvalidArgumentError('expected a whole number above 0');
  return n;
};

/** `--cors a,b`: origins as browsers send them; a bad one is a usage error. */
const originList = (v: string) => {
  const origins = v.split(',').filter((o) => o.trim() !== '');
  try {
    corsOrigins(origins);
  } catch (e) {
    throw new InvalidArgumentError((e as Error).message);
  }
  return origins;
};

interface ServeOptions {
  db: string;
  port: number;
  host: string;
  publicUrl?: string;
  cors?: string[];
  testForms: boolean;
  workers?: number;
  readOnly?: boolean;
  maxConnections?: number;
  maxConnectionsPerClient?: number;
  logLevel: LogLevel;
  adminPort?: number;
  adminHost: string;
  testControls?: boolean;
  adminToken?: string;
}

function progressBar(done: number, total: number): void {
  if (!process.stderr.isTTY && done !== total && done % 20_000 !== 0) return;
  const width = 30;
  const filled = Math.round((done / total) * width);
  process.stderr.write(
    `\rseeding bookings [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}${done === total ? '\n' : ''}`,
  );
}

/** What a failed listen means for the operator, in one line. */
function listenError(e: unknown, o: { port: number; host: string }): unknown {
  const code = (e as { code?: unknown }).code;
  if (code === 'EADDRINUSE')
    return new Error(
      `port ${o.port} on ${o.host} is in use: choose another with --port <n> (or PORT)`,
    );
  if (code === 'EACCES')
    return new Error(
      `port ${o.port} on ${o.host} needs privileges: choose one above 1023 with --port <n>`,
    );
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return new Error(`cannot listen on ${o.host}: not an address of this machine (--host)`);
  return e;
}

async function serve(o: ServeOptions): Promise<void> {
  const { startReferenceService, describeTarget } = await reference();
  const svc = await startReferenceService({
    database: creatableDatabase(o.db),
    host: o.host,
    port: o.port,
    seed: { onProgress: progressBar },
    testForms: o.testForms,
    ...(o.cors ? { cors: o.cors } : {}),
    ...(o.publicUrl ? { publicUrl: o.publicUrl } : {}),
    ...(o.workers === undefined ? {} : { workers: o.workers }),
    ...(o.maxConnections === undefined ? {} : { maxConnections: o.maxConnections }),
    ...(o.maxConnectionsPerClient === undefined
      ? {}
      : { maxConnectionsPerClient: o.maxConnectionsPerClient }),
    readOnly: o.readOnly ?? false,
    logLevel: o.logLevel,
    ...(o.adminPort === undefined ? {} : { admin: { host: o.adminHost, port: o.adminPort } }),
    ...(o.testControls ? { testControls: { token: o.adminToken ?? '' } } : {}),
  }).catch((e: unknown) => {
    throw listenError(e, o);
  });
  const endpoint = `${svc.server.url}${svc.endpointPath}`;
  const published = o.publicUrl
    ? `  public:   ${o.publicUrl}${svc.endpointPath} (namespace ${svc.namespace}, in the WSDL)\n`
    : `  namespace: ${svc.namespace} with each request's Host (--public-url fixes it)\n`;
  // Stopping is set up before anything is printed, and the banner is one write: whoever reads it
  // and stops the service gets the whole of it, the demo key included.
  const stop = (signal: string) => {
    process.stderr.write(`${signal}: finishing requests in flight, closing the database\n`);
    void svc.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  const workers =
    svc.workers === 0
      ? 'none (requests run on the request loop)'
      : `${svc.workers} per lane (quick, bulk)`;
  // Printed last, after the workers' lines, and ending with the demo key pair: what a newcomer
  // needs is the last thing on the screen before request lines start, and every start says how
  // to get a key, since the pair is shown only on the start that created the database.
  const key = svc.demoKey
    ? `  DEMO KEY PAIR (created with this database; for local testing only):\n    APIKey:    ${svc.demoKey.apiKey}\n    SecretKey: ${svc.demoKey.secretKey}\n`
    : '';
  const keysHint = `  API keys: npx evgen keys create --name <you>${dbArgument(o.db)} (the secret is shown once)\n${svc.demoKey || o.readOnly ? '' : '            (the demo key pair was printed when this database was created)\n'}`;
  process.stderr.write(
    `Event Management reference service\n  endpoint: ${endpoint} (help pages: open it in a browser)\n  WSDL:     ${endpoint}?wsdl\n${published}  health:   ${svc.server.url}/healthz\n${adminLines(svc.admin?.url, o.testControls)}  database: ${describeTarget(svc.target)}${o.readOnly ? ' (read-only)' : ''}\n  workers:  ${workers}\n  connections: at most ${svc.maxConnections} open at once (--max-connections), ${svc.maxConnectionsPerClient} per client address (--max-connections-per-client)\n${keysHint}${key}`,
  );
}

/** The admin listener's lines of the banner (none without --admin-port). */
function adminLines(url: string | undefined, controls: boolean | undefined): string {
  if (url === undefined) return '';
  const armed = controls ? `  test controls: ${url}/controls (admin token)\n` : '';
  return `  metrics:  ${url}/metrics (admin listener)\n${armed}`;
}

/** ` --db <db>` as a shell word, for commands to copy; nothing for the default database. */
function dbArgument(db: string): string {
  if (db === (process.env.EVGEN_DB ?? process.env.DATABASE_URL ?? DEFAULT_DB)) return '';
  return ` --db ${/^[\w@%+=:,./-]+$/.test(db) ? db : `'${db.replace(/'/g, `'\\''`)}'`}`;
}

export function registerServiceCommands(program: Command): void {
  dbOption(
    program
      .command('serve')
      .description(
        'serve the reference service; creates, migrates and seeds an empty database first',
      ),
  )
    .addOption(
      new Option('--port <n>', 'port, 0 for any free one (env PORT)')
        .env('PORT')
        .argParser(portNumber)
        .default(8080),
    )
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .addOption(
      new Option(
        '--public-url <url>',
        "public base URL such as https://events.example.com: fixes the namespace and every address in the WSDL (env EVGEN_PUBLIC_URL; default: each request's Host header decides)",
      )
        .env('EVGEN_PUBLIC_URL')
        .argParser(publicUrl),
    )
    .option(
      '--cors <origins>',
      'origins allowed to call from browsers, comma-separated',
      originList,
    )
    .option('--no-test-forms', 'help pages without test forms (for a production stub)')
    // Reference-service flags (issue 13): worker threads and read-only serving.
    .option(
      '--workers <n>',
      'worker threads per lane (quick calls, bulk pages); 0 serves on the request loop (default: cores)',
      positiveInt,
    )
    .option('--read-only', 'serve a read-only database; writes are refused (InvalidRequest)')
    .option(
      '--max-connections <n>',
      `connections open at once; at it the longest idle is closed, else new ones are refused and logged (default: ${DEFAULT_MAX_CONNECTIONS})`,
      countFromOne,
    )
    .option(
      '--max-connections-per-client <n>',
      `connections one client address (an IPv6 /64) may hold at once; past it new ones are refused and logged (default: ${DEFAULT_MAX_CONNECTIONS_PER_CLIENT})`,
      countFromOne,
    )
    .addOption(
      new Option('--log-level <level>', 'lowest level of the JSON log lines on stdout')
        .choices(LOG_LEVELS)
        .default('info'),
    )
    .addOption(
      new Option(
        '--admin-port <n>',
        'port of the admin listener (/metrics, test controls), never the public one; 0 for any free one (default: none)',
      ).argParser(portNumber),
    )
    .option('--admin-host <host>', 'address of the admin listener', DEFAULT_ADMIN_HOST)
    .option(
      '--test-controls',
      'serve test controls on the admin listener (force faults and delays, reset the database); needs an admin token',
    )
    .addOption(
      new Option(
        '--admin-token <token>',
        'token the test controls ask for (Authorization: Bearer), at least 16 characters; prefer the env EVGEN_ADMIN_TOKEN',
      ).env('EVGEN_ADMIN_TOKEN'),
    )
    .action(serve);

  dbOption(
    program.command('seed').description('fill an empty database with deterministic demo data'),
  )
    .option('--events <n>', 'number of events', positiveInt, 36)
    .option('--bookings <n>', 'number of bookings', positiveInt, 3000)
    .option('--seed <n>', 'random seed', positiveInt, 1)
    .action(async (o: { db: string; events: number; bookings: number; seed: number }) => {
      const { databaseTarget, seedDatabase, seedOptionsProblem } = await reference();
      const problem = seedOptionsProblem(o);
      if (problem)
        throw new UsageError(`--events ${o.events} --bookings ${o.bookings}: ${problem}`);
      const started = Date.now();
      const summary = await seedDatabase(databaseTarget(creatableDatabase(o.db)), {
        events: o.events,
        bookings: o.bookings,
        seed: o.seed,
        onProgress: progressBar,
      });
      console.log(
        `seeded ${summary.events} events, ${summary.bookings} bookings, ${summary.contacts} contacts in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    });

  const keys = program.command('keys').description('API keys of the reference service');
  dbOption(
    keys.command('create').description('issue an API key and secret (the secret is shown once)'),
  )
    .requiredOption('--name <label>', 'who the key is for')
    .option('--json', 'print {"apiKey":…,"secretKey":…}')
    .action(async (o: { db: string; name: string; json?: boolean }) => {
      const k = await withDatabase(o.db, (r, db) => db.run(r.createKey(o.name)));
      console.log(o.json ? JSON.stringify(k) : `APIKey:    ${k.apiKey}\nSecretKey: ${k.secretKey}`);
    });
  dbOption(keys.command('list').description('list keys (never secrets)')).action(
    async (o: { db: string }) => {
      for (const k of await withDatabase(o.db, (r, db) => db.run(r.listKeys())))
        console.log(
          `${k.apiKey}  ${k.name}  created ${k.created}${k.revoked ? `  REVOKED ${k.revoked}` : ''}`,
        );
    },
  );
  dbOption(
    keys.command('revoke').description('revoke a key').argument('<key>', 'the API key'),
  ).action(async (key: string, o: { db: string }) => {
    const done = await withDatabase(o.db, (r, db) => db.run(r.revokeKey(key)));
    if (!done) throw new Error(`no active key ${key}`);
    console.log(`revoked ${key}`);
  });

  const tokens = program.command('tokens').description('contact tokens for VerifyTokenForContact');
  dbOption(tokens.command('create').description('issue a ContactRegistration token for a contact'))
    .requiredOption('--contact <id>', 'contact id', positiveInt)
    .option('--single-use', 'the token works once')
    .option('--ttl <duration>', 'lifetime such as 15m, 24h, 7d (default: no expiry)')
    .option('--json', 'print {"token":…,"expiresAt":…}')
    .action(
      async (o: {
        db: string;
        contact: number;
        singleUse?: boolean;
        ttl?: string;
        json?: boolean;
      }) => {
        const t = await withDatabase(o.db, (r, db) =>
          db.run(
            r.createToken({
              contactId: o.contact,
              singleUse: o.singleUse ?? false,
              ...(o.ttl ? { ttlMs: r.parseDuration(o.ttl) } : {}),
            }),
          ),
        );
        console.log(
          o.json
            ? JSON.stringify(t)
            : `token: ${t.token}${t.expiresAt ? `\nexpires: ${t.expiresAt}` : ''}`,
        );
      },
    );
}
