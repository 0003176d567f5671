import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { encodeText } from '../../src/core/text/encoding';
import type { ChangeProposal } from '../../src/services/approval';
import { revertStates, type JournalEntry } from '../../src/services/journal';
import { revertPaths } from '../../src/tools/revert';
import { call, context, scriptedApprover, tempTree } from './helpers';

/** A context whose journal is an array, and whose reviews are recorded. */
async function journaled(root: string, settings = {}) {
  const entries: JournalEntry[] = [];
  const s = scriptedApprover();
  const ctx = await context(root, settings, s.approver);
  return { ctx: { ...ctx, journal: { record: (e: JournalEntry) => entries.push(e) } }, entries, reviews: s.reviews as ChangeProposal[] };
}

describe('history of changes: journal and revert', () => {
  let tree: { root: string; cleanup(): void };
  const p = (rel: string) => path.join(tree.root, rel);
  beforeEach(() => {
    tree = tempTree({ 'a.txt': 'one\ntwo\n', 'old.txt': 'moved\n', 'gone.txt': 'bye\n', '.env': 'TOKEN=secret\n' });
  });
  afterEach(() => tree.cleanup());

  it('records what landed: tool, origin, each file with its texts, encoding and lines', async () => {
    fs.writeFileSync(p('bom.txt'), encodeText('x\r\ny\r\n', 'utf-8-bom'));
    const { ctx, entries } = await journaled(tree.root);
    await call(ctx, 'fs_read', { path: 'bom.txt' });
    const r = await call(ctx, 'fs_edit', { path: 'bom.txt', old_string: 'y', new_string: 'Y\nz' });
    assert.equal(r.isError, false, r.text);
    assert.equal(entries.length, 1);
    const [e] = entries;
    assert.deepEqual([e.tool, e.summary, e.origin], ['fs_edit', 'edit bom.txt', 'extension']);
    assert.deepEqual(e.files.map((f) => [f.display, f.action, f.before, f.after, f.encoding, f.added, f.removed, f.kept, f.userEdited]), [
      ['bom.txt', 'modify', 'x\r\ny\r\n', 'x\r\nY\r\nz\r\n', 'utf-8-bom', 2, 1, true, false],
    ]);
  });

  it('keeps no text of a file that may hold secrets', async () => {
    const { ctx, entries } = await journaled(tree.root);
    await call(ctx, 'fs_read', { path: '.env' });
    const r = await call(ctx, 'fs_write', { path: '.env', content: 'TOKEN=new-secret\n' });
    assert.equal(r.isError, false, r.text);
    const [f] = entries[0].files;
    assert.equal(f.kept, false);
    assert.equal(f.before, undefined);
    assert.equal(f.after, undefined);
    assert.doesNotMatch(JSON.stringify(entries), /secret\\n/);
  });

  it('a failed change records nothing', async () => {
    const { ctx, entries } = await journaled(tree.root);
    const r = await call(ctx, 'fs_edit', { path: 'a.txt', old_string: 'three', new_string: '3' });
    assert.equal(r.isError, true);
    assert.deepEqual(entries, []);
  });

  it('reverting everything since a change restores each path to what the oldest found, through one reviewed change', async () => {
    const { ctx, entries, reviews } = await journaled(tree.root, { approvalPolicy: 'never' });
    await call(ctx, 'fs_read', { path: 'a.txt' });
    await call(ctx, 'fs_edit', { path: 'a.txt', old_string: 'two', new_string: 'TWO' });
    await call(ctx, 'fs_apply_patch', {
      patch: ['*** Begin Patch', '*** Update File: a.txt', '@@', '-TWO', '+2', '*** Delete File: gone.txt', '*** Update File: old.txt', '*** Move to: new.txt', '@@', '-moved', '+moved on', '*** Add File: added.txt', '+fresh', '*** End Patch'].join('\n'),
    });
    assert.equal(entries.length, 2);
    assert.equal(reviews.length, 0, 'the policy asks nothing for these');
    const states = revertStates(entries);
    assert.deepEqual(
      states.map((s) => [path.basename(s.path), s.restore, s.wrote]).sort(),
      [
        ['a.txt', 'one\ntwo\n', 'one\n2\n'],
        ['added.txt', undefined, 'fresh\n'],
        ['gone.txt', 'bye\n', undefined],
        ['new.txt', undefined, 'moved on\n'],
        ['old.txt', 'moved\n', undefined],
      ],
    );
    const out = await revertPaths(ctx, 'revert since', states);
    assert.equal(out.kind, 'landed');
    assert.equal(reviews.length, 1, 'a revert is reviewed whatever the policy');
    assert.equal(fs.readFileSync(p('a.txt'), 'utf8'), 'one\ntwo\n');
    assert.equal(fs.readFileSync(p('gone.txt'), 'utf8'), 'bye\n');
    assert.equal(fs.readFileSync(p('old.txt'), 'utf8'), 'moved\n');
    assert.equal(fs.existsSync(p('new.txt')), false);
    assert.equal(fs.existsSync(p('added.txt')), false);
    assert.equal(entries.at(-1)?.tool, 'revert', 'the revert is in the history too');
  });

  it('a deleted file with a BOM comes back with it', async () => {
    fs.writeFileSync(p('bom.txt'), encodeText('keep\r\n', 'utf-8-bom'));
    const { ctx, entries } = await journaled(tree.root);
    await call(ctx, 'fs_read', { path: 'bom.txt' });
    await call(ctx, 'fs_apply_patch', { patch: '*** Begin Patch\n*** Delete File: bom.txt\n*** End Patch' });
    assert.equal(fs.existsSync(p('bom.txt')), false);
    const out = await revertPaths(ctx, 'revert', revertStates(entries));
    assert.equal(out.kind, 'landed');
    assert.deepEqual(fs.readFileSync(p('bom.txt')), Buffer.from(encodeText('keep\r\n', 'utf-8-bom')));
  });

  it('reverting two changes with the person\'s own edit between them is a conflict, though the file holds what the last one left', async () => {
    const { ctx, entries } = await journaled(tree.root);
    await call(ctx, 'fs_read', { path: 'a.txt' });
    await call(ctx, 'fs_edit', { path: 'a.txt', old_string: 'two', new_string: 'TWO' });
    fs.writeFileSync(p('a.txt'), 'one\nTWO\nmine\n');
    await call(ctx, 'fs_read', { path: 'a.txt' });
    const r = await call(ctx, 'fs_edit', { path: 'a.txt', old_string: 'one', new_string: 'ONE' });
    assert.equal(r.isError, false, r.text);
    const states = revertStates(entries);
    assert.equal(states[0].between, true);
    const out = await revertPaths(ctx, 'revert', states);
    assert.equal(out.kind, 'conflicts');
    assert.equal(fs.readFileSync(p('a.txt'), 'utf8'), 'ONE\nTWO\nmine\n');
    // once the person has seen it, the revert goes on, through the review
    const over = await revertPaths(ctx, 'revert', states, new Map([[states[0].path, 'ONE\nTWO\nmine\n']]));
    assert.equal(over.kind, 'landed');
    assert.equal(fs.readFileSync(p('a.txt'), 'utf8'), 'one\ntwo\n');
    // the revert is in the history too; it and the change it followed meet, so no conflict
    assert.equal(entries.length, 3);
    assert.equal(revertStates(entries.slice(1))[0].between, undefined);
  });

  it('over newer work: nothing is written and the conflict is returned, until the text seen is given', async () => {
    const { ctx, entries, reviews } = await journaled(tree.root);
    await call(ctx, 'fs_read', { path: 'a.txt' });
    await call(ctx, 'fs_edit', { path: 'a.txt', old_string: 'two', new_string: 'TWO' });
    fs.writeFileSync(p('a.txt'), 'one\nTWO\nnewer\n');
    const states = revertStates(entries);
    const reviewsBefore = reviews.length;
    const out = await revertPaths(ctx, 'revert', states);
    assert.equal(out.kind, 'conflicts');
    assert.deepEqual(out.kind === 'conflicts' && out.conflicts.map((c) => [c.display, c.now, c.restore]), [['a.txt', 'one\nTWO\nnewer\n', 'one\ntwo\n']]);
    assert.equal(reviews.length, reviewsBefore, 'no review');
    assert.equal(fs.readFileSync(p('a.txt'), 'utf8'), 'one\nTWO\nnewer\n');
    // the person saw an older text than the file holds now: still refused
    const stale = await revertPaths(ctx, 'revert', states, new Map([[states[0].path, 'one\nTWO\n']]));
    assert.equal(stale.kind, 'conflicts');
    const over = await revertPaths(ctx, 'revert', states, new Map([[states[0].path, 'one\nTWO\nnewer\n']]));
    assert.equal(over.kind, 'landed');
    assert.equal(reviews.at(-1)?.files[0].oldText, 'one\nTWO\nnewer\n', 'the review shows the newer work it replaces');
    assert.equal(fs.readFileSync(p('a.txt'), 'utf8'), 'one\ntwo\n');
  });
});
