import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loneSurrogate } from '../../src/core/text/encoding';
import { call, context, tempTree } from './helpers';

describe('changes refuse text no file can hold', () => {
  let tree: ReturnType<typeof tempTree>;
  beforeEach(() => {
    tree = tempTree({ 'a.txt': 'one\ntwo\n' });
  });
  afterEach(() => tree.cleanup());

  it('finds a lone high or low surrogate and passes well-formed pairs', () => {
    assert.equal(loneSurrogate('plain \u{1F600} text'), undefined);
    assert.deepEqual(loneSurrogate('ab\uD83D'), { index: 2, unit: 'U+D83D' });
    assert.deepEqual(loneSurrogate('\uDE00x'), { index: 0, unit: 'U+DE00' });
    assert.deepEqual(loneSurrogate('\uD83D\uDE00\uDE00'), { index: 2, unit: 'U+DE00' }, 'a low half after a whole pair is alone');
    assert.deepEqual(loneSurrogate('\uD83D\uD83D\uDE00'), { index: 0, unit: 'U+D83D' }, 'a high half before a whole pair is alone');
  });

  const cases: [string, (bad: string) => Record<string, unknown>, string][] = [
    ['fs_write content', (bad) => ({ path: 'b.txt', content: `x${bad}y` }), 'content'],
    ['fs_edit new_string', (bad) => ({ path: 'a.txt', old_string: 'one', new_string: bad }), 'new_string'],
    ['fs_edit edits[].new_string', (bad) => ({ path: 'a.txt', edits: [{ old_string: 'one', new_string: 'ok' }, { old_string: 'two', new_string: `z${bad}` }] }), 'edits.1.new_string'],
    ['fs_apply_patch patch', (bad) => ({ patch: `*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+on${bad}e\n*** End Patch` }), 'patch'],
    ['fs_write a new file', (bad) => ({ path: `new${bad}.txt`, content: 'x' }), 'path'],
  ];
  for (const [name, input, field] of cases) {
    for (const bad of ['\uD800', '\uDFFF']) {
      it(`${name}: a lone ${bad === '\uD800' ? 'high' : 'low'} surrogate is refused naming the field, and nothing is written`, async () => {
        const ctx = await context(tree.root);
        const r = await call(ctx, input(bad).patch ? 'fs_apply_patch' : input(bad).content !== undefined ? 'fs_write' : 'fs_edit', input(bad));
        assert.equal(r.isError, true, r.text);
        assert.match(r.text, new RegExp(`^- \`${field.replace(/\./g, '\\.')}\`: holds a lone surrogate \\(U\\+${bad.charCodeAt(0).toString(16).toUpperCase()} at character \\d+\\)`, 'm'));
        assert.ok(r.text.length < 600, r.text);
        assert.equal(fs.readFileSync(path.join(tree.root, 'a.txt'), 'utf8'), 'one\ntwo\n');
        assert.deepEqual(fs.readdirSync(tree.root), ['a.txt']);
      });
    }
  }

  it('a whole character outside the BMP is written as sent', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_write', { path: 'b.txt', content: 'smile \u{1F600}\n' });
    assert.equal(r.isError, false, r.text);
    assert.equal(fs.readFileSync(path.join(tree.root, 'b.txt'), 'utf8'), 'smile \u{1F600}\n');
  });
});
