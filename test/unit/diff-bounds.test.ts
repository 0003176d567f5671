import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyTextEdits, lineDiff, lineStats, splitLines, textEdits, unifiedDiff, type LineRun } from '../../src/core/diff';
import { MAX_CHANGE_DIFF_BYTES, MAX_CHANGE_DIFF_LINES, MAX_DIFF_WORK_LINES, MAX_LINE_CHARS } from '../../src/core/limits';
import { call, context, tempTree } from './helpers';

const lines = (n: number, f: (i: number) => string): string[] => Array.from({ length: n }, (_, i) => `${f(i)}\n`);

/** The new lines rebuilt from the old ones and the runs: a diff that does not rebuild them is wrong. */
function rebuild(a: readonly string[], b: readonly string[], runs: readonly LineRun[]): string[] {
  const out: string[] = [];
  let i = 0;
  let j = 0;
  for (const r of runs) {
    if (r.op === 'same') {
      for (let k = 0; k < r.count; k++) {
        assert.equal(a[i + k], b[j + k], `a same run pairs old line ${i + k + 1} with new line ${j + k + 1}`);
        out.push(a[i + k]);
      }
      i += r.count;
      j += r.count;
    } else if (r.op === 'removed') {
      i += r.count;
    } else {
      out.push(...b.slice(j, j + r.count));
      j += r.count;
    }
  }
  assert.equal(i, a.length, 'every old line is accounted for');
  return out;
}

const counted = (runs: readonly LineRun[], op: LineRun['op']) => runs.filter((r) => r.op === op).reduce((s, r) => s + r.count, 0);

/** A small-alphabet pseudo-random text: no line is unique, and Myers needs many edits. */
function noise(n: number, seed: number): string[] {
  let x = seed;
  return lines(n, () => (((x = (x * 1103515245 + 12345) & 0x7fffffff) >> 16) & 1 ? 'x' : 'y'));
}

