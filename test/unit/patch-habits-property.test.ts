import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { parsePatch, planPatch, PatchSyntaxError, PatchVerifyError, type FileProbe, type PlannedChange } from '../../src/core/patch';
import { updatePatch } from './patchHelpers';

// Random nested files, a random change, the patch that makes it, then that patch written
// with one or more of the habits of models the README lists (kept lines without their
// leading space, blank separator lines, empty sections, `@@ <enclosing line>`, chunks
// shifted whole or line by line with their added lines shifted alike, a file without a
// final line break). The result is exactly the intended change, or a refusal: never
// another text.

interface Line {
  depth: number;
  text: string;
}

type Habit = 'bare' | 'separators' | 'empty' | 'enclosing' | 'shift' | 'per-line' | 'spaces-for-tabs';

const HABITS: readonly Habit[] = ['bare', 'separators', 'empty', 'enclosing', 'shift', 'per-line', 'spaces-for-tabs'];

/** A nested file: each line at most one level deeper than the one before; every line with text unique. */
const nested = fc
  .array(fc.tuple(fc.integer({ min: -3, max: 1 }), fc.nat(9)), { minLength: 2, maxLength: 40 })
  .map((steps) => {
    const out: Line[] = [];
    let depth = 0;
    steps.forEach(([d, blank], i) => {
      depth = Math.max(0, depth + d);
      out.push(blank === 0 && i > 0 ? { depth: 0, text: '' } : { depth, text: `${['key', 'item', 'call', 'x'][i % 4]}_${i}:` });
    });
    return out;
  });

/** The lines as text, ending with a line break when `finalNewline`; without one, blank lines at the end are left out (a text can only end without a line break on a line with text). */
function render(lines: readonly Line[], unit: string, finalNewline: boolean): string {
  let n = lines.length;
  while (!finalNewline && n > 0 && lines[n - 1].text === '') {
    n--;
  }
  const body = lines
    .slice(0, n)
    .map((l) => (l.text === '' ? '' : unit.repeat(l.depth) + l.text))
    .join('\n');
  return n === 0 ? '' : finalNewline ? `${body}\n` : body;
}

/** `old` changed by one op per line: keep, delete, replace or insert before (new lines at a neighbour's depth). */
function change(old: readonly Line[], ops: readonly number[]): Line[] {
  const out: Line[] = [];
  old.forEach((l, i) => {
    const k = ops[i % ops.length];
    if (k <= 4) {
      out.push(l);
    } else if (k === 5) {
      out.push({ depth: l.depth, text: `new_${i}:` });
    } else if (k === 6) {
      out.push({ depth: l.depth, text: `added_${i}:` }, l);
    } else if (k === 7) {
      out.push(l, { depth: l.depth + (l.text === '' ? 0 : 1), text: `inner_${i}:` });
    }
    // 8: deleted
  });
  return out;
}

/** The patch's lines with the habits applied. `file` is the old text's lines (for `@@ <enclosing line>`). */
function degrade(patch: string, habits: ReadonlySet<Habit>, file: readonly string[], choice: readonly number[]): string {
  const lines = patch.replace(/\n$/, '').split('\n');
  const begin = lines.shift()!;
  const end = lines.pop()!;
  const header = lines.shift()!;
  // chunks: each a `@@` line and its body
  const chunks: string[][] = [];
  for (const l of lines) {
    if (l.startsWith('@@')) {
      chunks.push([l]);
    } else {
      chunks[chunks.length - 1].push(l);
    }
  }
  let c = 0;
  const pick = () => choice[c++ % choice.length];
  const out: string[] = [begin];
  if (habits.has('empty') && pick() % 2 === 0) {
    out.push('*** Update File: other.txt');
  }
  out.push(header);
  for (const chunk of chunks) {
    let body = chunk.slice(1);
    let at = chunk[0];
    if (habits.has('enclosing')) {
      const first = body.find((l) => l[0] !== '+');
      const line = first === undefined ? -1 : file.indexOf(first.slice(1));
      const ws = (t: string) => t.length - t.trimStart().length;
      for (let k = line - 1; line > 0 && k >= 0; k--) {
        if (file[k].trim() !== '' && ws(file[k]) < ws(first!.slice(1))) {
          at = `@@ ${file[k]}`;
          break;
        }
      }
    }
    if (habits.has('spaces-for-tabs') && body.some((l) => l[0] !== '+' && l[1] === '\t')) {
      // a model writing spaces for a tab-indented file, in a chunk whose old lines show it
      body = body.map((l) => l[0] + l.slice(1).replace(/^\t+/, (t) => '    '.repeat(t.length)));
    }
    if (habits.has('shift') || habits.has('per-line')) {
      body = shifted(body, habits.has('per-line'), pick);
    }
    if (habits.has('bare')) {
      // a kept line without its leading space, where that leaves it a kept line
      body = body.map((l) => (l[0] === ' ' && l.length > 1 && !/^[-+\\@*\s]/.test(l.slice(1)) && pick() % 3 !== 0 ? l.slice(1) : l));
    }
    out.push(at, ...body);
    if (habits.has('separators')) {
      out.push('');
    }
  }
  if (habits.has('empty') && pick() % 2 === 1) {
    out.push('@@ nothing under it');
  }
  out.push(end);
  return `${out.join('\n')}\n`;
}

