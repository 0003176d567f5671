import * as assert from 'node:assert/strict';
import { InstructionMemory } from '../../src/core/read/instructions';
import { call, context, tempTree } from './helpers';

/** The last line's call, parsed: what a model would copy. */
function continuation(text: string): Record<string, unknown> {
  const last = text.split('\n').pop()!;
  const m = /^Continue with: \w+ (\{.*\})$/.exec(last);
  assert.ok(m, `ends with a Continue line: ${last}`);
  return JSON.parse(m[1]) as Record<string, unknown>;
}

describe('what a model stumbled on', () => {
  describe('a continuation echoes the limit that was applied', () => {
    const many = Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join('\n');
    const files: Record<string, string> = { 'big.txt': many };
    for (let i = 0; i < 1005; i++) {
      files[`g/f${String(i).padStart(4, '0')}.txt`] = '';
    }
    const tree = tempTree(files);
    after(() => tree.cleanup());

    it('fs_read: a limit over 2000 continues with 2000', async () => {
      const ctx = await context(tree.root);
      const r = await call(ctx, 'fs_read', { path: 'big.txt', limit: 5000 });
      assert.deepEqual(continuation(r.text), { path: 'big.txt', offset: 2001, limit: 2000 });
    });

    it('fs_read: a limit within the cap is kept as given', async () => {
      const ctx = await context(tree.root);
      const r = await call(ctx, 'fs_read', { path: 'big.txt', limit: 7 });
      assert.deepEqual(continuation(r.text), { path: 'big.txt', offset: 8, limit: 7 });
    });

    it('fs_glob and fs_list: a limit over 1000 continues with 1000', async () => {
      const ctx = await context(tree.root);
      assert.equal(continuation((await call(ctx, 'fs_glob', { pattern: 'g/*.txt', limit: 5000 })).text).limit, 1000);
      assert.equal(continuation((await call(ctx, 'fs_list', { path: 'g', limit: 5000 })).text).limit, 1000);
    });

    it('fs_grep: a limit over 1000 continues with 1000', async () => {
      const ctx = await context(tree.root);
      const r = await call(ctx, 'fs_grep', { pattern: 'line', path: 'big.txt', limit: 5000 });
      assert.equal(continuation(r.text).limit, 1000);
    });
  });

  describe('the grep header shows the pattern as written', () => {
    const tree = tempTree({ 'a.ts': 'const $Zod = 1;\n' });
    after(() => tree.cleanup());

    it('single backslashes, not the JSON form', async () => {
      const ctx = await context(tree.root);
      const r = await call(ctx, 'fs_grep', { pattern: '\\$Zod\\b' });
      assert.match(r.text, /^1 matching line in 1 file for "\\\$Zod\\b" in the workspace; all shown:/);
    });

    it('a line feed in a pattern is escaped, so the header stays one line', async () => {
      const ctx = await context(tree.root);
      const r = await call(ctx, 'fs_grep', { pattern: 'nothing\nhere', multiline: true });
      assert.equal(r.text.split('\n')[0], 'No matches for "nothing\\nhere" in the workspace.');
    });
  });

  describe('a flood says how to narrow', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) {
      files[`src/f${i}.ts`] = Array.from({ length: 20 }, (_, j) => `export const v${j} = ${j};`).join('\n');
    }
    const tree = tempTree(files);
    after(() => tree.cleanup());

    it('fs_grep with many more hits than shown: one line naming the fields not given, before the Continue line', async () => {
      const ctx = await context(tree.root);
      const r = await call(ctx, 'fs_grep', { pattern: 'export', limit: 10 });
      const lines = r.text.split('\n');
      assert.equal(lines[lines.length - 2], 'To narrow the search, give "include" (a glob such as "*.ts"), "path" (a folder) or "output": "count" for the count in each file.');
    });

    it('fs_grep with include and path given: only what is left', async () => {
      const ctx = await context(tree.root);
      const r = await call(ctx, 'fs_grep', { pattern: 'export', include: '*.ts', path: 'src', limit: 2 });
      const lines = r.text.split('\n');
      assert.equal(lines[lines.length - 2], 'To narrow the search, give a narrower "path" or "output": "count" for the count in each file.');
      const files = await call(ctx, 'fs_grep', { pattern: 'export', include: '*.ts', path: 'src', output: 'files', limit: 2 });
      assert.doesNotMatch(files.text, /To narrow/, '30 files are not a flood');
    });

    it('no advice when the page shows a good share of the hits, nor on later pages', async () => {
      const ctx = await context(tree.root);
      const near = await call(ctx, 'fs_grep', { pattern: 'export', limit: 200 });
      assert.doesNotMatch(near.text, /To narrow/);
      const later = await call(ctx, 'fs_grep', { pattern: 'export', limit: 10, offset: 11 });
      assert.doesNotMatch(later.text, /To narrow/);
    });

    it('fs_read cut by the byte cap says how to read less; a page cut by its line limit does not', async () => {
      const wide = tempTree({ 'wide.txt': Array.from({ length: 1500 }, (_, i) => `${i} ${'x'.repeat(100)}`).join('\n') });
      try {
        const ctx = await context(wide.root);
        const cut = await call(ctx, 'fs_read', { path: 'wide.txt' });
        const lines = cut.text.split('\n');
        assert.match(lines[lines.length - 2], /^The page stopped at the 50\.0 KiB cap\. To read less: fs_grep for what you need in this file, or mode "indentation" for the block around one line\.$/);
        assert.match(lines[lines.length - 1], /^Continue with: fs_read /);
        const short = await call(ctx, 'fs_read', { path: 'wide.txt', limit: 10 });
        assert.doesNotMatch(short.text, /cap\. To read less/);
      } finally {
        wide.cleanup();
      }
    });
  });

  describe('fs_glob on zero results', () => {
    const tree = tempTree({ 'packages/zod/src/v4/core/errors.ts': '', 'packages/zod/src/v3/errors.ts': '', 'lib/other.ts': '' });
    after(() => tree.cleanup());

    it('says how an anchored pattern is read and offers the any-depth form that matches', async () => {
      const ctx = await context(tree.root);
      const r = await call(ctx, 'fs_glob', { pattern: 'src/**/errors.ts' });
      assert.equal(
        r.text,
        [
          'No files match src/**/errors.ts in the workspace.',
          'The pattern is anchored at the workspace: it matches only paths that start with src/. At any depth, **/src/**/errors.ts matches 2 files.',
          'Try: fs_glob {"pattern":"**/src/**/errors.ts"}',
        ].join('\n'),
      );
    });

    it('no hint when the any-depth form finds nothing either, or the pattern already matches at any depth', async () => {
      const ctx = await context(tree.root);
      assert.equal((await call(ctx, 'fs_glob', { pattern: 'src/**/nothing.ts' })).text, 'No files match src/**/nothing.ts in the workspace.');
      assert.equal((await call(ctx, 'fs_glob', { pattern: '**/nothing.ts' })).text, 'No files match **/nothing.ts in the workspace.');
    });
  });

  it('did you mean: a path that ends with the whole guess comes first', async () => {
    const tree = tempTree({ 'a/errors.ts': '', 'b/errors.ts': '', 'packages/zod/src/v4/core/errors.ts': '', 'packages/zod/src/v4/errors.ts': '' });
    try {
      const ctx = await context(tree.root);
      const r = await call(ctx, 'fs_read', { path: 'src/v4/core/errors.ts' });
      assert.equal(r.isError, true);
      const listed = r.text.split('\n').filter((l) => l.startsWith('- '));
      assert.equal(listed[0], '- packages/zod/src/v4/core/errors.ts');
    } finally {
      tree.cleanup();
    }
  });

  describe('the ignore note of a search is said once in a chat', () => {
    const tree = tempTree({ '.gitignore': 'dist/\n', 'dist/out.js': 'hit\n', 'src/a.ts': 'hit\n' });
    after(() => tree.cleanup());

    it('the same note is not repeated in one chat, and is said again in another', async () => {
      const ctx = await context(tree.root);
      ctx.instructions = new InstructionMemory();
      ctx.requestKey = 'chat-1';
      const note = /Left out by ignore rules: not searched: dist\//;
      assert.match((await call(ctx, 'fs_grep', { pattern: 'zzz' })).text, note);
      assert.doesNotMatch((await call(ctx, 'fs_grep', { pattern: 'yyy' })).text, note);
      assert.doesNotMatch((await call(ctx, 'fs_glob', { pattern: '**/*.md' })).text, note);
      ctx.requestKey = 'chat-2';
      assert.match((await call(ctx, 'fs_grep', { pattern: 'yyy' })).text, note);
    });

    it('without a chat (the CLI) every call says it', async () => {
      const ctx = await context(tree.root);
      assert.match((await call(ctx, 'fs_grep', { pattern: 'zzz' })).text, /not searched: dist\//);
      assert.match((await call(ctx, 'fs_grep', { pattern: 'zzz' })).text, /not searched: dist\//);
    });
  });
});
