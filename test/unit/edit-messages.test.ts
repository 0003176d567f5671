import * as assert from 'node:assert/strict';
import { MAX_EDIT_REGION_BYTES, MAX_EDIT_REGION_LINES } from '../../src/core/limits';
import { describeFailure, describeMatch, findEdit, type FindFailure, type FindResult } from '../../src/core/edit';

function code(...lines: string[]): string {
  return lines.join('\n') + '\n';
}

function failure(r: FindResult): FindFailure {
  assert.equal(r.ok, false, JSON.stringify(r));
  return r as FindFailure;
}

/** A 60-line file whose lines 40-44 are a function. */
const FILE = code(
  ...Array.from({ length: 39 }, (_, i) => `const v${i + 1} = ${i + 1};`),
  'function total(items) {',
  '  let sum = 0;',
  '  for (const it of items) sum += it.price;',
  '  return sum * rate;',
  '}',
  ...Array.from({ length: 16 }, (_, i) => `log(${i});`),
);

describe('fs_edit messages', () => {
  it('not found: the closest region, its first differing line (expected and actual), and the fs_read call that shows it', () => {
    const f = failure(findEdit(FILE, { oldString: 'function total(items) {\n  let sum = 0;\n  for (const it of items) sum += it.price;\n  return sum * taxRate;\n}', newString: 'x' }));
    assert.equal(f.reason, 'not-found');
    const m = describeFailure(f, 'src/app.ts');
    assert.equal(
      m,
      [
        'old_string was not found in src/app.ts.',
        'The closest text is at lines 40-44; line 43 differs:',
        '  old_string: "  return sum * taxRate;"',
        '  file:       "  return sum * rate;"',
        'Re-read those lines and retry with the exact text.',
        'Try: fs_read {"path":"src/app.ts","offset":40,"limit":5}',
      ].join('\n'),
    );
  });

  it('not found, three lines stale: every differing line in one answer, each with the line number and the file\'s text', () => {
    const f = failure(findEdit(FILE, { oldString: 'function total(items) {\n  let sum = 1;\n  for (const it of items) sum += it.cost;\n  return sum * taxRate;\n}', newString: 'x' }));
    assert.equal(
      describeFailure(f, 'src/app.ts'),
      [
        'old_string was not found in src/app.ts.',
        'The closest text is at lines 40-44; 3 of its lines differ:',
        '  line 41:',
        '    old_string: "  let sum = 1;"',
        '    file:       "  let sum = 0;"',
        '  line 42:',
        '    old_string: "  for (const it of items) sum += it.cost;"',
        '    file:       "  for (const it of items) sum += it.price;"',
        '  line 43:',
        '    old_string: "  return sum * taxRate;"',
        '    file:       "  return sum * rate;"',
        'Retry with the exact text of those lines.',
        'Try: fs_read {"path":"src/app.ts","offset":40,"limit":5}',
      ].join('\n'),
    );
  });

  it('not found, more lines stale than are listed: the whole current region with its line numbers instead', () => {
    const file = code('start();', ...Array.from({ length: 8 }, (_, i) => `  step(${i}, "a");`), 'end();', 'tail();');
    const old = ['start();', ...Array.from({ length: 8 }, (_, i) => `  step(${i}, ${i < 6 ? '"b"' : '"a"'});`), 'end();'].join('\n');
    const m = describeFailure(failure(findEdit(file, { oldString: old, newString: 'x' })), 'a.js');
    assert.equal(
      m,
      [
        'old_string was not found in a.js.',
        'The closest text is at lines 1-10, but 6 of its lines differ from old_string (the first is line 2). The file has there:',
        'L1: start();',
        ...Array.from({ length: 8 }, (_, i) => `L${i + 2}:   step(${i}, "a");`),
        'L10: end();',
        'Retry with the exact text of those lines.',
      ].join('\n'),
    );
    assert.doesNotMatch(m, /old_string: |Try: /);
    // as many as are listed: listed, not the region
    const four = ['start();', ...Array.from({ length: 8 }, (_, i) => `  step(${i}, ${i < 4 ? '"b"' : '"a"'});`), 'end();'].join('\n');
    const r = describeFailure(failure(findEdit(file, { oldString: four, newString: 'x' })), 'a.js');
    assert.match(r, /; 4 of its lines differ:\n {2}line 2:\n/);
    assert.doesNotMatch(r, /^L\d+: /m);
  });

  it('the region shown for many stale lines is bounded in lines and bytes, and the read call continues past what it shows', () => {
    const long = 'x'.repeat(5000);
    const file = code(...Array.from({ length: 300 }, (_, i) => `row(${i}, "${long}");`));
    const old = Array.from({ length: 300 }, (_, i) => `row(${i}, "${i % 3 ? long : 'y'}");`).join('\n');
    const m = describeFailure(failure(findEdit(file, { oldString: old, newString: 'x' })), 'big.js');
    assert.ok(Buffer.byteLength(m) < MAX_EDIT_REGION_BYTES + 1024, `${Buffer.byteLength(m)} bytes`);
    const shown = m.split('\n').filter((l) => /^L\d+: /.test(l));
    assert.ok(shown.length >= 2 && shown.length <= MAX_EDIT_REGION_LINES, String(shown.length));
    assert.match(shown[0], /^L1: row\(0, "x{152}\.\.\. \(5011 characters\)$/);
    const next = shown.length + 1;
    assert.match(m, new RegExp(`\\(lines ${next}-300 not shown\\)\nRead the lines not shown and retry with the exact text\\.\nTry: fs_read \\{"path":"big\\.js","offset":${next},"limit":${301 - next}\\}$`));
  });

  it('not found, lines that differ in whitespace only (inside a line too, so indentation off by different amounts is not forgiven): every one, the quotes showing the tabs and spaces', () => {
    const f = failure(findEdit(code('if (a) {', '\tgo(1, 2);', '  stop();', '}'), { oldString: 'if (a) {\n  go(1,  2);\n    stop();\n}', newString: 'x' }));
    const m = describeFailure(f, 'a.ts');
    assert.match(m, /The same text is at lines 1-4, but indented differently on 2 of its lines:\n {2}line 2:\n {4}old_string: " {2}go\(1, {2}2\);"\n {4}file: {7}"\\tgo\(1, 2\);"\n {2}line 3:\n {4}old_string: " {4}stop\(\);"\n {4}file: {7}" {2}stop\(\);"\nRetry with the exact text of those lines\./);
  });

  it('not found, an added line that the lines around it do not place: the region as the file has it, and which line', () => {
    const f = failure(findEdit(code('for x in xs:', '    go(x)', 'done()'), { oldString: 'for x in xs:\ngo(x)\ndone()', newString: 'for x in xs:\ngo(x)\nlog(x)\ndone()' }));
    assert.equal(
      describeFailure(f, 'a.py'),
      [
        'old_string was not found in a.py.',
        'The same text is at lines 1-3, indented differently on 1 of its lines, and new_string\'s line 3, "log(x)", added after line 2 (4 columns) and before line 3 (0 columns), has no certain indentation: new_string does not say which of those lines it goes with. The file has there:',
        'L1: for x in xs:',
        'L2:     go(x)',
        'L3: done()',
        "Retry with old_string as the file has it, and new_string in the file's indentation.",
      ].join('\n'),
    );
  });

  it('not found, nothing alike: says no line of it is in the file and gives the read call', () => {
    const m = describeFailure(failure(findEdit(FILE, { oldString: 'completely unrelated words here', newString: 'x' })), 'src/app.ts');
    assert.equal(m, 'old_string was not found in src/app.ts.\nNo line of it is in the file. Read the file (or find the text with fs_grep) and retry with the exact text.\nTry: fs_read {"path":"src/app.ts"}');
  });

  it('not found, some words shared: the region with the most of them', () => {
    const f = failure(findEdit(FILE, { oldString: 'function totals(items, extra) {\n  let sum = 1;', newString: 'x' }));
    assert.equal(f.reason, 'not-found');
    assert.equal((f as { closest?: { startLine: number } }).closest?.startLine, 40);
  });

  it('cuts long lines around where they differ', () => {
    const long = 'x'.repeat(500) + 'needle' + 'y'.repeat(500);
    const f = failure(findEdit(code('a();', long, 'b();'), { oldString: 'a();\n' + long.replace('needle', 'haystack') + '\nb();', newString: 'z' }));
    const m = describeFailure(f, 'a.ts');
    const quoted = m.split('\n').filter((l) => l.includes('old_string:') || l.includes('file:'));
    assert.equal(quoted.length, 2);
    for (const q of quoted) {
      assert.ok(q.length < 220, q);
      assert.match(q, /^\s+(old_string|file):\s+\.\.\."x+/);
    }
    assert.match(quoted[0], /haystack/);
    assert.match(quoted[1], /needle/);
  });

  it('several places: a different message, listing the lines, suggesting more context or replace_all', () => {
    const f = failure(findEdit(code('a();', 'b();', 'a();', 'c();', 'a();'), { oldString: 'a();', newString: 'z();' }));
    const m = describeFailure(f, 'x.ts');
    assert.equal(
      m,
      [
        'old_string is found at 3 places in x.ts (lines 1, 3, 5), so it is not clear which one to change; nothing was changed. Each place\'s first lines, with the line above:',
        'L1: a();',
        'L2: b();',
        '--',
        'L2: b();',
        'L3: a();',
        'L4: c();',
        '--',
        'L4: c();',
        'L5: a();',
        'Add lines around the change to old_string (and new_string) so it matches one place, or set replace_all to true to change every place.',
      ].join('\n'),
    );
    assert.doesNotMatch(m, /not found/);
  });

  it('several places at a tolerant level: says what was ignored', () => {
    const m = describeFailure(failure(findEdit(code('  a();', 'x', '    a();'), { oldString: 'a(); ', newString: 'z();' })), 'x.ts');
    assert.match(m, /^old_string is found at 2 places in x\.ts when indentation is ignored \(lines 1, 3\)/);
  });

  it('several places on one line, and many places: counted, not all listed', () => {
    const one = describeFailure(failure(findEdit('a a a\n', { oldString: 'a', newString: 'b' })), 'x');
    assert.match(one, /found at 3 places in x \(line 1\)/);
    const many = describeFailure(failure(findEdit(code(...Array.from({ length: 50 }, () => 'same();')), { oldString: 'same();', newString: 'b' })), 'x');
    assert.match(many, /found at 50 places in x \(lines 1, 2, .*, 20, and 30 more\)/);
  });

  it('overlapping places with replace_all: its own message', () => {
    const m = describeFailure(failure(findEdit('aaaa', { oldString: 'aa', newString: 'b', replaceAll: true })), 'x');
    assert.match(m, /overlap/);
    assert.match(m, /replace_all cannot/);
  });

  it('too broad: says the match was loose and nothing changed', () => {
    const m = describeFailure(failure(findEdit(code('a();', '', '', '', '', 'b();'), { oldString: 'a();\nb();', newString: 'a();\nc();' })), 'x.ts');
    assert.match(m, /matched only loosely in x\.ts .* at lines 1-6: that block is much longer or shorter than old_string, so nothing was changed/);
    assert.match(m, /\nTry: fs_read \{"path":"x\.ts","offset":1,"limit":6\}$/);
  });

  it('a half-prefixed copy: the hint, and the closest region found by its text', () => {
    const m = describeFailure(failure(findEdit(FILE, { oldString: 'L41:   let sum = 0;\nL43:   return sum * rate;', newString: 'x' })), 'src/app.ts');
    assert.match(m, /not every line has one or the numbers skip/);
    assert.match(m, /The closest text is at lines 41-42; line 42 differs/);
  });

  it('invalid input: the reason as is', () => {
    assert.equal(describeFailure(failure(findEdit('a', { oldString: '', newString: 'b' })), 'x'), 'old_string is empty.');
  });

  it('in an edits list: names the edit and says none was applied', () => {
    const m = describeFailure(failure(findEdit(FILE, { oldString: 'nope', newString: 'x' })), 'src/app.ts', { index: 1, count: 3 });
    assert.match(m, /^Edit 2 of 3: old_string was not found in src\/app\.ts\./);
    assert.match(m, /None of the 3 edits was applied/);
    assert.match(m, /\nNone of the 3 edits was applied; fix this one and send them all again\.\nTry: fs_read \{"path":"src\/app\.ts"\}$/, 'the suggested call comes last, on its own line');
  });

  it('plain integers and ASCII ranges only', () => {
    const big = code(...Array.from({ length: 1500 }, (_, i) => `line${i}();`), 'target(1);', 'after();');
    const m = describeFailure(failure(findEdit(big, { oldString: 'target(2);\nafter();', newString: 'x' })), 'x');
    assert.match(m, /lines 1501-1502/);
    assert.doesNotMatch(m, /\d,\d{3}|[–—]/);
  });

  it('a tolerant match: one line naming the places and what was forgiven, in words (no level names); nothing for an exact one', () => {
    const r = findEdit(FILE, { oldString: 'let sum = 0;  \nfor (const it of items) sum += it.price;', newString: 'let sum = 1;\nfor (const it of items) sum += it.price;' });
    assert.ok(r.ok);
    assert.deepEqual(
      describeMatch(r),
      ["old_string matched loosely at lines 41-42: ignored trailing whitespace; old_string's indentation differs from the file's (base indentation 0 -> 2 columns, the file indents with spaces); new_string was re-indented the same way. Check the diff."],
    );
    assert.deepEqual(describeMatch(r, 2), ["Edit 2 matched loosely at lines 41-42: ignored trailing whitespace; old_string's indentation differs from the file's (base indentation 0 -> 2 columns, the file indents with spaces); new_string was re-indented the same way. Check the diff."]);
    const exact = findEdit(FILE, { oldString: 'let sum = 0;', newString: 'let sum = 1;' });
    assert.ok(exact.ok);
    assert.deepEqual(describeMatch(exact), []);
    assert.deepEqual(describeMatch(exact, 1), []);
  });
});
