// What the proxy gathers while it runs: every exchange counted by route, each distinct finding
// once with how often and when it was seen, what could not be checked and why, the clock offsets
// of the requests, the signatures verified, and the target's failures. Bounded: past
// `maxDistinct` distinct findings, new ones are counted only (each finding's texts are clipped
// before they come here); the reasons for not checking and the API keys without a secret are few
// and short.
import type { Finding } from './finding.js';
import { clip, findingKey } from './finding.js';
import type { Level } from './tables.js';

export interface SeenFinding extends Finding {
  readonly count: number;
  readonly first: string;
  readonly last: string;
}

export interface ProxyReport {
  readonly target: string;
  readonly listening: string;
  readonly level: Level;
  readonly started: string;
  readonly written: string;
  readonly exchanges: number;
  /** Exchanges by binding id, `wsdl`, `help`, `stray` (no binding) and `other` (outside the endpoint). */
  readonly routes: Readonly<Record<string, number>>;
  /** Every finding seen, repeats included. */
  readonly findings: number;
  readonly distinct: readonly SeenFinding[];
  /** Distinct findings past the bound, counted only. */
  readonly distinctNotKept: number;
  /** Exchanges (or their parts) not checked, by reason. */
  readonly unchecked: Readonly<Record<string, number>>;
  /** The requests' Timestamps minus the proxy's clock. */
  readonly clockOffset: {
    readonly samples: number;
    readonly minMs: number;
    readonly maxMs: number;
    readonly meanMs: number;
  } | null;
  readonly signatures: {
    readonly verified: number;
    readonly failed: number;
    /** Without a secret for their API key. */
    readonly unverified: number;
    readonly keysWithoutSecret: readonly string[];
  };
  /** Requests the target gave no answer to (the client got 502 or 504). */
  readonly targetFailures: number;
  readonly recording: {
    readonly file: string;
    readonly written: number;
    readonly notRecorded: number;
  } | null;
}

const MAX_KEYS_LISTED = 20;
/** Distinct reasons for not checking kept; past it they are counted as one. */
const MAX_REASONS = 50;
const OTHER_REASONS = 'other reasons';

export class ProxyLog {
  readonly #distinct = new Map<string, SeenFinding>();
  #notKept = 0;
  #findings = 0;
  #exchanges = 0;
  readonly #routes = new Map<string, number>();
  readonly #unchecked = new Map<string, number>();
  #offsets = { samples: 0, min: Infinity, max: -Infinity, sum: 0 };
  #signatures = { verified: 0, failed: 0, unverified: 0 };
  readonly #keysWithoutSecret = new Set<string>();
  #targetFailures = 0;
  readonly started = new Date().toISOString();

  constructor(private readonly maxDistinct = 10_000) {}

  /** Counts the finding; true when it is new (the first of its kind) and kept, to be shown. */
  finding(f: Finding, time: string): boolean {
    this.#findings++;
    const key = findingKey(f);
    const seen = this.#distinct.get(key);
    if (seen) {
      this.#distinct.set(key, { ...seen, count: seen.count + 1, last: time });
      return false;
    }
    if (this.#distinct.size >= this.maxDistinct) {
      this.#notKept++; // counted only: one kept no longer, it could not be told from a repeat
      return false;
    }
    this.#distinct.set(key, { ...f, count: 1, first: time, last: time });
    return true;
  }

  exchange(route: string): void {
    this.#exchanges++;
    this.#routes.set(route, (this.#routes.get(route) ?? 0) + 1);
  }

  unchecked(reason: string): void {
    const why =
      this.#unchecked.has(reason) || this.#unchecked.size < MAX_REASONS
        ? clip(reason)
        : OTHER_REASONS;
    this.#unchecked.set(why, (this.#unchecked.get(why) ?? 0) + 1);
  }

  offset(ms: number): void {
    const o = this.#offsets;
    o.samples++;
    o.min = Math.min(o.min, ms);
    o.max = Math.max(o.max, ms);
    o.sum += ms;
  }

  signature(result: 'verified' | 'failed' | 'unverified', apiKey: string | undefined): void {
    this.#signatures[result]++;
    if (
      result === 'unverified' &&
      apiKey !== undefined &&
      this.#keysWithoutSecret.size < MAX_KEYS_LISTED
    )
      this.#keysWithoutSecret.add(clip(apiKey, 100));
  }

  targetFailure(): void {
    this.#targetFailures++;
  }

  get findings(): number {
    return this.#findings;
  }

  report(o: Pick<ProxyReport, 'target' | 'listening' | 'level' | 'recording'>): ProxyReport {
    const off = this.#offsets;
    return {
      ...o,
      started: this.started,
      written: new Date().toISOString(),
      exchanges: this.#exchanges,
      routes: Object.fromEntries(this.#routes),
      findings: this.#findings,
      distinct: [...this.#distinct.values()],
      distinctNotKept: this.#notKept,
      unchecked: Object.fromEntries(this.#unchecked),
      clockOffset: off.samples
        ? {
            samples: off.samples,
            minMs: off.min,
            maxMs: off.max,
            meanMs: Math.round((off.sum / off.samples) * 1000) / 1000,
          }
        : null,
      signatures: { ...this.#signatures, keysWithoutSecret: [...this.#keysWithoutSecret] },
      targetFailures: this.#targetFailures,
    };
  }
}

const md = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function formatProxyMarkdown(r: ProxyReport): string {
  const out = [
    `# evgen proxy report (level ${r.level})`,
    '',
    `Target ${r.target}, listening at ${r.listening}, from ${r.started} to ${r.written}.`,
    '',
    `${r.exchanges} exchanges (${Object.entries(r.routes)
      .map(([k, n]) => `${k} ${n}`)
      .join(
        ', ',
      )}); ${r.findings} findings, ${r.distinct.length + r.distinctNotKept} distinct; ${r.targetFailures} without an answer from the target.`,
    '',
  ];
  if (r.distinct.length)
    out.push(
      '## Findings',
      '',
      '| direction | binding | operation | check | level | path | expected | found | seen |',
      '|---|---|---|---|---|---|---|---|---|',
      ...r.distinct.map(
        (f) =>
          `| ${f.direction} | ${f.binding} | ${f.operation} | ${md(f.check)} | ${f.level} | ${md(f.path)} | ${md(f.expected)} | ${md(f.found)} | ${f.count} |`,
      ),
      '',
    );
  const unchecked = Object.entries(r.unchecked);
  if (unchecked.length)
    out.push('## Not checked', '', ...unchecked.map(([why, n]) => `- ${why}: ${n}`), '');
  const s = r.signatures;
  out.push(
    '## Credentials',
    '',
    `- signatures verified ${s.verified}, failed ${s.failed}, not verified (no secret) ${s.unverified}${s.keysWithoutSecret.length ? ` (API keys ${s.keysWithoutSecret.join(', ')})` : ''}`,
    r.clockOffset
      ? `- clock offset (Timestamp minus the proxy's clock): min ${r.clockOffset.minMs} ms, mean ${r.clockOffset.meanMs} ms, max ${r.clockOffset.maxMs} ms over ${r.clockOffset.samples} requests`
      : '- clock offset: no readable Timestamp',
    '',
  );
  if (r.recording)
    out.push(
      `Recorded ${r.recording.written} exchanges to ${r.recording.file}${r.recording.notRecorded ? `, ${r.recording.notRecorded} not recorded (the disk or the checks fell behind)` : ''}.`,
      '',
    );
  return out.join('\n');
}
