// Agent-mode scenarios of the outline and of symbols: the model reads a file's outline, then one
// symbol whole by the name the outline gave it; and it replaces a function by its name, the person
// reviews the diff and accepts, and the file holds the new function with every other byte kept.
// The file is Python: no language server answers for it in the test host, so the outline comes
// from tree-sitter there as in the CLI, and the model's text can be compared with the CLI's.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FILE = 'py/geometry.py';
const OUTLINE = { path: FILE, mode: 'outline' };
const SYMBOL = { path: FILE, symbol: 'Circle.area' };
const NEW_DESCRIBE = 'def describe(shape):\n    return f"{type(shape).__name__}: {shape.area():.1f} square units"\n';
const EDIT = { path: FILE, symbol: 'describe', new_string: NEW_DESCRIBE };
const BEFORE_DESCRIBE = 'def describe(shape):\n    return f"{type(shape).__name__} of area {shape.area():.2f}"\n';
/** The file as the workspace starts with it. */
const ORIGINAL = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'workspace', FILE), 'utf8');

/** The model's n-th call of `tool`, with the result it received. */
function call(r, tool, n = 0) {
  const c = r.calls.filter((x) => x.tool === tool)[n];
  assert.ok(c, `the model called ${tool}${n ? ` ${n + 1} times` : ''}; calls: ${r.calls.map((x) => x.tool).join(', ') || 'none'}`);
  assert.equal(typeof c.result, 'string', `a result of ${tool} reached the model`);
  return c;
}

export default [
  {
    name: 'fs_read outline then symbol: the model gets the outline of a file from the syntax tree, then reads one method whole by the name it shows',
    setup: [{ command: 'View: Close All Editor Groups' }],
    prompt: `How is the area of a circle computed in ${FILE}?`,
    model: [{ tool: 'fs_read', input: OUTLINE }, { tool: 'fs_read', input: SYMBOL }, { text: 'Read it: {{result}}' }],
    async expect(r) {
      const outline = call(r, 'fs_read', 0);
      assert.deepEqual(outline.input, OUTLINE);
      const version = /version ([0-9a-f]{8})<\/meta>/.exec(outline.result)?.[1];
      assert.equal(
        outline.result,
        [
          `<path>${FILE}</path>`,
          '<type>outline</type>',
          `<meta>symbols 1-4 of 4, from the syntax tree (tree-sitter), 17 lines, utf-8, LF, version ${version}</meta>`,
          '<outline>',
          'L5-13 class Circle',
          '  L8-9 method __init__(self, radius)',
          '  L11-13 method area(self)',
          'L16-17 function describe(shape)',
          '</outline>',
          'End of outline.',
        ].join('\n'),
      );
      assert.equal(outline.result, r.cli('fs_read', OUTLINE), 'the outline in the chat is the CLI\'s, byte for byte');
      const symbol = call(r, 'fs_read', 1);
      assert.deepEqual(symbol.input, SYMBOL);
      assert.equal(
        symbol.result,
        [
          `<path>${FILE}</path>`,
          '<type>file</type>',
          `<meta>lines 11-13 of 17, method Circle.area, outline from tree-sitter, utf-8, LF, version ${version}</meta>`,
          '<content>',
          'L11:     def area(self):',
          'L12:         # pi r squared',
          'L13:         return math.pi * self.radius ** 2',
          '</content>',
          'End of symbol.',
        ].join('\n'),
        'the symbol is read whole, in the version the outline gave',
      );
      assert.equal(symbol.result, r.cli('fs_read', SYMBOL), 'the symbol read in the chat is the CLI\'s, byte for byte');
      assert.ok(r.logLines.some((l) => /outline of py\/geometry\.py from tree-sitter in \d+ ms/.test(l)), `the log says where the outline came from:\n${r.log}`);
      assert.ok(r.chat.text.includes('Read it: <path>py/geometry.py</path>'), r.chat.text);
    },
  },
  {
    name: 'fs_edit by symbol: the diff review opens, Accept (the ✓ button) lands the new function, every other byte of the file kept',
    setup: [{ command: 'View: Close All Editor Groups' }],
    prompt: `Make describe in ${FILE} say square units`,
    model: [{ tool: 'fs_edit', input: EDIT }, { text: 'Done. {{result}}' }],
    steps: [{ review: 'geometry.py ↔ proposed by fs_edit', waiting: `Editing ${FILE}, after your review in the diff`, accept: 'button', as: 'review' }],
    async expect(r) {
      const c = call(r, 'fs_edit');
      assert.match(c.result, /^Edited py\/geometry\.py: \+1 -1 lines; version ([0-9a-f]{8})\.\nReplaced function describe \(lines 16-17, outline from tree-sitter\)\.\n<diff>\n/);
      assert.match(c.result, /\n- {4}return f"\{type\(shape\)\.__name__\} of area \{shape\.area\(\):\.2f\}"\n\+ {4}return f"\{type\(shape\)\.__name__\}: \{shape\.area\(\):\.1f\} square units"\n/);
      const version = /; version ([0-9a-f]{8})\./.exec(c.result)[1];
      assert.ok(ORIGINAL.includes(BEFORE_DESCRIBE), 'the workspace starts with the old function');
      // byte for byte: the new function in place of the old, nothing else touched
      assert.equal(r.ws.read(FILE), ORIGINAL.replace(BEFORE_DESCRIBE, NEW_DESCRIBE));
      assert.match(r.cli('fs_read', { path: FILE }), new RegExp(`version ${version}`), 'the version the model got is the file\'s');
      assert.ok(r.seen.review.label.startsWith('geometry.py ↔ proposed by fs_edit'), r.seen.review.label);
      assert.ok(r.chat.text.includes('Done. Edited py/geometry.py'), r.chat.text);
    },
  },
];
