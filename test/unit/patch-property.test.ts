import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { parsePatch, planPatch, PatchVerifyError, seekSequence, SEEK_PASSES, type FileProbe, type PlannedChange, type SeekPass } from '../../src/core/patch';
import { Scopes } from '../../src/core/patch/scope';
import { passKey } from '../../src/core/patch/seek';
import { ArrayLines } from '../../src/core/patch/text';
import { updatePatch } from './patchHelpers';

function text(lines: readonly string[], eol = '\n'): string {
  return lines.map((l) => l + eol).join('');
}

async function applyTo(oldText: string, patch: string): Promise<string> {
  const probe = async (p: string): Promise<FileProbe> => (p === 'f.txt' ? { kind: 'file', text: oldText } : { kind: 'missing' });
  const plan = await planPatch(parsePatch(patch), probe);
  assert.equal(plan.changes.length, 1);
  const change = plan.changes[0] as Extract<PlannedChange, { kind: 'update' }>;
  assert.equal(change.kind, 'update');
  assert.equal(change.oldText, oldText);
  return change.newText;
}

/** `old` edited by `ops`, one per old line (keep mostly; delete, replace, insert before), plus maybe an appended line. */
function mutate(old: readonly string[], ops: readonly [number, string][]): string[] {
  if (ops.length === 0) {
    return [...old];
  }
  const out: string[] = [];
  old.forEach((line, i) => {
    const [k, l] = ops[i % ops.length];
    if (k <= 3) {
      out.push(line);
    } else if (k === 5) {
      out.push(l);
    } else if (k === 6) {
      out.push(l, line);
    }
  });
  if (ops[0][0] === 6) {
    out.push(ops[0][1]);
  }
  return out;
}

/** Exact, ordered, non-overlapping placements of the chunks' old lines, counted up to 2 (the oracle of the ambiguity rule). */
function placements(lines: readonly string[], patterns: readonly string[][], k = 0, start = 0): number {
  if (k === patterns.length) {
    return 1;
  }
  const m = patterns[k].length;
  let count = 0;
  for (let p = start; p + m <= lines.length && count < 2; p++) {
    if (patterns[k].every((l, j) => lines[p + j] === l)) {
      count += placements(lines, patterns, k + 1, p + m);
    }
  }
  return Math.min(count, 2);
}

describe('patch property: diffs apply back', () => {
  it('a patch made by diffing two files turns the first into the second (distinct lines, any edit)', async () => {
    const lines = fc.uniqueArray(fc.nat(1_000_000), { maxLength: 60 }).map((ns) => ns.map((n) => `line ${n}`));
    await fc.assert(
      fc.asyncProperty(lines, fc.array(fc.tuple(fc.nat(6), fc.nat(1_000_000)), { maxLength: 80 }), fc.integer({ min: 1, max: 4 }), async (old, ops, context) => {
        let added = 0;
        const next = mutate(
          old,
          ops.map(([k, n]) => [k, `new ${n} ${added++}`]),
        );
        fc.pre(next.join('\n') !== old.join('\n'));
        const patch = updatePatch('f.txt', text(old), text(next), context);
        assert.equal(await applyTo(text(old), patch), text(next), patch);
      }),
      { numRuns: 300 },
    );
  });

  it('CRLF files stay CRLF: the same patch (written with LF) gives the new file in CRLF', async () => {
    const lines = fc.uniqueArray(fc.nat(1_000_000), { minLength: 1, maxLength: 40 }).map((ns) => ns.map((n) => `row ${n}`));
    await fc.assert(
      fc.asyncProperty(lines, fc.array(fc.tuple(fc.nat(6), fc.nat(1_000_000)), { minLength: 1, maxLength: 40 }), async (old, ops) => {
        const next = mutate(
          old,
          ops.map(([k, n], i) => [k, `added ${n} ${i}`]),
        );
        fc.pre(next.length > 0 && next.join('\n') !== old.join('\n'));
        const patch = updatePatch('f.txt', text(old), text(next));
        assert.equal(await applyTo(text(old, '\r\n'), patch), text(next, '\r\n'), patch);
      }),
      { numRuns: 200 },
    );
  });

  it('with many repeated lines, a patch applies exactly when it fits one way, and is refused as ambiguous otherwise', async () => {
    let applied = 0;
    let refused = 0;
    const line = fc.constantFrom('a', 'b', 'c', '');
    // Batches of 1,000 until both outcomes were met often enough, 5 at most: a refusal comes
    // about 1 time in 20 (35 to 60 a batch), and a batch once gave 19.
    for (let batch = 0; batch < 5 && !(applied > 200 && refused > 20); batch++) {
      await fc.assert(
        fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 14 }), fc.array(fc.tuple(fc.nat(6), line), { maxLength: 14 }), fc.integer({ min: 1, max: 2 }), async (old, ops, context) => {
          const next = mutate(old, ops);
          fc.pre(next.join('\n') !== old.join('\n'));
          const patch = updatePatch('f.txt', text(old), text(next), context);
          const chunks = parsePatch(patch).hunks[0];
          assert.equal(chunks.kind, 'update');
          const fits = placements(old, chunks.kind === 'update' ? chunks.chunks.map((c) => c.oldLines) : []);
          try {
            const result = await applyTo(text(old), patch);
            assert.equal(fits, 1, `applied although the chunks fit more than one way:\n${patch}`);
            assert.equal(result, text(next), patch);
            applied++;
          } catch (e) {
            if (!(e instanceof PatchVerifyError)) {
              throw e;
            }
            assert.equal(e.code, 'ambiguous', e.message);
            assert.equal(fits, 2, `refused although the chunks fit one way only:\n${patch}\n${e.message}`);
            refused++;
          }
        }),
        { numRuns: 1000 },
      );
    }
    // Both outcomes must have been exercised for the oracle to mean something.
    assert.ok(applied > 200 && refused > 20, `applied ${applied}, refused ${refused}`);
  });
});