describe('line diff: bounded work, true counts', function () {
  this.timeout(120_000);

  it('10,000 changed lines among 100,000 count as +10000 -10000, not the span between the first and the last', () => {
    const a = lines(100_000, (i) => `line ${i} ${i % 10 ? 'baz' : 'foo'}`);
    const b = lines(100_000, (i) => `line ${i} ${i % 10 ? 'baz' : 'bar'}`);
    assert.deepEqual(lineStats(a.join(''), b.join('')), { added: 10_000, removed: 10_000 });
    const edits = textEdits(a.join(''), b.join(''));
    assert.equal(edits.length, 10_000);
    assert.equal(applyTextEdits(a.join(''), edits), b.join(''));
  });

  it('fs_edit replace_all over 10,000 of 100,000 lines says +10000 -10000', async () => {
    const tree = tempTree({ 'a.txt': lines(100_000, (i) => `line ${i} ${i % 10 ? 'baz' : 'foo'}`).join('') });
    try {
      const ctx = await context(tree.root);
      const r = await call(ctx, 'fs_edit', { path: 'a.txt', old_string: 'foo', new_string: 'bar', replace_all: true });
      assert.match(r.text, /^Edited a\.txt: \+10000 -10000 lines; version /);
      assert.equal(fs.readFileSync(path.join(tree.root, 'a.txt'), 'utf8'), lines(100_000, (i) => `line ${i} ${i % 10 ? 'baz' : 'bar'}`).join(''));
    } finally {
      tree.cleanup();
    }
  });

  const worst: [string, () => [string[], string[]]][] = [
    ['every one of 100,000 lines changed', () => [lines(100_000, (i) => `line ${i} foo`), lines(100_000, (i) => `line ${i} bar`)]],
    ['100,000 lines of two values, no line unique', () => [noise(100_000, 1), noise(100_000, 2)]],
    [
      'spans of 4,000 lines each needing hundreds of edits, between unique lines',
      () => {
        const a: string[] = [];
        const b: string[] = [];
        for (let s = 0; s < 60; s++) {
          a.push(...noise(1999, s * 2 + 1), `anchor ${s}\n`);
          b.push(...noise(1999, s * 2 + 2), `anchor ${s}\n`);
        }
        return [a, b];
      },
    ],
    ['a line repeated 100,000 times, with every tenth line changed', () => [lines(100_000, () => 'same'), lines(100_000, (i) => (i % 10 ? 'same' : 'other'))]],
  ];
  for (const [name, make] of worst) {
    it(`worst case within MAX_DIFF_WORK_LINES, and correct: ${name}`, () => {
      const [a, b] = make();
      const meter = { work: 0 };
      const runs = lineDiff(a, b, meter);
      assert.ok(meter.work <= MAX_DIFF_WORK_LINES, `${meter.work} lines visited`);
      assert.deepEqual(rebuild(a, b, runs), b);
      assert.equal(counted(runs, 'same') + counted(runs, 'removed'), a.length);
      assert.equal(counted(runs, 'same') + counted(runs, 'added'), b.length);
    });
  }

  it('the work bound is what stops the spans: a piece with room keeps lines, the last ones are coarse', () => {
    const a: string[] = [];
    const b: string[] = [];
    for (let s = 0; s < 60; s++) {
      a.push(...noise(1999, s * 2 + 1), `anchor ${s}\n`);
      b.push(...noise(1999, s * 2 + 2), `anchor ${s}\n`);
    }
    const meter = { work: 0 };
    const all = lineDiff(a, b, meter);
    const few = lineDiff(a.slice(0, 4000), b.slice(0, 4000));
    // With the budget to spare, the first pieces keep lines in common; the whole input spends the budget and the last pieces are coarse.
    assert.ok(counted(few, 'same') > 1000, `${counted(few, 'same')} lines kept`);
    assert.ok(meter.work > MAX_DIFF_WORK_LINES / 2, `${meter.work}`);
    const lastPiece = a.length - 2000;
    let i = 0;
    let keptAtEnd = 0;
    for (const r of all) {
      if (r.op === 'same' && i >= lastPiece) {
        keptAtEnd += r.count;
      }
      i += r.op === 'added' ? 0 : r.count;
    }
    assert.ok(keptAtEnd <= 1, `${keptAtEnd} lines kept in the last piece`);
  });

  it('keeps the output of small diffs: a moved line, an edit at each end, no newline at the end', () => {
    assert.equal(unifiedDiff('a', 'a', 'a\nb\nc\n', 'b\nc\na\n'), '--- a/a\n+++ b/a\n@@ -1,3 +1,3 @@\n-a\n b\n c\n+a');
    assert.equal(unifiedDiff('a', 'a', 'x\ny', 'x\nz'), '--- a/a\n+++ b/a\n@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n+z\n\\ No newline at end of file');
    const a = lines(20, (i) => `l${i}`).join('');
    const b = a.replace('l0\n', 'L0\n').replace('l19\n', 'L19\n');
    assert.equal(unifiedDiff('a', 'a', a, b), ['--- a/a', '+++ b/a', '@@ -1,4 +1,4 @@', '-l0', '+L0', ' l1', ' l2', ' l3', '@@ -17,4 +17,4 @@', ' l16', ' l17', ' l18', '-l19', '+L19'].join('\n'));
  });

  it('a diff in a result is cut by bytes as well as lines, says how much it left out, and cuts a long line', () => {
    const wide = lines(120, (i) => `Z${i} ${'x'.repeat(130_000)}`);
    const d = unifiedDiff('a', 'a', wide.join(''), wide.map((l) => l.replace('Z', 'Y')).join(''), { maxLines: MAX_CHANGE_DIFF_LINES, maxBytes: MAX_CHANGE_DIFF_BYTES });
    assert.ok(Buffer.byteLength(d) < MAX_CHANGE_DIFF_BYTES + 200, `${Buffer.byteLength(d)} bytes`);
    const shown = d.split('\n');
    const cut = shown[shown.length - 1];
    // 2 headers, 1 hunk header and 240 changed lines in all.
    const m = /^\[diff cut: (\d+) more lines; read the file to see the rest\]$/.exec(cut);
    assert.ok(m, cut);
    assert.equal(shown.length - 1 + Number(m[1]), 2 + 1 + 240);
    assert.ok(shown[3].endsWith(`… [line cut: characters 1-${MAX_LINE_CHARS} of 130004 shown]`), shown[3].slice(-80));
    // Lines: the cut counts the headers too, as before.
    const many = unifiedDiff('a', 'a', lines(500, (i) => `${i}`).join(''), lines(500, (i) => `${i}!`).join(''), { maxLines: MAX_CHANGE_DIFF_LINES, maxBytes: MAX_CHANGE_DIFF_BYTES }).split('\n');
    assert.equal(many.length, MAX_CHANGE_DIFF_LINES + 1);
    assert.equal(many[MAX_CHANGE_DIFF_LINES], `[diff cut: ${3 + 1000 - MAX_CHANGE_DIFF_LINES} more lines; read the file to see the rest]`);
  });

  it('splitLines keeps each terminator, CRLF whole, and a last line without one', () => {
    assert.deepEqual(splitLines('a\r\nb\nc'), ['a\r\n', 'b\n', 'c']);
    assert.deepEqual(splitLines(''), []);
  });
});
