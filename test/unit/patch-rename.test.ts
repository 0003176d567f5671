import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parsePatch } from '../../src/core/patch/parse';
import { call, context, scriptedApprover, tempTree } from './helpers';

const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');

describe('fs_apply_patch: a pure rename', () => {
  it('moves the file with its bytes unchanged (BOM, CRLF), shown to the person as a move', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('one\r\ntwo\r\n')]);
    const tree = tempTree({ 'old/a.txt': bytes });
    try {
      const s = scriptedApprover();
      const r = await call(await context(tree.root, {}, s.approver), 'fs_apply_patch', { patch: patch('*** Update File: old/a.txt', '*** Move to: new/b.txt') });
      assert.equal(r.isError, false, r.text);
      assert.match(r.text, /^M new\/b\.txt \(moved from old\/a\.txt\)$/m);
      const f = s.reviews[0].files[0];
      assert.deepEqual([f.action, f.display, f.from?.display], ['move', 'new/b.txt', 'old/a.txt']);
      assert.deepEqual(fs.readFileSync(path.join(tree.root, 'new/b.txt')), bytes);
      assert.equal(fs.existsSync(path.join(tree.root, 'old/a.txt')), false);
    } finally {
      tree.cleanup();
    }
  });

  it('an update with neither a chunk nor a move, or a move onto itself, still has no changes', () => {
    assert.throws(() => parsePatch(patch('*** Update File: a.txt')), /has no changes\. Follow it with a chunk: .*, or with `\*\*\* Move to: <path>` to rename it\./);
    assert.throws(() => parsePatch(patch('*** Update File: a.txt', '*** Move to: a.txt')), /has no changes/);
  });
});
