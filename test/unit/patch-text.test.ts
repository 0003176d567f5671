import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { ArrayLines, FileText, type LineSource } from '../../src/core/patch/text';

function linesOf(f: FileText): { lines: string[]; eols: string[] } {
  const lines: string[] = [];
  const eols: string[] = [];
  for (let i = 0; i < f.count; i++) {
    lines.push(f.line(i));
    eols.push(f.eol(i));
  }
  return { lines, eols };
}

describe('FileText: the line model of a patched file', () => {
  const cases: [string, string[], string[], string][] = [
    ['', [], [], '\n'],
    ['a', ['a'], [''], '\n'],
    ['a\n', ['a'], ['\n'], '\n'],
    ['a\r\n', ['a'], ['\r\n'], '\r\n'],
    ['a\r\nb\n', ['a', 'b'], ['\r\n', '\n'], '\r\n'],
    ['a\nb\nc\r\n', ['a', 'b', 'c'], ['\n', '\n', '\r\n'], '\n'],
    ['\r\n\n', ['', ''], ['\r\n', '\n'], '\r\n'],
    ['a\r\r\n', ['a\r'], ['\r\n'], '\r\n'],
    ['x\ry', ['x\ry'], [''], '\n'],
    ['a\n\n', ['a', ''], ['\n', '\n'], '\n'],
  ];
  for (const [text, lines, eols, dominant] of cases) {
    it(`${JSON.stringify(text)}: lines ${JSON.stringify(lines)}, endings ${JSON.stringify(eols)}, dominant ${JSON.stringify(dominant)}`, () => {
      const f = new FileText(text);
      assert.deepEqual(linesOf(f), { lines, eols });
      assert.equal(f.dominant, dominant);
      assert.deepEqual(f.all(), lines);
      assert.equal(f.slice(0, f.count), text);
    });
  }
});

describe('exact fits: native search agrees with comparing lines', () => {
  function brute(lines: readonly string[], pattern: readonly string[]): number[] {
    const out: number[] = [];
    for (let p = 0; p + pattern.length <= lines.length; p++) {
      if (pattern.every((l, j) => lines[p + j] === l)) {
        out.push(p);
      }
    }
    return out;
  }

  function check(source: LineSource, pattern: readonly string[], q: number): void {
    const all = brute(source.all(), pattern);
    const fits = source.exactFits(pattern);
    assert.deepEqual(fits.between(0, source.count), all);
    assert.equal(fits.first(q), all.find((p) => p >= q) ?? -1);
    assert.equal(fits.last(q), [...all].reverse().find((p) => p <= q) ?? -1);
  }

  const line = fc.constantFrom('a', 'b', 'a\r', '', ' a', 'ab');
  const eol = fc.constantFrom('\n', '\r\n');

  it('in files of LF, CRLF or mixed endings, with or without a final ending', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(line, eol), { maxLength: 25 }), fc.boolean(), fc.constantFrom('lf', 'crlf', 'mixed'), fc.array(line, { minLength: 1, maxLength: 4 }), fc.nat(26), (rows, terminated, style, pattern, q) => {
        const text = rows.map(([l, e], i) => l + (i === rows.length - 1 && !terminated ? '' : style === 'lf' ? '\n' : style === 'crlf' ? '\r\n' : e)).join('');
        check(new FileText(text), pattern, q);
      }),
      { numRuns: 3000 },
    );
  });

  it('over lines given as an array', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 25 }), fc.array(line, { minLength: 1, maxLength: 4 }), fc.nat(26), (lines, pattern, q) => {
        check(new ArrayLines(lines), pattern, q);
      }),
      { numRuns: 2000 },
    );
  });
});
