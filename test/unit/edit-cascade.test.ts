import * as assert from 'node:assert/strict';
import { CancelledError } from '../../src/core/errors';
import { applyReplacements, findEdit, planEdits, type EditRequest, type MatchLevel } from '../../src/core/edit';
import { ambiguous, code, matches, notFound, run } from './editHelpers';


const PY = code('def total(items, rate):', '    s = 0', '    for it in items:', '        s += it.price', '    return s * rate', '', 'def other():', '    return 42');

describe('fs_edit cascade: exact', () => {
  it('replaces a unique substring, also inside a line', () => {
    matches(PY, 's * rate', 's * (1 + rate)', 'exact', PY.replace('s * rate', 's * (1 + rate)'));
    const r = matches(PY, '    for it in items:\n        s += it.price\n', '    for it in items:\n        s += it.price * it.qty\n', 'exact', PY.replace('it.price', 'it.price * it.qty'));
    assert.deepEqual(r.adjustments, []);
    assert.deepEqual(r.places, [{ startLine: 3, endLine: 4 }]);
  });

  it('reports two places as ambiguous, with their lines, and changes nothing', () => {
    const a = ambiguous(PY, 'return', [5, 8]);
    assert.equal(a.level, 'exact');
    assert.equal(a.count, 2);
  });

  it('never ignores case: a text that differs only in case is not found', () => {
    notFound(PY, 'def Total(items, rate):', 'def total2(items, rate):');
    notFound(PY, '    RETURN s * rate', '    return s');
  });

  it('refuses an empty old_string and an edit that changes nothing', () => {
    for (const [o, n] of [
      ['', 'x'],
      ['s = 0', 's = 0'],
      ['    s = 0\n', '    s = 0\r\n'],
    ]) {
      const r = findEdit(PY, { oldString: o, newString: n });
      assert.equal(r.ok, false);
      assert.equal((r as { reason: string }).reason, 'invalid');
    }
  });

  it('says so when new_string gives the text the file already has', () => {
    const r = findEdit(code('a = 1  '), { oldString: 'a = 1  ', newString: 'a = 1' });
    assert.ok(r.ok);
    const r2 = findEdit(code('a = 1'), { oldString: 'a = 1   ', newString: 'a = 1' });
    assert.equal(r2.ok, false);
    assert.equal((r2 as { reason: string }).reason, 'invalid');
  });

  it('can delete text', () => {
    matches(PY, '    s = 0\n', '', 'exact', PY.replace('    s = 0\n', ''));
  });
});

describe('fs_edit cascade: line endings', () => {
  const crlf = 'one\r\ntwo\r\nthree\r\n';

  it('matches LF old_string in a CRLF file and writes CRLF', () => {
    const r = matches(crlf, 'one\ntwo\n', 'uno\ndos\nextra\n', 'exact', 'uno\r\ndos\r\nextra\r\nthree\r\n');
    assert.deepEqual(r.adjustments, []);
  });

  it('matches CRLF old_string in a LF file and writes LF', () => {
    matches('one\ntwo\nthree\n', 'two\r\nthree', 'deux\r\ntrois\r\nquatre', 'exact', 'one\ndeux\ntrois\nquatre\n');
  });

  it('in a mixed file, uses the ending of the region replaced, and keeps every other byte', () => {
    const mixed = 'a\r\nb\r\nc\nd\ne\r\nf\n';
    // CRLF region.
    matches(mixed, 'a\nb\n', 'A\nA2\nB\n', 'exact', 'A\r\nA2\r\nB\r\nc\nd\ne\r\nf\n');
    // LF region.
    matches(mixed, 'c\nd\n', 'C\nC2\nD\n', 'exact', 'a\r\nb\r\nC\nC2\nD\ne\r\nf\n');
    // A mixed region: its dominant ending (two CRLF, one LF).
    matches(mixed, 'a\nb\nc\n', '1\n2\n3\n4\n', 'exact', '1\r\n2\r\n3\r\n4\r\nd\ne\r\nf\n');
    // Within one line: the file's dominant ending (3 LF vs 3 CRLF: a tie is LF).
    matches(mixed, 'd', 'd1\nd2', 'exact', 'a\r\nb\r\nc\nd1\nd2\ne\r\nf\n');
    matches('x\r\ny\r\nz\n', 'y', 'y1\ny2', 'exact', 'x\r\ny1\r\ny2\r\nz\n');
  });

  it('never splits a CRLF pair', () => {
    const r = findEdit(crlf, { oldString: 'one', newString: 'ONE' });
    assert.ok(r.ok);
    assert.deepEqual([r.replacements[0].start, r.replacements[0].end], [0, 3]);
    matches(crlf, 'two\n', 'TWO\n', 'exact', 'one\r\nTWO\r\nthree\r\n');
  });

  it('writes a tolerant match in the file\'s CRLF too', () => {
    matches('if (a) {\r\n\tgo();\r\n}\r\n', '    go();  \n}', '    go();\n    stop();\n}', 'indentation-flexible', 'if (a) {\r\n\tgo();\r\n\tstop();\r\n}\r\n');
  });
});

