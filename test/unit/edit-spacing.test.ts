import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyReplacements, findEdit } from '../../src/core/edit';

// Spaces next to brackets and separators are layout, not word boundaries: `call( x, y )` is
// `call(x, y)`. A space between two words is never dropped: `return x` is not `returnx`.

function code(...lines: string[]): string {
  return lines.join('\n') + '\n';
}

describe('fs_edit cascade: spacing next to brackets and commas', () => {
  const js = code('function g() {', '  const v = call(x, y);', '  return v;', '}');

  it('matches `call( x, y )` against `call(x, y)`; the unchanged line keeps the file\'s spacing', () => {
    const r = findEdit(js, { oldString: '  const v = call( x, y );\n  return v;', newString: '  const v = call( x, y );\n  return v + 1;' });
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.level, 'whitespace-normalized');
    assert.equal(applyReplacements(js, r.replacements), js.replace('return v;', 'return v + 1;'));
    assert.match(r.adjustments.join(), /spaces next to brackets and commas/);
  });

  it('near miss: a space between two words is never dropped, nor one between two operators', () => {
    for (const [file, old] of [
      [code('a', '  return x;', 'b'), '  returnx;'],
      [code('a', '  x = a - -b;', 'b'), '  x = a--b;'],
      [code('a', '  f(a b);', 'b'), '  f(ab);'],
    ]) {
      const r = findEdit(file, { oldString: old, newString: '  y;' });
      assert.equal(r.ok, false, JSON.stringify(r));
    }
  });

  it('near miss: spacing forgiven, but an argument differs', () => {
    const r = findEdit(js, { oldString: '  const v = call( x, z );', newString: '  const v = 1;' });
    assert.equal(r.ok, false);
  });
});

// Lines of names, brackets and commas, each unique in its file.
const NAMES = ['alpha', 'beta', 'gamma', 'call', 'x', 'y', 'ret'];
const lineArb = fc
  .tuple(fc.constantFrom(...NAMES), fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }), fc.nat(999))
  .map(([fn, args, n]) => `${fn}${n}(${args.join(', ')});`);

/** The line with spaces added or removed where they are layout: after `(`, before `)`, `,` and `;`, before `(`. */
function respace(line: string, bits: boolean[]): string {
  let k = 0;
  const flip = () => bits[k++ % bits.length];
  return line.replace(/\(|\)|, |;/g, (m) => {
    if (m === '(') {
      return (flip() ? ' ' : '') + '(' + (flip() ? ' ' : '');
    }
    if (m === ', ') {
      return (flip() ? ' ' : '') + ',' + ' ';
    }
    return (flip() ? ' ' : '') + m;
  });
}

describe('fs_edit properties: spacing next to brackets and commas', () => {
  it('a re-spaced copy of a unique block, edited, applies back exactly, with the file\'s spacing on unchanged lines', () => {
    fc.assert(
      fc.property(fc.uniqueArray(lineArb, { minLength: 3, maxLength: 8 }), fc.nat(), fc.nat(), fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), (lines, a, b, bits) => {
        const from = a % (lines.length - 1);
        const to = from + 1 + (b % (lines.length - from - 1));
        const block = lines.slice(from, to + 1);
        const file = code(...lines.map((l) => '  ' + l));
        const old = block.map((l) => '  ' + respace(l, bits));
        const changed = old.map((l, k) => (k === 0 ? '  edited();' : l));
        const r = findEdit(file, { oldString: old.join('\n'), newString: changed.join('\n') });
        assert.ok(r.ok, JSON.stringify(r));
        const want = code(...lines.map((l, k) => (k === from ? '  edited();' : '  ' + l)));
        assert.equal(applyReplacements(file, r.replacements), want);
      }),
      { numRuns: 200 },
    );
  });

  it('never joins two words: a copy with the space between two words removed is not found', () => {
    fc.assert(
      fc.property(fc.constantFrom(...NAMES), fc.constantFrom(...NAMES), fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), (w1, w2, bits) => {
        const file = code('start();', `  ${w1} ${w2}(a, b);`, 'end();');
        const r = findEdit(file, { oldString: `  ${respace(`${w1}${w2}(a, b);`, bits)}`, newString: '  gone();' });
        assert.equal(r.ok, false, JSON.stringify(r));
      }),
      { numRuns: 200 },
    );
  });
});
