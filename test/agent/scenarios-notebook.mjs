// Agent-mode scenario of a notebook edited by cell: the model reads the notebook's cells, edits
// one cell's source with fs_edit `cell`, the person reviews it in the notebook diff editor and
// accepts, and the change lands in the cell (outputs kept) while the model gets the result.
import assert from 'node:assert/strict';

const NOTEBOOK = 'notebooks/sales.ipynb';
const READ = { path: NOTEBOOK };
const EDIT = { path: NOTEBOOK, cell: 2, old_string: 'rows = [1, 2, 3]', new_string: 'rows = [1, 2, 3, 4]' };

export default [
  {
    name: 'fs_edit with cell on a notebook: the notebook diff review opens, Accept lands the cell\'s new source with its outputs, and the model gets the result',
    setup: [{ command: 'View: Close All Editor Groups' }],
    prompt: `Count four rows in ${NOTEBOOK}`,
    model: [{ tool: 'fs_read', input: READ }, { tool: 'fs_edit', input: EDIT }, { text: 'Done. {{result}}' }],
    steps: [{ review: 'sales.ipynb ↔ proposed by fs_edit', waiting: 'Editing notebooks/sales.ipynb, after your review in the diff', accept: 'button', as: 'review' }],
    async expect(r) {
      const read = r.calls.find((c) => c.tool === 'fs_read');
      assert.ok(read, `the model read the notebook; calls: ${r.calls.map((c) => c.tool).join(', ')}`);
      assert.match(read.result, /<type>notebook<\/type>/);
      assert.match(read.result, /<cell index="2" kind="code" language="python"[^>]*>\nL1: rows = \[1, 2, 3\]\n/);
      const edit = r.calls.find((c) => c.tool === 'fs_edit');
      assert.ok(edit && typeof edit.result === 'string', 'a result of fs_edit reached the model');
      assert.match(edit.result, /^Edited notebooks\/sales\.ipynb: \+1 -1 lines; version [0-9a-f]{8}\./);
      const saved = JSON.parse(r.ws.read(NOTEBOOK));
      assert.deepEqual(saved.cells[1].source, ['rows = [1, 2, 3, 4]\n', 'print(len(rows))']);
      assert.equal(saved.cells[1].outputs.length, 1, 'the outputs are kept');
      assert.deepEqual(saved.cells[0].source, ['# Analysis\n', 'Counts rows.']);
      assert.ok(r.seen.review.label.startsWith('sales.ipynb ↔ proposed by fs_edit'), r.seen.review.label);
      assert.ok(r.chat.text.includes('Done. Edited notebooks/sales.ipynb'), r.chat.text);
    },
  },
];
