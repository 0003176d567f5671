import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { alignLines } from '../../src/core/edit/align';
import { keepFormat } from '../../src/core/edit/project';
import { applyReplacements, findEdit } from '../../src/core/edit';

/** Replays the operations: both sides come back, and equal runs are equal. */
function replay(a: string[], b: string[]): void {
  let i = 0;
  let j = 0;
  for (const op of alignLines(a, b)) {
    assert.ok(op.count > 0);
    if (op.kind === 'equal') {
      assert.deepEqual(a.slice(i, i + op.count), b.slice(j, j + op.count));
      i += op.count;
      j += op.count;
    } else if (op.kind === 'removed') {
      i += op.count;
    } else {
      j += op.count;
    }
  }
  assert.deepEqual([i, j], [a.length, b.length]);
}

describe('fs_edit line alignment', () => {
  it('accounts for every line of both sides, and equal runs are equal', () => {
    const lines = fc.array(fc.constantFrom('a', 'b', 'c', '}', '', 'x'), { maxLength: 60 });
    fc.assert(fc.property(lines, lines, (a, b) => replay(a, b)), { numRuns: 500 });
  });

  it('a large rewrite is aligned on unique lines, fast, and keeps them', () => {
    const a = Array.from({ length: 20000 }, (_, i) => `line ${i}`);
    const b = a.map((l, i) => (i % 7 === 0 ? `changed ${i}` : l));
    const t = performance.now();
    const ops = alignLines(a, b);
    assert.ok(performance.now() - t < 2000, 'bounded time');
    replay(a, b);
    const kept = ops.filter((o) => o.kind === 'equal').reduce((s, o) => s + o.count, 0);
    assert.equal(kept, a.length - Math.ceil(a.length / 7));
  });

  it('a large tolerant edit still gives the right text', () => {
    const n = 3000;
    const file = Array.from({ length: n }, (_, i) => `    step(${i});`).join('\n') + '\n';
    const old = Array.from({ length: n }, (_, i) => `step(${i});`).join('\n');
    const neu = Array.from({ length: n }, (_, i) => (i % 5 === 0 ? `step(${i}, true);` : `step(${i});`)).join('\n');
    const r = findEdit(file, { oldString: old, newString: neu });
    assert.ok(r.ok);
    assert.equal(r.level, 'indentation-flexible');
    assert.equal(applyReplacements(file, r.replacements), Array.from({ length: n }, (_, i) => (i % 5 === 0 ? `    step(${i}, true);` : `    step(${i});`)).join('\n') + '\n');
  });
});

describe('fs_edit typography kept on changed text', () => {
  it('keeps the file\'s quotes where the new text kept the old, and is bounded on a full rewrite', () => {
    assert.equal(keepFormat('say "hi" now', 'say “hi” now', 'say "hi" later'), 'say “hi” later');
    const old = 'a "b" '.repeat(300);
    const file = old.replace(/"b"/g, '“b”');
    const t = performance.now();
    const next = 'x'.repeat(1800);
    assert.equal(keepFormat(old, file, next), next);
    assert.ok(performance.now() - t < 1000);
  });

  it('never moves a typographic quote onto a quote the new text kept from among several', () => {
    // The closing ASCII quote of the new text could be any of the last three of old_string: it stays ASCII.
    assert.equal(keepFormat("s = ''quoted''", "s = '‘quoted’'", "s = 'x'"), "s = 'x'");
    // One closing quote after the kept word: it is the file's.
    assert.equal(keepFormat('"Hello"', '“Hello”', '"Hello world"'), '“Hello world”');
  });

  it('keeps the file\'s runs of spaces in kept text, whole runs only', () => {
    assert.equal(keepFormat('x = 1', 'x  =  1', 'x = 2'), 'x  =  2');
    assert.equal(keepFormat('msg = "a b"', 'msg = "a  b"', 'msg = "a b c"'), 'msg = "a  b c"');
    assert.equal(keepFormat('x  =  1', 'x = 1', 'x  =  2'), 'x = 2');
    // Not the same text apart from formatting: new_string as given.
    assert.equal(keepFormat('x = 1', 'y = 1', 'x = 2'), 'x = 2');
  });
});
