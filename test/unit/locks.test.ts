import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NEVER_CANCELLED } from '../../src/core/cancel';
import { CancelledError } from '../../src/core/errors';
import { acceptAsProposed, type Approver, type ChangeProposal, type Review } from '../../src/services/approval';
import { FileLocks } from '../../src/services/locks';
import type { Logger } from '../../src/services/types';
import { call, context, tempTree } from './helpers';

function deferred<T = void>(): { promise: Promise<T>; resolve(v: T): void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A signal cancelled by hand, without an event: the lock has to notice by itself. */
function manualSignal(): { isCancellationRequested: boolean; cancel(): void } {
  return {
    isCancellationRequested: false,
    cancel() {
      this.isCancellationRequested = true;
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 10));

describe('the per-file lock', () => {
  it('runs the calls on one file one after another, in the order they came', async () => {
    const locks = new FileLocks();
    const order: string[] = [];
    const first = deferred();
    const a = locks.withLocks(['/w/f'], async () => {
      order.push('a starts');
      await first.promise;
      order.push('a ends');
    });
    const b = locks.withLocks(['/w/f'], async () => order.push('b'), NEVER_CANCELLED);
    const c = locks.withLocks(['/w/other'], async () => order.push('c, another file'));
    await c;
    await tick();
    assert.deepEqual(order, ['a starts', 'c, another file'], 'b waits for a; a call on another file does not');
    first.resolve();
    await Promise.all([a, b]);
    assert.deepEqual(order, ['a starts', 'c, another file', 'a ends', 'b']);
    assert.equal(locks.isBusy('/w/f'), false);
  });

  it('lets a call cancelled while it waits leave at once, and keeps the order of the calls behind it', async () => {
    const locks = new FileLocks();
    const order: string[] = [];
    const first = deferred();
    const a = locks.withLocks(['/w/f'], async () => {
      await first.promise;
      order.push('a');
    });
    const signal = manualSignal();
    let bRan = false;
    const b = locks.withLocks(['/w/f'], async () => (bRan = true), signal);
    const c = locks.withLocks(['/w/f'], async () => order.push('c'));
    signal.cancel();
    await assert.rejects(b, CancelledError, 'the cancelled call ends while the file is still held');
    assert.equal(bRan, false);
    assert.deepEqual(order, []);
    first.resolve();
    await Promise.all([a, c]);
    assert.deepEqual(order, ['a', 'c'], 'c still waited for a');
    assert.equal(locks.isBusy('/w/f'), false);
  });

  it('lets an fs_edit stopped while another change of the file waits for review end at once, cancelled, writing nothing', async () => {
    const tree = tempTree({ 'plan.md': '- [ ] parser\n' });
    try {
      const reviews: { proposal: ChangeProposal; answer: ReturnType<typeof deferred<Review>> }[] = [];
      const approver: Approver = {
        async confirm() {
          return { allowed: true };
        },
        review(proposal) {
          const answer = deferred<Review>();
          reviews.push({ proposal, answer });
          return answer.promise;
        },
        showApplied() {},
      };
      const lines: string[] = [];
      const log: Logger = { info: (m) => lines.push(m), warn() {}, error: (m) => lines.push(m) };
      const ctx = { ...(await context(tree.root, {}, approver)), log };
      const first = call(ctx, 'fs_edit', { path: 'plan.md', old_string: '- [ ] parser', new_string: '- [x] parser' });
      while (reviews.length === 0) {
        await tick();
      }
      const signal = manualSignal();
      const second = call({ ...ctx, signal }, 'fs_edit', { path: 'plan.md', old_string: '- [x] parser', new_string: '- [x] parser\n- [ ] docs' });
      await tick();
      signal.cancel();
      const stopped = await second;
      assert.equal(stopped.text, 'The call was cancelled; nothing was changed.');
      assert.equal(reviews.length, 1, 'the stopped call proposed nothing');
      assert.match(lines.at(-1)!.split('\n')[0], /^fs_edit \{"path":"plan\.md","old_string":"- \[x\] parser".* -> cancelled \(\d+(\.\d)? ms\)$/, 'the log says cancelled, not error');
      reviews[0].answer.resolve(acceptAsProposed(reviews[0].proposal));
      assert.match((await first).text, /^Edited plan\.md: \+1 -1 lines/);
      assert.equal(fs.readFileSync(path.join(tree.root, 'plan.md'), 'utf8'), '- [x] parser\n');
    } finally {
      tree.cleanup();
    }
  });
});