/**
 * The chunk's lines moved as a model moves them: all by one amount (whole), or each kept and
 * removed line by its own amount and each added line by that of its nearest such line.
 */
function shifted(body: readonly string[], perLine: boolean, pick: () => number): string[] {
  const lines = body.map((l) => ({ op: l[0], text: l.slice(1) }));
  const lead = (t: string) => t.length - t.trimStart().length;
  const move = (t: string, d: number) => (t.trim() === '' ? t : d >= 0 ? ' '.repeat(d) + t : t.slice(Math.min(-d, lead(t))));
  // the amount of each line, to the left only as far as every line of the chunk can go (else to the right)
  const left = Math.min(...lines.filter((l) => l.text.trim() !== '').map((l) => lead(l.text)));
  const whole = [1, 2, 4, -1, -2][pick() % 5];
  const amounts = lines.map(() => (perLine ? [0, 1, 2, -1, -2, 4][pick() % 6] : whole)).map((d) => (d < 0 && -d > left ? -d : d));
  const old = lines.map((l, i) => (l.op === '+' || l.text.trim() === '' ? -1 : i)).filter((i) => i >= 0);
  return lines.map((l, i) => {
    if (l.op !== '+') {
      return `${l.op}${move(l.text, amounts[i])}`;
    }
    // as its nearest kept or removed line with text (the one before on a tie)
    const near = old.length === 0 ? -1 : old.reduce((b, j) => (Math.abs(j - i) < Math.abs(b - i) ? j : b), old[0]);
    return `+${near < 0 ? l.text : move(l.text, amounts[near])}`;
  });
}

async function apply(oldText: string, patch: string): Promise<string> {
  const probe = async (p: string): Promise<FileProbe> => (p === 'f.txt' ? { kind: 'file', text: oldText } : { kind: 'missing' });
  const plan = await planPatch(parsePatch(patch), probe);
  const change = plan.changes[0] as Extract<PlannedChange, { kind: 'update' }>;
  assert.equal(change.kind, 'update');
  return change.newText;
}

describe('patch property: the habits of models', () => {
  it('a patch written with one or more habits gives exactly the intended change, or is refused', async () => {
    const counts = { applied: 0, refused: 0 };
    const byHabit = new Map<Habit, { applied: number; refused: number }>(HABITS.map((h) => [h, { applied: 0, refused: 0 }]));
    await fc.assert(
      fc.asyncProperty(
        nested,
        fc.array(fc.nat(8), { minLength: 1, maxLength: 20 }),
        fc.subarray([...HABITS], { minLength: 1 }),
        fc.constantFrom('  ', '    ', '\t'),
        fc.boolean(),
        fc.array(fc.nat(1000), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 3 }),
        async (old, ops, habits, unit, finalNewline, choice, context) => {
          const next = change(old, ops);
          const oldText = render(old, unit, finalNewline);
          // the file ends as it ended: with a line break or without
          const intended = render(next, unit, finalNewline);
          fc.pre(next.length > 0 && intended !== oldText);
          // the patch as a diff program writes it, its final-newline marks left out (as models do)
          const canonical = updatePatch('f.txt', oldText, intended, context);
          const set = new Set(habits as Habit[]);
          // spaces put before tabs say nothing a model writes; tabs written as spaces is a habit of its own
          if (unit === '\t') {
            set.delete('shift');
            set.delete('per-line');
          } else {
            set.delete('spaces-for-tabs');
          }
          fc.pre(set.size > 0);
          const patch = degrade(canonical, set, oldText.split('\n'), choice);
          try {
            const result = await apply(oldText, patch);
            assert.equal(result, intended, `a patch with ${[...set].join(', ')} gave another text:\n${patch}\nfrom:\n${JSON.stringify(oldText)}`);
            counts.applied++;
            set.forEach((h) => byHabit.get(h)!.applied++);
          } catch (e) {
            if (!(e instanceof PatchVerifyError || e instanceof PatchSyntaxError)) {
              throw e;
            }
            counts.refused++;
            set.forEach((h) => byHabit.get(h)!.refused++);
          }
        },
      ),
      // FC_SEED and FC_PATH (printed by a failure) replay one counterexample
      { numRuns: 1500, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED), path: process.env.FC_PATH } : {}) },
    );
    // Most patches apply: the oracle means something only when both outcomes are seen.
    assert.ok(counts.applied > counts.refused * 2 && counts.refused > 0, JSON.stringify(counts));
    for (const [h, c] of byHabit) {
      assert.ok(c.applied > 50, `${h}: ${JSON.stringify(c)}`);
    }
  });
});
