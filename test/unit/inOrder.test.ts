import * as assert from 'node:assert/strict';
import { inOrder } from '../../src/core/inOrder';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('steps run a few at a time, in order', () => {
  it('gives the results in the items order, never more than the limit at once, and more than one when it may', async () => {
    let now = 0;
    let most = 0;
    const out = await inOrder([5, 1, 4, 2, 3, 0, 2, 1], 3, async (ms, i) => {
      most = Math.max(most, ++now);
      await tick(ms);
      now--;
      return `${i}:${ms}`;
    });
    assert.deepEqual(out, ['0:5', '1:1', '2:4', '3:2', '4:3', '5:0', '6:2', '7:1']);
    assert.equal(most, 3);
  });

  it('throws the error of the first item in order that failed, as one after another would, and starts no step after a failure', async () => {
    const started: number[] = [];
    // item 4 fails first in time, item 2 (slower) fails too: 2 is the one one-by-one would have met
    const run = inOrder([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 4, async (n) => {
      started.push(n);
      await tick(n === 2 ? 20 : 1);
      if (n === 2 || n === 4) {
        throw new Error(`step ${n}`);
      }
      return n;
    });
    await assert.rejects(run, /^Error: step 2$/);
    assert.ok(!started.includes(9), `started ${started.join(',')}`);
  });

  it('runs nothing for no items', async () => {
    assert.deepEqual(await inOrder([], 8, async () => assert.fail('ran')), []);
  });
});
