import * as assert from 'node:assert/strict';
import type { CheckState } from '../../src/host/workspace';
import { call, context, tempTree } from './helpers';

/** What an applied change says when it has no new errors: whether a checker looked, and if none did, why. */
describe('change results: checked, or why not', () => {
  let tree: ReturnType<typeof tempTree>;
  beforeEach(() => {
    tree = tempTree({ 'a.ts': 'const a = 1;\n', 'b.md': '# b\n', 'c.txt': 'c\n' });
  });
  afterEach(() => tree.cleanup());

  /** A workspace whose checkers report as `states` says (by file name). */
  async function checkedBy(states: Record<string, CheckState>) {
    const ctx = await context(tree.root);
    ctx.ws.settleDiagnostics = async (paths) => new Map(paths.map((p) => [p, states[p.slice(p.lastIndexOf('/') + 1)] ?? { checked: false, reason: 'unknown' }] as const));
    return ctx;
  }

  it('says once per workspace that no checker runs outside VS Code: the first change says it, the next ones not', async () => {
    const ctx = await context(tree.root);
    const first = await call(ctx, 'fs_edit', { path: 'a.ts', old_string: 'a = 1', new_string: 'a = 2' });
    assert.match(first.text, /<\/diff>\nNot checked for errors: no language server runs outside VS Code\.$/);
    const next = await call(ctx, 'fs_edit', { path: 'a.ts', old_string: 'a = 2', new_string: 'a = 3' });
    assert.match(next.text, /<\/diff>$/);
    const patch = await call(ctx, 'fs_apply_patch', { patch: '*** Begin Patch\n*** Update File: c.txt\n@@\n-c\n+d\n*** End Patch' });
    assert.match(patch.text, /<\/diff>$/);
    assert.doesNotMatch(next.text + patch.text, /Not checked/);
  });

  it('says "No new errors." when a checker reported on the file and found none new', async () => {
    const ctx = await checkedBy({ 'a.ts': { checked: true } });
    const r = await call(ctx, 'fs_edit', { path: 'a.ts', old_string: 'a = 1', new_string: 'a = 2' });
    assert.match(r.text, /<\/diff>\nNo new errors\.$/);
  });

  it('counts a file with problems before the change as checked, even when no checker spoke just now', async () => {
    const ctx = await checkedBy({});
    const file = `${tree.root}/a.ts`;
    ctx.ws.problems.set(file, [{ severity: 'warning', line: 1, column: 1, message: 'unused a' }]);
    const r = await call(ctx, 'fs_edit', { path: 'a.ts', old_string: 'a = 1', new_string: 'a = 2' });
    assert.match(r.text, /\nNo new errors\.$/);
  });

  it('says why a file was not checked, in a few words', async () => {
    const ctx = await checkedBy({ 'c.txt': { checked: false, reason: 'no language support for plain text' } });
    const r = await call(ctx, 'fs_edit', { path: 'c.txt', old_string: 'c', new_string: 'd' });
    assert.match(r.text, /\nNot checked for errors: no language support for plain text\.$/);
    assert.doesNotMatch(r.text, /No new errors/);
    // Outside VS Code no checker runs, and the result says so.
    const plain = await context(tree.root);
    const w = await call(plain, 'fs_write', { path: 'new.txt', content: 'n\n' });
    assert.match(w.text, /\nNot checked for errors: no language server runs outside VS Code\.$/);
  });

  it('says nothing of checking when there are new errors: they are the answer', async () => {
    const ctx = await checkedBy({ 'a.ts': { checked: true } });
    const file = `${tree.root}/a.ts`;
    const realApply = ctx.ws.applyChanges.bind(ctx.ws);
    ctx.ws.applyChanges = async (changes, opts) => {
      const r = await realApply(changes, opts);
      ctx.ws.problems.set(file, [{ severity: 'error', line: 1, column: 7, message: 'bad' }]);
      return r;
    };
    const r = await call(ctx, 'fs_edit', { path: 'a.ts', old_string: 'a = 1', new_string: 'a = ' });
    assert.match(r.text, /New errors in a\.ts:\nL1:7: bad$/);
    assert.doesNotMatch(r.text, /No new errors|Not checked/);
  });

  it('a patch says it once for its files: how many were checked, and those that were not, grouped by why', async () => {
    const ctx = await checkedBy({ 'a.ts': { checked: true }, 'b.md': { checked: false, reason: 'it is not open in the editor, where language servers check files' }, 'c.txt': { checked: false, reason: 'no language support for plain text' }, 'd.txt': { checked: false, reason: 'no language support for plain text' } });
    for (const f of ['a.ts', 'b.md', 'c.txt']) {
      await call(ctx, 'fs_read', { path: f });
    }
    const patch = ['*** Begin Patch', '*** Update File: a.ts', '-const a = 1;', '+const a = 2;', '*** Update File: b.md', '-# b', '+# B', '*** Update File: c.txt', '-c', '+C', '*** Add File: d.txt', '+d', '*** End Patch'].join('\n');
    const r = await call(ctx, 'fs_apply_patch', { patch });
    const tail = r.text.split('\n').slice(-3);
    assert.deepEqual(tail, [
      'No new errors in the file checked.',
      'Not checked for errors (it is not open in the editor, where language servers check files): b.md.',
      'Not checked for errors (no language support for plain text): c.txt, d.txt.',
    ]);
  });

  it('names a few of the files not checked, then how many more', async () => {
    const ctx = await context(tree.root);
    const names = Array.from({ length: 8 }, (_, i) => `n${i}.txt`);
    const patch = ['*** Begin Patch', ...names.flatMap((n) => [`*** Add File: ${n}`, '+x']), '*** End Patch'].join('\n');
    const r = await call(ctx, 'fs_apply_patch', { patch });
    assert.equal(r.text.split('\n').pop(), 'Not checked for errors (no language server runs outside VS Code): n0.txt, n1.txt, n2.txt, n3.txt, n4.txt and 3 more.');
  });
});
