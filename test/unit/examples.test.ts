import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { anchorLine, exampleEdit, exampleLine, examplePatch, takesExampleLine } from '../../src/commands/examples';
import { call, context, tempTree } from './helpers';

describe('the examples Run a Tool fills in for the tools that change files', () => {
  it('build on a line that occurs once, from the cursor on, then from the top', () => {
    const text = '}\nexport function a() {\n}\n// one\n}\n';
    assert.equal(anchorLine(text), 'export function a() {');
    assert.equal(anchorLine(text, 3), '// one');
    assert.equal(anchorLine(text, 4), 'export function a() {', 'after the last unique line, from the top');
    assert.equal(anchorLine('}\n}\n\n'), undefined, 'every line repeats');
  });

  it('add a line in the file\'s own comment syntax, indented as the line it follows; JSON takes none', () => {
    assert.equal(exampleLine('src/a.ts', '    return x;', 'fs_edit'), '    // Added by fs_edit from Run a Tool: accept it, then revert it from the History of Changes.');
    assert.equal(exampleLine('a.py', 'def f():', 'fs_edit').slice(0, 10), '# Added by');
    assert.equal(exampleLine('docs/a.md', '# Title', 'fs_edit').slice(0, 8), 'Added by');
    assert.equal(exampleLine('a.css', 'a {', 'fs_edit').slice(-3), ' */');
    assert.equal(exampleLine('Dockerfile', 'FROM x', 'fs_edit').slice(0, 2), '# ');
    assert.equal(takesExampleLine('package.json'), false);
    assert.equal(takesExampleLine('src/a.ts'), true);
  });

  it('an fs_edit and a patch of two files that really change the workspace', async () => {
    const tree = tempTree({ 'src/greet.ts': '/** Greets. */\nexport function greet(n: string): string {\n  return n;\n}\n' });
    try {
      const ctx = await context(tree.root);
      const line = anchorLine(fs.readFileSync(path.join(tree.root, 'src/greet.ts'), 'utf8'))!;
      const edit = await call(ctx, 'fs_edit', exampleEdit('src/greet.ts', line));
      assert.match(edit.text, /^Edited src\/greet\.ts: \+1 -0 lines/);
      assert.equal(fs.readFileSync(path.join(tree.root, 'src/greet.ts'), 'utf8').split('\n')[1], '// Added by fs_edit from Run a Tool: accept it, then revert it from the History of Changes.');
      const again = anchorLine(fs.readFileSync(path.join(tree.root, 'src/greet.ts'), 'utf8'), 2)!;
      const patch = await call(ctx, 'fs_apply_patch', examplePatch('src/greet.ts', again));
      assert.match(patch.text, /^Success\. Updated the following files:\nM src\/greet\.ts\nA src\/added-by-fs_apply_patch\.md\n/);
      assert.match(fs.readFileSync(path.join(tree.root, 'src/added-by-fs_apply_patch.md'), 'utf8'), /^# Added by fs_apply_patch\n/);
    } finally {
      tree.cleanup();
    }
  });
});
