import * as assert from 'node:assert/strict';
import { ProcessStopped, stoppedError } from '../../src/core/process';
import type { ReadPace } from '../../src/core/readPace';
import { gatherSmallReads, NODE_PROCESSES } from '../../src/host/process';
import { turnCounter } from './eventLoop';

describe("a child's output read line by line", () => {
  it('a flood of lines is handed on a turn of the event loop at a time, never a whole pipe at once; every line arrives once, in order', async function () {
    this.timeout(60000);
    // 4 MiB of numbered lines written at once; each line costs the reader 10 µs, so a turn that read
    // all the pipe brings (libuv reads on while data is there) would hold the thread for a long time
    const lines = 160_000;
    const script = `let s = ''; for (let i = 0; i < ${lines}; i++) s += String(i).padStart(25, '0') + '\\n'; process.stdout.write(s);`;
    const seen: number[] = [];
    // one count per turn of the event loop (a setImmediate runs once a turn): lines handed on in each
    const counter = turnCounter();
    const perTurn = new Map<number, number>();
    const r = await NODE_PROCESSES.run(process.execPath, ['-e', script], {
      cwd: process.cwd(),
      onLine: (l) => {
        const until = performance.now() + 0.01;
        while (performance.now() < until) {
          // the reader's own work on a line
        }
        perTurn.set(counter.turns, (perTurn.get(counter.turns) ?? 0) + 1);
        seen.push(Number(l));
      },
    });
    counter.stop();
    assert.equal(r.code, 0);
    assert.equal(seen.length, lines);
    assert.ok(
      seen.every((n, i) => n === i),
      'in order, none lost or repeated',
    );
    // a turn hands on 5 ms of lines and the rest of the 64 KiB chunk they are in (2,520 lines): at most a few thousand
    const most = Math.max(...perTurn.values());
    assert.ok(most <= 8000, `the most lines handed on in one turn: ${most} of ${lines}`);
  });
});

describe('a child that prints a little at a time', () => {
  it('is read a few milliseconds apart, not once per write; every byte arrives once, in order', async function () {
    this.timeout(60000);
    // 4,000 lines, each its own write, 200 µs apart: ripgrep's threads print each file's lines so
    const lines = 4000;
    const script = `const fs = require('fs'); for (let i = 0; i < ${lines}; i++) { fs.writeSync(1, String(i).padStart(15, '0') + '\\n'); const until = performance.now() + 0.2; while (performance.now() < until) {} }`;
    let reads = 0;
    const chunks: Buffer[] = [];
    const r = await NODE_PROCESSES.run(process.execPath, ['-e', script], {
      cwd: process.cwd(),
      onBytes: (b) => {
        reads++;
        chunks.push(Buffer.from(b));
      },
    });
    assert.equal(r.code, 0);
    const seen = Buffer.concat(chunks).toString('latin1').split('\n').filter(Boolean).map(Number);
    assert.equal(seen.length, lines);
    assert.ok(
      seen.every((n, i) => n === i),
      'in order, none lost or repeated',
    );
    // read once per write, this would be about 4,000 reads; left 2 ms to gather, about 400 (0.8 s of writes)
    assert.ok(reads < lines / 4, `${reads} reads for ${lines} writes`);
  });

  it('with a slow reader too: the stream paused for the next turn and the gathering never lose, repeat or stall a line', async function () {
    this.timeout(60000);
    // bursts of small writes; each line costs the reader 30 µs, so turns end mid-chunk and the stream pauses
    const lines = 30_000;
    const script = `const fs = require('fs'); for (let i = 0; i < ${lines}; i++) { fs.writeSync(1, String(i).padStart(15, '0') + '\\n'); if (i % 500 === 0) { const until = performance.now() + 3; while (performance.now() < until) {} } }`;
    const seen: number[] = [];
    const r = await NODE_PROCESSES.run(process.execPath, ['-e', script], {
      cwd: process.cwd(),
      onLine: (l) => {
        const until = performance.now() + 0.03;
        while (performance.now() < until) {
          // the reader's own work on a line
        }
        seen.push(Number(l));
      },
    });
    assert.equal(r.code, 0);
    assert.equal(seen.length, lines);
    assert.ok(
      seen.every((n, i) => n === i),
      'in order, none lost or repeated',
    );
  });
});

describe("the gathering of a child's small reads, on Node's handle", () => {
  const fake = () => {
    const calls: string[] = [];
    const handle = {
      reading: true,
      readStop: () => (calls.push('stop'), 0),
      readStart: () => (calls.push('start'), 0),
    };
    return { stream: { _handle: handle as typeof handle | null }, handle, calls };
  };
  const waitTwo = { next: () => 2 } as unknown as ReadPace;

  it('stops the handle for the wait the pace gives, leaving Node\'s flag set, and starts it again', async () => {
    const { stream, handle, calls } = fake();
    const g = gatherSmallReads(stream, waitTwo);
    g.after(40);
    assert.deepEqual(calls, ['stop']);
    assert.equal(handle.reading, true);
    // a read while it waits (Node's buffer) asks nothing more
    g.after(40);
    assert.deepEqual(calls, ['stop']);
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(calls, ['stop', 'start']);
    g.stop();
  });

  it('leaves alone a handle Node stopped itself, or closed; and a stream stopped while it waits is read again', async () => {
    const a = fake();
    const ga = gatherSmallReads(a.stream, waitTwo);
    ga.after(40);
    // Node's buffer filled: it stopped the handle and will start it itself
    a.handle.reading = false;
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(a.calls, ['stop']);
    const b = fake();
    const gb = gatherSmallReads(b.stream, waitTwo);
    gb.after(40);
    b.stream._handle = null;
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(b.calls, ['stop']);
    const c = fake();
    const gc = gatherSmallReads(c.stream, waitTwo);
    gc.after(40);
    gc.stop();
    assert.deepEqual(c.calls, ['stop', 'start']);
    gc.after(40);
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(c.calls, ['stop', 'start'], 'nothing after stop');
  });
});

describe('a child stopped by its deadline', () => {
  it('is killed once its time is up, and the model is told the searched folders hold more than it read in that time', async () => {
    const t0 = Date.now();
    // a walk that reads on: printing (progress) all the time, so only the deadline stops it
    const script = 'setInterval(() => process.stdout.write("x\\n"), 20);';
    const e = await NODE_PROCESSES.run(process.execPath, ['-e', script], { cwd: process.cwd(), onLine: () => {}, stallMs: 3000, deadlineMs: 800 }).then(
      () => assert.fail('the run ended by itself'),
      (err: unknown) => err,
    );
    assert.ok(e instanceof ProcessStopped, String(e));
    assert.equal(e.reason, 'deadline');
    assert.ok(Date.now() - t0 < 10_000, 'stopped near its deadline');
    assert.equal(
      stoppedError('ripgrep', e).message,
      'ripgrep was stopped after 0.8 seconds: the searched folders hold more than it read in that time. Narrow the search with path or include, or leave large folders out with the ignore settings.',
    );
  });
});