describe('fs_edit cascade: read-prefix (L{n}: copied from fs_read)', () => {
  it('removes the prefixes from old_string and new_string', () => {
    const r = matches(PY, 'L4:         s += it.price\nL5:     return s * rate', 'L4:         s += it.price\nL5:     return round(s * rate)', 'read-prefix', PY.replace('return s * rate', 'return round(s * rate)'));
    assert.match(r.adjustments.join(), /L\{n\}/);
  });

  it("accepts fs_grep's `  L{n}: ` and `  L{n}- ` lines, and new lines the model added without a prefix", () => {
    matches(PY, '  L2:     s = 0\n  L3-     for it in items:', '  L2:     s = 1\n    # start at one\n  L3-     for it in items:', 'read-prefix', PY.replace('    s = 0\n', '    s = 1\n    # start at one\n'));
  });

  it('is not guessed when the numbers skip, and says why', () => {
    const nf = notFound(PY, 'L2:     s = 0\nL4:         s += it.price', 'x');
    assert.match(nf.hint ?? '', /L\{n\}: /);
  });

  it('does not match when a prefixed line says something else', () => {
    notFound(PY, 'L2:     s = 1\nL3:     for it in items:', 'x');
  });

  it('combines with other tolerances (trailing whitespace), naming both', () => {
    const r = matches(PY, 'L2:     s = 0   \nL3:     for it in items:', 'L2:     s = 10\nL3:     for it in items:', 'line-trimmed', PY.replace('s = 0', 's = 10'));
    assert.equal(r.adjustments.length, 2);
  });

  it('warns when the prefixes name other lines than where the text is', () => {
    const r = matches(PY, 'L40:     s = 0\nL41:     for it in items:', 'L40:     s = 2\nL41:     for it in items:', 'read-prefix', PY.replace('s = 0', 's = 2'));
    assert.match(r.warnings.join(), /line 40/);
  });
});

describe("fs_edit cascade: read-prefix (other agents' `12 | ` and `12→`)", () => {
  it("removes Roo Code's `12 | ` prefixes, right-aligned numbers included, and says which", () => {
    const r = matches(PY, ' 4 |         s += it.price\n 5 |     return s * rate', ' 4 |         s += it.price\n 5 |     return round(s * rate)', 'read-prefix', PY.replace('return s * rate', 'return round(s * rate)'));
    assert.match(r.adjustments.join(), /`\{n\} \| `/);
  });

  it("removes Claude Code's `12→` prefixes, and new lines added without one are kept", () => {
    const r = matches(PY, '     2\u2192    s = 0\n     3\u2192    for it in items:', '     2\u2192    s = 1\n    # one\n     3\u2192    for it in items:', 'read-prefix', PY.replace('    s = 0\n', '    s = 1\n    # one\n'));
    assert.match(r.adjustments.join(), /\{n\}\u2192/);
  });

  it('near miss: one line without its prefix, or numbers that skip, is not stripped and not found', () => {
    notFound(PY, ' 4 |         s += it.price\n    return s * rate', 'x');
    notFound(PY, '2\u2192    s = 0\n4\u2192        s += it.price', 'x');
  });

  it('near miss: two kinds of prefix in one old_string are not mixed', () => {
    notFound(PY, 'L2:     s = 0\n3\u2192    for it in items:', 'x');
  });
});

describe('fs_edit cascade: trimmed-boundary (blank lines around old_string)', () => {
  it('ignores blank lines around old_string and drops as many around new_string', () => {
    const r = matches(PY, '\n\n    s = 0\n\n', '\n\n    s = 1\n\n', 'trimmed-boundary', PY.replace('s = 0', 's = 1'));
    assert.match(r.adjustments.join(), /3 blank lines/);
  });

  it('keeps a blank line new_string adds beyond the padding', () => {
    matches(PY, '\n\n    s = 0\n', '\n\n    s = 0\n\n    t = 0\n', 'trimmed-boundary', PY.replace('    s = 0\n', '    s = 0\n\n    t = 0\n'));
  });

  it('matches whole lines when only old_string\'s final line break is missing from the file, and keeps it missing', () => {
    const r = matches('a\nb', 'a\nb\n', 'a\nc\n', 'trimmed-boundary', 'a\nc');
    assert.match(r.adjustments.join(), /line break at the end/);
  });

  it("the file keeps its ending: a last line without a line break stays without one, at every level that matches it", () => {
    matches('a\n\u201Cb\u201D', '"b"\n', '"c"\n', 'unicode-normalized', 'a\n\u201Cc\u201D');
    matches('a\n  b', 'b  \n', 'c\nd\n', 'indentation-flexible', 'a\n  c\n  d');
    matches('f(){\n  x\n  y\n}', 'f(){\n  // ...\n}\n', 'f(){\n  // ...\n}\nz\n', 'context-aware', 'f(){\n  x\n  y\n}\nz');
    matches('a\r\nb', 'b\n', 'c\n', 'trimmed-boundary', 'a\r\nc');
  });

  it('near miss: old_string ending in a line break is not found in the middle of the last line', () => {
    notFound('a\nb c', 'b\n', 'x\n');
  });

  it('near miss: the trimmed text inside a longer line is not a match', () => {
    // "\nx = 1\n\n" means a line "x = 1"; "max = 1" is not it.
    notFound(code('a = 0', 'max = 1', 'b = 2'), '\nx = 1\n\n', '\nx = 2\n\n');
  });
});

