import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyCellChange, cellsJson, cellsVersion, deleteCell, insertCell, replaceCellSource, sourceLines } from '../../src/core/notebook/cells';
import { parseNotebook } from '../../src/core/read/notebook';

interface Cell {
  cell_type: string;
  execution_count?: number | null;
  id?: string;
  metadata: Record<string, unknown>;
  outputs?: unknown[];
  source: string[];
}

/** JSON as a writer with these habits writes it: indentation, CRLF, `\/`, `\u00e9`. */
function write(doc: unknown, o: { indent: number; crlf: boolean; slash: boolean; ascii: boolean; trailing: boolean }): string {
  let s = JSON.stringify(doc, null, o.indent || undefined);
  if (o.slash) {
    s = s.replace(/\//g, '\\/');
  }
  if (o.ascii) {
    // eslint-disable-next-line no-control-regex -- every character past ASCII
    s = s.replace(/[^\u0000-\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  if (o.crlf) {
    s = s.replace(/\n/g, '\r\n');
  }
  return o.trailing ? s + (o.crlf ? '\r\n' : '\n') : s;
}

const line = fc.constantFrom('x = 1', 'print("a/b")', '# é ü 😀', '', '  indented', 'tab\there', 'quote "q" \\ back', 'path/to/file');
const source = fc.array(line, { maxLength: 5 }).map((ls) => ls.join('\n'));
const cell: fc.Arbitrary<Cell> = fc.tuple(fc.constantFrom('code', 'markdown'), source, fc.boolean(), fc.integer({ min: 1, max: 50 })).map(([kind, src, withId, n]) => {
  const rest = { ...(withId ? { id: `id-${n}` } : {}), metadata: n % 3 === 0 ? { tags: ['a/b', 'é'] } : {}, source: sourceLines(src) };
  if (kind === 'code') {
    return { cell_type: kind, execution_count: n % 2 ? n : null, ...rest, outputs: n % 2 ? [{ output_type: 'stream', name: 'stdout', text: ['out/put é\n'] }] : [] };
  }
  return { cell_type: kind, ...rest };
});
const habits = fc.record({ indent: fc.constantFrom(0, 1, 2, 4), crlf: fc.boolean(), slash: fc.boolean(), ascii: fc.boolean(), trailing: fc.boolean() });
const notebook = fc.array(cell, { minLength: 1, maxLength: 5 }).map((cells) => ({ cells, metadata: { language_info: { name: 'python' } }, nbformat: 4, nbformat_minor: 5 }));

/** The parts the edit must not change: everything but the one cell's source. */
function withoutSource(doc: { cells: Cell[] }, i: number): unknown {
  return { ...doc, cells: doc.cells.map((c, j) => (j === i ? { ...c, source: undefined } : c)) };
}

/** The bytes the two texts share at their start and end: only the middle differs. */
function changedSpan(a: string, b: string): { prefix: number; suffix: number } {
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) {
    p++;
  }
  let s = 0;
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) {
    s++;
  }
  return { prefix: p, suffix: s };
}

describe('notebook cells edited in the JSON', () => {
  it('changes only the edited cell\'s source, byte for byte elsewhere, for any writer\'s habits (property)', () => {
    fc.assert(
      fc.property(notebook, habits, fc.nat(), source, (doc, h, pick, next) => {
        const json = write(doc, h);
        const i = pick % doc.cells.length;
        const out = replaceCellSource(json, i, next);
        const a = JSON.parse(json) as { cells: Cell[] };
        const b = JSON.parse(out) as { cells: Cell[] };
        assert.deepEqual(withoutSource(b, i), withoutSource(a, i));
        assert.equal(b.cells[i].source.join(''), next);
        assert.deepEqual(b.cells[i].source, sourceLines(next));
        if (out === json) {
          return;
        }
        // the bytes before and after the source value are the file's own
        const { prefix, suffix } = changedSpan(json, out);
        const at = json.indexOf('"source"', cellStart(json, i));
        assert.ok(prefix >= at, `bytes before cell ${i}'s source changed`);
        assert.ok(json.length - suffix <= valueEnd(json, at), `bytes after cell ${i}'s source changed`);
        // the new lines are written as the file writes: its line ending, escapes and indentation
        const changed = out.slice(prefix, out.length - suffix);
        if (!h.crlf) {
          assert.ok(!changed.includes('\r'), 'no CR in an LF file');
        } else {
          assert.ok(!/[^\r]\n/.test(changed), 'CRLF throughout a CRLF file');
        }
        // a file that escapes "/" says so only when it holds one
        const slashes = h.slash && json.includes('\\/');
        if (slashes) {
          assert.ok(!/[^\\]\//.test(changed), '"/" escaped as the file escapes it');
        } else if (!h.slash) {
          assert.ok(!changed.includes('\\/'), '"/" written plain');
        }
        // a file that escapes what is past ASCII says so only when it holds some
        const escapes = h.ascii && /\\u(00e9|00fc|d83d)/.test(json);
        if (escapes) {
          assert.ok(![...changed].some((c) => c.charCodeAt(0) > 0x7f), 'characters past ASCII escaped as the file escapes them');
        }
        // written again the way the writer writes it, the edit is what that writer would have written
        const expected = write({ ...a, cells: a.cells.map((c, j) => (j === i ? { ...c, source: sourceLines(next) } : c)) }, h);
        if ((escapes || !h.ascii) && (slashes || !h.slash)) {
          assert.equal(out, expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('inserts a cell in the layout of its neighbour, and deletes one, leaving every other cell as it was (property)', () => {
    fc.assert(
      fc.property(notebook, habits, fc.nat(), fc.constantFrom('code' as const, 'markdown' as const, 'raw' as const), source, (doc, h, pick, kind, src) => {
        const json = write(doc, h);
        const at = pick % (doc.cells.length + 1);
        const out = insertCell(json, at, kind, src);
        const b = JSON.parse(out) as { cells: Cell[] };
        assert.equal(b.cells.length, doc.cells.length + 1);
        assert.deepEqual([...b.cells.slice(0, at), ...b.cells.slice(at + 1)], JSON.parse(json).cells);
        const made = b.cells[at];
        assert.equal(made.cell_type, kind);
        assert.equal(made.source.join(''), src);
        assert.deepEqual(made.metadata, {});
        if (kind === 'code') {
          assert.deepEqual(made.outputs, []);
          assert.equal(made.execution_count, null);
        } else {
          assert.equal(made.outputs, undefined);
        }
        if (doc.cells[Math.min(at, doc.cells.length - 1)].id !== undefined) {
          assert.match(made.id!, /^[a-zA-Z0-9_-]{1,64}$/);
          assert.equal(b.cells.filter((c) => c.id === made.id).length, 1);
        }
        if (!h.crlf) {
          assert.ok(!out.includes('\r'));
        } else {
          assert.ok(!/[^\r]\n/.test(out));
        }
        // deleting it again gives the file back, byte for byte
        assert.equal(deleteCell(out, at), json);
      }),
      { numRuns: 300 },
    );
  });

  it('writes an edited cell exactly as nbformat does (indent 1, lines ending in "\\n" but the last)', () => {
    const json = '{\n "cells": [\n  {\n   "cell_type": "code",\n   "execution_count": 2,\n   "metadata": {},\n   "outputs": [],\n   "source": [\n    "a = 1\\n",\n    "b"\n   ]\n  }\n ],\n "metadata": {},\n "nbformat": 4,\n "nbformat_minor": 5\n}\n';
    assert.equal(
      replaceCellSource(json, 0, 'x = 2\ny = 3\n'),
      '{\n "cells": [\n  {\n   "cell_type": "code",\n   "execution_count": 2,\n   "metadata": {},\n   "outputs": [],\n   "source": [\n    "x = 2\\n",\n    "y = 3\\n"\n   ]\n  }\n ],\n "metadata": {},\n "nbformat": 4,\n "nbformat_minor": 5\n}\n',
    );
    assert.equal(replaceCellSource(json, 0, ''), json.replace(/"source": \[[^\]]*\]/, '"source": []'));
    // an empty source list gets lines laid out one level in from its key
    const empty = json.replace(/"source": \[[^\]]*\]/, '"source": []');
    assert.equal(replaceCellSource(empty, 0, 'a = 1\nb'), json);
  });

  it('keeps a source written as one string a list of lines, and a file on one line on one line', () => {
    const one = '{"cells":[{"cell_type":"markdown","metadata":{},"source":"# T"}],"metadata":{},"nbformat":4,"nbformat_minor":4}';
    assert.equal(replaceCellSource(one, 0, '# A\nb'), '{"cells":[{"cell_type":"markdown","metadata":{},"source":["# A\\n","b"]}],"metadata":{},"nbformat":4,"nbformat_minor":4}');
    assert.equal(
      insertCell(one, 1, 'code', 'x'),
      '{"cells":[{"cell_type":"markdown","metadata":{},"source":"# T"},{"cell_type":"code","execution_count":null,"metadata":{},"outputs":[],"source":["x"]}],"metadata":{},"nbformat":4,"nbformat_minor":4}',
    );
  });

  it('inserts into an empty cells list and deletes the last cell to an empty list', () => {
    const json = '{\n "cells": [],\n "metadata": {},\n "nbformat": 4,\n "nbformat_minor": 5\n}\n';
    const out = insertCell(json, 0, 'markdown', '# Title');
    assert.deepEqual(JSON.parse(out).cells, [{ cell_type: 'markdown', metadata: {}, source: ['# Title'] }]);
    assert.equal(deleteCell(out, 0), json);
  });

  it('applies a described change the same way as the direct call', () => {
    const json = '{\n "cells": [\n  {\n   "cell_type": "markdown",\n   "metadata": {},\n   "source": [\n    "a"\n   ]\n  }\n ],\n "nbformat": 4\n}';
    assert.equal(applyCellChange(json, { op: 'source', index: 0, cells: 1, before: 'a', after: 'b' }), replaceCellSource(json, 0, 'b'));
    assert.equal(applyCellChange(json, { op: 'delete', index: 0, cells: 1, before: 'a' }), deleteCell(json, 0));
    assert.equal(applyCellChange(json, { op: 'insert', index: 1, cells: 1, kind: 'code', language: 'python', source: 'z' }), insertCell(json, 1, 'code', 'z'));
  });

  it('shows an editor\'s cells as a notebook the reviewer reads back as the same cells, and versions them by kind, language and source', () => {
    const cells = [
      { kind: 'markdown' as const, language: 'markdown', source: '# T\n\nx' },
      { kind: 'code' as const, language: 'python', source: 'a = 1\n' },
      { kind: 'code' as const, language: 'sql', source: 'select 1' },
    ];
    const back = parseNotebook(cellsJson(cells, 'python')).cells;
    assert.deepEqual(
      back.map((c) => [c.kind, c.language, c.source]),
      cells.map((c) => [c.kind, c.language, c.source]),
    );
    assert.equal(cellsVersion(back), cellsVersion(cells));
    assert.notEqual(cellsVersion([{ ...cells[0], source: '# T\n\ny' }, cells[1], cells[2]]), cellsVersion(cells));
  });
});

/** The offset of cell `i`'s object in a notebook's text. */
function cellStart(json: string, i: number): number {
  let at = json.indexOf('"cells"');
  for (let n = 0; n <= i; n++) {
    at = json.indexOf('"cell_type"', at + 1);
  }
  return json.lastIndexOf('{', at);
}

/** The offset just past the value of the member whose key starts at `at`. */
function valueEnd(json: string, at: number): number {
  const open = json.indexOf('[', at);
  return json.indexOf(']', open) + 1;
}
