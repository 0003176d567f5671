import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { call, context, tempTree } from './helpers';

/** A full garbage collection, so that what is measured is what is still held. */
function collect(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

const SLOTS = 20;

function sharedText(): string {
  return Array.from({ length: SLOTS }, (_, i) => `slot ${String(i).padStart(2, '0')}: open\n`).join('') + 'patched: no\n';
}

/**
 * Fifty calls at once on one workspace, as several agents (or one agent's parallel tool
 * calls) make them: reads, searches, twenty edits of the same file, a patch of that file,
 * new files. Each call runs to its end; the edits of one file take its lock in turn, so
 * every one of them lands and none is lost to another's write.
 */
describe('load: 50 concurrent mixed calls on one workspace', function () {
  this.timeout(300_000);

  async function batch(round: number) {
    const tree = tempTree({
      'shared.txt': sharedText(),
      ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`src/f${i}.ts`, `export const v${i} = ${i};\n// needle ${i}\n`.repeat(200)])),
    });
    try {
      const ctx = await context(tree.root);
      const calls: [string, object][] = [];
      for (let i = 0; i < SLOTS; i++) {
        const slot = String(i).padStart(2, '0');
        calls.push(['fs_edit', { path: 'shared.txt', old_string: `slot ${slot}: open`, new_string: `slot ${slot}: done in round ${round}` }]);
      }
      calls.push(['fs_apply_patch', { patch: `*** Begin Patch\n*** Update File: shared.txt\n@@\n-patched: no\n+patched: yes\n*** Add File: added/by-patch.txt\n+from the patch\n*** End Patch` }]);
      for (let i = 0; i < 4; i++) {
        calls.push(['fs_write', { path: `written/w${i}.txt`, content: `write ${i}\n` }]);
      }
      for (let i = 0; i < 13; i++) {
        calls.push(['fs_read', { path: i % 2 ? 'shared.txt' : `src/f${i % 10}.ts` }]);
      }
      for (let i = 0; i < 8; i++) {
        calls.push(['fs_grep', { pattern: `needle ${i}`, output: 'count' }]);
      }
      calls.push(['fs_list', { path: '.', depth: 3 }], ['fs_glob', { pattern: '**/*.ts' }], ['fs_glob', { pattern: '**/*.txt' }], ['fs_list', { path: 'src' }]);
      assert.equal(calls.length, 50);
      // interleave the kinds, so that reads and searches run between the edits
      const order = calls.map((c, i) => [c, (i * 37) % calls.length] as const).sort((a, b) => a[1] - b[1]).map(([c]) => c);
      let peak = 0;
      const results = await Promise.all(
        order.map(async ([tool, input]) => {
          const r = await call(ctx, tool, input);
          peak = Math.max(peak, process.memoryUsage().heapUsed);
          return { tool, input, r };
        }),
      );
      for (const { tool, input, r } of results) {
        assert.equal(r.isError, false, `${tool} ${JSON.stringify(input)}: ${r.text}`);
      }
      const shared = fs.readFileSync(path.join(tree.root, 'shared.txt'), 'utf8');
      for (let i = 0; i < SLOTS; i++) {
        assert.ok(shared.includes(`slot ${String(i).padStart(2, '0')}: done in round ${round}\n`), `edit ${i} landed:\n${shared}`);
      }
      assert.match(shared, /^patched: yes$/m);
      assert.equal(shared.split('\n').length, SLOTS + 2);
      assert.equal(fs.readFileSync(path.join(tree.root, 'added/by-patch.txt'), 'utf8'), 'from the patch\n');
      for (let i = 0; i < 4; i++) {
        assert.equal(fs.readFileSync(path.join(tree.root, `written/w${i}.txt`), 'utf8'), `write ${i}\n`);
      }
      // no temporary file or saved copy is left beside the files
      assert.deepEqual(fs.readdirSync(tree.root).filter((n) => n.startsWith('.')), []);
      return peak;
    } finally {
      tree.cleanup();
    }
  }

  it('all complete, the edits of one file serialise and all land, and memory returns to its starting level', async () => {
    await batch(0);
    collect();
    const start = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    const rounds = 5;
    let peak = 0;
    for (let round = 1; round <= rounds; round++) {
      peak = Math.max(peak, await batch(round));
    }
    const ms = performance.now() - t0;
    collect();
    const end = process.memoryUsage().heapUsed;
    const mib = (n: number) => (n / 1024 / 1024).toFixed(1);
    console.log(`      load: ${rounds} rounds of 50 concurrent calls in ${Math.round(ms)} ms; heap ${mib(start)} MiB before, ${mib(peak)} MiB at the peak, ${mib(end)} MiB after`);
    // what a round holds once it is over is garbage: five rounds may not leave more than a fraction of one round's peak
    assert.ok(end - start < 8 * 1024 * 1024, `heap grew by ${mib(end - start)} MiB over ${rounds} rounds`);
  });
});
