import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { ToolError } from '../../src/core/errors';
import { describeIndentationBlock, indentationBlock, measureIndent, type IndentationOptions } from '../../src/core/read/indentation';
import { splitLines } from '../../src/core/text/lines';

/** The block's lines as `L{n}: text`, to compare with what the model would see. */
function shown(text: string, opts: IndentationOptions): string[] {
  const lines = splitLines(text);
  const b = indentationBlock(lines, opts);
  return lines.slice(b.first - 1, b.last).map((l, i) => `L${b.first + i}: ${l}`);
}

function range(text: string, opts: IndentationOptions): [number, number] {
  const b = indentationBlock(splitLines(text), opts);
  return [b.first, b.last];
}

function code(...lines: string[]): string {
  return lines.join('\n') + '\n';
}

// The samples of Codex's own tests (4-space, brace language).
const RUST_BLOCK = code('fn outer() {', '    if cond {', '        inner();', '    }', '    tail();', '}');
const RUST_NESTED = code('mod root {', '    fn outer() {', '        if cond {', '            inner();', '        }', '    }', '}');
const RUST_SIBLINGS = code('fn wrapper() {', '    if first {', '        do_first();', '    }', '    if second {', '        do_second();', '    }', '}');
const PYTHON = code(
  'class Foo:',
  '    def __init__(self, size):',
  '        self.size = size',
  '    def double(self, value):',
  '        if value is None:',
  '            return 0',
  '        result = value * self.size',
  '        return result',
  'class Bar:',
  '    def compute(self):',
  '        helper = Foo(2)',
  '        return helper.double(5)',
);

const TS = code(
  "import { x } from './x';", //       1
  '', //                               2
  '/**', //                            3
  ' * Adds.', //                       4
  ' */', //                            5
  'export function add(a: number, b: number): number {', // 6
  '  if (a > b) {', //                 7
  '    return a + b;', //              8
  '  } else {', //                     9
  '    return b + a;', //              10
  '  }', //                            11
  '}', //                              12
  '', //                               13
  '// helper', //                      14
  '@decorator()', //                   15
  'export class Foo {', //             16
  '  bar() {', //                      17
  '    try {', //                      18
  '      run();', //                   19
  '    } catch (e) {', //              20
  '      fail(e);', //                 21
  '    }', //                          22
  '  }', //                            23
  '', //                               24
  '  baz() {', //                      25
  '    return 1;', //                  26
  '  }', //                            27
  '}', //                              28
);

const YAML = code(
  'name: ci', //                 1
  'on:', //                      2
  '  push:', //                  3
  '    branches: [main]', //     4
  'jobs:', //                    5
  '  build:', //                 6
  '    runs-on: ubuntu', //      7
  '    steps:', //               8
  '      - uses: checkout', //   9
  '      - name: test', //       10
  '        run: npm test', //    11
  '', //                         12
  '  lint:', //                  13
  '    runs-on: ubuntu', //      14
  '    steps:', //               15
  '      - run: npm run lint', //16
);

