import * as assert from 'node:assert/strict';
import { MAX_PATCH_CHARS } from '../../src/core/limits';
import { parsePatch, planPatch, type FileProbe, type PlannedChange } from '../../src/core/patch';

/** Plans `body` (the lines between Begin and End) against one file `f` holding `text`; the new text of `f`. */
async function newText(text: string, body: string): Promise<string> {
  const patch = `*** Begin Patch\n*** Update File: f\n${body}*** End Patch\n`;
  assert.ok(patch.length <= MAX_PATCH_CHARS, `${patch.length} characters`);
  const probe = async (p: string): Promise<FileProbe> => (p === 'f' ? { kind: 'file', text } : { kind: 'missing' });
  const plan = await planPatch(parsePatch(patch), probe);
  const change = plan.changes[0] as Extract<PlannedChange, { kind: 'update' }>;
  return change.newText;
}

describe('patch placement: bounded in the number of chunks', function () {
  // Each case is linear in its chunks; the quadratic or recursive versions ran out of stack or for hours.
  this.timeout(120_000);

  it('130,000 adjacent chunks apply without exhausting the stack', async () => {
    const n = 130_000;
    const file = Array.from({ length: n }, (_, i) => `l${i}\n`).join('');
    let body = '';
    for (let i = 0; i < n; i++) {
      body += `@@\n-l${i}\n+L${i}\n`;
    }
    assert.equal(await newText(file, body), Array.from({ length: n }, (_, i) => `L${i}\n`).join(''));
  });

  it('200,000 chunks of only added lines after one change go at the end, in order, in linear time', async () => {
    const n = 200_000;
    let body = '@@\n-a\n+A\n';
    for (let i = 0; i < n; i++) {
      body += `@@\n+${i % 10}\n`;
    }
    const out = await newText('a\nb\n', body);
    assert.equal(out, `A\nb\n${Array.from({ length: n }, (_, i) => `${i % 10}\n`).join('')}`);
  });
});
