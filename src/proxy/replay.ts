// evgen replay: every operation call of a cassette sent again, in order, to another service,
// re-signed with its key and a fresh Timestamp, and each answer compared value by value with the
// recorded one. Differences are listed by operation and path; those the rules ignore are counted.
// With ids ignored, a generated id the replay got in place of the recorded one (a booking a write
// made) replaces it in the requests after, so they ask for the replay's own record.
import { AnswerChecker, TimestampClock, namespaceFor } from '@evgen/runtime/internal';
import { readCassette, type RecordedExchange } from './cassette.js';
import { ABSENT, PRESENT, compareAnswers, type ValueDifference } from './compare.js';
import { atId, ignoredAs, type IgnoreRules, type IgnoredAs } from './ignore.js';
import { clip } from './finding.js';
import { Redactor } from './redact.js';
import { rebuildRequest } from './replay-request.js';
import type { ServiceTables } from './tables.js';

export interface ReplayOptions {
  readonly cassette: string;
  /** {base_url} of the service to replay against. */
  readonly url: string;
  readonly apiKey: string;
  readonly secretKey: string;
  readonly tables: ServiceTables;
  /** Its {soap_namespace} (default: from the URL, as the document's rule says). */
  readonly namespace?: string;
  readonly ignore?: IgnoreRules;
  /** Per request. Default 30 s. */
  readonly timeoutMs?: number;
  /** Longest answer read and compared (longer ones are reported as failed). Default 64 MiB. */
  readonly maxAnswerBytes?: number;
  /** Each exchange as it is done. */
  readonly onExchange?: (e: ReplayedExchange) => void;
}

export interface Difference extends ValueDifference {
  /** The exchange's line in the cassette. */
  readonly line: number;
  readonly operation: string;
  readonly binding: string;
}

export interface ReplayedExchange {
  readonly line: number;
  readonly operation: string;
  readonly binding: string;
  readonly outcome: 'same' | 'different' | 'skipped' | 'failed';
  readonly differences: readonly Difference[];
  /** Why it was skipped or failed. */
  readonly reason?: string;
}

export interface ReplayReport {
  readonly cassette: string;
  readonly url: string;
  readonly started: string;
  readonly written: string;
  readonly exchanges: number;
  readonly same: number;
  readonly different: number;
  /** The first exchanges skipped (all are counted in `skippedCount`). */
  readonly skipped: readonly { line: number; operation: string; binding: string; reason: string }[];
  readonly skippedCount: number;
  /** The first exchanges without an answer (all are counted in `failedCount`). */
  readonly failed: readonly { line: number; operation: string; binding: string; reason: string }[];
  readonly failedCount: number;
  /** The first differences, each value clipped. */
  readonly differences: readonly Difference[];
  /** Differences past the bound, counted only. */
  readonly differencesNotKept: number;
  readonly ignored: Readonly<Record<IgnoredAs, number>>;
}

