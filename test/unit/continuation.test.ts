import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ToolContext } from '../../src/services/types';
import { call, context, continuation, rgOnPath, tempTree, withEngine } from './helpers';

/**
 * For every tool: following the `Continue with:` lines the tool prints, from the first
 * call on, visits every line, entry, path or match exactly once, in order, whatever the
 * page size and token budget. A page that continues says so in its last line and nowhere
 * else; a page that does not continue has no such line.
 */

/** Every page of a paged answer, following its continuations from `input`. */
async function follow(ctx: ToolContext, tool: string, input: Record<string, unknown>): Promise<string[]> {
  const pages: string[] = [];
  let next: Record<string, unknown> | undefined = input;
  while (next) {
    assert.ok(pages.length < 500, 'paging ends');
    const r = await call(ctx, tool, next);
    assert.equal(r.isError, false, r.text);
    pages.push(r.text);
    next = continuation(tool, r.text);
  }
  return pages;
}

/** A context whose token budget is `budget` (one token per four characters), or none. */
async function budgeted(root: string, budget: number | undefined): Promise<ToolContext> {
  const ctx = await context(root);
  if (budget !== undefined) {
    ctx.budget = { tokenBudget: budget, countTokens: async (s: string) => Math.ceil(s.length / 4) };
  }
  return ctx;
}

const arbBudget = fc.option(fc.integer({ min: 40, max: 600 }), { nil: undefined });
const arbName = fc.constantFrom('a', 'b', 'c', 'a-b', 'B', 'z9', 'é', 'node_modules', '.h');
const arbTree = fc.uniqueArray(fc.array(arbName, { minLength: 1, maxLength: 3 }).map((p) => `${p.join('/')}.txt`), { minLength: 1, maxLength: 25 });

/** A workspace with these files (a path under a name that is already a file is skipped). */
function workspace(paths: readonly string[], content: (p: string, i: number) => string): ReturnType<typeof tempTree> {
  const files: Record<string, string> = { '.gitignore': 'node_modules/\n' };
  const taken = new Set<string>();
  paths.forEach((p, i) => {
    const parts = p.split('/');
    const clash = parts.some((_, k) => taken.has(parts.slice(0, k + 1).join('/')) && k < parts.length - 1) || [...taken].some((t) => t.startsWith(`${p}/`));
    if (!clash) {
      files[p] = content(p, i);
      taken.add(p);
    }
  });
  return tempTree(files);
}

