import * as assert from 'node:assert/strict';
import { applyReplacements, findEdit, type FindResult } from '../../src/core/edit';
import { MAX_EDIT_ELISION_PIECES, MAX_EDIT_ELISION_PLACES, MAX_EDIT_ELISION_SCAN_LINES } from '../../src/core/limits';

// The work one fs_edit call may do is bounded, not only its input: an old_string of many
// "..." elisions over a large file once took seconds and gigabytes (thousands of them ran
// out of memory). Each bound is tested at its worst case, by what is refused and by the
// memory the call may take, never by the clock.

/** Small functions with unique names, 8 lines each, `lines` lines in all. */
function functions(lines: number): string {
  const out: string[] = [];
  for (let i = 0; out.length < lines; i++) {
    out.push(`function fn${i}(a, b) {`, `  const x${i} = a + b;`, `  if (x${i} > 1) {`, `    return helper(x${i});`, '  }', `  return x${i};`, '}', '');
  }
  return out.slice(0, lines).join('\n') + '\n';
}

/** A function's head, then `pieces` times an elision and a closing line found in every function of the file, then the function's end. */
function elidedClosers(pieces: number): string {
  const old = ['function fn0(a, b) {'];
  for (let k = 0; k < pieces; k++) {
    old.push('  // ...', '  }');
  }
  old.push('}');
  return old.join('\n');
}

/** Peak resident memory of the process grown by running `f`, in MiB (0 when the process had peaked higher before). */
function peakGrowthMiB<T>(f: () => T): { value: T; mib: number } {
  const before = process.resourceUsage().maxRSS;
  const value = f();
  return { value, mib: (process.resourceUsage().maxRSS - before) / 1024 };
}

function refused(r: FindResult, pattern: RegExp): void {
  assert.equal(r.ok, false, JSON.stringify(r).slice(0, 300));
  assert.equal((r as { reason: string }).reason, 'invalid', JSON.stringify(r).slice(0, 300));
  assert.match((r as { message: string }).message, pattern);
}

describe('fs_edit bounds: old_string with many "..." elisions', () => {
  const big = functions(300_000);

  it(`refuses more than ${MAX_EDIT_ELISION_PIECES} pieces between elisions, 2000 of them over 300000 lines, in bounded memory`, () => {
    const old = elidedClosers(2000);
    const { value: r, mib } = peakGrowthMiB(() => findEdit(big, { oldString: old, newString: old.replace('fn0', 'fnZ') }));
    refused(r, new RegExp(`between 2001 pieces of text; at most ${MAX_EDIT_ELISION_PIECES} pieces are matched`));
    assert.match((r as { message: string }).message, /fewer "\.\.\." lines/);
    assert.ok(mib < 512, `peak memory grew by ${mib.toFixed(0)} MiB`);
  });

  it(`refuses pieces found at more than ${MAX_EDIT_ELISION_PLACES} places in all, before holding them`, () => {
    // A closing line is at 75000 places of this file (`}` and `  }` say the same); 20 of them make 1.5 million.
    const old = elidedClosers(20);
    const { value: r, mib } = peakGrowthMiB(() => findEdit(big, { oldString: old, newString: old.replace('fn0', 'fnZ') }));
    refused(r, new RegExp(`found at more than ${MAX_EDIT_ELISION_PLACES} places in all`));
    assert.ok(mib < 512, `peak memory grew by ${mib.toFixed(0)} MiB`);
  });

  it('near miss: fewer common pieces are still chained (and here found nowhere as one block), as before', () => {
    const old = elidedClosers(12);
    const r = findEdit(big, { oldString: old, newString: old.replace('fn0', 'fnZ') });
    assert.equal(r.ok, false);
    assert.equal((r as { reason: string }).reason, 'not-found');
  });

  it(`refuses when the pieces times the file's lines pass ${MAX_EDIT_ELISION_SCAN_LINES}`, () => {
    const lines = 7 * 60_000;
    const file = functions(lines);
    const withText = file.split('\n').filter((l) => l.trim()).length;
    const pieces = Math.floor(MAX_EDIT_ELISION_SCAN_LINES / withText) + 1;
    assert.ok(pieces < MAX_EDIT_ELISION_PIECES, 'the scan bound, not the piece bound, is what this case meets');
    const old = ['function fn0(a, b) {', ...Array.from({ length: pieces - 1 }, (_, k) => [`  // ...`, `  return x${k};`]).flat()].join('\n');
    refused(findEdit(file, { oldString: old, newString: old + '\n// edited' }), new RegExp(`at most ${MAX_EDIT_ELISION_SCAN_LINES} lines are searched`));
  });

  it(`near miss: ${MAX_EDIT_ELISION_PIECES} pieces that chain one way are matched, and the left-out lines kept`, () => {
    const body: string[] = [];
    for (let k = 0; k < MAX_EDIT_ELISION_PIECES - 1; k++) {
      body.push(`  step${k}();`, `  fill(${k});`);
    }
    const file = ['function run() {', ...body, '}', ''].join('\n');
    const old = ['function run() {', ...Array.from({ length: MAX_EDIT_ELISION_PIECES - 1 }, (_, k) => (k === 0 ? ['  step0();'] : ['  // ...', `  step${k}();`])).flat(), '  // ...', '}'].join('\n');
    const r = findEdit(file, { oldString: old, newString: old.replace('step0();', 'step0(true);') });
    assert.ok(r.ok, JSON.stringify(r).slice(0, 300));
    assert.equal(r.level, 'context-aware');
    assert.equal(applyReplacements(file, r.replacements), file.replace('step0();', 'step0(true);'));
  });
});
