import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { countAtMost, countBelow, kmpFind, kmpFindLast, kmpTable, lineOfOffset, partitionPoint } from '../../src/core/sorted';

const sortedArb = fc.array(fc.integer({ min: -20, max: 20 }), { maxLength: 40 }).map((a) => a.sort((x, y) => x - y));

/** Every start of `want` in `hay`, by comparing at each position. */
function naiveStarts(hay: number[], want: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; want.length > 0 && i + want.length <= hay.length; i++) {
    if (want.every((w, j) => hay[i + j] === w)) {
      out.push(i);
    }
  }
  return out;
}

describe('sorted searches', () => {
  it('countBelow and countAtMost count as a scan does', () => {
    fc.assert(
      fc.property(sortedArb, fc.integer({ min: -25, max: 25 }), (a, v) => {
        assert.equal(countBelow(a, v), a.filter((x) => x < v).length);
        assert.equal(countAtMost(a, v), a.filter((x) => x <= v).length);
      }),
    );
  });

  it('partitionPoint finds the first index where a monotone predicate holds, or the end', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }), (lo, len, cut) => {
        const hi = lo + len;
        const asked: number[] = [];
        const p = partitionPoint(lo, hi, (i) => (asked.push(i), i >= cut));
        assert.equal(p, Math.min(hi, Math.max(lo, cut)));
        assert.ok(asked.every((i) => i >= lo && i < hi), 'asks only inside the range');
        assert.ok(asked.length <= Math.ceil(Math.log2(len + 1)) + 1, `asked ${asked.length} times for ${len}`);
      }),
    );
  });

  it('lineOfOffset names the line that holds an offset; just past a break is the next line', () => {
    const text = 'ab\n\ncd\nef';
    const starts = [0, 3, 4, 7];
    for (let off = 0; off <= text.length; off++) {
      assert.equal(lineOfOffset(starts, off), text.slice(0, off).split('\n').length - 1, `offset ${off}`);
    }
  });

  it('kmpFind finds every start, overlapping ones too, within a range and up to a count', () => {
    const small = fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 40 });
    fc.assert(
      fc.property(small, fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 4 }), fc.nat(10), (hay, want, max) => {
        const all = naiveStarts(hay, want);
        assert.deepEqual(kmpFind(hay, want, kmpTable(want), 0, hay.length, Infinity), all);
        assert.deepEqual(kmpFind(hay, want, kmpTable(want), 0, hay.length, max), all.slice(0, max));
        const from = Math.floor(hay.length / 3);
        const end = hay.length - from;
        assert.deepEqual(
          kmpFind(hay, want, kmpTable(want), from, end, Infinity),
          all.filter((s) => s >= from && s + want.length <= end),
        );
      }),
    );
  });

  it('kmpFindLast finds the start of the last occurrence that ends at or before a bound', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 40 }), fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 4 }), fc.nat(45), (hay, want, end) => {
        const reversed = want.slice().reverse();
        const expected = naiveStarts(hay, want).filter((s) => s + want.length - 1 <= end);
        assert.equal(kmpFindLast(hay, reversed, kmpTable(reversed), end), expected.length ? expected[expected.length - 1] : -1);
      }),
    );
  });
});