describe('patch property: seekSequence', () => {
  /** The definition: the first pass with a fit at or after `start` decides; one fit is found, more are ambiguous. */
  function brute(lines: readonly string[], pattern: readonly string[], start: number): ReturnType<typeof seekSequence> {
    for (const pass of SEEK_PASSES as readonly SeekPass[]) {
      const fits: number[] = [];
      // exact: a pattern line without trailing whitespace may have lost it
      const same = (a: string, l: string) => (pass === 'exact' && l === l.trimEnd() ? a.trimEnd() === l : passKey(pass, a) === passKey(pass, l));
      for (let p = start; p + pattern.length <= lines.length; p++) {
        if (pattern.every((l, j) => same(lines[p + j], l))) {
          fits.push(p);
        }
      }
      // a first place found by forgiving lost trailing whitespace is reported as trim-end
      const named = fits.length > 0 && pass === 'exact' && !pattern.every((l, j) => lines[fits[0] + j] === l) ? 'trim-end' : pass;
      if (fits.length === 1) {
        return { kind: 'found', index: fits[0], pass: named };
      }
      if (fits.length > 1) {
        return { kind: 'ambiguous', indices: fits, pass: named };
      }
    }
    return { kind: 'none' };
  }

  it('agrees with the definition, on files of few distinct lines (both search strategies)', () => {
    const line = fc.constantFrom('a', 'a ', ' a', 'b', '\u2014b', '-b', '\u201cq\u201d', '"q"', '');
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), fc.array(line, { minLength: 1, maxLength: 12 }), fc.nat(40), (lines, pattern, start) => {
        assert.deepEqual(seekSequence(lines, pattern, Math.min(start, lines.length), false), brute(lines, pattern, Math.min(start, lines.length)));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('patch property: @@ lines that open a block', () => {
  /** Every way the chunks fit (their lines, as a key), counted up to 3: each chunk after the one before, its `@@` line above it; `scoped` keeps the chunk inside the block that line opens. */
  function ways(lines: readonly string[], chunks: readonly { ctx?: string; old: string[] }[], scoped: boolean): string[] {
    const scopes = new Scopes(new ArrayLines(lines));
    const found = new Set<string>();
    const fits = (old: readonly string[], h: number) => h + old.length <= lines.length && old.every((l, j) => lines[h + j] === l);
    const go = (k: number, s: number, at: number[]): void => {
      if (found.size >= 3) {
        return;
      }
      if (k === chunks.length) {
        found.add(at.join(','));
        return;
      }
      const c = chunks[k];
      for (let h = s; h < lines.length; h++) {
        if (!fits(c.old, h)) {
          continue;
        }
        const held = c.ctx === undefined || lines.some((l, q) => q >= s && q < h && l === c.ctx && (!scoped || scopes.contains(q, h)));
        if (held) {
          go(k + 1, h + c.old.length, [...at, h]);
        }
      }
    };
    go(0, 0, []);
    return [...found];
  }

  it('applies where the plain reading fits one way, or else where the blocks of the @@ lines leave one way; refuses otherwise', async () => {
    const body = fc.array(fc.constantFrom('    x', '    y', '    z'), { minLength: 1, maxLength: 4 });
    const item = fc.oneof({ arbitrary: fc.tuple(fc.constantFrom('def a():', 'def b():', 'def c():'), body).map(([h, b]) => [h, ...b]), weight: 4 }, { arbitrary: fc.constant(['']), weight: 1 }, { arbitrary: fc.constant(['x = 0']), weight: 1 });
    const chunkSpec = fc.record({ ctx: fc.constantFrom<string | undefined>('def a():', 'def b():', undefined), at: fc.nat(100), len: fc.integer({ min: 1, max: 2 }) });
    const seen = { plain: 0, scoped: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: 8 }), fc.array(chunkSpec, { minLength: 1, maxLength: 2 }), async (items, specs) => {
        const lines: string[] = items.flat();
        // each chunk's old lines are body lines of the file, so that most chunks fit somewhere
        const bodyAt = lines.flatMap((l, i) => (l.startsWith('    ') ? [i] : []));
        fc.pre(bodyAt.length > 0);
        const chunks = specs.map((c) => {
          const from = bodyAt[c.at % bodyAt.length];
          const old = lines.slice(from, from + c.len).filter((l) => l.startsWith('    '));
          return { ctx: c.ctx, old: old.length === c.len ? old : old.slice(0, 1) };
        });
        const patch = ['*** Begin Patch', '*** Update File: f.txt'];
        for (const c of chunks) {
          patch.push(c.ctx === undefined ? '@@' : `@@ ${c.ctx}`, `-${c.old[0]}`, '+    w', ...c.old.slice(1).map((l) => ` ${l}`));
        }
        patch.push('*** End Patch');
        const plain = ways(lines, chunks, false);
        const scoped = ways(lines, chunks, true);
        const chosen = plain.length === 1 ? plain[0] : plain.length > 1 && scoped.length === 1 ? scoped[0] : undefined;
        try {
          const result = await applyTo(text(lines), patch.join('\n'));
          assert.ok(chosen !== undefined, `applied although it fits ${plain.length} ways (${scoped.length} in the blocks):\n${patch.join('\n')}\n${lines.join('\n')}`);
          const expected = [...lines];
          for (const h of chosen.split(',').map(Number)) {
            expected[h] = '    w';
          }
          assert.equal(result, text(expected), patch.join('\n'));
          seen[plain.length === 1 ? 'plain' : 'scoped']++;
        } catch (e) {
          if (!(e instanceof PatchVerifyError)) {
            throw e;
          }
          assert.equal(chosen, undefined, `refused although it fits one way:\n${patch.join('\n')}\n${lines.join('\n')}\n${e.message}`);
          assert.equal(e.code === 'ambiguous', plain.length > 1, e.message);
          seen.refused++;
        }
      }),
      { numRuns: 2000 },
    );
    assert.ok(seen.plain > 100 && seen.scoped > 30 && seen.refused > 100, JSON.stringify(seen));
  });

  it('with stacked @@ lines (a class, then a method in it), the same: each @@ line inside the block of the one before', async () => {
    /** The ways, with a chain of `@@` lines per chunk (compared trimmed, as the file indents them). */
    function chained(lines: readonly string[], chunks: readonly { ctx: string[]; old: string[] }[], scoped: boolean): string[] {
      const scopes = new Scopes(new ArrayLines(lines));
      const found = new Set<string>();
      const fits = (old: readonly string[], h: number) => h + old.length <= lines.length && old.every((l, j) => lines[h + j] === l);
      const chain = (ctx: readonly string[], r: number, parent: number, s: number, h: number): boolean => {
        if (r === ctx.length) {
          return parent < 0 || (parent < h && (!scoped || scopes.contains(parent, h)));
        }
        for (let q = Math.max(s, parent + 1); q < h; q++) {
          if (lines[q].trim() === ctx[r] && (parent < 0 || !scoped || scopes.contains(parent, q)) && chain(ctx, r + 1, q, s, h)) {
            return true;
          }
        }
        return false;
      };
      const go = (k: number, s: number, at: number[]): void => {
        if (found.size >= 3) {
          return;
        }
        if (k === chunks.length) {
          found.add(at.join(','));
          return;
        }
        for (let h = s; h < lines.length; h++) {
          if (fits(chunks[k].old, h) && chain(chunks[k].ctx, 0, -1, s, h)) {
            go(k + 1, h + chunks[k].old.length, [...at, h]);
          }
        }
      };
      go(0, 0, []);
      return [...found];
    }
    const method = fc.tuple(fc.constantFrom('    def a():', '    def b():'), fc.array(fc.constantFrom('        x', '        y'), { minLength: 1, maxLength: 3 })).map(([h, b]) => [h, ...b]);
    const cls = fc.tuple(fc.constantFrom('class A:', 'class B:'), fc.array(method, { minLength: 1, maxLength: 3 })).map(([h, ms]) => [h, ...ms.flat()]);
    const item = fc.oneof({ arbitrary: cls, weight: 4 }, { arbitrary: fc.constant(['']), weight: 1 });
    const ctx = fc.constantFrom<string[]>([], ['class A:'], ['class B:'], ['def a():'], ['class A:', 'def a():'], ['class B:', 'def a():'], ['class A:', 'def b():'], ['class B:', 'def b():']);
    const chunkSpec = fc.record({ ctx, at: fc.nat(200), len: fc.integer({ min: 1, max: 2 }) });
    const seen = { plain: 0, scoped: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: 5 }), fc.array(chunkSpec, { minLength: 1, maxLength: 2 }), async (items, specs) => {
        const lines: string[] = items.flat();
        const bodyAt = lines.flatMap((l, i) => (l.startsWith('        ') ? [i] : []));
        fc.pre(bodyAt.length > 0);
        const chunks = specs.map((c) => {
          const from = bodyAt[c.at % bodyAt.length];
          const old = lines.slice(from, from + c.len).filter((l) => l.startsWith('        '));
          return { ctx: c.ctx, old: old.length === c.len ? old : old.slice(0, 1) };
        });
        const patch = ['*** Begin Patch', '*** Update File: f.txt'];
        for (const c of chunks) {
          patch.push(...(c.ctx.length ? c.ctx.map((x) => `@@ ${x}`) : ['@@']), `-${c.old[0]}`, '+        w', ...c.old.slice(1).map((l) => ` ${l}`));
        }
        patch.push('*** End Patch');
        const plain = chained(lines, chunks, false);
        const scoped = chained(lines, chunks, true);
        const chosen = plain.length === 1 ? plain[0] : plain.length > 1 && scoped.length === 1 ? scoped[0] : undefined;
        const shown = `${patch.join('\n')}\n---\n${lines.join('\n')}`;
        try {
          const result = await applyTo(text(lines), patch.join('\n'));
          assert.ok(chosen !== undefined, `applied although it fits ${plain.length} ways (${scoped.length} in the blocks):\n${shown}`);
          const expected = [...lines];
          for (const h of chosen.split(',').map(Number)) {
            expected[h] = '        w';
          }
          assert.equal(result, text(expected), shown);
          seen[plain.length === 1 ? 'plain' : 'scoped']++;
        } catch (e) {
          if (!(e instanceof PatchVerifyError)) {
            throw e;
          }
          assert.equal(chosen, undefined, `refused although it fits one way:\n${shown}\n${e.message}`);
          assert.equal(e.code === 'ambiguous', plain.length > 1, `${e.message}\n${shown}`);
          seen.refused++;
        }
      }),
      { numRuns: 2000 },
    );
    assert.ok(seen.plain > 100 && seen.scoped > 30 && seen.refused > 100, JSON.stringify(seen));
  });
});
