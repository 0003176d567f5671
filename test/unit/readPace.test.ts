import * as assert from 'node:assert/strict';
import { ReadPace } from '../../src/core/readPace';

/**
 * A child printing `rate(t)` bytes per millisecond into a pipe that holds `capacity` bytes,
 * read as soon as anything is there unless the pace says to wait: how many reads, and how
 * long the child waited on a full pipe. Steps of 0.01 ms.
 */
function simulate(rate: (t: number) => number, capacity: number, totalMs: number): { reads: number; blockedMs: number } {
  const pace = new ReadPace();
  const dt = 0.01;
  let inPipe = 0;
  let blockedMs = 0;
  let reads = 0;
  let readAt = 0;
  for (let step = 0; step * dt < totalMs; step++) {
    const t = step * dt;
    const add = rate(t) * dt;
    const room = capacity - inPipe;
    if (add > room) {
      blockedMs += dt * (1 - room / add);
      inPipe = capacity;
    } else {
      inPipe += add;
    }
    if (t >= readAt && inPipe > 0) {
      reads++;
      readAt = t + pace.next(t, inPipe);
      inPipe = 0;
    }
  }
  return { reads, blockedMs };
}

describe('the pace of reading a child that prints a little at a time', () => {
  // a socket pair on Linux holds about 280 writes: 4.4 KiB of 16-byte writes
  const capacity = 4500;

  it('a slow child is read every 2 ms, not as it prints, and never waits on a full pipe', () => {
    const { reads, blockedMs } = simulate(() => 500, capacity, 1000);
    assert.ok(reads <= 510, `${reads} reads in 1 s`);
    assert.equal(blockedMs, 0);
  });

  it('a child printing 3 KB a millisecond is read every millisecond, and never waits', () => {
    const { reads, blockedMs } = simulate(() => 3000, capacity, 1000);
    assert.ok(reads <= 1010, `${reads} reads in 1 s`);
    assert.equal(blockedMs, 0);
  });

  it('a child printing faster than a pipe holds in a millisecond is read as it prints', () => {
    const { reads, blockedMs } = simulate(() => 20_000, capacity, 1000);
    assert.ok(reads > 50_000, `${reads} reads in 1 s`);
    assert.equal(blockedMs, 0);
  });

  it('a child that speeds up tenfold waits on the pipe a few milliseconds at most, once', () => {
    const { blockedMs } = simulate((t) => (t < 500 ? 1000 : 10_000), capacity, 1000);
    assert.ok(blockedMs < 3, `waited ${blockedMs.toFixed(2)} ms`);
  });

  it('a child that prints in bursts and pauses is never kept waiting past a burst', () => {
    // 5 ms of 8 KB a millisecond, then 20 ms of nothing
    const { blockedMs } = simulate((t) => (t % 25 < 5 ? 8000 : 0), capacity, 1000);
    assert.ok(blockedMs < 3, `waited ${blockedMs.toFixed(2)} ms in 40 bursts`);
  });
});
