import { mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { fdSink, LineWriter, type Sink } from '../../../src/reference/ops/line-writer.js';

/** Lets the turn's batched work (onTurnEnd) run. */
const turnEnds = () => new Promise<void>((r) => setImmediate(() => setImmediate(r)));

type Answer = { code?: string; max?: number };

/**
 * A sink that records what reached it. Each asynchronous write takes the next answer (an error
 * code, or at most `max` bytes written), and is held until released when `hold` is set.
 */
function recordingSink(answers: Answer[] = [], hold = false) {
  const out: string[] = [];
  const calls: number[] = [];
  const held: (() => void)[] = [];
  const sink: Sink = {
    write(bytes, done) {
      calls.push(bytes.length);
      const a = answers.shift() ?? {};
      const finish = () => {
        if (a.code) return done(Object.assign(new Error(a.code), { code: a.code }), 0);
        const n = Math.min(bytes.length, a.max ?? bytes.length);
        out.push(Buffer.from(bytes.subarray(0, n)).toString());
        done(null, n);
      };
      if (hold) held.push(finish);
      else setImmediate(finish);
    },
    writeSync(bytes) {
      out.push(Buffer.from(bytes).toString());
      return bytes.length;
    },
  };
  const release = () => held.splice(0).forEach((f) => f());
  return { sink, out, calls, release, text: () => out.join('') };
}

const lines = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `{"line":${from + i}}\n`);

describe('LineWriter', () => {
  it('writes the lines of a turn in one write, in order, once enough wait', async () => {
    const { sink, calls, text } = recordingSink();
    const w = new LineWriter(sink, { maxBytes: 1024, writeAtBytes: 10, delayMs: 10_000 });
    const given = lines(3);
    for (const l of given) w.write(l);
    expect(calls).toEqual([]);
    await turnEnds();
    await turnEnds();
    expect(calls).toEqual([given.join('').length]);
    expect(text()).toBe(given.join(''));
    expect(w.held).toBe(0);
  });

  it('writes lines that wait less than writeAtBytes once delayMs has passed', async () => {
    const { sink, calls, text } = recordingSink();
    const w = new LineWriter(sink, { maxBytes: 1024, writeAtBytes: 1000, delayMs: 5 });
    w.write('{"a":1}\n');
    await turnEnds();
    w.write('{"a":2}\n');
    await turnEnds();
    expect(calls).toEqual([]);
    await sleep(40);
    expect(calls).toHaveLength(1);
    expect(text()).toBe('{"a":1}\n{"a":2}\n');
  });

  it('holds at most maxBytes: past it lines are dropped and counted, and taken again once written', async () => {
    const { sink, release, text } = recordingSink([], true);
    const w = new LineWriter(sink, { maxBytes: 40, writeAtBytes: 1, delayMs: 10_000 });
    const given = lines(8); // 11 bytes each
    for (const l of given) {
      w.write(l);
      await turnEnds();
      expect(w.held).toBeLessThanOrEqual(40);
    }
    expect(w.dropped).toBe(given.length - 3);
    release();
    await turnEnds();
    release();
    await turnEnds();
    expect(w.held).toBe(0);
    w.write('{"line":9}\n');
    await turnEnds();
    release();
    await turnEnds();
    expect(text()).toBe(`${given.slice(0, 3).join('')}{"line":9}\n`);
    expect(w.dropped).toBe(given.length - 3);
  });

  it.each([
    { given: 'a write cut short', answers: [{ max: 7 }, { max: 5 }] },
    {
      given: 'EAGAIN (a full non-blocking pipe)',
      answers: [{ code: 'EAGAIN' }, { code: 'EAGAIN' }],
    },
  ])('writes everything, once, after $given', async ({ answers }) => {
    const { sink, text } = recordingSink(answers);
    const w = new LineWriter(sink, { maxBytes: 1024, writeAtBytes: 1, delayMs: 10_000 });
    const given = lines(4);
    for (const l of given) w.write(l);
    await turnEnds();
    await sleep(60);
    expect(text()).toBe(given.join(''));
    expect(w.held).toBe(0);
    expect(w.dropped).toBe(0);
  });

  it('writes the rest of a write cut short before the lines that wait after it', async () => {
    const { sink, release, text } = recordingSink([{ max: 1000 }], true);
    const w = new LineWriter(sink, { maxBytes: 1 << 20, writeAtBytes: 1, delayMs: 10_000 });
    // Lines larger than half a buffer: each later one waits in a buffer of its own.
    const given = ['a', 'b', 'c'].map((c) => `${c.repeat(40_000)}\n`);
    for (const l of given) {
      w.write(l);
      await turnEnds();
    }
    for (let i = 0; i < 10 && w.held > 0; i++) {
      release();
      await turnEnds();
    }
    expect(text()).toBe(given.join(''));
  });

  it('drops and counts the lines a sink refuses (EPIPE), and writes later ones', async () => {
    const { sink, text } = recordingSink([{ code: 'EPIPE' }]);
    const w = new LineWriter(sink, { maxBytes: 1024, writeAtBytes: 1, delayMs: 10_000 });
    for (const l of lines(3)) w.write(l);
    await turnEnds();
    await turnEnds();
    expect(w.dropped).toBe(3);
    expect(w.held).toBe(0);
    w.write('{"after":1}\n');
    await turnEnds();
    await turnEnds();
    expect(text()).toBe('{"after":1}\n');
  });

  it('counts UTF-8 bytes against the bound', async () => {
    const { sink, text } = recordingSink();
    const w = new LineWriter(sink, { maxBytes: 40, writeAtBytes: 1, delayMs: 10_000 });
    w.write(`"${'é'.repeat(30)}"\n`); // 31 code units, 63 bytes
    await turnEnds();
    expect(w.dropped).toBe(1);
    expect(text()).toBe('');
  });

  it("flushSync writes this turn's lines and every byte waiting, at once and in order", async () => {
    const { sink, text } = recordingSink();
    const w = new LineWriter(sink, { maxBytes: 1024, writeAtBytes: 1000, delayMs: 10_000 });
    const given = lines(5);
    w.write(given[0]!);
    await turnEnds();
    for (const l of given.slice(1)) w.write(l);
    w.flushSync();
    expect(text()).toBe(given.join(''));
    expect(w.held).toBe(0);
  });

  describe('through a file descriptor', () => {
    let dir: string | undefined;
    afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

    it('writes every line to the file, in order', async () => {
      dir = mkdtempSync(join(tmpdir(), 'line-writer-'));
      const path = join(dir, 'log');
      const fd = openSync(path, 'w');
      const w = new LineWriter(fdSink(fd), { maxBytes: 1 << 20, writeAtBytes: 64, delayMs: 5 });
      const given = lines(200);
      for (const [i, l] of given.entries()) {
        w.write(l);
        if (i % 7 === 0) await turnEnds();
      }
      await turnEnds();
      await sleep(50);
      w.flushSync();
      closeSync(fd);
      expect(readFileSync(path, 'utf8')).toBe(given.join(''));
    });
  });
});
