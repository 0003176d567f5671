import * as assert from 'node:assert/strict';
import { ProcessStopped, stoppedError } from '../../src/core/process';
import { NODE_PROCESSES } from '../../src/host/process';
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
