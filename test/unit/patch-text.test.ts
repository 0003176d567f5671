import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Fits } from '../../src/core/patch/fits';
import { LineIndex, passKey, seekIn } from '../../src/core/patch/seek';
import { ArrayLines, FileText, type LineSource } from '../../src/core/patch/text';
import type { SeekPass } from '../../src/core/patch/types';

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

  /** Queries one `Fits` several times in any order (what it learns from a failed search must stay true). */
  function check(fits: Fits, all: readonly number[], count: number, queries: readonly number[]): void {
    for (const q of queries) {
      assert.equal(fits.first(q), all.find((p) => p >= q) ?? -1, `first(${q}) of ${JSON.stringify(all)}`);
      assert.equal(fits.last(q), [...all].reverse().find((p) => p <= q) ?? -1, `last(${q}) of ${JSON.stringify(all)}`);
      assert.deepEqual(fits.between(q, q + 5), all.filter((p) => p >= q && p <= q + 5));
    }
    assert.deepEqual(fits.between(0, count), all);
  }

  function checkExact(source: LineSource, pattern: readonly string[], queries: readonly number[]): void {
    check(source.exactFits(pattern), brute(source.all(), pattern), source.count, queries);
  }

  const line = fc.constantFrom('a', 'b', 'a\r', '', ' a', 'ab');
  const queries = fc.array(fc.integer({ min: -2, max: 32 }), { minLength: 1, maxLength: 6 });
  const eol = fc.constantFrom('\n', '\r\n');

  it('in files of LF, CRLF or mixed endings, with or without a final ending', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(line, eol), { maxLength: 25 }), fc.boolean(), fc.constantFrom('lf', 'crlf', 'mixed'), fc.array(line, { minLength: 1, maxLength: 4 }), queries, (rows, terminated, style, pattern, qs) => {
        const text = rows.map(([l, e], i) => l + (i === rows.length - 1 && !terminated ? '' : style === 'lf' ? '\n' : style === 'crlf' ? '\r\n' : e)).join('');
        checkExact(new FileText(text), pattern, qs);
      }),
      { numRuns: 3000 },
    );
  });

  it('over lines given as an array', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 25 }), fc.array(line, { minLength: 1, maxLength: 4 }), queries, (lines, pattern, qs) => {
        checkExact(new ArrayLines(lines), pattern, qs);
      }),
      { numRuns: 2000 },
    );
  });

  it('the loose passes (KMP over line ids, forwards and backwards) agree with comparing lines too', () => {
    const loose = fc.constantFrom('a', 'a ', ' a', 'b', '', '\u2014', '-');
    fc.assert(
      fc.property(fc.array(loose, { maxLength: 30 }), fc.array(loose, { minLength: 1, maxLength: 5 }), fc.constantFrom<SeekPass>('trim-end', 'trim', 'unicode'), queries, (lines, pattern, pass, qs) => {
        const index = new LineIndex(new ArrayLines(lines));
        const all = [];
        for (let p = 0; p + pattern.length <= lines.length; p++) {
          if (pattern.every((l, j) => passKey(pass, lines[p + j]) === passKey(pass, l))) {
            all.push(p);
          }
        }
        check(index.fits(pattern, pass), all, lines.length, qs);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('trailing whitespace: the exact pass searches the text itself when no line has any', () => {
  const line = fc.constantFrom('a', 'a ', 'a\t', 'a\u00a0', 'a\u3000', 'a\u2028', 'a\r', 'a\u0085', 'a\u200b', '', ' a', '\u00e9');
  it('knows whether some line ends in whitespace as trimEnd sees it, in a file text and in lines given as an array', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(line, fc.constantFrom('\n', '\r\n')), { maxLength: 12 }), fc.boolean(), (rows, terminated) => {
        const text = rows.map(([l, e], i) => l + (i === rows.length - 1 && !terminated ? '' : e)).join('');
        const f = new FileText(text);
        const expected = f.all().some((l) => l !== l.trimEnd());
        assert.equal(f.hasTrailingSpace(), expected, JSON.stringify(text));
        assert.equal(new ArrayLines(f.all()).hasTrailingSpace(), expected, JSON.stringify(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('finds a chunk of a file without trailing whitespace without numbering its lines, and forgives lost whitespace where a file has some', () => {
    const clean = new LineIndex(new FileText('one\ntwo\nthree\n'));
    assert.deepEqual(seekIn(clean, ['two', 'three'], 0, false), { kind: 'found', index: 1, pass: 'exact' });
    assert.equal((clean as unknown as { byPass: Map<string, unknown> }).byPass.size, 0, 'line ids made for the exact pass');
    const spaced = new LineIndex(new FileText('one\ntwo \nthree\n'));
    assert.deepEqual(seekIn(spaced, ['two', 'three'], 0, false), { kind: 'found', index: 1, pass: 'trim-end' });
    assert.deepEqual(seekIn(spaced, ['two ', 'three'], 0, false), { kind: 'found', index: 1, pass: 'exact' });
  });
});