/** Differences, skipped and failed exchanges listed; past it they are counted only. */
const MAX_LISTED = 10_000;
export const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** The body as text, or an error past `max` bytes (the answer is not held whole then). */
async function bodyWithin(res: Response, max: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  for (let r = await reader?.read(); r && !r.done; r = await reader!.read()) {
    size += r.value.byteLength;
    if (size > max) {
      await reader!.cancel();
      throw new Error(`answer longer than ${max} bytes: not compared`);
    }
    chunks.push(r.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
const MAX_IDS = 10_000;
const isValue = (s: string) => s !== ABSENT && s !== PRESENT && s !== '';

/**
 * A recorded refusal of the credentials cannot be made again: the replay signs with its own key,
 * correctly. Such an exchange is skipped, saying so.
 */
function refusedCredentials(
  checker: AnswerChecker,
  t: ServiceTables,
  e: RecordedExchange,
): { skip: string } | undefined {
  if (e.response.status === 200 || e.response.body === undefined) return undefined;
  const type = e.response.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  const raw = { status: e.response.status, type, body: new TextEncoder().encode(e.response.body) };
  const code = t.wire.faults.raisedFor.authentication;
  return checker.fault(raw)?.detailCode === code
    ? { skip: `the recorded answer refused the credentials (${code}), which the replay signs anew` }
    : undefined;
}

export async function replay(o: ReplayOptions): Promise<ReplayReport> {
  const checker = new AnswerChecker({ ...o.tables, level: 'document' });
  const started = new Date().toISOString();
  const base = o.url.replace(/\/+$/, '');
  const target = {
    base,
    ns: o.namespace ?? namespaceFor(base, o.tables.wire.namespace),
    apiKey: o.apiKey,
    secretKey: o.secretKey,
  };
  const clock = new TimestampClock();
  const ids = new Map<string, string>();
  const differences: Difference[] = [];
  const skipped: ReplayReport['skipped'][number][] = [];
  const failed: ReplayReport['failed'][number][] = [];
  let skippedCount = 0;
  let failedCount = 0;
  const list = <T>(to: T[], item: T) => to.length < MAX_LISTED && to.push(item);
  const ignored: Record<IgnoredAs, number> = { timestamps: 0, ids: 0, paths: 0 };
  let exchanges = 0;
  let same = 0;
  let different = 0;
  let notKept = 0;
  const replayHost = new URL(base).host;
  for await (const { line, exchange: e } of readCassette(o.cassette)) {
    exchanges++;
    const at = { line, operation: e.operation, binding: e.binding };
    const req =
      refusedCredentials(checker, o.tables, e) ??
      rebuildRequest(o.tables, e, target, clock.next(), ids);
    if ('skip' in req) {
      skippedCount++;
      list(skipped, { ...at, reason: req.skip });
      o.onExchange?.({ ...at, outcome: 'skipped', differences: [], reason: req.skip });
      continue;
    }
    let answer: { status: number; type: string; body: string };
    try {
      const res = await fetch(req.url, {
        ...req.init,
        redirect: 'manual',
        signal: AbortSignal.timeout(o.timeoutMs ?? 30_000),
      });
      answer = {
        status: res.status,
        type: res.headers.get('content-type') ?? '',
        body: await bodyWithin(res, o.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES),
      };
    } catch (err) {
      const message = (err as Error).message;
      const reason = message.startsWith('answer longer') ? message : `no answer: ${message}`;
      failedCount++;
      list(failed, { ...at, reason });
      o.onExchange?.({ ...at, outcome: 'failed', differences: [], reason });
      continue;
    }
    const recordedType =
      e.response.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
    const recordedHost = e.request.headers.find(([k]) => k.toLowerCase() === 'host')?.[1];
    const found = compareAnswers(
      { status: e.response.status, type: recordedType, body: e.response.body },
      answer,
      {
        from: [req.recordedNs ?? '', recordedHost ?? ''],
        to: [target.ns, replayHost],
      },
    );
    const redact = new Redactor(o.tables.auth.httpHeaders.signature, [req.signature, o.secretKey]);
    const all = found.map((d) => ({
      ...d,
      recorded: redact.text(d.recorded),
      replayed: redact.text(d.replayed),
    }));
    const shown = (d: ValueDifference) => ({
      ...d,
      recorded: clip(d.recorded, 300),
      replayed: clip(d.replayed, 300),
    });
    // Ids first: a value holding one (a URL with a booking reference) is judged once it is known.
    if (o.ignore?.ids)
      for (const d of all)
        if (atId(d) && ids.size < MAX_IDS && isValue(d.recorded) && isValue(d.replayed))
          ids.set(d.recorded, d.replayed);
    const kept: Difference[] = [];
    for (const d of all) {
      const why = ignoredAs(d, o.ignore ?? {}, ids);
      if (why === undefined) kept.push({ ...shown(d), ...at });
      else ignored[why]++;
    }
    if (kept.length) different++;
    else same++;
    for (const d of kept) if (!list(differences, d)) notKept++;
    o.onExchange?.({ ...at, outcome: kept.length ? 'different' : 'same', differences: kept });
  }
  return {
    cassette: o.cassette,
    url: o.url,
    started,
    written: new Date().toISOString(),
    exchanges,
    same,
    different,
    skipped,
    skippedCount,
    failed,
    failedCount,
    differences,
    differencesNotKept: notKept,
    ignored,
  };
}

/** One line: `GetBooking soap11 (line 3) GetBookingResponse/…/Email: recorded "a", replayed "b"`. */
export const differenceLine = (d: Difference): string =>
  `${d.operation} ${d.binding} (line ${d.line}) ${d.path}: recorded ${JSON.stringify(d.recorded)}, replayed ${JSON.stringify(d.replayed)}`;

const md = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function formatReplayMarkdown(r: ReplayReport): string {
  const out = [
    '# evgen replay report',
    '',
    `${r.cassette} replayed against ${r.url}: ${r.exchanges} exchanges, ${r.same} the same, ${r.different} different, ${r.skippedCount} skipped, ${r.failedCount} without an answer; ignored differences: timestamps ${r.ignored.timestamps}, ids ${r.ignored.ids}, paths ${r.ignored.paths}.`,
    '',
  ];
  if (r.differences.length)
    out.push(
      '## Differences',
      '',
      '| line | operation | binding | path | recorded | replayed |',
      '|---|---|---|---|---|---|',
      ...r.differences.map(
        (d) =>
          `| ${d.line} | ${d.operation} | ${d.binding} | ${md(d.path)} | ${md(JSON.stringify(d.recorded))} | ${md(JSON.stringify(d.replayed))} |`,
      ),
      '',
    );
  for (const [title, list] of [
    ['Skipped', r.skipped],
    ['Without an answer', r.failed],
  ] as const)
    if (list.length)
      out.push(
        `## ${title}`,
        '',
        ...list.map((s) => `- line ${s.line} ${s.operation} ${s.binding}: ${s.reason}`),
        '',
      );
  return out.join('\n');
}
