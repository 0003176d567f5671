import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyReplacements, findEdit } from '../../src/core/edit';
import { ambiguous, code, matches, notFound, run } from './editHelpers';

// old_string whose indentation differs from the file's by different amounts on different lines.

const PY = code(
  'class Cart:',
  '    def total(self, items):',
  '        s = 0',
  '        for it in items:',
  '            s += it.price',
  '        return s',
  '',
  '    def empty(self):',
  '        return not self.items',
);

/** PY's total() as a model copied it: a tab for the file's first four spaces, the `for` line two columns deeper. */
const NOISY = ['    def total(self, items):', '\t    s = 0', '          for it in items:', '            s += it.price', '        return s'];

const PER_LINE = /by different amounts on 2 lines; unchanged lines keep the file's/;

describe('fs_edit cascade: indentation that differs line by line', () => {
  it('applies a change: unchanged lines keep the file\'s indentation, the changed line takes its file line\'s', () => {
    const neu = [...NOISY.slice(0, 3), '            s += it.price * it.qty', NOISY[4]];
    const r = matches(PY, NOISY.join('\n'), neu.join('\n'), 'indentation-flexible', PY.replace('s += it.price', 's += it.price * it.qty'));
    assert.match(r.adjustments.join(), PER_LINE);
    // The change is the one line: every other line keeps its bytes.
    assert.equal(r.replacements.length, 1);
    assert.equal(r.replacements[0].line, 5);
  });

  it('a changed line copied with the wrong indentation gets its file line\'s, and one moved deeper moves as new_string moves it', () => {
    // The `for` line as copied (two too deep) with new words: the file's eight spaces.
    const neu = [NOISY[0], NOISY[1], '          for it in self.items:', NOISY[3], NOISY[4]];
    matches(PY, NOISY.join('\n'), neu.join('\n'), 'indentation-flexible', PY.replace('for it in items:', 'for it in self.items:'));
    // `s = 0` (a tab and four spaces, eight columns) written four columns deeper, as new_string wraps it: twelve spaces in the file.
    const nested = [NOISY[0], '        if items:', '\t        s = 0', ...NOISY.slice(2)];
    const want = PY.replace('        s = 0\n', '        if items:\n            s = 0\n');
    matches(PY, NOISY.join('\n'), nested.join('\n'), 'indentation-flexible', want);
  });

  it('an added line takes its indentation relative to the line before it, as new_string has it (Python still reads right)', () => {
    // After the tab line (right width, other characters): at its level, and one level deeper under an added `if`.
    const neu = [NOISY[0], NOISY[1], '\t    count = 0', '\t    if not items:', '\t        return 0', ...NOISY.slice(2)];
    const want = PY.replace('        s = 0\n', '        s = 0\n        count = 0\n        if not items:\n            return 0\n');
    const r = matches(PY, NOISY.join('\n'), neu.join('\n'), 'indentation-flexible', want);
    assert.match(r.adjustments.join(), PER_LINE);
    // After the last line, one level up: the method's level.
    matches(PY, NOISY.join('\n'), [...NOISY, '    total_price = total'].join('\n'), 'indentation-flexible', PY.replace('        return s\n', '        return s\n    total_price = total\n'));
  });

  it('a line added before every line with a counterpart takes its place from the line after it', () => {
    matches(PY, NOISY.slice(1, 4).join('\n'), ['\t    items = list(items)', ...NOISY.slice(1, 4)].join('\n'), 'indentation-flexible', PY.replace('        s = 0\n', '        items = list(items)\n        s = 0\n'));
  });

  it('a tab stands for one indentation step of a two-space file', () => {
    const js = code('function f(a) {', '  if (a) {', '    go(a);', '  }', '  return a;', '}');
    const old = 'function f(a) {\n\tif (a) {\n    go(a);\n  }\n   return a;\n}';
    const r = matches(js, old, 'function f(a) {\n\tif (a) {\n\t\tstart();\n    go(a);\n  }\n   return a;\n}', 'indentation-flexible', js.replace('    go(a);', '    start();\n    go(a);'));
    assert.match(r.adjustments.join(), /by different amounts on 2 lines/);
  });

  it('a file indented with tabs gets tabs for the lines new_string adds', () => {
    const go = code('func f() {', '\tif x {', '\t\treturn 1', '\t}', '}');
    matches(go, 'func f() {\n    if x {\n\t\treturn 1\n  }', 'func f() {\n    if x {\n        y := 2\n\t\treturn 1\n  }', 'indentation-flexible', code('func f() {', '\tif x {', '\t\ty := 2', '\t\treturn 1', '\t}', '}'));
  });

  it('with replace_all, the only place is changed', () => {
    const neu = [...NOISY.slice(0, 4), '        return s * 2'];
    matches(PY, NOISY.join('\n'), neu.join('\n'), 'indentation-flexible', PY.replace('return s\n', 'return s * 2\n'), true);
  });

  it('near miss: the same lines at two places are ambiguous, however each is indented', () => {
    const twice = PY + code('', 'class Basket:', '    def total(self, items):', '        s = 0', '        for it in items:', '            s += it.price', '        return s');
    const a = ambiguous(twice, NOISY.join('\n'), [2, 12]);
    assert.equal(a.count, 2);
    // replace_all does not take either: the indentation of neither is certain.
    const { r } = run(twice, NOISY.join('\n'), 'x', true);
    assert.equal(r.ok, false);
  });

  it('near miss: a line whose words differ is not found, indentation noise or not', () => {
    notFound(PY, NOISY.join('\n').replace('it.price', 'it.cost'), 'x');
    // Nor one whose spacing inside the line differs as well: the per-line class forgives indentation only.
    notFound(PY, NOISY.join('\n').replace('s = 0', 's  = 0'), 'x');
  });

  it('lines nested otherwise than in the file: the place is certain (once, in order), so unchanged lines keep the file\'s nesting and a changed line its own line\'s', () => {
    const py = code('for x in xs:', '    if x:', '        f(x)', '    g(x)');
    // g(x) copied inside the if, with a tab for one line's spaces
    matches(py, 'for x in xs:\n\tif x:\n        f(x)\n        g(x)', 'for x in xs:\n\tif x:\n        f(x)\n        h(x)', 'indentation-flexible', py.replace('    g(x)', '    h(x)'));
    // a sibling copied one step deeper (YAML: a child of the key before): the changed line stays the file's sibling
    const yaml = code('a:', '  b: 1', 'c: 2', 'd: 3');
    matches(yaml, 'a:\n  b: 1\n  c: 2\n d: 3', 'a:\n  b: 1\n  c: 5\n d: 3', 'indentation-flexible', yaml.replace('c: 2', 'c: 5'));
    // off by a whole step between them (two shallower, two deeper in a four-space file)
    const flat = code('def f():', '    a = 1', '    b = 2', '    c = 3');
    matches(flat, '  a = 1\n      b = 2', '  a = 1\n      b = 3', 'indentation-flexible', flat.replace('b = 2', 'b = 3'));
  });

  it('a line added after a line copied off: placed by the lines around it, as Python reads it', () => {
    // The `for` line is two columns deep in old_string; the line added after it, before its body line, is in its body.
    const neu = [...NOISY.slice(0, 3), '            total += 1', ...NOISY.slice(3)];
    matches(PY, NOISY.join('\n'), neu.join('\n'), 'indentation-flexible', PY.replace('        for it in items:\n', '        for it in items:\n            total += 1\n'));
    // Two lines, one a column shallower, one a column deeper: a line new_string puts level with the first is level with it.
    const flat = code('def f():', '    a = 1', '    b = 2', '    c = 3');
    matches(flat, '   a = 1\n     b = 2', '   a = 1\n   z = 0\n     b = 2', 'indentation-flexible', flat.replace('    b = 2', '    z = 0\n    b = 2'));
  });

  it('an unindented copy of a nested Python block, and an unindented new_string: it reads right', () => {
    const cls = code('class Runner:', '    def run(self, items):', '        total = 0', '        for item in items:', '            if item.ok:', '                total += item.value', '            else:', '                self.skip(item)', '        return total');
    const old = ['for item in items:', 'if item.ok:', 'total += item.value', 'else:', 'self.skip(item)'].join('\n');
    // a changed line, a line added at the start of a block, one before `else:` (still the if's body), one in the else
    const neu = ['for item in items:', 'log(item)', 'if item.ok:', 'seen.add(item)', 'total += item.value * 2', 'count += 1', 'else:', 'self.skip(item)', 'skipped += 1'].join('\n');
    const want = code(
      'class Runner:',
      '    def run(self, items):',
      '        total = 0',
      '        for item in items:',
      '            log(item)',
      '            if item.ok:',
      '                seen.add(item)',
      '                total += item.value * 2',
      '                count += 1',
      '            else:',
      '                self.skip(item)',
      '                skipped += 1',
      '        return total',
    );
    const r = matches(cls, old, neu, 'indentation-flexible', want);
    assert.match(r.adjustments.join(), /by different amounts on 5 lines/);
  });

  it('peer class: a block whose second line lost four spaces and whose third lost two', () => {
    const cls = code('class Runner:', '    def run(self, items):', '        for item in items:', '            if item.ok:', '                total += item.value', '        return total');
    matches(cls, '        for item in items:\n        if item.ok:\n              total += item.value', '        for item in items:\n        if item.ok:\n              total += item.value * 2', 'indentation-flexible', cls.replace('item.value\n', 'item.value * 2\n'));
  });

  it('a first line that lost part of its indentation is found as whole lines: a line added after it lands level with it, not outside the block', () => {
    // old_string starts two columns into line 2's indentation, so it is in the file exactly; as text, the added line would land at two spaces
    const cls = code('class A:', '    x_0 = 0', '    x_1 = 0', '    x_2 = 0');
    const r = matches(cls, '  x_0 = 0\n    x_1 = 0\n    x_2 = 0', '  x_0 = 0\n  added = 1\n    x_1 = 0\n    x_2 = 0', 'indentation-flexible', cls.replace('    x_1', '    added = 1\n    x_1'));
    assert.equal(r.places[0].startLine, 2);
    // where the two readings write the same text, the place stays exact
    matches(cls, '  x_0 = 0\n    x_1 = 0', '  x_0 = 1\n    x_1 = 0', 'exact', cls.replace('x_0 = 0', 'x_0 = 1'));
  });

  it('a first line short of its indentation, found exactly once: read as whole lines only at that place, never another, and never lost to a looser reading', () => {
    // replace_all: the looser copy in b() is not the place, and the exact place is not left out
    const two = code('def a():', '    x = 1', '    y = 2', 'def b():', '      x = 1', '        y = 2');
    matches(two, '  x = 1\n    y = 2', '  x = 1\n    y = 3', 'exact', two.replace('    y = 2', '    y = 3'), true);
    // the same lines elsewhere at another indentation make the lines' reading ambiguous: the text as written stands
    const deeper = code('def a():', '    x = 1', '    y = 2', 'def b():', '        x = 1', '        y = 2');
    matches(deeper, '  x = 1\n    y = 2', '  x = 1\n    y = 3', 'exact', deeper.replace('    y = 2', '    y = 3'));
    // one line and its line end
    const ret = code('if a:', '        return x', 'if b:', '    return x');
    matches(ret, '      return x\n', '      return y\n', 'exact', ret.replace('        return x', '        return y'));
  });

  it('near miss: a line added at the end of a block, new_string indented as flat as old_string, has no certain place: refused with the region as the file has it', () => {
    const cls = code('class Runner:', '    def run(self, items):', '        for item in items:', '            self.skip(item)', '        return total');
    // after `self.skip(item)` (12) and before `return total` (8): in the loop or after it?
    const nf = notFound(cls, 'for item in items:\nself.skip(item)\nreturn total', 'for item in items:\nself.skip(item)\nlog(item)\nreturn total');
    const c = nf.closest!;
    assert.equal(c.difference, 'indentation');
    assert.deepEqual(c.uncertain, { newLine: 3, text: 'log(item)', after: { line: 4, columns: 12 }, before: { line: 5, columns: 8 } });
    assert.deepEqual(c.current?.lines, ['        for item in items:', '            self.skip(item)', '        return total']);
  });
});

