import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { call, context, tempTree } from './helpers';

/** A notebook as Jupyter writes it (indent 1), with outputs, metadata and an execution count. */
const NOTEBOOK = `${JSON.stringify(
  {
    cells: [
      { cell_type: 'markdown', id: 'a1', metadata: {}, source: ['# Sales\n', 'Loads the data.'] },
      {
        cell_type: 'code',
        execution_count: 3,
        id: 'b2',
        metadata: { tags: ['x'] },
        outputs: [{ name: 'stdout', output_type: 'stream', text: ['3\n'] }],
        source: ['rows = [1, 2, 3]\n', 'print(len(rows))'],
      },
    ],
    metadata: { language_info: { name: 'python' } },
    nbformat: 4,
    nbformat_minor: 5,
  },
  null,
  1,
)}\n`;

describe('fs_edit on a notebook by cell', () => {
  let tree: { root: string; cleanup(): void };
  const p = (rel: string) => path.join(tree.root, rel);
  const nb = () => JSON.parse(fs.readFileSync(p('nb.ipynb'), 'utf8')) as { cells: { cell_type: string; source: string[]; outputs?: unknown[]; execution_count?: number | null; metadata: unknown }[] };
  beforeEach(() => {
    tree = tempTree({ 'nb.ipynb': NOTEBOOK, 'a.py': 'x = 1\n' });
  });
  afterEach(() => tree.cleanup());

  it('matches old_string inside the one cell, and changes only that cell\'s source bytes', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_edit', { path: 'nb.ipynb', cell: 2, old_string: 'rows = [1, 2, 3]', new_string: 'rows = [1, 2, 3, 4]' });
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /^Edited nb\.ipynb: \+1 -1 lines; version [0-9a-f]{8}\./);
    assert.equal(fs.readFileSync(p('nb.ipynb'), 'utf8'), NOTEBOOK.replace('"rows = [1, 2, 3]\\n"', '"rows = [1, 2, 3, 4]\\n"'));
  });

  it('matches only inside the cell named: text of another cell is not found there', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_edit', { path: 'nb.ipynb', cell: 2, old_string: '# Sales', new_string: '# Revenue' });
    assert.equal(r.isError, true);
    assert.match(r.text, /nb\.ipynb \(cell 2\)/);
    assert.equal(fs.readFileSync(p('nb.ipynb'), 'utf8'), NOTEBOOK);
  });

  it('suggests a call that reads the cell when old_string is not in it, and that call is valid', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_edit', { path: 'nb.ipynb', cell: 2, old_string: 'print(len(items))', new_string: 'x' });
    assert.equal(r.isError, true);
    const last = r.text.split('\n').pop()!;
    assert.equal(last, 'Try: fs_read {"path":"nb.ipynb","offset":2,"limit":1}');
    const read = await call(ctx, 'fs_read', JSON.parse(last.slice('Try: fs_read '.length)));
    assert.equal(read.isError, false, read.text);
    assert.match(read.text, /<meta>cell 2 of 2,[\s\S]*L2: print\(len\(rows\)\)/);
  });

  it('refuses to edit a cell whose source list holds an item that is not text, changing nothing', async () => {
    const odd = NOTEBOOK.replace('"print(len(rows))"', '"print(len(rows))",\n    7');
    fs.writeFileSync(p('nb.ipynb'), odd);
    const ctx = await context(tree.root);
    for (const input of [
      { path: 'nb.ipynb', cell: 2, old_string: 'rows = [1, 2, 3]', new_string: 'rows = []' },
      { path: 'nb.ipynb', cell: 2, new_string: 'x = 1' },
    ]) {
      const r = await call(ctx, 'fs_edit', input);
      assert.equal(r.isError, true, r.text);
      assert.match(r.text, /^Cannot edit cell 2 of nb\.ipynb: its "source" list holds an item that is not text \(item 3 is a number, 7\), which reading does not show and an edit would drop\. Nothing was changed\./);
    }
    assert.equal(fs.readFileSync(p('nb.ipynb'), 'utf8'), odd);
    // another cell is edited as ever, and the odd item kept
    const other = await call(ctx, 'fs_edit', { path: 'nb.ipynb', cell: 1, old_string: '# Sales', new_string: '# Revenue' });
    assert.equal(other.isError, false, other.text);
    assert.equal(fs.readFileSync(p('nb.ipynb'), 'utf8'), odd.replace('"# Sales\\n"', '"# Revenue\\n"'));
  });

  it('replaces a cell\'s whole source with new_string alone, and replace_all works within the cell', async () => {
    const ctx = await context(tree.root);
    let r = await call(ctx, 'fs_edit', { path: 'nb.ipynb', cell: 1, new_string: '# Revenue\n\nBy month.' });
    assert.equal(r.isError, false, r.text);
    assert.deepEqual(nb().cells[0].source, ['# Revenue\n', '\n', 'By month.']);
    r = await call(ctx, 'fs_edit', { path: 'nb.ipynb', cell: 2, old_string: 'rows', new_string: 'items', replace_all: true });
    assert.equal(r.isError, false, r.text);
    assert.deepEqual(nb().cells[1].source, ['items = [1, 2, 3]\n', 'print(len(items))']);
    assert.deepEqual(nb().cells[1].outputs, [{ name: 'stdout', output_type: 'stream', text: ['3\n'] }]);
    assert.equal(nb().cells[1].execution_count, 3);
    assert.deepEqual(nb().cells[1].metadata, { tags: ['x'] });
  });

  it('inserts a cell at a position (the end too) and deletes one, other cells untouched', async () => {
    const ctx = await context(tree.root);
    let r = await call(ctx, 'fs_edit', { path: 'nb.ipynb', cell: 2, insert_cell: 'code', new_string: 'import math' });
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /Inserted a code cell as cell 2 of 3\./);
    assert.deepEqual(
      nb().cells.map((c) => c.source.join('')),
      ['# Sales\nLoads the data.', 'import math', 'rows = [1, 2, 3]\nprint(len(rows))'],
    );
    assert.deepEqual(nb().cells[1].outputs, []);
    assert.equal(nb().cells[1].execution_count, null);
    r = await call(ctx, 'fs_edit', { path: 'nb.ipynb', cell: 4, insert_cell: 'markdown', new_string: 'The end.' });
    assert.equal(r.isError, false, r.text);
    assert.equal(nb().cells[3].cell_type, 'markdown');
    r = await call(ctx, 'fs_edit', { path: 'nb.ipynb', cell: 4, delete_cell: true });
    assert.equal(r.isError, false, r.text);
    r = await call(ctx, 'fs_edit', { path: 'nb.ipynb', cell: 2, delete_cell: true });
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /Deleted cell 2 \(code\); 2 cells remain\./);
    assert.equal(fs.readFileSync(p('nb.ipynb'), 'utf8'), NOTEBOOK);
  });

  it('refuses a cell out of range, cell on a file that is no notebook, and cell with symbol, naming the field', async () => {
    const ctx = await context(tree.root);
    let r = await call(ctx, 'fs_edit', { path: 'nb.ipynb', cell: 3, old_string: 'a', new_string: 'b' });
    assert.equal(r.isError, true);
    assert.match(r.text, /`cell`: is 3, and nb\.ipynb has 2 cells \(1-2\)/);
    r = await call(ctx, 'fs_edit', { path: 'nb.ipynb', cell: 4, insert_cell: 'code', new_string: 'b' });
    assert.match(r.text, /`cell`: is 4, .*a new cell goes at 1 to 3/);
    r = await call(ctx, 'fs_edit', { path: 'a.py', cell: 1, new_string: 'b' });
    assert.equal(r.isError, true);
    assert.match(r.text, /`cell`: a\.py is not a notebook \(\.ipynb\)/);
    r = await call(ctx, 'fs_edit', { path: 'nb.ipynb', cell: 1, symbol: 'f', new_string: 'b' });
    assert.match(r.text, /`cell`: names a notebook cell and `symbol` a symbol/);
    r = await call(ctx, 'fs_edit', { path: 'nb.ipynb', cell: 1, old_string: '', new_string: 'b' });
    assert.match(r.text, /`old_string`: is empty: with cell/);
    r = await call(ctx, 'fs_edit', { path: 'nb.ipynb', cell: 1, delete_cell: true, new_string: 'b' });
    assert.match(r.text, /`delete_cell`: takes no text/);
    r = await call(ctx, 'fs_edit', { path: 'nb.ipynb', cell: 1, insert_cell: 'code', old_string: 'a', new_string: 'b' });
    assert.match(r.text, /`insert_cell`: takes only new_string/);
    assert.equal(fs.readFileSync(p('nb.ipynb'), 'utf8'), NOTEBOOK);
  });

  it('refuses a loose match, an insert or a delete on a notebook changed since it was read', async () => {
    const ctx = await context(tree.root);
    await call(ctx, 'fs_read', { path: 'nb.ipynb' });
    const changed = NOTEBOOK.replace('Loads the data.', 'Loads the data again.');
    fs.writeFileSync(p('nb.ipynb'), changed);
    let r = await call(ctx, 'fs_edit', { path: 'nb.ipynb', cell: 2, old_string: 'print(len(rows))  ', new_string: 'print(rows)' });
    assert.equal(r.isError, true);
    assert.match(r.text, /changed since you last read it/);
    r = await call(ctx, 'fs_edit', { path: 'nb.ipynb', cell: 2, delete_cell: true });
    assert.match(r.text, /changed since you last read it .*may not be the cell you mean/);
    assert.equal(fs.readFileSync(p('nb.ipynb'), 'utf8'), changed);
    // an exact match is the text the model meant, whatever else changed
    r = await call(ctx, 'fs_edit', { path: 'nb.ipynb', cell: 2, old_string: 'print(len(rows))', new_string: 'print(rows)' });
    assert.equal(r.isError, false, r.text);
  });

  it("refuses fs_write and fs_apply_patch over an editor's unsaved cells, pointing to the edit by cell", async () => {
    const ctx = await context(tree.root);
    const cells = [
      { kind: 'markdown' as const, language: 'markdown', source: '# Sales (draft)\nLoads the data.' },
      { kind: 'code' as const, language: 'python', source: 'rows = [1, 2, 3]\nprint(len(rows))', outputs: [] },
    ];
    ctx.ws.notebooks.set(p('nb.ipynb'), { cells, isDirty: true });
    const read = await call(ctx, 'fs_read', { path: 'nb.ipynb' });
    assert.match(read.text, /unsaved changes in editor/);
    const write = await call(ctx, 'fs_write', { path: 'nb.ipynb', content: NOTEBOOK.replace('Sales', 'Revenue') });
    assert.equal(write.isError, true);
    assert.match(write.text, /nb\.ipynb is open in a notebook editor with unsaved changes, which changing the whole file would overwrite\. Nothing was written\. Edit its cells with fs_edit and `cell`/);
    const patch = await call(ctx, 'fs_apply_patch', { patch: '*** Begin Patch\n*** Delete File: nb.ipynb\n*** End Patch' });
    assert.equal(patch.isError, true);
    assert.match(patch.text, /open in a notebook editor with unsaved changes/);
    assert.equal(fs.readFileSync(p('nb.ipynb'), 'utf8'), NOTEBOOK);
  });

  it('refuses a notebook whose top object or a cell names a key twice, and changes nothing', async () => {
    // JSON.parse keeps the last duplicate, the model sees it; a hidden first one would take the edit
    const hiddenCells = NOTEBOOK.replace('{\n "cells": [', '{\n "cells": [{"cell_type": "code", "metadata": {}, "source": ["secret = 1"]}, {"cell_type": "code", "metadata": {}, "source": ["secret = 2"]}],\n "cells": [');
    const hiddenSource = NOTEBOOK.replace('"source": [\n    "rows', '"source": ["secret = 3"],\n   "source": [\n    "rows');
    assert.notEqual(hiddenCells, NOTEBOOK);
    assert.notEqual(hiddenSource, NOTEBOOK);
    for (const text of [hiddenCells, hiddenSource]) {
      fs.writeFileSync(p('nb.ipynb'), text);
      const ctx = await context(tree.root);
      const read = await call(ctx, 'fs_read', { path: 'nb.ipynb' });
      assert.match(read.text, /rows = \[1, 2, 3\]/);
      for (const input of [
        { path: 'nb.ipynb', cell: 2, old_string: 'rows = [1, 2, 3]', new_string: 'rows = []' },
        { path: 'nb.ipynb', cell: 2, new_string: 'x = 1' },
        { path: 'nb.ipynb', cell: 1, insert_cell: 'code', new_string: 'x = 1' },
        { path: 'nb.ipynb', cell: 1, delete_cell: true },
      ]) {
        const r = await call(ctx, 'fs_edit', input);
        assert.equal(r.isError, true, r.text);
        assert.match(r.text, /^Cannot edit nb\.ipynb by cell: its JSON has duplicate keys, so where the edit would land is not what reading shows\. Nothing was changed\./);
        assert.doesNotMatch(r.text, /secret/);
        assert.equal(fs.readFileSync(p('nb.ipynb'), 'utf8'), text);
      }
    }
  });

  it("gives an open, saved notebook one version: fs_read's, a whole-file change's, and the next read's", async () => {
    const ctx = await context(tree.root);
    const cells = [
      { kind: 'markdown' as const, language: 'markdown', source: '# Sales\nLoads the data.' },
      { kind: 'code' as const, language: 'python', source: 'rows = [1, 2, 3]\nprint(len(rows))', outputs: [] },
    ];
    ctx.ws.notebooks.set(p('nb.ipynb'), { cells, isDirty: false });
    const versionIn = (text: string) => /versions?:? (?:nb\.ipynb )?([0-9a-f]{8})/i.exec(text)?.[1];
    const read = await call(ctx, 'fs_read', { path: 'nb.ipynb' });
    const first = versionIn(read.text);
    assert.ok(first, read.text);
    // whole-file writes: what each reports is what the next read gives
    const next = NOTEBOOK.replace('"3\\n"', '"4\\n"');
    assert.notEqual(next, NOTEBOOK);
    const write = await call(ctx, 'fs_write', { path: 'nb.ipynb', content: next });
    assert.equal(write.isError, false, write.text);
    const written = versionIn(write.text);
    assert.notEqual(written, first);
    assert.equal(versionIn((await call(ctx, 'fs_read', { path: 'nb.ipynb' })).text), written);
    const patch = await call(ctx, 'fs_apply_patch', { patch: '*** Begin Patch\n*** Update File: nb.ipynb\n@@\n-    "4\\n"\n+    "5\\n"\n*** End Patch' });
    assert.equal(patch.isError, false, patch.text);
    const patched = versionIn(patch.text);
    assert.equal(versionIn((await call(ctx, 'fs_read', { path: 'nb.ipynb' })).text), patched);
    // an edit by cell too
    const cell = await call(ctx, 'fs_edit', { path: 'nb.ipynb', cell: 1, new_string: '# Revenue' });
    assert.equal(cell.isError, false, cell.text);
    assert.equal(versionIn((await call(ctx, 'fs_read', { path: 'nb.ipynb' })).text), versionIn(cell.text));
    // outputs changed on disk with the cells as they were: the JSON the model last saw is not there
    const seen = fs.readFileSync(p('nb.ipynb'), 'utf8');
    fs.writeFileSync(p('nb.ipynb'), seen.replace('"5\\n"', '"6\\n"'));
    const overwrite = await call(ctx, 'fs_write', { path: 'nb.ipynb', content: NOTEBOOK });
    assert.equal(overwrite.isError, true, overwrite.text);
    assert.match(overwrite.text, /changed since you last read it/);
    const loose = await call(ctx, 'fs_edit', { path: 'nb.ipynb', old_string: '"print(len(rows))"\n  ],', new_string: '"print(rows)"\n  ],' });
    assert.equal(loose.isError, true, loose.text);
    assert.match(loose.text, /changed since you last read it/);
    assert.equal(fs.readFileSync(p('nb.ipynb'), 'utf8'), seen.replace('"5\\n"', '"6\\n"'));
  });

  it('keeps a CRLF notebook written with escaped slashes as it was outside the edited source', async () => {
    const crlf = NOTEBOOK.replace('Loads the data.', 'See a/b é.').replace(/\//g, '\\/').replace(/\n/g, '\r\n');
    fs.writeFileSync(p('nb.ipynb'), crlf);
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_edit', { path: 'nb.ipynb', cell: 2, new_string: 'x = "a/b"\ny = 2\n' });
    assert.equal(r.isError, false, r.text);
    const out = fs.readFileSync(p('nb.ipynb'), 'utf8');
    assert.equal(out, crlf.replace('"rows = [1, 2, 3]\\n",\r\n    "print(len(rows))"', '"x = \\"a\\/b\\"\\n",\r\n    "y = 2\\n"'));
  });
});