describe('fs_edit cascade: line-trimmed (trailing whitespace)', () => {
  it('ignores trailing whitespace, drops it from changed lines, keeps unchanged lines as the file has them', () => {
    const md = code('Title  ', 'line one', 'line two');
    // The file's "Title  " (a Markdown line break) is kept: that line is unchanged.
    matches(md, 'Title\nline one   \n', 'Title\nline 1   \n', 'line-trimmed', code('Title  ', 'line 1', 'line two'));
  });

  it('near miss: trailing whitespace and a changed word is not a match', () => {
    notFound(PY, '    s = 0  \n    for it in item:  ', 'x');
  });

  it('ambiguous when the same line is at two places', () => {
    const a = ambiguous(code('a', '  done()', 'b', '  done()'), '  done()  ', [2, 4]);
    assert.equal(a.level, 'line-trimmed');
  });
});

describe('fs_edit cascade: indentation-flexible', () => {
  const TS = code('class A {', '  run() {', '    if (ok) {', '      go(1);', '    }', '  }', '}');

  it('matches a wrong base indentation and re-indents new_string by the same offset', () => {
    const r = matches(TS, 'if (ok) {\n  go(1);\n}', 'if (ok) {\n  go(2);\n  log();\n}', 'indentation-flexible', TS.replace('      go(1);\n', '      go(2);\n      log();\n'));
    assert.match(r.adjustments.join(), /0 -> 4 columns/);
  });

  it('matches 4-space indentation against a 2-space file and keeps 2-space steps', () => {
    matches(TS, '    if (ok) {\n        go(1);\n    }', '    if (ok) {\n        if (more) {\n            go(1);\n        }\n    }', 'indentation-flexible', TS.replace('      go(1);\n', '      if (more) {\n        go(1);\n      }\n'));
  });

  it('matches spaces against tabs, and new lines get tabs', () => {
    const GO = code('func f() {', '\tif x {', '\t\treturn 1', '\t}', '}');
    matches(GO, '    if x {\n        return 1\n    }', '    if x {\n        y := 2\n        return y\n    }', 'indentation-flexible', code('func f() {', '\tif x {', '\t\ty := 2', '\t\treturn y', '\t}', '}'));
  });

  it('matches tabs against spaces, and new lines get spaces', () => {
    matches(TS, '\tif (ok) {\n\t\tgo(1);\n\t}', '\tif (ok) {\n\t\tgo(3);\n\t}', 'indentation-flexible', TS.replace('go(1)', 'go(3)'));
  });

  it("takes new_string as written when it already has the file's indentation that old_string lost (no double shift)", () => {
    const py = code('class A:', '    def f(self):', '        x = 1', '        return x');
    const want = code('class A:', '    def f(self):', '        x = 2', '        y = 3', '        return x');
    const r = matches(py, 'def f(self):\n    x = 1\n    return x', '    def f(self):\n        x = 2\n        y = 3\n        return x', 'indentation-flexible', want);
    assert.match(r.adjustments.join(), /new_string already had the file's indentation and was taken as written/);
    matches(py, 'x = 1\nreturn x', '        x = 2\n        y = 3\n        return x', 'indentation-flexible', want);
  });

  it('near miss: new_string written relative to old_string is still shifted, also when a wrapped line lands on the file\'s indentation', () => {
    const py = code('class A:', '    def f(self):', '        x = 1', '        return x');
    matches(py, 'x = 1\nreturn x', 'x = 2\nreturn x', 'indentation-flexible', code('class A:', '    def f(self):', '        x = 2', '        return x'));
    // Wrapping in a block: the body lines are four columns deeper than old_string's, which is where the file has them; the `if` is not.
    const flat = code('def f():', '    x = 1', '    return x');
    matches(flat, 'x = 1\nreturn x', 'if ok:\n    x = 1\n    return x', 'indentation-flexible', code('def f():', '    if ok:', '        x = 1', '        return x'));
  });

  it('the same lines nested differently (the model thinks g(x) is inside the if): the place is certain, and the file keeps its nesting', () => {
    const py = code('for x in xs:', '    if x:', '        f(x)', '    g(x)');
    matches(py, '    if x:\n        f(x)\n        g(x)', '    if x:\n        f(x)\n        h(x)', 'indentation-flexible', py.replace('    g(x)', '    h(x)'));
  });

  it('near miss: indentation differs and an identifier differs', () => {
    notFound(TS, 'if (ok) {\n  go(2);\n}', 'y');
    notFound(TS, 'if (okay) {\n  go(1);\n}', 'z');
  });

  it('ambiguous when the block is at two places with different indentation', () => {
    const two = code('if (a) {', '  run();', '}', 'function f() {', '    if (a) {', '        run();', '    }', '}');
    const a = ambiguous(two, '  if (a) {\n    run();\n  }', [1, 5]);
    assert.equal(a.count, 2);
  });

  it('refuses to pick by formatting: one copy matches with trailing whitespace only, the other with indentation', () => {
    // Both copies say the same; which one the model meant cannot be told by whitespace.
    ambiguous(code('  go();', '  stop();', '', 'x', '    go();', '    stop();'), '  go(); \n  stop();', [1, 5]);
  });
});

describe('fs_edit cascade: whitespace-normalized', () => {
  it('forgives runs of spaces inside lines, and a changed line keeps the file\'s spacing where it kept the text', () => {
    const cfg = code('const a    = 1;', 'const bcd  = 2;');
    matches(cfg, 'const a = 1;\nconst bcd = 2;', 'const a = 1;\nconst bcd = 3;', 'whitespace-normalized', code('const a    = 1;', 'const bcd  = 3;'));
    // Spacing inside a string literal is meaning: the literal keeps its two spaces.
    const py = code('def f():', '    return "a  b"');
    matches(py, 'def f():\n    return "a b"', 'def f():\n    return "a b" + suffix', 'whitespace-normalized', code('def f():', '    return "a  b" + suffix'));
  });

  it('near miss: removing a space (or adding one where there was none) is not a match', () => {
    notFound(code('foo(a, b);', 'int x = 1;'), 'foo(a,b);\nint x = 1;', 'y');
    notFound(code('foo(a, b);', 'int x = 1;'), 'foo(a, b);\nintx = 1;', 'y');
  });

  it('near miss: spacing forgiven but a number differs', () => {
    notFound(code('const a    = 1;', 'const b    = 2;'), 'const a = 1;\nconst b = 3;', 'y');
  });
});

describe('fs_edit cascade: unicode-normalized (typographic quotes and dashes)', () => {
  it('matches straight quotes against curly ones; unchanged text keeps the curly quotes', () => {
    const md = code('He said “hello” — twice.', 'It’s fine.');
    matches(md, 'He said "hello" - twice.\nIt\'s fine.', 'He said "hello" - three times.\nIt\'s fine.', 'unicode-normalized', code('He said “hello” — three times.', 'It’s fine.'));
  });

  it('matches a phrase inside a long line of prose', () => {
    const md = code('Intro.', 'A long paragraph in which the author wrote “quoted words” and then – after a pause – went on.', 'End.');
    matches(md, 'wrote "quoted words" and then - after', 'wrote "other words" and then - after', 'unicode-normalized', md.replace('“quoted words”', '“other words”'));
  });

  it('near miss: quotes forgiven but a word differs', () => {
    notFound(code('He said “hello” — twice.'), 'He said "hallo" - twice.', 'x');
    notFound(code('A line with “quoted words” in it.'), '"quoted word"', 'x');
  });

  it('near miss: quotes forgiven but the case differs', () => {
    notFound(code('He said “Hello”.'), 'He said "hello".', 'x');
  });
});

describe('fs_edit cascade: block-anchor (blank lines inside the block differ)', () => {
  it('matches when the file has an extra blank line inside the block, and keeps it', () => {
    const f = code('a();', '', 'b();', 'c();', 'd();');
    const r = matches(f, 'a();\nb();\nc();', 'a();\nb();\nC();', 'block-anchor', code('a();', '', 'b();', 'C();', 'd();'));
    assert.match(r.adjustments.join(), /1 more blank line/);
  });

  it('matches when old_string has a blank line the file does not, and adds none', () => {
    const f = code('a();', 'b();', 'c();');
    matches(f, 'a();\n\nb();\nc();', 'a();\n\nb();\nc2();', 'block-anchor', code('a();', 'b();', 'c2();'));
  });

  it('near miss: first and last lines match but the middle says something else', () => {
    const f = code('begin();', 'removeAll();', 'end();');
    notFound(f, 'begin();\nsaveAll();\nend();', 'begin();\nsaveAll(true);\nend();');
    // Even with blank lines around the differing middle.
    notFound(code('begin();', '', 'removeAll();', '', 'end();'), 'begin();\nsaveAll();\nend();', 'x');
  });

  it('near miss: first and last lines match but the file has a line more in the middle', () => {
    notFound(code('begin();', 'check();', 'work();', 'end();'), 'begin();\nwork();\nend();', 'begin();\nwork(2);\nend();');
  });

  it('refuses a block much longer than old_string (the disproportionate-match guard)', () => {
    const f = code('a();', '', '', '', '', 'b();');
    const { r } = run(f, 'a();\nb();', 'a();\nc();');
    assert.equal(r.ok, false);
    assert.equal((r as { reason: string }).reason, 'too-broad');
    assert.deepEqual((r as { lines: number[] }).lines, [1]);
  });
});

describe('fs_edit cascade: escape-normalized (old_string escaped twice)', () => {
  it('unescapes \\n and \\t in old_string and new_string', () => {
    const r = matches(PY, '    for it in items:\\n        s += it.price', '    for it in items:\\n        s += it.price * 2', 'escape-normalized', PY.replace('s += it.price', 's += it.price * 2'));
    assert.match(r.adjustments.join(), /unescaped/);
    matches(code('a', '\tb'), 'a\\n\\tb', 'a\\n\\tc', 'escape-normalized', code('a', '\tc'));
  });

  it('unescapes quotes only when only the quotes were escaped', () => {
    const js = code('print("a\\n")', 'say("hi")');
    matches(js, 'print(\\"a\\n\\")\nsay(\\"hi\\")', 'print(\\"a\\n\\")\nsay(\\"bye\\")', 'escape-normalized', code('print("a\\n")', 'say("bye")'));
  });

  it('prefers the text as given when the file really has the escapes', () => {
    const js = code('const s = "line\\nnext";');
    matches(js, '"line\\nnext"', '"line\\nlast"', 'exact', code('const s = "line\\nlast";'));
  });

  it('unescapes a template literal escaped for a shell or JSON: \\` and \\$', () => {
    const js = code('const msg = `Hello ${name}`;', 'log(msg);');
    matches(js, 'const msg = \\`Hello \\${name}\\`;', 'const msg = \\`Hi \\${name}\\`;', 'escape-normalized', code('const msg = `Hi ${name}`;', 'log(msg);'));
    // new_string written plainly is taken as written.
    matches(js, 'const msg = \\`Hello \\${name}\\`;', 'const msg = `Hi ${name}!`;', 'escape-normalized', code('const msg = `Hi ${name}!`;', 'log(msg);'));
  });

  it('near miss: unescaped, the template literal says another name', () => {
    notFound(code('const msg = `Hello ${name}`;'), 'const msg = \\`Hello \\${user}\\`;', 'x');
  });

  it('near miss: unescaped, a number differs', () => {
    notFound(PY, '    s = 1\\n    for it in items:', 'x');
    notFound(code('say("hi")'), 'say(\\"ho\\")', 'x');
  });
});

describe('fs_edit cascade: context-aware (old_string elides lines with "...")', () => {
  const JS = code('function a() {', '  one();', '  two();', '  three();', '}', '', 'function b() {', '  four();', '}');

  it('matches the parts around the elision and keeps the elided lines', () => {
    const r = matches(JS, 'function a() {\n  // ... existing code ...\n  three();\n}', 'function a() {\n  // ... existing code ...\n  three();\n  extra();\n}', 'context-aware', JS.replace('  three();\n', '  three();\n  extra();\n'));
    assert.match(r.adjustments.join(), /kept the 2 lines/);
    matches(JS, 'function a() {\n  ...\n  three();', 'function a() {\n  zero();\n  ...\n  three();', 'context-aware', JS.replace('  one();\n', '  zero();\n  one();\n'));
  });

  it('near miss: new_string drops the elision line, so unseen lines would go: refused', () => {
    const { r } = run(JS, 'function a() {\n  // ...\n  three();\n}', 'function a() {\n  three();\n}');
    assert.equal(r.ok, false);
    assert.equal((r as { reason: string }).reason, 'invalid');
    assert.match((r as { message: string }).message, /never shown/);
  });

  it('near miss: a part differs (an identifier) is not a match', () => {
    notFound(JS, 'function c() {\n  // ...\n  three();\n}', 'x');
  });

  it('a closing line found at several places after the head is the one that ends the block the elision is in', () => {
    matches(JS, 'function a() {\n  // ...\n}', 'function a() {\n  // ...\n  more();\n}', 'context-aware', JS.replace('  three();\n}', '  three();\n  more();\n}'));
  });

  it('near miss: an elision as shallow as the head and the tail may end at either closing line: ambiguous', () => {
    const { r } = run(JS, 'function a() {\n// ...\n}', 'function a() {\n// ...\n  more();\n}');
    assert.equal(r.ok, false);
    assert.equal((r as { reason: string }).reason, 'ambiguous');
    assert.equal((r as { level: string }).level, 'context-aware');
    assert.deepEqual((r as { lines: number[] }).lines, [5, 9]);
  });

  it('near miss: the part after the elision is in the next function, so the elided lines would leave the block', () => {
    const f = code('function a() {', '  setup();', '}', 'function b() {', '  teardown();', '}');
    const nf = notFound(f, 'function a() {\n  // ...\n  teardown();\n}', 'function a() {\n  // ...\n  teardown();\n  more();\n}');
    assert.equal(nf.closest?.line, 3);
    // The same in Python, with a bare `...`.
    notFound(code('def a():', '    x = 1', '    return x', '', 'def b():', '    return 3'), 'def a():\n    ...\n    return 3', 'def a():\n    ...\n    return 4');
  });

  it('is not used with replace_all, and says so', () => {
    const { r } = run(JS, 'function a() {\n  // ...\n  three();', 'x', true);
    assert.equal(r.ok, false);
    assert.match((r as { message: string }).message, /replace_all/);
  });

  it('a spread such as `...props,` is code, not an elision', () => {
    notFound(code('f({', '  a,', '  b,', '})'), 'f({\n  ...props,\n  b,', 'x');
  });
});

describe('fs_edit cascade: the order of the steps', () => {
  // The file holds the block with an extra blank line (block-anchor) and, inside longer lines, the phrase with curly quotes (unicode-normalized within a line).
  const f = code('a \u201Cx\u201D', 'b', '', 'c', '(a \u201Cx\u201D', 'b', 'c)');

  it('the line step, block-anchor included, answers before typography inside a line', () => {
    const r = matches(f, 'a "x"\nb\nc', 'a "y"\nb\nc', 'block-anchor', f.replace('a \u201Cx\u201D', 'a \u201Cy\u201D'));
    assert.deepEqual(r.places, [{ startLine: 1, endLine: 4 }]);
  });

  it('near miss: without the block, the phrase inside the lines is found by the typography step', () => {
    const g = code('x', '(a \u201Cx\u201D', 'b', 'c)');
    const r = matches(g, 'a "x"\nb\nc', 'a "y"\nb\nc', 'unicode-normalized', g.replace('\u201Cx\u201D', '\u201Cy\u201D'));
    assert.deepEqual(r.places, [{ startLine: 2, endLine: 4 }]);
  });
});

describe('fs_edit cascade: replace_all and multi-occurrence', () => {
  it('replaces every exact place and says when a place is inside a longer word', () => {
    const r = matches('foo(); foo(); foobar();\n', 'foo', 'baz', 'exact', 'baz(); baz(); bazbar();\n', true);
    assert.equal(r.replacements.length, 3);
    assert.match(r.warnings.join(), /1 of the 3 places is inside a longer word/);
  });

  it('refuses overlapping places rather than replacing half of them', () => {
    const { r } = run('aaa\n', 'aa', 'b', true);
    assert.equal(r.ok, false);
    assert.equal((r as { overlapping?: boolean }).overlapping, true);
  });

  it('uses the first level that finds any place, and says which places it left', () => {
    const f = code('  log(1);', 'x', '  log(1);  ', 'y', '    log(1);');
    // Exact finds none of the whole lines with trailing spaces; line-trimmed finds lines 1 and 3, indentation-flexible would add line 5.
    const r = matches(f, '  log(1); \n', '  log(2);\n', 'line-trimmed', code('  log(2);', 'x', '  log(2);', 'y', '    log(1);'), true);
    assert.match(r.warnings.join(), /1 other place \(line 5\)/);
    // With an exact place, only exact places change.
    matches(f, '  log(1);', '  log(3);', 'exact', code('  log(3);', 'x', '  log(3);  ', 'y', '    log(3);'), true);
  });

  it('never returns the multi-occurrence level', () => {
    const r = findEdit('a a a', { oldString: 'a', newString: 'b', replaceAll: true });
    assert.ok(r.ok);
    assert.equal(r.level, 'exact');
  });
});

describe('fs_edit planEdits', () => {
  it('applies edits in order, each on the result of the previous', () => {
    const reqs: EditRequest[] = [
      { oldString: 's = 0', newString: 'acc = 0' },
      { oldString: 's += it.price', newString: 'acc += it.price' },
      { oldString: 'return s * rate', newString: 'return acc * rate' },
    ];
    const p = planEdits(PY, reqs);
    assert.ok(p.ok);
    assert.equal(p.text, PY.replace('s = 0', 'acc = 0').replace('s += it.price', 'acc += it.price').replace('return s *', 'return acc *'));
    assert.equal(p.results.length, 3);
  });

  it('is all or nothing: a failing edit names its index and no text is produced', () => {
    const p = planEdits(PY, [
      { oldString: 's = 0', newString: 'acc = 0' },
      { oldString: 's = 0', newString: 'again' }, // gone after the first edit
    ]);
    assert.equal(p.ok, false);
    assert.equal((p as { index: number }).index, 1);
    assert.equal((p as { failure: { reason: string } }).failure.reason, 'not-found');
    assert.ok(!('text' in p));
  });
});

describe('fs_edit cascade: cancellation', () => {
  it('throws CancelledError when the signal is cancelled', () => {
    assert.throws(() => findEdit(PY, { oldString: 'no such text', newString: 'x' }, { isCancellationRequested: true }), CancelledError);
  });
});

describe('fs_edit cascade: substance is never forgiven', () => {
  // One block, each tolerance the cascade has, and each change of substance a fuzzy match must not absorb.
  const BLOCK = ['function price(item) {', '  const label = "Total";', '  return item.cost * 12;', '}'];
  const before = ['// prices', 'import { x } from "y";', ''];
  const after = ['', 'export { price };'];
  const startLine = before.length + 1;
  const curly = (ls: string[]) => ls.map((l) => l.replace(/"Total"/, '“Total”'));
  const tolerances: { name: string; level: MatchLevel; file?: (ls: string[]) => string[]; old: (ls: string[]) => string }[] = [
    { name: 'trailing whitespace', level: 'line-trimmed', old: (ls) => ls.map((l) => l + '   ').join('\n') },
    { name: 'a wrong base indentation', level: 'indentation-flexible', old: (ls) => ls.map((l) => '    ' + l).join('\n') },
    { name: 'tabs for spaces', level: 'indentation-flexible', old: (ls) => ls.map((l) => l.replace(/^ {2}/, '\t')).join('\n') },
    { name: 'runs of spaces', level: 'whitespace-normalized', old: (ls) => ls.map((l) => l.replace(/ = /, '   =   ')).join('\n') },
    { name: 'typographic quotes', level: 'unicode-normalized', file: curly, old: (ls) => ls.join('\n') },
    { name: 'escaped twice', level: 'escape-normalized', old: (ls) => ls.join('\\n').replace(/"/g, '\\"') },
    { name: 'L{n}: prefixes', level: 'read-prefix', old: (ls) => ls.map((l, k) => `L${startLine + k}: ${l}`).join('\n') },
    { name: 'blank lines around', level: 'trimmed-boundary', old: (ls) => `\n\n${ls.join('\n')}\n\n\n` },
    { name: 'a blank line inside', level: 'block-anchor', old: (ls) => [ls[0], '', ...ls.slice(1)].join('\n') },
    { name: 'CRLF for LF', level: 'exact', old: (ls) => ls.join('\r\n') },
  ];
  const changes: { name: string; change: (ls: string[]) => string[] }[] = [
    { name: 'a number', change: (ls) => ls.map((l) => l.replace('12', '13')) },
    { name: 'an identifier', change: (ls) => ls.map((l) => l.replace('item.cost', 'item.costs')) },
    { name: 'the case of a word', change: (ls) => ls.map((l) => l.replace('Total', 'total')) },
    { name: 'a middle line (first and last still match)', change: (ls) => ls.map((l) => l.replace('return', 'yield')) },
    { name: 'a missing middle line', change: (ls) => ls.filter((l) => !l.includes('label')) },
  ];
  for (const t of tolerances) {
    const fileBlock = (t.file ?? ((ls) => ls))(BLOCK);
    const file = [...before, ...fileBlock, ...after].join('\n') + '\n';
    it(`${t.name}: forgiven (${t.level})`, () => {
      const r = findEdit(file, { oldString: t.old(BLOCK), newString: t.old(BLOCK).replace('12', '24') });
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal(r.level, t.level);
      assert.equal(applyReplacements(file, r.replacements), file.replace('12', '24'));
    });
    for (const c of changes) {
      it(`${t.name} and ${c.name} changed: not a match`, () => {
        const old = t.old(c.change(BLOCK));
        const r = findEdit(file, { oldString: old, newString: old.replace('1', '9') + 'x' });
        assert.equal(r.ok, false, `${JSON.stringify(r)}\nold:\n${old}`);
        assert.equal((r as { reason: string }).reason, 'not-found');
      });
    }
  }
});

describe('fs_edit cascade: ambiguity at every level', () => {
  const cases: { level: MatchLevel; file: string; old: string; lines: number[] }[] = [
    { level: 'exact', file: code('a(1);', 'a(1);'), old: 'a(1);', lines: [1, 2] },
    { level: 'read-prefix', file: code('a(1);', 'b();', 'a(1);', 'b();'), old: 'L1: a(1);\nL2: b();', lines: [1, 3] },
    { level: 'trimmed-boundary', file: code('a(1);', 'x', 'a(1);'), old: '\n\na(1);\n\n', lines: [1, 3] },
    { level: 'line-trimmed', file: code('a(1);', 'x', 'a(1);'), old: 'a(1);  \n', lines: [1, 3] },
    { level: 'indentation-flexible', file: code('  a(1);', '  b();', 'x', '    a(1);', '    b();'), old: 'a(1);\nb();', lines: [1, 4] },
    { level: 'whitespace-normalized', file: code('a  = 1;', 'x', 'a = 1;'), old: 'a   = 1; ', lines: [1, 3] },
    { level: 'unicode-normalized', file: code('say(“hi”);', 'x', 'say(”hi”);'), old: 'say("hi"); ', lines: [1, 3] },
    { level: 'block-anchor', file: code('a();', '', 'b();', 'x', 'a();', '', 'b();'), old: 'a();\nb();', lines: [1, 5] },
    { level: 'escape-normalized', file: code('a(1);', 'b();', 'x', 'a(1);', 'b();'), old: 'a(1);\\nb();', lines: [1, 4] },
  ];
  for (const c of cases) {
    it(`${c.level}: several places are reported, not picked`, () => {
      const a = ambiguous(c.file, c.old, c.lines);
      assert.equal(a.level, c.level);
    });
  }
});

describe('fs_edit cascade: the disproportionate-match guard', () => {
  it('refuses a block much shorter than old_string', () => {
    const { r } = run(code('a();', 'b();'), 'a();\n\n\n\n\nb();', 'a();\nc();');
    assert.equal((r as { reason: string }).reason, 'too-broad');
  });

  it('refuses a block with far more characters than old_string', () => {
    const { r } = run(code('a' + ' '.repeat(700) + '= 1;', 'b = 2;'), 'a = 1;\nb = 2;', 'a = 1;\nb = 3;');
    assert.equal((r as { reason: string }).reason, 'too-broad');
  });
});

describe('fs_edit cascade: what a tolerant edit rewrites', () => {
  it('touches only the lines new_string changes: kept lines keep their bytes and mixed line endings', () => {
    const file = 'keep()\r\nif (a) {\r\n  one();\n  two();\r\n}\n';
    const r = findEdit(file, { oldString: 'if (a) {  \n  one();\n  two();\n}', newString: 'if (a) {\n  one();\n  TWO();\n}' });
    assert.ok(r.ok);
    assert.equal(r.level, 'line-trimmed');
    assert.equal(r.replacements.length, 1);
    // Only line 4's text changes; the block's dominant ending (CRLF) is not forced on kept lines.
    assert.deepEqual([r.replacements[0].line, r.replacements[0].endLine], [4, 4]);
    assert.equal(applyReplacements(file, r.replacements), 'keep()\r\nif (a) {\r\n  one();\n  TWO();\r\n}\n');
  });

  it('writes the lines it adds with the ending of the block (CRLF when the block is CRLF)', () => {
    const file = 'x\nif (a) {\r\n  one();\r\n}\r\n';
    const r = findEdit(file, { oldString: 'if (a) { \n  one();\n}', newString: 'if (a) {\n  one();\n  two();\n  three();\n}' });
    assert.ok(r.ok);
    assert.equal(applyReplacements(file, r.replacements), 'x\nif (a) {\r\n  one();\r\n  two();\r\n  three();\r\n}\r\n');
  });

  it('deletes whole lines with their line break', () => {
    matches(code('a();', '  b();', 'c();'), '  b(); ', '', 'line-trimmed', code('a();', 'c();'));
    matches(code('a();', '  b();', 'c();'), 'a(); \n  b();', 'a();', 'line-trimmed', code('a();', 'c();'));
  });

  it('warns when lines added after a one-line old_string found after the indentation are indented less', () => {
    const r = matches(code('def f():', '    return 1'), 'return 1', 'x = 1\nreturn x', 'exact', code('def f():', '    x = 1', 'return x'));
    assert.match(r.warnings.join(), /4-column indentation of line 2/);
    const quiet = matches(code('def f():', '    return 1'), 'return 1', 'x = 1\n    return x', 'exact', code('def f():', '    x = 1', '    return x'));
    assert.deepEqual(quiet.warnings, []);
  });

  it('warns when new_string has \\n followed by indentation and no line break', () => {
    const r = matches(code('if a:', '    go()'), '    go()', '    go()\\n    stop()', 'exact', code('if a:', '    go()\\n    stop()'));
    assert.match(r.warnings.join(), /line break/);
  });

  it('warns when new_string adds an elision line, which is written as is', () => {
    const r = matches(code('a();', 'b();', 'c();'), 'a();\nb();\nc();', 'a();\n// ... existing code ...\nc();', 'exact', code('a();', '// ... existing code ...', 'c();'));
    assert.match(r.warnings.join(), /existing code/);
  });
});
