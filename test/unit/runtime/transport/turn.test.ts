// onTurnEnd (turn.ts): work queued in a turn of the event loop runs together after that turn's
// callbacks, and work it leads to runs in the same turn, before the next one's immediates.
import { describe, expect, it } from 'vitest';
import { onTurnEnd } from '@evgen/runtime/internal';

/** Resolves once the turns that follow this one have run their immediates. */
const turns = (n: number) =>
  new Promise<void>((done) => {
    const next = (left: number) => (left === 0 ? done() : setImmediate(() => next(left - 1)));
    next(n);
  });

/** Resumes `fn` after a chain of `depth` promises, as a request's handler resumes after awaits. */
const after = (depth: number, fn: () => void) => {
  let p: Promise<void> = Promise.resolve();
  for (let i = 0; i < depth; i++) p = p.then(() => undefined);
  void p.then(fn);
};

describe('onTurnEnd', () => {
  it('runs what a turn queued together, in order, after the turn', async () => {
    const log: string[] = [];
    onTurnEnd(() => log.push('a'));
    onTurnEnd(() => log.push('b'));
    log.push('queued');
    await turns(2);
    expect(log).toEqual(['queued', 'a', 'b']);
  });

  const stages = [
    { given: 'queued by a batch itself', depth: -1 },
    { given: 'queued in a microtask the batch resumed', depth: 0 },
    { given: 'queued after a chain of awaits', depth: 5 },
  ];
  it.each(stages)('runs work $given in the same turn, before the next', async ({ depth }) => {
    const log: string[] = [];
    onTurnEnd(() => {
      log.push('first');
      // Queued in this turn's check phase: it runs in the next turn.
      setImmediate(() => log.push('next turn'));
      const second = () => onTurnEnd(() => log.push('second'));
      if (depth < 0) second();
      else after(depth, second);
    });
    await turns(3);
    expect(log).toEqual(['first', 'second', 'next turn']);
  });

  it('runs the stages of many requests as batches: each stage once per turn', async () => {
    const log: string[] = [];
    const stage = (name: string, then?: () => void) => {
      let waiting = 0;
      return () => {
        if (waiting++ === 0)
          onTurnEnd(() => {
            log.push(`${name} x${waiting}`);
            waiting = 0;
            then?.();
          });
      };
    };
    const write = stage('write');
    const commit = stage('commit', () => after(2, () => [1, 2, 3].forEach(write)));
    const check = stage('check', () => after(1, () => [1, 2, 3].forEach(commit)));
    [1, 2, 3].forEach(check);
    await turns(2);
    expect(log).toEqual(['check x3', 'commit x3', 'write x3']);
  });

  it('runs the rest of a batch when one throws, then reports the error as uncaught', async () => {
    const log: string[] = [];
    const others = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    try {
      const uncaught = new Promise<unknown>((done) => process.once('uncaughtException', done));
      onTurnEnd(() => {
        throw new Error('boom');
      });
      onTurnEnd(() => log.push('after the throw'));
      const error = await uncaught;
      expect((error as Error).message).toBe('boom');
      expect(log).toEqual(['after the throw']);
      onTurnEnd(() => log.push('next batch'));
      await turns(2);
      expect(log).toEqual(['after the throw', 'next batch']);
    } finally {
      for (const l of others) process.on('uncaughtException', l);
    }
  });
});