// ---------------------------------------------------------------------------------------
// Property: a block whose copy is re-indented line by line applies as the exact copy would.

interface Line {
  level: number;
  text: string;
}

/** A block of Python-like lines: each at most one level deeper than the one before, the one before then opening a block. */
const blockArb = fc.array(fc.tuple(fc.nat({ max: 2 }), fc.constantFrom('x', 'total', 'count', 'rate'), fc.nat({ max: 99 })), { minLength: 3, maxLength: 8 }).map((raw) => {
  const out: Line[] = [];
  raw.forEach(([want, id, n], k) => {
    const prev = out[k - 1]?.level ?? -1;
    const level = Math.min(want, prev + 1);
    out.push({ level, text: `${id}_${k} = ${n}` });
  });
  // A line followed by a deeper one opens a block.
  return out.map((l, k) => (out[k + 1] && out[k + 1].level > l.level ? { ...l, text: `if ${l.text.replace(' = ', ' == ')}:` } : l));
});

/** How the model's copy of each line was indented: unchanged, or off by a few columns, or with a tab for one step. */
const noiseArb = fc.array(fc.record({ off: fc.constantFrom(0, 0, -1, 1, 2), tab: fc.boolean() }), { minLength: 8, maxLength: 8 });

const editArb = fc.record({ at: fc.nat(), kind: fc.constantFrom('change' as const, 'insert' as const, 'delete' as const) });