describe('following continuations visits everything exactly once', function () {
  // each property runs 20 to 25 random trees, each followed page by page: hundreds of calls
  // (the JavaScript search's took 11 to 18 s here); the default 20 s is one behaviour's bound
  this.timeout(120_000);
  it('fs_read: every line of the file, then End of file', async () => {
    const arbLine = fc.oneof({ weight: 6, arbitrary: fc.string({ maxLength: 30 }) }, { weight: 1, arbitrary: fc.string({ minLength: 1990, maxLength: 2300 }) }).map((s) => s.replace(/[\r\n]/g, ''));
    await fc.assert(
      fc.asyncProperty(fc.array(arbLine, { minLength: 1, maxLength: 80 }), fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }), arbBudget, async (lines, limit, budget) => {
        const t = tempTree({ 'f.txt': `${lines.join('\n')}\n` });
        try {
          const ctx = await budgeted(t.root, budget === undefined ? undefined : budget * 4);
          const pages = await follow(ctx, 'fs_read', limit === undefined ? { path: 'f.txt' } : { path: 'f.txt', limit });
          const seen = pages.flatMap((p) => [...p.matchAll(/^L(\d+): /gm)].map((m) => Number(m[1])));
          assert.deepEqual(seen, lines.map((_, i) => i + 1));
          assert.ok(pages[pages.length - 1].endsWith('\n</content>\nEnd of file.'));
          assert.ok(pages.slice(0, -1).every((p) => !p.includes('End of file.')), 'only the last page says it is the end');
        } finally {
          t.cleanup();
        }
      }),
      { numRuns: 40 },
    );
  });

  it('fs_list: every entry of the tree', async () => {
    await fc.assert(
      fc.asyncProperty(arbTree, fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 4 }), arbBudget, async (paths, limit, depth, budget) => {
        const t = workspace(paths, () => '');
        try {
          const entryLines = (text: string) => text.split('\n').slice(1).filter((l) => !/^(Left out |Continue with: )/.test(l) && !l.endsWith(' (continued)'));
          const whole = await call(await context(t.root), 'fs_list', { depth, limit: 1000 });
          assert.equal(continuation('fs_list', whole.text), undefined);
          const pages = await follow(await budgeted(t.root, budget), 'fs_list', { depth, limit });
          assert.deepEqual(pages.flatMap(entryLines), entryLines(whole.text));
        } finally {
          t.cleanup();
        }
      }),
      { numRuns: 25 },
    );
  });

  for (const engine of ['ripgrep', 'javascript']) {
    it(`fs_glob (${engine}): every matching path`, async () => {
      await fc.assert(
        fc.asyncProperty(arbTree, fc.integer({ min: 1, max: 6 }), arbBudget, fc.constantFrom('*.txt', '**/a*', 'a/**'), async (paths, limit, budget, pattern) => {
          const t = workspace(paths, () => '');
          try {
            await withEngine(engine === 'ripgrep' ? rgOnPath() : 'none', async () => {
              const pathLines = (text: string) => (text.startsWith('No files match') ? [] : text.split('\n').slice(1).filter((l) => !/^(Left out |Continue with: )/.test(l)));
              const whole = await call(await context(t.root), 'fs_glob', { pattern, limit: 1000 });
              const pages = await follow(await budgeted(t.root, budget), 'fs_glob', { pattern, limit });
              const got = pages.flatMap(pathLines);
              assert.deepEqual(got, pathLines(whole.text));
              assert.equal(new Set(got).size, got.length);
            });
          } finally {
            t.cleanup();
          }
        }),
        { numRuns: 20 },
      );
    });

    it(`fs_grep (${engine}): every matching line, and in files output every file`, async () => {
      const arbContent = fc.array(fc.constantFrom('x', 'a x b', 'none', '', 'xx'), { maxLength: 12 }).map((ls) => ls.join('\n'));
      await fc.assert(
        fc.asyncProperty(arbTree, fc.array(arbContent, { minLength: 25, maxLength: 25 }), fc.integer({ min: 1, max: 7 }), fc.integer({ min: 0, max: 2 }), arbBudget, async (paths, contents, limit, ctxLines, budget) => {
          const t = workspace(paths, (_, i) => contents[i]);
          try {
            await withEngine(engine === 'ripgrep' ? rgOnPath() : 'none', async () => {
              /** "file:line" of every match line of a content page (context lines are marked "-"). */
              const hits = (text: string) => {
                const out: string[] = [];
                let file = '';
                for (const l of text.split('\n').slice(1)) {
                  const m = /^ {2}L(\d+): /.exec(l);
                  if (m) {
                    out.push(`${file}:${m[1]}`);
                  } else if (!l.startsWith('  ') && !/^(Left out |Continue with: )/.test(l)) {
                    file = l.replace(/ \(\d+(-\d+)? of its \d+ matching lines?\)$/, '');
                  }
                }
                return out;
              };
              const whole = await call(await context(t.root), 'fs_grep', { pattern: 'x', context: ctxLines, limit: 1000 });
              const pages = await follow(await budgeted(t.root, budget), 'fs_grep', { pattern: 'x', context: ctxLines, limit });
              const got = pages.flatMap(hits);
              assert.deepEqual(got, hits(whole.text));
              assert.equal(new Set(got).size, got.length, 'no match twice');
              const fileLines = (text: string) => (text.startsWith('No matching') ? [] : text.split('\n').slice(1).filter((l) => !/^(Left out |Continue with: )/.test(l)));
              const allFiles = await call(await context(t.root), 'fs_grep', { pattern: 'x', output: 'files', limit: 1000 });
              const filePages = await follow(await budgeted(t.root, budget), 'fs_grep', { pattern: 'x', output: 'files', limit });
              assert.deepEqual(filePages.flatMap(fileLines), fileLines(allFiles.text));
            });
          } finally {
            t.cleanup();
          }
        }),
        { numRuns: 20 },
      );
    });
  }
});
