import * as assert from 'node:assert/strict';
import { describeFailure, planEdits } from '../../src/core/edit';
import { code, fails, matches as ok, run } from './editHelpers';

// Edits a fuzzy matcher gets wrong when it trusts a near match: each class has the case that
// must fail (or be adapted) and the case next to it that must still pass.

describe('fs_edit adversarial: names and numbers are matched whole', () => {
  const cfg = code('const timeout = 1000;', 'const retries = 3;', 'let maxCount = 0;', 'const ratio = 1.5;');

  it('near miss: a value that lost a digit is not found inside the longer number, and the message names it', () => {
    const f = fails(cfg, 'const timeout = 100', 'const timeout = 200', 'not-found');
    const msg = describeFailure(f, 'cfg.ts');
    assert.match(msg, /"1000" at line 1/);
    assert.match(msg, /file: {7}"const timeout = 1000;"/);
    ok(cfg, 'const timeout = 1000', 'const timeout = 2000', 'exact', cfg.replace('1000', '2000'));
  });

  it('near miss: a name that is the end of a longer name, or a number cut at its decimal point', () => {
    fails(cfg, 'Count = 0', 'Count = 1', 'not-found');
    ok(cfg, 'maxCount = 0', 'maxCount = 1', 'exact', cfg.replace('maxCount = 0', 'maxCount = 1'));
    fails(cfg, 'ratio = 1', 'ratio = 2', 'not-found');
    fails(cfg, 'ratio = 1.', 'ratio = 2.', 'not-found');
    ok(cfg, 'ratio = 1.5', 'ratio = 2.5', 'exact', cfg.replace('1.5', '2.5'));
  });

  it('a place cut inside a name does not hide the whole line a looser level finds', () => {
    const f = code('x = 10', '  x  = 1');
    ok(f, 'x = 1', 'x = 2', 'whitespace-normalized', code('x = 10', '  x  = 2'));
  });

  it('text that ends at punctuation, a sigil before a name, and prose without spaces between words still match', () => {
    ok(code('foo(a, b)'), 'foo(a', 'foo(x', 'exact', code('foo(x, b)'));
    ok(code('$name = 1;'), 'name = 1', 'name = 2', 'exact', code('$name = 2;'));
    ok(code('这是中文文本。'), '中文', '英文', 'exact', code('这是英文文本。'));
  });

  it('replace_all still replaces inside longer names, and says so', () => {
    const r = ok(code('count = 1', 'counter = count'), 'count', 'total', 'exact', code('total = 1', 'totaler = total'), true);
    assert.match(r.warnings.join(), /inside a longer word/);
  });
});

describe('fs_edit adversarial: one indented line found inside a deeper indentation', () => {
  it('the lines new_string adds are shifted by the indentation old_string left out', () => {
    const js = code('function f() {', '    foo();', '}');
    const r = ok(js, '  foo();', '  foo();\n  bar();', 'indentation-flexible', code('function f() {', '    foo();', '    bar();', '}'));
    assert.match(r.adjustments.join(), /base indentation 2 -> 4/);
    ok(code('func f() {', '\t\tfoo()', '}'), '\tfoo()', '\tfoo()\n\tbar()', 'indentation-flexible', code('func f() {', '\t\tfoo()', '\t\tbar()', '}'));
  });

  it('pass: a one-line change, or old_string without its indentation, is exact and written as given', () => {
    const js = code('function f() {', '    foo();', '}');
    ok(js, '  foo();', '  foo(1);', 'exact', js.replace('foo();', 'foo(1);'));
    ok(js, 'foo();', 'foo();\n    bar();', 'exact', code('function f() {', '    foo();', '    bar();', '}'));
  });
});

describe('fs_edit adversarial: `L{n}: ` prefixes and files whose lines really begin so', () => {
  it('near miss: the file has the lines as written (with other trailing spaces) and the text without prefixes elsewhere: ambiguous', () => {
    const f = code('L1: a ', 'L2: b', '', 'a', 'b');
    const r = fails(f, 'L1: a\nL2: b', 'L1: x\nL2: y', 'ambiguous');
    const msg = describeFailure(r, 'golden.txt');
    assert.match(msg, /as written.*\(line 1\).*removed \(line 4\)/s);
  });

  it('pass: only one reading is in the file', () => {
    ok(code('L1: a ', 'L2: b', 'c'), 'L1: a\nL2: b', 'L1: x\nL2: y', 'line-trimmed', code('L1: x', 'L2: y', 'c'));
    ok(code('x', 'a', 'b '), 'L2: a\nL3: b', 'L2: A\nL3: b', 'read-prefix', code('x', 'A', 'b '));
    // Copied from fs_read output of such a file: its own prefix, then the file's.
    ok(code('L1: a ', 'L2: b', '', 'a', 'b'), 'L1: L1: a \nL2: L2: b', 'L1: L1: x\nL2: L2: b', 'read-prefix', code('L1: x', 'L2: b', '', 'a', 'b'));
  });
});

describe('fs_edit adversarial: escapes', () => {
  const js = code('function f() {', '  console.log("a");', '}');

  it('near miss: new_string with real line breaks was not escaped twice: its own \\n stays an escape', () => {
    const r = ok(js, 'function f() {\\n  console.log(\\"a\\");\\n}', 'function f() {\n  console.log("a\\n");\n}', 'escape-normalized', code('function f() {', '  console.log("a\\n");', '}'));
    assert.match(r.adjustments.join(), /taken as written/);
    // Bare quotes in new_string where old_string escaped every quote: new_string is kept too.
    ok(code('say("hi")'), 'say(\\"hi\\")', 'say("hi \\"you\\"")', 'escape-normalized', code('say("hi \\"you\\"")'));
  });

  it('pass: new_string escaped twice like old_string is unescaped the same way', () => {
    ok(js, 'function f() {\\n  console.log(\\"a\\");\\n}', 'function f() {\\n  console.log(\\"b\\\\n\\");\\n}', 'escape-normalized', code('function f() {', '  console.log("b\\n");', '}'));
  });
});