describe('indentation mode', () => {
  describe('Codex samples', () => {
    it('captures the block that holds the anchor', () => {
      assert.deepEqual(shown(RUST_BLOCK, { anchorLine: 3, maxLevels: 1 }), ['L2:     if cond {', 'L3:         inner();', 'L4:     }']);
    });

    it('climbs max_levels parents', () => {
      assert.deepEqual(range(RUST_NESTED, { anchorLine: 4, maxLevels: 2 }), [2, 6]);
      assert.deepEqual(range(RUST_NESTED, { anchorLine: 4, maxLevels: 3 }), [1, 7]);
      assert.deepEqual(range(RUST_NESTED, { anchorLine: 4, maxLevels: 0 }), [1, 7]);
      // More levels than there are: as far as the top, like 0.
      assert.deepEqual(range(RUST_NESTED, { anchorLine: 4, maxLevels: 9 }), [1, 7]);
    });

    it('leaves siblings out unless asked', () => {
      assert.deepEqual(range(RUST_SIBLINGS, { anchorLine: 3, maxLevels: 1 }), [2, 4]);
      assert.deepEqual(range(RUST_SIBLINGS, { anchorLine: 3, maxLevels: 1, includeSiblings: true }), [2, 7]);
    });

    it('takes the parent body with siblings in Python', () => {
      assert.deepEqual(range(PYTHON, { anchorLine: 7, maxLevels: 1, includeSiblings: true }), [2, 8]);
    });
  });

  describe('Python', () => {
    it('takes the method without the previous sibling tail or the next class', () => {
      assert.deepEqual(shown(PYTHON, { anchorLine: 7, maxLevels: 1 }), [
        'L4:     def double(self, value):',
        'L5:         if value is None:',
        'L6:             return 0',
        'L7:         result = value * self.size',
        'L8:         return result',
      ]);
    });

    it('stops at the next sibling: a block with no closer', () => {
      assert.deepEqual(range(PYTHON, { anchorLine: 3, maxLevels: 1 }), [2, 3]);
      assert.deepEqual(range(PYTHON, { anchorLine: 11, maxLevels: 0 }), [9, 12]);
      assert.deepEqual(range(PYTHON, { anchorLine: 3, maxLevels: 0 }), [1, 8]);
    });

    it('keeps if/elif/else and try/except/finally together, with comments and decorators', () => {
      const src = code(
        'import os', //                 1
        '', //                          2
        '# Loads the config.', //       3
        '@cache', //                    4
        'def load(path):', //           5
        '    if os.path.exists(path):', // 6
        '        return read(path)', // 7
        '    elif path:', //            8
        '        return None', //       9
        '    else:', //                 10
        '        raise ValueError()', // 11
        '    try:', //                  12
        '        x = 1', //             13
        '    except OSError:', //       14
        '        x = 2', //             15
        '    finally:', //              16
        '        done()', //            17
        '    return x', //              18
        '', //                          19
        'def other():', //              20
        '    pass', //                  21
      );
      assert.deepEqual(range(src, { anchorLine: 9, maxLevels: 1 }), [6, 11]);
      assert.deepEqual(range(src, { anchorLine: 15, maxLevels: 1 }), [12, 17]);
      assert.deepEqual(range(src, { anchorLine: 9, maxLevels: 2 }), [3, 18]);
      assert.deepEqual(range(src, { anchorLine: 9, maxLevels: 2, includeHeader: false }), [5, 18]);
      // Anchored on the signature: the function is the block at the top level.
      assert.deepEqual(range(src, { anchorLine: 5 }), [3, 18]);
      // Anchored on its comment: the comment belongs to the function.
      assert.deepEqual(range(src, { anchorLine: 3 }), [3, 18]);
    });
  });

  describe('without max_levels: the smallest block that holds the anchor', () => {
    it('a line inside a block: the block that directly holds it, and which max_levels widens it', () => {
      const b = indentationBlock(splitLines(TS), { anchorLine: 19 });
      assert.deepEqual([b.first, b.last, b.levels], [18, 22, 1]);
      assert.deepEqual(b.wider, { maxLevels: 2, first: 17, last: 23 });
      assert.equal(describeIndentationBlock(b), 'the block around line 19; max_levels 2 widens it to lines 17-23');
      // Python: the `if` that holds the return, then the method
      const p = indentationBlock(splitLines(PYTHON), { anchorLine: 6 });
      assert.deepEqual([p.first, p.last, p.wider], [5, 6, { maxLevels: 2, first: 4, last: 8 }]);
    });

    it('a line that opens a block (a function, a method, a key): the block it opens, with its header', () => {
      const m = indentationBlock(splitLines(TS), { anchorLine: 17 });
      assert.deepEqual([m.first, m.last, m.levels], [17, 23, 0]);
      assert.deepEqual(m.wider, { maxLevels: 1, first: 14, last: 28 });
      assert.deepEqual(range(TS, { anchorLine: 6 }), [3, 12]);
      assert.equal(indentationBlock(splitLines(TS), { anchorLine: 6 }).wider, undefined, 'a top-level block has nothing around it');
      assert.deepEqual(range(YAML, { anchorLine: 8 }), [8, 11]);
    });

    it('a line of the top level that opens nothing: the top-level block, nothing wider', () => {
      const b = indentationBlock(splitLines(YAML), { anchorLine: 1 });
      assert.deepEqual([b.first, b.last, b.wider], [1, 1, undefined]);
    });
  });

  describe('TypeScript', () => {
    it('keeps } else { with its if', () => {
      assert.deepEqual(range(TS, { anchorLine: 8, maxLevels: 1 }), [7, 11]);
      assert.deepEqual(range(TS, { anchorLine: 10, maxLevels: 1 }), [7, 11]);
      assert.deepEqual(range(TS, { anchorLine: 9, maxLevels: 1, includeHeader: false }), [6, 12]);
    });

    it('takes the JSDoc header above the function, or not', () => {
      assert.deepEqual(range(TS, { anchorLine: 8, maxLevels: 0 }), [3, 12]);
      assert.deepEqual(range(TS, { anchorLine: 8, maxLevels: 0, includeHeader: false }), [6, 12]);
      assert.deepEqual(range(TS, { anchorLine: 8, maxLevels: 2 }), [3, 12]);
    });

    it('takes line comments and decorators above a class', () => {
      assert.deepEqual(range(TS, { anchorLine: 19, maxLevels: 0 }), [14, 28]);
      assert.deepEqual(range(TS, { anchorLine: 19, maxLevels: 0, includeHeader: false }), [16, 28]);
    });

    it('counts levels by the enclosing lines found, whatever the indent width', () => {
      assert.deepEqual(range(TS, { anchorLine: 21, maxLevels: 1 }), [18, 22]);
      assert.deepEqual(range(TS, { anchorLine: 21, maxLevels: 2 }), [17, 23]);
      assert.deepEqual(range(TS, { anchorLine: 21, maxLevels: 3 }), [14, 28]);
      assert.equal(indentationBlock(splitLines(TS), { anchorLine: 21, maxLevels: 2 }).levels, 2);
      assert.equal(indentationBlock(splitLines(TS), { anchorLine: 21, maxLevels: 2 }).floorColumns, 2);
    });

    it('takes one method, or all of them with siblings (not the class line)', () => {
      assert.deepEqual(range(TS, { anchorLine: 26, maxLevels: 1 }), [25, 27]);
      assert.deepEqual(range(TS, { anchorLine: 26, maxLevels: 1, includeSiblings: true }), [17, 27]);
    });

    it('anchored on a closing brace, takes the block it closes', () => {
      assert.deepEqual(range(TS, { anchorLine: 12 }), [3, 12]);
      assert.deepEqual(range(TS, { anchorLine: 27, maxLevels: 1 }), [14, 28]);
    });

    it('a blank anchor belongs to the block after it', () => {
      const b = indentationBlock(splitLines(TS), { anchorLine: 13 });
      assert.deepEqual([b.first, b.last], [13, 28]);
      assert.equal(b.blockLines, 16);
      // At the end of the file, to the block before it.
      assert.deepEqual(range(code('a {', '  b', '}', '', ''), { anchorLine: 5 }), [1, 5]);
    });

    it('does not let a trailing comment in a body move the anchor to the closer', () => {
      const src = code('class A {', '  m() {', '    a();', '    // done', '  }', '}');
      assert.deepEqual(range(src, { anchorLine: 4, maxLevels: 1 }), [2, 5]);
    });

    it('keeps Allman braces and K&R else lines with their statement', () => {
      const src = code('void f()', '{', '    if (x)', '    {', '        a();', '    }', '    else', '    {', '        b();', '    }', '}');
      assert.deepEqual(range(src, { anchorLine: 9, maxLevels: 1 }), [3, 10]);
      assert.deepEqual(range(src, { anchorLine: 5, maxLevels: 1 }), [3, 10]);
      assert.deepEqual(range(src, { anchorLine: 5, maxLevels: 2 }), [1, 11]);
    });

    it('keeps a promise chain and a multi-line call together', () => {
      const src = code('load().then((r) => {', '  use(r);', '}).catch((e) => {', '  log(e);', '});', 'next();');
      assert.deepEqual(range(src, { anchorLine: 4 }), [1, 5]);
      assert.deepEqual(range(src, { anchorLine: 2 }), [1, 5]);
    });

    it('takes a multi-line decorator and a block comment without stars', () => {
      const src = code('/*', '  Plain block comment', '*/', '@Component({', "  selector: 'x',", '})', 'export class C {', '  a = 1;', '}');
      assert.deepEqual(range(src, { anchorLine: 8 }), [1, 9]);
    });
  });

  describe('YAML', () => {
    it('takes a mapping and stops at the next key', () => {
      assert.deepEqual(range(YAML, { anchorLine: 11, maxLevels: 1 }), [10, 11]);
      assert.deepEqual(range(YAML, { anchorLine: 11, maxLevels: 2 }), [8, 11]);
      assert.deepEqual(range(YAML, { anchorLine: 11, maxLevels: 3 }), [6, 11]);
      assert.deepEqual(range(YAML, { anchorLine: 11, maxLevels: 0 }), [5, 16]);
      assert.deepEqual(range(YAML, { anchorLine: 4, maxLevels: 0 }), [2, 4]);
    });

    it('takes all jobs with siblings, blank lines inside kept', () => {
      assert.deepEqual(range(YAML, { anchorLine: 7, maxLevels: 1, includeSiblings: true }), [6, 16]);
      assert.deepEqual(range(YAML, { anchorLine: 7, maxLevels: 2, includeSiblings: true }), [1, 16]);
      const withSiblings = shown(YAML, { anchorLine: 7, maxLevels: 1, includeSiblings: true });
      assert.ok(withSiblings.includes('L12: '));
    });

    it('does not take a key named end as a closer', () => {
      const src = code('range:', '  start: 1', 'end: 5');
      assert.deepEqual(range(src, { anchorLine: 2 }), [1, 2]);
    });
  });

  describe('tabs and blank lines', () => {
    it('counts a tab as 4 columns', () => {
      assert.equal(measureIndent('\tx'), 4);
      assert.equal(measureIndent('  \t x'), 7);
      assert.equal(measureIndent('   '), -1);
      assert.equal(measureIndent(''), -1);
      // A tab-indented line is deeper than a 2-space one and as deep as a 4-space one.
      const src = code('a:', '  b:', '\tc', '    d', 'e');
      assert.deepEqual(range(src, { anchorLine: 3, maxLevels: 1 }), [2, 4]);
    });

    it('blank lines inside a block do not split it; at its ends they are trimmed', () => {
      const src = code('def f():', '    a = 1', '', '    b = 2', '', '', 'def g():', '    pass');
      assert.deepEqual(range(src, { anchorLine: 4, maxLevels: 1 }), [1, 4]);
      const siblings = code('x:', '  a:', '', '    p: 1', '', '  b:', '    q: 2', '', 'y: 3');
      assert.deepEqual(range(siblings, { anchorLine: 4, maxLevels: 1, includeSiblings: true }), [2, 7]);
    });

    it('header comments must sit right above the block, with no blank line', () => {
      const src = code('// unrelated', '', 'function f() {', '  a();', '}');
      assert.deepEqual(range(src, { anchorLine: 4 }), [3, 5]);
    });
  });

  describe('max_lines', () => {
    it('caps the block around the anchor, growing up and down in turn', () => {
      const lines = splitLines(TS);
      const b = indentationBlock(lines, { anchorLine: 19, maxLevels: 0, maxLines: 5 });
      assert.deepEqual([b.first, b.last], [17, 21]);
      assert.equal(b.capped, true);
      assert.deepEqual([b.blockFirst, b.blockLast, b.blockLines], [14, 28, 15]);
      assert.equal(describeIndentationBlock(b), 'max_lines cut the block around line 19, lines 14-28');
    });

    it('gives the rest of the budget to the side that has lines', () => {
      const b = indentationBlock(splitLines(TS), { anchorLine: 6, includeHeader: false, maxLines: 4 });
      assert.deepEqual([b.first, b.last], [6, 9]);
      const c = indentationBlock(splitLines(TS), { anchorLine: 12, includeHeader: false, maxLines: 3 });
      assert.deepEqual([c.first, c.last], [10, 12]);
    });

    it('max_lines=1 is the anchor alone', () => {
      assert.deepEqual(range(TS, { anchorLine: 8, maxLines: 1 }), [8, 8]);
    });

    it('an uncut block says so', () => {
      const b = indentationBlock(splitLines(TS), { anchorLine: 8, maxLevels: 1 });
      assert.equal(b.capped, false);
      assert.equal(describeIndentationBlock(b), 'the block around line 8');
    });
  });

  describe('errors', () => {
    const lines = splitLines(TS);
    function fails(opts: IndentationOptions, code: string, message: RegExp, src: readonly string[] = lines) {
      assert.throws(
        () => indentationBlock(src, opts),
        (e: unknown) => e instanceof ToolError && e.code === code && message.test(e.message),
      );
    }

    it('rejects an anchor past the end with the line count', () => {
      fails({ anchorLine: 29 }, 'offset-past-end', /anchor_line=29 is past the end: the file has 28 lines\. Use an anchor_line from 1 to 28\./);
      fails({ anchorLine: 1 }, 'offset-past-end', /the file is empty \(0 lines\)/, []);
    });

    it('rejects non-positive and fractional values, naming the field', () => {
      fails({ anchorLine: 0 }, 'invalid-input', /^anchor_line must be a whole number, 1 or more; got 0\./);
      fails({ anchorLine: -3 }, 'invalid-input', /^anchor_line /);
      fails({ anchorLine: 1.5 }, 'invalid-input', /^anchor_line /);
      fails({ anchorLine: 1, maxLevels: -1 }, 'invalid-input', /^max_levels must be a whole number, 0 or more; got -1\. Use 0 for no limit/);
      fails({ anchorLine: 1, maxLines: 0 }, 'invalid-input', /^max_lines must be a whole number, 1 or more; got 0\./);
    });
  });

  describe('properties', () => {
    const lineArb = fc.oneof(
      fc.constant(''),
      fc.constant('   '),
      fc.tuple(fc.constantFrom('', '  ', '    ', '\t', '      ', '\t  '), fc.constantFrom('x', '}', '{', '} else {', 'else:', '# c', '/*', ' */', '@d', 'end', ')', 'def f():')).map(([i, t]) => i + t),
    );
    const fileArb = fc.array(lineArb, { minLength: 1, maxLength: 40 });

    it('is a range inside the file that holds the anchor, within max_lines, not starting or ending on a blank line other than the anchor', () => {
      fc.assert(
        fc.property(
          fileArb,
          fc.nat(),
          fc.nat({ max: 4 }),
          fc.boolean(),
          fc.boolean(),
          fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
          (lines, pick, maxLevels, includeSiblings, includeHeader, maxLines) => {
            const anchorLine = (pick % lines.length) + 1;
            const b = indentationBlock(lines, { anchorLine, maxLevels, includeSiblings, includeHeader, maxLines });
            assert.ok(b.first >= 1 && b.last <= lines.length && b.first <= b.last);
            assert.ok(b.first <= anchorLine && anchorLine <= b.last);
            assert.ok(b.blockFirst <= b.first && b.last <= b.blockLast);
            assert.equal(b.blockLines, b.blockLast - b.blockFirst + 1);
            if (maxLines !== undefined) {
              assert.ok(b.last - b.first + 1 <= maxLines);
            }
            assert.equal(b.capped, b.last - b.first < b.blockLast - b.blockFirst);
            for (const edge of [b.first, b.last]) {
              assert.ok(edge === anchorLine || lines[edge - 1].trim() !== '', `blank edge line ${edge}`);
            }
          },
        ),
        { numRuns: 500 },
      );
    });

    it('with siblings, holds the block without siblings', () => {
      fc.assert(
        fc.property(fileArb, fc.nat(), fc.nat({ max: 4 }), (lines, pick, maxLevels) => {
          const anchorLine = (pick % lines.length) + 1;
          const alone = indentationBlock(lines, { anchorLine, maxLevels, includeHeader: false });
          const all = indentationBlock(lines, { anchorLine, maxLevels, includeSiblings: true, includeHeader: false });
          assert.ok(all.first <= alone.first && alone.last <= all.last, `${alone.first}-${alone.last} not in ${all.first}-${all.last}`);
        }),
        { numRuns: 500 },
      );
    });
  });
});
