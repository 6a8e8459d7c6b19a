// A PostgreSQL server of our own, for the tests and the bench: Debian's server binaries (apt-get
// install postgresql), initdb and pg_ctl in a temporary folder, listening on a Unix socket in that
// folder only (no port another run could hold). The server refuses to run as root, so as root
// (as in CI) the binaries run as the `postgres` system user the package creates, which owns the
// folder. Stopped by its owner, and at exit even when a test or the bench fails.
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const DEBIAN_BIN = '/usr/lib/postgresql';

/** The newest installed server's bin folder (EVGEN_PG_BIN overrides), or undefined. */
export function postgresBin(): string | undefined {
  const explicit = process.env.EVGEN_PG_BIN;
  if (explicit) return existsSync(join(explicit, 'initdb')) ? explicit : undefined;
  if (!existsSync(DEBIAN_BIN)) return undefined;
  const versions = readdirSync(DEBIAN_BIN)
    .filter((v) => existsSync(join(DEBIAN_BIN, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(DEBIAN_BIN, versions[0], 'bin');
}

/** Tests: a crash of the server is survived through the WAL without fsync (see PgCluster.start). */
export const TEST_SETTINGS = { fsync: 'off' } as const;

/** The superuser initdb creates; trust authentication on the socket (nothing else listens). */
export const PG_USER = 'evgen';
const asRoot = userInfo().uid === 0;
const live = new Set<PgCluster>();
process.once('exit', () => {
  for (const c of live) c.stopNow();
});

export class PgCluster {
  private constructor(
    readonly bin: string,
    /** Holds the data folder and the socket. */
    readonly dir: string,
  ) {}

  get data(): string {
    return join(this.dir, 'data');
  }

  /** A server binary, as the postgres user when we are root. */
  #command(tool: string, args: string[]): [string, string[]] {
    const path = join(this.bin, tool);
    return asRoot ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
  }

  async #tool(tool: string, args: string[]): Promise<void> {
    const [file, argv] = this.#command(tool, args);
    await run(file, argv, { timeout: 60_000 });
  }

  /**
   * initdb and start a new server; `options` are extra `-c name=value` server settings (the tests
   * give fsync=off: a server crash, kill -9 or pg_ctl -m immediate, is survived through the WAL
   * without it; only a machine losing power needs it).
   */
  static async start(options: Record<string, string | number> = {}): Promise<PgCluster> {
    const bin = postgresBin();
    if (!bin) throw new Error('PostgreSQL server binaries not found: apt-get install postgresql');
    const dir = mkdtempSync(join(tmpdir(), 'evgen-pg-'));
    if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
    else chownSync(dir, userInfo().uid, userInfo().gid);
    const cluster = new PgCluster(bin, dir);
    live.add(cluster);
    cluster.#settings = {
      listen_addresses: "''",
      unix_socket_directories: `'${dir}'`,
      max_connections: 300,
      ...options,
    };
    await cluster.#tool('initdb', [
      '-D',
      cluster.data,
      '-U',
      PG_USER,
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ]);
    await cluster.startServer();
    return cluster;
  }

  #settings: Record<string, string | number> = {};

  /** pg_ctl start, waiting until it accepts connections. */
  async startServer(): Promise<void> {
    const o = Object.entries(this.#settings)
      .map(([k, v]) => `-c ${k}=${v}`)
      .join(' ');
    await this.#tool('pg_ctl', [
      '-D',
      this.data,
      '-l',
      join(this.dir, 'log'),
      '-o',
      o,
      '-w',
      'start',
    ]);
  }

  /** pg_ctl stop: `fast` ends sessions and checkpoints; `immediate` is a crash (WAL recovery next start). */
  async stopServer(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await this.#tool('pg_ctl', ['-D', this.data, '-m', mode, '-w', 'stop']);
  }

  /** The URL of database `db` on this server's socket. */
  url(db = 'postgres'): string {
    return serverAt(this.dir).url(db);
  }

  /** A new empty database; its URL. */
  createDatabase(): Promise<string> {
    return serverAt(this.dir).createDatabase();
  }

  /** Stops the server and removes its folder. */
  async stop(): Promise<void> {
    live.delete(this);
    await this.stopServer('immediate').catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** At exit (synchronously): an immediate stop and the folder removed. */
  stopNow(): void {
    live.delete(this);
    const [file, argv] = this.#command('pg_ctl', ['-D', this.data, '-m', 'immediate', 'stop']);
    try {
      execFileSync(file, argv, { stdio: 'ignore', timeout: 10_000 });
    } catch {
      // not running
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A server listening in `dir` (a cluster of this process, or the test run's: test/pg-setup.ts). */
export function serverAt(dir: string): {
  url(db?: string): string;
  createDatabase(): Promise<string>;
} {
  const url = (db = 'postgres') =>
    `postgres://${PG_USER}@localhost/${db}?host=${encodeURIComponent(dir)}`;
  return {
    url,
    async createDatabase() {
      const name = `evgen_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
      const admin = new pg.Client({ connectionString: url() });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return url(name);
    },
  };
}

/** The pg tier's server, as its global setup provides it to the test workers. */
export interface PgRunInfo {
  readonly bin: string;
  readonly dir: string;
}
