import * as assert from 'node:assert/strict';
import { ReadPace } from '../../src/core/readPace';

interface Child {
  /** Bytes per millisecond at time t (0: idle). */
  rate: (t: number) => number;
  /** Bytes a write holds: one line each. */
  writeBytes: number;
}

/**
 * A child printing lines of `writeBytes`, one write each, at `rate(t)` bytes a millisecond,
 * into a socket pair that holds 280 writes (as Linux's do, whatever their size). The reader
 * reads all there is as soon as anything is there, unless the pace says to wait; its timer
 * fires up to `lateMs` late (the same pseudo-random lateness every run). Steps of 0.01 ms.
 * How many reads, and how long the child waited on a full pipe.
 */
function simulate(child: Child, totalMs: number, lateMs = 0, countLines = true): { reads: number; blockedMs: number } {
  const pace = new ReadPace();
  const dt = 0.01;
  const capacity = 280;
  let seed = 12345;
  const late = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return (seed / 2 ** 31) * lateMs;
  };
  let writes = 0;
  let blockedMs = 0;
  let reads = 0;
  let readAt = 0;
  let owed = 0;
  for (let step = 0; step * dt < totalMs; step++) {
    const t = step * dt;
    owed += (child.rate(t) * dt) / child.writeBytes;
    while (owed >= 1) {
      if (writes >= capacity) {
        blockedMs += dt;
        break;
      }
      writes++;
      owed--;
    }
    if (owed > 1) {
      // a blocked child prints no faster once the pipe is read
      owed = 1;
    }
    if (t >= readAt && writes > 0) {
      reads++;
      const wait = pace.next(t, writes * child.writeBytes, countLines ? writes : undefined);
      writes = 0;
      readAt = wait > 0 ? t + wait + late() : t;
    }
  }
  return { reads, blockedMs };
}

describe('the pace of reading a child that prints a little at a time', () => {
  it('a slow child is read about twice every 2 ms, not as it prints, and never waits on a full pipe', () => {
    const { reads, blockedMs } = simulate({ rate: () => 500, writeBytes: 40 }, 1000, 1);
    assert.ok(reads <= 1100, `${reads} reads in 1 s for 12,500 writes`);
    assert.equal(blockedMs, 0);
  });

  it('a child printing 3 KB a millisecond in lines of 40 bytes is read a few times a millisecond, and never waits, with the timer up to 1 ms late', () => {
    const { reads, blockedMs } = simulate({ rate: () => 3000, writeBytes: 40 }, 1000, 1);
    assert.ok(reads <= 2500, `${reads} reads in 1 s for 75,000 writes`);
    assert.equal(blockedMs, 0);
  });

  it('a child printing tiny lines (8 bytes: 280 of them are 2,240 bytes) waits on the pipe at most 1% of the time, with the timer up to 1 ms late', () => {
    for (const rate of [300, 800, 1500, 3000]) {
      const { blockedMs } = simulate({ rate: () => rate, writeBytes: 8 }, 1000, 1);
      assert.ok(blockedMs <= 10, `${rate} B/ms: waited ${blockedMs.toFixed(2)} ms of 1000`);
    }
  });

  it('a child printing faster than a pipe holds in a millisecond is read as it prints', () => {
    const { reads, blockedMs } = simulate({ rate: () => 20_000, writeBytes: 40 }, 1000, 1);
    assert.ok(reads > 50_000, `${reads} reads in 1 s`);
    assert.equal(blockedMs, 0);
  });

  it('a child that speeds up tenfold waits on the pipe a few milliseconds at most, once', () => {
    const { blockedMs } = simulate({ rate: (t) => (t < 500 ? 1000 : 10_000), writeBytes: 40 }, 1000, 1);
    assert.ok(blockedMs < 3, `waited ${blockedMs.toFixed(2)} ms`);
  });

  it('a child that prints in bursts and pauses is never kept waiting past a burst', () => {
    // 5 ms of 8 KB a millisecond, then 20 ms of nothing
    const { blockedMs } = simulate({ rate: (t) => (t % 25 < 5 ? 8000 : 0), writeBytes: 40 }, 1000, 1);
    assert.ok(blockedMs < 3, `waited ${blockedMs.toFixed(2)} ms in 40 bursts`);
  });

  it('where lines are not counted, bytes alone bound the wait: lines of 16 bytes or more never wait', () => {
    for (const writeBytes of [16, 40, 200]) {
      const { blockedMs } = simulate({ rate: () => 3000, writeBytes }, 1000, 0, false);
      assert.equal(blockedMs, 0, `lines of ${writeBytes} bytes`);
    }
  });
});
