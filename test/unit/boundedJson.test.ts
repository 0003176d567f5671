import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { boundedJson } from '../../src/services/input';

/** The definition: the whole JSON, cut. */
function whole(v: unknown, maxChars: number): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = '(too deeply nested to show)';
  }
  return s.length > maxChars ? `${s.slice(0, Math.max(0, maxChars - 3))}...` : s;
}

describe('JSON of a value for a log line, cut', () => {
  it('is the whole JSON cut at the bound, whatever the strings (escapes, surrogate pairs cut in two) and their length', () => {
    const str = fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 80 }), fc.constantFrom('"\\\n\t', '\u{1F600}'.repeat(50), 'x'.repeat(300)));
    fc.assert(
      fc.property(fc.jsonValue(), fc.dictionary(fc.string({ maxLength: 5 }), str), fc.array(str, { maxLength: 4 }), fc.integer({ min: 0, max: 120 }), (j, d, a, n) => {
        for (const v of [j, d, a, { patch: a.join('') }, a[0]]) {
          assert.equal(boundedJson(v, n), whole(v, n));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('does not write out a long string whole to keep its start', () => {
    const big = { patch: 'x\n'.repeat(2_000_000) };
    const t = performance.now();
    for (let i = 0; i < 50; i++) {
      assert.equal(boundedJson(big, 200).length, 200);
    }
    // fifty 4-million-character strings escaped whole take seconds; cut first, microseconds
    assert.ok(performance.now() - t < 500, `${Math.round(performance.now() - t)} ms`);
  });
});
