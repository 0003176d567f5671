import * as assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cliApprover } from '../../src/services/cliApprover';
import { call, context, tempTree } from './helpers';

const SECRET = 'OUTSIDE-SECRET-7f3a';
/** A line of the outside file that no input names: seen in a result only if the file was read. */
const HIDDEN = 'HIDDEN-TAIL-91c2';

/**
 * A process that swaps `a.txt` for a link to an outside file and back, as fast as it can:
 * the race between the decision on a path and the read of it, won from outside.
 */
function swapper(dir: string, target: string): ChildProcess {
  const script = `
    const fs = require('fs'), path = require('path');
    const dir = process.argv[1], target = process.argv[2];
    const file = path.join(dir, 'a.txt'), l = path.join(dir, '.swap-link'), f = path.join(dir, '.swap-file');
    for (;;) {
      try { fs.rmSync(l, { force: true }); fs.symlinkSync(target, l); fs.renameSync(l, file); } catch {}
      try { fs.writeFileSync(f, 'plain text\\n'); fs.renameSync(f, file); } catch {}
    }`;
  return spawn(process.execPath, ['-e', script, dir, target], { stdio: 'ignore' });
}

/** Peak resident memory growth of this process while `fn` runs, sampled every 5 ms. */
async function measured<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; peakGrowthBytes: number }> {
  const start = process.memoryUsage().rss;
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const t0 = performance.now();
  try {
    const value = await fn();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, ms: performance.now() - t0, peakGrowthBytes: peak - start };
  } finally {
    clearInterval(timer);
  }
}

describe('a change loads the file that was decided on, bounded', () => {
  let tree: ReturnType<typeof tempTree>;
  let outside: ReturnType<typeof tempTree>;
  const p = (rel: string) => path.join(tree.root, rel);
  beforeEach(() => {
    tree = tempTree({ 'a.txt': 'plain text\n' });
    outside = tempTree({ 'secret.txt': `${SECRET}\n${HIDDEN}\n` });
  });
  afterEach(() => {
    tree.cleanup();
    outside.cleanup();
  });

  it('a file swapped for a link to an outside file while the call runs: no outside byte in a preview, a closest region or a patch match', async function () {
    this.timeout(120000);
    const runs = 150;
    // Without --allow-outside: a path that resolves outside is asked about and refused, so
    // only a swap between the decision and the read could show the outside text.
    const ctx = await context(tree.root, {}, cliApprover({ yes: false, allowOutside: false }));
    const child = swapper(tree.root, path.join(outside.root, 'secret.txt'));
    const outcomes = new Map<string, number>();
    let leaks = 0;
    try {
      for (let i = 0; i < runs; i++) {
        for (const [tool, input] of [
          ['fs_write', { path: 'a.txt', content: 'new content\n' }],
          ['fs_edit', { path: 'a.txt', old_string: 'plain texd', new_string: 'x' }],
          ['fs_edit', { path: 'a.txt', old_string: SECRET, new_string: 'x' }],
          ['fs_apply_patch', { patch: `*** Begin Patch\n*** Update File: a.txt\n@@\n-${SECRET}\n+x\n*** End Patch` }],
        ] as const) {
          const r = await call(ctx, tool, input);
          const key = `${tool}: ${r.text.split('\n')[0].replace(/[0-9a-f]{8}/g, 'V').slice(0, 60)}`;
          outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
          // shown: the outside file's other line; matched: a change to its line reached the preview
          if (r.text.includes(HIDDEN) || (JSON.stringify(input).includes(SECRET) && r.needsApproval === true)) {
            leaks++;
          }
        }
      }
    } finally {
      child.kill();
    }
    assert.equal(leaks, 0, `outside text leaked in ${leaks} results; outcomes: ${JSON.stringify([...outcomes])}`);
    assert.equal(fs.readFileSync(path.join(outside.root, 'secret.txt'), 'utf8'), `${SECRET}\n${HIDDEN}\n`);
  });

  it('a link to /dev/zero, a FIFO and /proc/self/pagemap are refused at once, within bounded memory', async function () {
    this.timeout(60000);
    fs.symlinkSync('/dev/zero', p('zero'));
    execFileSync('mkfifo', [p('fifo')]);
    fs.symlinkSync('/proc/self/pagemap', p('pagemap'));
    const ctx = await context(tree.root);
    const cases: [string, string, unknown][] = [];
    for (const target of ['zero', 'fifo', 'pagemap', '/proc/self/pagemap', '/dev/zero']) {
      cases.push(['fs_write', target, { path: target, content: 'x' }]);
      cases.push(['fs_edit', target, { path: target, old_string: 'a', new_string: 'b' }]);
      cases.push(['fs_apply_patch', target, { patch: `*** Begin Patch\n*** Update File: ${target}\n@@\n-a\n+b\n*** End Patch` }]);
    }
    for (const [tool, target, input] of cases) {
      const m = await measured(() => call(ctx, tool, input));
      assert.equal(m.value.isError, true, `${tool} ${target}: ${m.value.text}`);
      assert.match(m.value.text, /not a regular file|cannot be read as a regular file|more than 16\.0 MiB when read/, `${tool} ${target}: ${m.value.text}`);
      assert.ok(m.ms < 5000, `${tool} ${target}: ${Math.round(m.ms)} ms`);
      assert.ok(m.peakGrowthBytes < 256 * 1024 * 1024, `${tool} ${target}: grew ${Math.round(m.peakGrowthBytes / 1048576)} MiB`);
    }
  });

  it('a file swapped for a link to /dev/zero or a FIFO while the call runs is never read past the cap', async function () {
    this.timeout(120000);
    execFileSync('mkfifo', [path.join(outside.root, 'fifo')]);
    const ctx = await context(tree.root);
    for (const target of ['/dev/zero', path.join(outside.root, 'fifo')]) {
      const child = swapper(tree.root, target);
      try {
        for (let i = 0; i < 40; i++) {
          const m = await measured(() => call(ctx, 'fs_edit', { path: 'a.txt', old_string: 'plain text', new_string: 'plain text' }));
          assert.ok(m.ms < 5000, `${target}: ${Math.round(m.ms)} ms: ${m.value.text}`);
          assert.ok(m.peakGrowthBytes < 256 * 1024 * 1024, `${target}: grew ${Math.round(m.peakGrowthBytes / 1048576)} MiB`);
        }
      } finally {
        child.kill();
      }
    }
  });
});
