// The reference service: the generated server on the SQLite database, with a health check, one
// JSON log line per request (never the secret or the signature) and a graceful stop.
import { listen, type RunningServer, type ServiceHandler } from '@evgen/runtime';
import { SERVICE, namespaceFor } from '@evgen/event-management/auth';
import { createEventService } from '@evgen/event-management/server';
import { openDatabase, type Db } from './db/open.js';
import { referenceHandlers } from './handlers/index.js';
import { createKey, hasKeys, keyLookup } from './keys.js';
import { seed, type SeedOptions } from './seed/index.js';

export interface ReferenceOptions {
  readonly dbPath: string;
  readonly host?: string;
  readonly port?: number;
  readonly log?: (line: string) => void;
  readonly seed?: SeedOptions;
  /** Public base URL: fixes the namespace and the WSDL's addresses (default: the Host header). */
  readonly publicUrl?: string;
  /** Test forms on the operation pages; default true. */
  readonly testForms?: boolean;
  /** Origins allowed to call the service from browsers (CORS); default none. */
  readonly cors?: readonly string[];
}

export interface ReferenceService {
  readonly server: RunningServer;
  readonly db: Db;
  /** Set when this start created the demo key (the database had no key): the pair to print. */
  readonly demoKey: { apiKey: string; secretKey: string } | undefined;
  /** e.g. /API/1_0/SOAP/ServiceAPI.asmx */
  readonly endpointPath: string;
  /** {soap_namespace}, or how each request's Host header makes it. */
  readonly namespace: string;
  close(): Promise<void>;
}

function withHealth(db: Db, handler: ServiceHandler): ServiceHandler {
  const ping = db.prepare('SELECT 1');
  return async (req) => {
    if (req.method === 'GET' && req.url === '/healthz') {
      ping.get();
      return {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: '{"status":"ok"}',
      };
    }
    return handler(req);
  };
}

// The bundle is built (esbuild, about a quarter of a second) when a page first asks for it.
const browserClient = async () => (await import('../browser/bundle.js')).buildBrowserClient();

/** Opens (creating, migrating and seeding an empty database) and serves. */
export async function startReferenceService(o: ReferenceOptions): Promise<ReferenceService> {
  const db = openDatabase(o.dbPath);
  if ((db.prepare('SELECT count(*) FROM event').pluck().get() as number) === 0) seed(db, o.seed);
  const log = o.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const service = createEventService(referenceHandlers(db), {
    lookupKey: keyLookup(db),
    testForms: o.testForms === false ? false : { clientScript: browserClient },
    ...(o.cors?.length ? { cors: { origins: o.cors } } : {}),
    ...(o.publicUrl ? { publicBaseUrl: o.publicUrl } : {}),
    // An internal error's stack goes to stderr (the runtime's default onDiagnostic), not this line.
    onLog: ({ error: _stack, ...entry }) =>
      log(JSON.stringify({ ...entry, durationMs: Math.round(entry.durationMs * 100) / 100 })),
  });
  const server = await listen(withHealth(db, service), {
    host: o.host ?? '127.0.0.1',
    port: o.port ?? 8080,
  }).catch((e: unknown) => {
    db.close();
    throw e;
  });
  // Only once the port is bound: a start that cannot listen leaves no key nobody saw printed,
  // and the next start makes one.
  const demoKey = hasKeys(db) ? undefined : createKey(db, 'demo');
  return {
    server,
    db,
    demoKey,
    endpointPath: SERVICE.endpointPath,
    namespace: o.publicUrl ? namespaceFor(o.publicUrl) : namespaceFor('{Host}'),
    async close() {
      await server.close();
      db.close();
    },
  };
}