/**
 * One edit of line k of the copy (`oldLines`), line `at` of the file: a changed name, the line
 * deleted, or a line added after it (`added` gives it as the model writes it and as the file gets it).
 * Returns new_string's lines and the file's lines the edit must give.
 */
function lineEdit(kind: 'change' | 'insert' | 'delete', oldLines: string[], fileLines: string[], k: number, at: number, added: () => [string, string]): { newLines: string[]; expected: string[] } {
  if (kind === 'change') {
    return { newLines: oldLines.map((l, j) => (j === k ? l.replace(/_(\d+)/, '_$1b') : l)), expected: fileLines.map((l, j) => (j === at ? l.replace(/_(\d+)/, '_$1b') : l)) };
  }
  if (kind === 'delete') {
    return { newLines: oldLines.filter((_, j) => j !== k), expected: fileLines.filter((_, j) => j !== at) };
  }
  const [model, file] = added();
  return { newLines: [...oldLines.slice(0, k + 1), model, ...oldLines.slice(k + 1)], expected: [...fileLines.slice(0, at + 1), file, ...fileLines.slice(at + 1)] };
}

function spaces(n: number): string {
  return ' '.repeat(n);
}

describe('fs_edit properties: indentation that differs line by line', () => {
  for (const step of [2, 4]) {
    it(`a random edit of a copy re-indented line by line (${step}-space file) applies as the exact copy would, and never joins two words`, () => {
      let perLine = 0;
      fc.assert(
        fc.property(blockArb, noiseArb, editArb, fc.constantFrom(0, step), (block, noise, edit, base) => {
          const file = (lines: Line[]) => lines.map((l) => spaces(base + l.level * step) + l.text);
          const fileLines = ['def before():', spaces(step) + 'pass', ...file(block), 'def after():', spaces(step) + 'pass'];
          // The copy: a noisy line is off by less than a step (never below column 0), or has a tab for its first step.
          const copied = block.map((l, k) => {
            const n = noise[k % noise.length];
            const width = base + l.level * step;
            const off = step === 2 ? Math.max(0, Math.min(1, n.off)) : n.off;
            const w = Math.max(0, width + off);
            return n.tab && off === 0 && w >= step ? '\t' + spaces(w - step) : spaces(w);
          });
          const clean = copied.filter((ws, k) => ws === spaces(base + block[k].level * step)).length;
          // The model's frame is the file's: most lines of its copy are as the file has them.
          fc.pre(clean * 2 > block.length);
          const k = edit.at % block.length;
          const oldLines = copied.map((ws, j) => ws + block[j].text);
          const { newLines, expected } = lineEdit(edit.kind, oldLines, fileLines, k, 2 + k, () => {
            // Added after line k, at its level, written as the model writes its own lines (its frame: the file's).
            fc.pre(copied[k] === spaces(base + block[k].level * step) && !block[k].text.endsWith(':'));
            const added = spaces(base + block[k].level * step) + 'added = 1';
            return [added, added];
          });
          const content = fileLines.join('\n') + '\n';
          const r = findEdit(content, { oldString: oldLines.join('\n'), newString: newLines.join('\n') });
          assert.ok(r.ok, `${JSON.stringify(r)}\nold:\n${oldLines.join('\n')}\nnew:\n${newLines.join('\n')}`);
          const text = applyReplacements(content, r.replacements);
          assert.equal(text, expected.join('\n') + '\n', `${r.level}: ${r.adjustments.join('; ')}\nold:\n${oldLines.join('\n')}\nnew:\n${newLines.join('\n')}`);
          // Every word of each line as the file has it: none joined to the next.
          assert.deepEqual(text.split(/\s+/).filter(Boolean), (expected.join('\n') + '\n').split(/\s+/).filter(Boolean));
          perLine += r.adjustments.some((a) => a.includes('by different amounts')) ? 1 : 0;
        }),
        { numRuns: 400 },
      );
      assert.ok(perLine > 100, `only ${perLine} runs took the per-line class`);
    });
  }

  it('a line of the copy one whole step off: the changed line lands on its file line at the file\'s indentation, or the edit is refused', () => {
    fc.assert(
      fc.property(blockArb, fc.nat(), fc.constantFrom(-1, 1), fc.nat({ max: 6 }), (block, pick, sign, noisyAt) => {
        const step = 4;
        const fileLines = ['def before():', '    pass', ...block.map((l) => spaces(l.level * step) + l.text)];
        const k = 1 + (pick % (block.length - 1));
        const copied = block.map((l, j) => {
          const w = l.level * step + (j === k ? sign * step : 0) + (j === noisyAt % block.length && j !== k ? 1 : 0);
          return spaces(Math.max(0, w)) + l.text;
        });
        fc.pre(copied[k] !== fileLines[2 + k]);
        const neu = copied.map((l, j) => (j === k ? l.replace(/_(\d+)/, '_$1b') : l));
        const content = fileLines.join('\n') + '\n';
        const r = findEdit(content, { oldString: copied.join('\n'), newString: neu.join('\n') });
        if (r.ok) {
          assert.equal(applyReplacements(content, r.replacements), fileLines.map((l, j) => (j === 2 + k ? l.replace(/_(\d+)/, '_$1b') : l)).join('\n') + '\n');
        }
      }),
      { numRuns: 400 },
    );
  });

  it('random nested files, random indentation damage on each line (unindented copies too): the intended edit, or a refusal; never another place', () => {
    const counts = { applied: 0, refused: 0, twice: 0 };
    const damageArb = fc.array(fc.constantFrom('keep', 'keep', 'lose-step', 'lose-all', 'lose-2', 'gain-1', 'gain-2', 'tab'), { minLength: 8, maxLength: 8 });
    fc.assert(
      fc.property(blockArb, damageArb, fc.boolean(), editArb, fc.constantFrom(2, 4), fc.boolean(), (block, damage, flat, edit, step, twice) => {
        const body = (lines: Line[]) => lines.map((l) => spaces(step + l.level * step) + l.text);
        const fileLines = ['class A:', ...body(block), '', 'class B:', spaces(step) + 'pass', ...(twice ? ['', 'class C:', ...body(block)] : [])];
        // The copy: every line unindented, or each line damaged its own way.
        const copied = block.map((l, j) => {
          const width = step + l.level * step;
          const d = flat ? 'lose-all' : damage[j % damage.length];
          const w = d === 'lose-step' ? width - step : d === 'lose-all' ? 0 : d === 'lose-2' ? Math.max(0, width - 2) : d === 'gain-1' ? width + 1 : d === 'gain-2' ? width + 2 : width;
          return (d === 'tab' ? '\t' + spaces(width - step) : spaces(w)) + l.text;
        });
        const k = edit.at % block.length;
        const oldLines = [...copied];
        const { newLines, expected } = lineEdit(edit.kind, oldLines, fileLines, k, 1 + k, () => {
          // after line k, not one that opens a block, written level with the model's copy of it
          fc.pre(!block[k].text.endsWith(':'));
          return [copied[k].replace(/\S.*$/, 'added = 1'), fileLines[1 + k].replace(/\S.*$/, 'added = 1')];
        });
        const content = fileLines.join('\n') + '\n';
        fc.pre(oldLines.join('\n') !== newLines.join('\n'));
        const r = findEdit(content, { oldString: oldLines.join('\n'), newString: newLines.join('\n') });
        if (!r.ok) {
          counts.refused++;
          counts.twice += twice ? 1 : 0;
          return;
        }
        assert.ok(!twice, `the block is in the file twice, and one place was taken:\n${oldLines.join('\n')}`);
        assert.equal(applyReplacements(content, r.replacements), expected.join('\n') + '\n', `old:\n${oldLines.join('\n')}\nnew:\n${newLines.join('\n')}`);
        counts.applied++;
      }),
      { numRuns: 1500 },
    );
    assert.ok(counts.applied > 600 && counts.refused > counts.twice, JSON.stringify(counts));
  });
});