describe('fs_edit adversarial: elisions', () => {
  const py = code('def load(path):', '    with open(path) as f:', '        text = f.read()', '    return text', '', 'def parse(text):', '    data = json.loads(text)', '    return data');

  it('near miss: a bare "..." whose tail is in the next function is not found, naming the line that leaves the block', () => {
    const f = fails(py, 'def load(path):\n...\n    return data', 'def load(path):\n...\n    return normalize(data)', 'not-found') as { closest?: { line: number } };
    assert.equal(f.closest?.line, 6);
    ok(py, 'def load(path):\n...\n    return text', 'def load(path):\n...\n    return text.strip()', 'context-aware', py.replace('    return text\n', '    return text.strip()\n'));
  });

  it('the closing line after an elision is the one that ends the block, not a later one', () => {
    const js = code('function a() {', '  if (x) {', '    one();', '  }', '  if (y) {', '    two();', '  }', '}');
    ok(js, '  if (x) {\n    // ...\n  }', '  if (x) {\n    // ...\n    extra();\n  }', 'context-aware', js.replace('    one();\n', '    one();\n    extra();\n'));
    ok(js, '  if (y) {\n    // ...\n  }', '  if (y) {\n    // ...\n    extra();\n  }', 'context-aware', js.replace('    two();\n', '    two();\n    extra();\n'));
  });

  it('an elision only before or after the lines is dropped, and the lines are matched on their own', () => {
    const js = code('function f() {', '  a();', '  b();', '}', 'function g() {', '  a();', '}');
    const r = ok(js, 'function f() {\n  a();\n  // ...', 'function f() {\n  z();\n  // ...', 'context-aware', js.replace('  a();', '  z();'));
    assert.match(r.adjustments.join(), /ignored the "\.\.\." line/);
    // Without the head, the rest is at two places.
    fails(js, '  // ...\n  a();', '  // ...\n  z();', 'ambiguous');
  });

  it('near miss: a "..." at the end that new_string does not keep (the lines after it to go, or a literal "..." the file lacks) is not guessed', () => {
    const py = code('def f():', '    ...', 'def g():', '    pass');
    fails(py, 'def g():\n    ...', 'def g():\n    return 1', 'not-found');
    ok(py, 'def g():\n    ...', 'def g():\n    """Doc."""\n    ...', 'context-aware', code('def f():', '    ...', 'def g():', '    """Doc."""', '    pass'));
  });
});

describe('fs_edit adversarial: elisions between lines found at thousands of places', () => {
  // A class body of 60,000 lines, every one indented: no line ends a block early.
  const body = Array.from({ length: 60_000 }, (_, i) => (i % 6 === 5 ? '    }' : i % 6 === 0 ? `    if (v${i}) {` : `        step(${i});`));
  const file = code('class Big {', ...body, '}');

  it('is answered in bounded time, as several places', () => {
    const t = performance.now();
    const { r } = run(file, '    }\n    // ...\n    }', '    }\n    // ...\n    }\n    done();');
    assert.ok(performance.now() - t < 3000, 'bounded');
    assert.equal((r as { reason: string }).reason, 'ambiguous');
  });

  it('pass: a head found once and a closing line found thousands of times is placed at the block\'s end', () => {
    const t = performance.now();
    const r = ok(file, '    if (v6000) {\n        // ...\n    }', '    if (v6000) {\n        // ...\n        last();\n    }', 'context-aware', file.replace('        step(6004);\n', '        step(6004);\n        last();\n'));
    assert.deepEqual(r.places, [{ startLine: 6002, endLine: 6007 }]);
    assert.ok(performance.now() - t < 3000, 'bounded');
  });
});

describe('fs_edit adversarial: the file\'s formatting on changed lines', () => {
  it('near miss: a typographic quote is never moved onto a quote new_string kept from among several', () => {
    ok(code("s = '‘quoted’'"), "s = ''quoted''", "s = 'x'", 'unicode-normalized', code("s = 'x'"));
  });

  it('pass: quotes and spacing new_string kept are the file\'s', () => {
    ok(code('He said “hi” — twice.'), 'He said "hi" - twice.', 'He said "hi" - once.', 'unicode-normalized', code('He said “hi” — once.'));
    ok(code('if a:', '    name  =  "x  y"'), 'if a:\n    name = "x y"', 'if a:\n    name = "x y" or z', 'whitespace-normalized', code('if a:', '    name  =  "x  y" or z'));
  });
});

describe('fs_edit adversarial: edits in order', () => {
  it('a later edit matches text an earlier one wrote, and one that becomes ambiguous fails the whole call', () => {
    const f = code('a();', 'b();');
    const p = planEdits(f, [
      { oldString: 'a();', newString: 'a();\nc();' },
      { oldString: 'c();', newString: 'd();' },
    ]);
    assert.ok(p.ok);
    assert.equal(p.text, code('a();', 'd();', 'b();'));
    const q = planEdits(f, [
      { oldString: 'b();', newString: 'a();' },
      { oldString: 'a();', newString: 'z();' },
    ]);
    assert.ok(!q.ok);
    assert.equal(q.index, 1);
    assert.equal(q.failure.reason, 'ambiguous');
  });
});
