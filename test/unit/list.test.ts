import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { decodeCursor } from '../../src/core/list/cursor';
import { comparePaths, LazySorted } from '../../src/core/list/order';
import { printableName } from '../../src/core/list/render';
import { readLocalNames } from '../../src/host/localDirectory';
import { call, context, continuation, prepare, tempTree } from './helpers';

const NOTE = /^(Left out |Continue with: )/;

/** Entry lines of a listing: after the header, before the notes. */
function entries(text: string): string[] {
  return text
    .split('\n')
    .slice(1)
    .filter((l) => !NOTE.test(l));
}

/** The notes after the entries (what was left out, the continuation). */
function footer(text: string): string[] {
  return text.split('\n').filter((l) => NOTE.test(l));
}

describe('fs_list', () => {
  let tree: ReturnType<typeof tempTree>;
  before(() => {
    tree = tempTree({
      'a/z.txt': 'z',
      'a/b/deep.txt': 'd',
      'a/b/c/deeper.txt': 'd',
      'a-b/file.txt': 'x',
      'B.md': 'upper first',
      'readme.md': 'r',
      '.env.example': 'E=',
      '.hidden/inner.txt': 'h',
      'node_modules/pkg/index.js': 'x',
      'dist/out.js': 'x',
      'logs/app.log': 'x',
      'logs/keep.txt': 'x',
      'src/gen/code.ts': 'x',
      'src/main.ts': 'x',
      'src/.gitignore': 'gen/\n',
      '.gitignore': 'node_modules/\ndist\n*.log\n',
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.git/objects/ab/cdef': 'x',
    });
    fs.symlinkSync('..', path.join(tree.root, 'a', 'up'));
    fs.symlinkSync('z.txt', path.join(tree.root, 'a', 'zlink'));
    fs.symlinkSync('missing-target', path.join(tree.root, 'dangling'));
  });
  after(() => tree.cleanup());

  it('prints a sorted tree: folders right above their contents, two spaces per level, markers', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_list', { depth: 2 });
    assert.equal(r.isError, false, r.text);
    assert.equal(r.text.split('\n')[0], `Folder . (${tree.root}): 23 entries, all shown`);
    assert.deepEqual(entries(r.text), [
      '.env.example',
      '.git/ (not listed)',
      '.gitignore',
      '.hidden/',
      '  inner.txt',
      'B.md',
      'a/',
      '  b/',
      '  up@ -> ..',
      '  z.txt',
      '  zlink@ -> z.txt',
      'a-b/',
      '  file.txt',
      'dangling@ -> missing-target',
      'dist/ (ignored)',
      'logs/',
      '  keep.txt',
      'node_modules/ (ignored)',
      'readme.md',
      'src/',
      '  .gitignore',
      '  gen/ (ignored)',
      '  main.ts',
    ]);
    assert.deepEqual(footer(r.text), ['Left out by ignore rules: 3 folders shown collapsed, 1 file not shown (logs/app.log). Add "respect_ignore": false to include them.']);
  });

  it('orders paths segment by segment, not as plain strings', () => {
    const sorted = ['a-b', 'a/z', 'a', 'a/b/c', 'a.b', 'a/b'].sort(comparePaths);
    assert.deepEqual(sorted, ['a', 'a/b', 'a/b/c', 'a/z', 'a-b', 'a.b']);
  });

  it('honours depth: 1 lists only the folder, deeper levels open folders', async () => {
    const ctx = await context(tree.root);
    const one = entries((await call(ctx, 'fs_list', { path: 'a', depth: 1 })).text);
    assert.deepEqual(one, ['b/', 'up@ -> ..', 'z.txt', 'zlink@ -> z.txt']);
    const three = entries((await call(ctx, 'fs_list', { path: 'a', depth: '3' })).text);
    assert.deepEqual(three, ['b/', '  c/', '    deeper.txt', '  deep.txt', 'up@ -> ..', 'z.txt', 'zlink@ -> z.txt']);
    const r = await call(ctx, 'fs_list', { path: 'a', depth: 11 });
    assert.equal(r.isError, true);
    assert.match(r.text, /`depth`: must be 10 or less/);
  });

  it('never follows a symlink, so a link loop cannot hang the walk', async () => {
    const t = tempTree({ 'x/file.txt': 'x' });
    try {
      fs.symlinkSync('.', path.join(t.root, 'x', 'self'));
      fs.symlinkSync(path.join(t.root, 'x'), path.join(t.root, 'x', 'abs-loop'));
      const ctx = await context(t.root);
      const r = await call(ctx, 'fs_list', { depth: 10 });
      assert.deepEqual(entries(r.text), ['x/', `  abs-loop@ -> ${path.join(t.root, 'x')}`, '  file.txt', '  self@ -> .']);
    } finally {
      t.cleanup();
    }
  });

  it('shows ignored folders collapsed, applies nested .gitignore, and never lists .git contents', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_list', { depth: 5 });
    const e = entries(r.text);
    assert.ok(e.includes('node_modules/ (ignored)'));
    assert.ok(e.includes('  gen/ (ignored)'), 'src/.gitignore applies inside src');
    assert.ok(!e.some((l) => l.includes('code.ts') || l.includes('app.log') || l.includes('index.js')));
    assert.ok(!e.some((l) => /HEAD|objects/.test(l)), '.git is never walked');
    const all = entries((await call(ctx, 'fs_list', { depth: 5, respect_ignore: false })).text);
    assert.ok(all.includes('  gen/') && all.includes('    code.ts') && all.includes('  app.log') && all.includes('node_modules/'));
    assert.ok(all.includes('.git/ (not listed)') && !all.some((l) => /HEAD|objects/.test(l)), '.git stays closed even without ignore rules');
    const unfiltered = await call(ctx, 'fs_list', { depth: 5, respect_ignore: false });
    assert.match(unfiltered.text, /^Folder \. \([^)]*\): \d+ entries, all shown\n/);
    assert.deepEqual(footer(unfiltered.text), [], 'nothing left out, nothing said');
  });

  it('applies nested rules with gitignore semantics: deeper files override, "!" re-includes', async () => {
    const t = tempTree({
      '.gitignore': '*.tmp\nbuild/\n',
      'pkg/.gitignore': '!keep.tmp\n',
      'pkg/keep.tmp': 'x',
      'pkg/drop.tmp': 'x',
      'pkg/.ignore': 'secret/\n',
      'pkg/secret/s.txt': 'x',
      'pkg/build/b.js': 'x',
      'top.tmp': 'x',
    });
    try {
      const ctx = await context(t.root);
      assert.deepEqual(entries((await call(ctx, 'fs_list', { depth: 3 })).text), ['.gitignore', 'pkg/', '  .gitignore', '  .ignore', '  build/ (ignored)', '  keep.tmp', '  secret/ (ignored)']);
      // listing the subfolder keeps the rules of the folders above it
      assert.deepEqual(entries((await call(ctx, 'fs_list', { path: 'pkg', depth: 1 })).text), ['.gitignore', '.ignore', 'build/ (ignored)', 'keep.tmp', 'secret/ (ignored)']);
    } finally {
      t.cleanup();
    }
  });

  it('leaves hidden entries out on request and counts them', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_list', { depth: 1, include_hidden: 'false' });
    assert.ok(!entries(r.text).some((l) => l.startsWith('.')));
    assert.deepEqual(footer(r.text), [
      'Left out by ignore rules: 2 folders shown collapsed. Add "respect_ignore": false to include them.',
      'Left out as hidden (names starting with "."): 4 entries. Add "include_hidden": true to include them.',
    ]);
  });

  it('treats the call\'s ignore globs as ignore rules relative to the listed folder', async () => {
    const ctx = await context(tree.root);
    const e = entries((await call(ctx, 'fs_list', { depth: 2, ignore: ['*.md', 'b/'] })).text);
    assert.ok(!e.includes('B.md') && !e.includes('readme.md'));
    assert.ok(e.includes('  b/ (ignored)'));
    const sub = entries((await call(ctx, 'fs_list', { path: 'a', depth: 2, ignore: ['/b'] })).text);
    assert.deepEqual(sub, ['b/ (ignored)', 'up@ -> ..', 'z.txt', 'zlink@ -> z.txt']);
    const bad = await call(ctx, 'fs_list', { ignore: ['!x'] });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /negations/);
  });

  it("offers respect_ignore only for what it brings back, not for what the call's own ignore globs leave out", async () => {
    const ctx = await context(tree.root);
    const off = await call(ctx, 'fs_list', { depth: 1, respect_ignore: false, ignore: ['*.md'] });
    assert.deepEqual(footer(off.text), ['Left out by your "ignore" globs: 2 files not shown (B.md, readme.md).']);
    const both = await call(ctx, 'fs_list', { depth: 1, ignore: ['*.md'] });
    assert.deepEqual(footer(both.text), ['Left out by ignore rules and your "ignore" globs: 2 folders shown collapsed, 2 files not shown (B.md, readme.md). Add "respect_ignore": false to include what the rules left out.']);
    const rules = await call(ctx, 'fs_list', { depth: 1 });
    assert.deepEqual(footer(rules.text), ['Left out by ignore rules: 2 folders shown collapsed. Add "respect_ignore": false to include them.']);
  });

  it("leaves out a linked work tree's .git file without calling it ignored", async () => {
    const t = tempTree({ '.git': 'gitdir: /elsewhere/.git/worktrees/wt\n', 'a.txt': 'x' });
    try {
      const ctx = await context(t.root);
      for (const input of [{}, { respect_ignore: false }, { include_hidden: false }]) {
        const r = await call(ctx, 'fs_list', input);
        assert.equal(r.text, `Folder . (${t.root}): 1 entry, all shown\na.txt`, JSON.stringify(input));
      }
    } finally {
      t.cleanup();
    }
  });

  it('applies the editor exclude globs and the ignoreGlobs setting', async () => {
    const ctx = await context(tree.root, { ignoreGlobs: ['*.md'] });
    ctx.ws.excludeGlobs = () => ['**/a-b', 'logs/**'];
    const e = entries((await call(ctx, 'fs_list', { depth: 1 })).text);
    assert.ok(e.includes('a-b/ (ignored)') && e.includes('logs/ (ignored)'));
    assert.ok(!e.includes('B.md') && !e.includes('readme.md'));
    const off = entries((await call(ctx, 'fs_list', { depth: 1, respect_ignore: false })).text);
    assert.ok(off.includes('a-b/') && off.includes('B.md'));
  });

  it('pages with a cursor and with an offset, the continuation being an exact call', async () => {
    const ctx = await context(tree.root);
    const first = await call(ctx, 'fs_list', { depth: 2, limit: 5 });
    assert.deepEqual(entries(first.text), ['.env.example', '.git/ (not listed)', '.gitignore', '.hidden/', '  inner.txt']);
    assert.match(first.text, /^Folder \. \([^)]*\): entries 1-5 shown\n/);
    assert.match(first.text, /\nContinue with: fs_list \{"depth":2,"limit":5,"cursor":"[\w-]+"\}$/);
    assert.equal(first.text.match(/Continue with|offset/g)?.length, 1, 'one way to continue');
    const next = continuation('fs_list', first.text)!;
    const second = await call(ctx, 'fs_list', next);
    assert.deepEqual(entries(second.text), ['B.md', 'a/', '  b/', '  up@ -> ..', '  z.txt']);
    assert.match(second.text, /^Folder \. \([^)]*\): entries 6-10 shown\n/);
    const byOffset = await call(ctx, 'fs_list', { depth: 2, limit: 5, offset: 6 });
    assert.deepEqual(entries(byOffset.text), entries(second.text));
    // a page that starts inside a folder repeats the folders it continues
    const third = await call(ctx, 'fs_list', { depth: 2, limit: 2, offset: 9 });
    assert.deepEqual(third.text.split('\n').slice(1, 4), ['a/ (continued)', '  up@ -> ..', '  z.txt']);
  });

  it('refuses a cursor from another listing, both offset and cursor, and an offset past the end', async () => {
    const ctx = await context(tree.root);
    const first = await call(ctx, 'fs_list', { depth: 2, limit: 3 });
    const cursor = continuation('fs_list', first.text)!.cursor as string;
    assert.ok(decodeCursor(cursor));
    const other = await call(ctx, 'fs_list', { depth: 3, limit: 3, cursor });
    assert.equal(other.isError, true);
    assert.match(other.text, /belongs to a different listing/);
    const both = await call(ctx, 'fs_list', { depth: 2, offset: 2, cursor });
    assert.match(both.text, /Give offset or cursor, not both/);
    const junk = await call(ctx, 'fs_list', { cursor: 'not-a-cursor' });
    assert.match(junk.text, /cursor is not one fs_list gave/);
    const past = await call(ctx, 'fs_list', { depth: 1, offset: 500 });
    assert.equal(past.isError, true);
    assert.match(past.text, /offset=500 is past the end of the listing of \.: it has 13 entries at depth 1/);
  });

  it('property: paging with cursors, or with offsets, covers every entry exactly once', async () => {
    const names = fc.constantFrom('a', 'b', 'a-b', 'a.b', 'B', '_x', 'z9', '.h', 'node_modules', 'ä');
    const treeArb = fc.uniqueArray(fc.array(names, { minLength: 1, maxLength: 4 }).map((p) => p.join('/')), { minLength: 1, maxLength: 30 });
    await fc.assert(
      fc.asyncProperty(treeArb, fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 5 }), fc.boolean(), async (paths, limit, depth, useOffset) => {
        const t = tempTree({});
        try {
          for (const p of paths) {
            const abs = path.join(t.root, p);
            if (fs.existsSync(abs)) {
              continue;
            }
            try {
              fs.mkdirSync(path.dirname(abs), { recursive: true });
              fs.writeFileSync(abs, '');
            } catch {
              // a path whose parent is already a file: skip it
            }
          }
          fs.writeFileSync(path.join(t.root, '.gitignore'), 'node_modules\n');
          const ctx = await context(t.root);
          const whole = await call(ctx, 'fs_list', { depth, limit: 1000 });
          const want = entries(whole.text);
          const got: string[] = [];
          let input: Record<string, unknown> | undefined = { depth, limit };
          let offset = 1;
          for (let guard = 0; input && guard < 200; guard++) {
            const r = await call(ctx, 'fs_list', input);
            assert.equal(r.isError, false, r.text);
            got.push(...entries(r.text).filter((l) => !l.endsWith(' (continued)')));
            offset += entries(r.text).filter((l) => !l.endsWith(' (continued)')).length;
            const next = continuation('fs_list', r.text);
            input = next && (useOffset ? { depth, limit, offset } : next);
          }
          assert.deepEqual(got, want);
          assert.equal(continuation('fs_list', whole.text), undefined, 'a page holding everything does not continue');
        } finally {
          t.cleanup();
        }
      }),
      { numRuns: 40 },
    );
  });

  it('answers a page of a large flat folder without sorting all of it, in the same order', async () => {
    const n = 6000;
    const t = tempTree({});
    try {
      const names: string[] = [];
      for (let i = 0; i < n; i++) {
        const name = `f${((i * 7919) % n).toString(36)}.txt`;
        names.push(name);
        fs.writeFileSync(path.join(t.root, name), '');
      }
      const ctx = await context(t.root);
      const r = await call(ctx, 'fs_list', { depth: 1, limit: 50 });
      assert.deepEqual(entries(r.text), names.sort().slice(0, 50));
      const page2 = await call(ctx, 'fs_list', continuation('fs_list', r.text)!);
      assert.deepEqual(entries(page2.text), names.slice(50, 100));
      const deep = await call(ctx, 'fs_list', { depth: 1, limit: 50, offset: 5001 });
      assert.deepEqual(entries(deep.text), names.slice(5000, 5050));
    } finally {
      t.cleanup();
    }
  });

  it('lists folders read by name (large ones) exactly as folders read with types, asking only the types a page reaches', async () => {
    const files: Record<string, string> = { '.gitignore': 'ignored/\n*.log\n', 'ignored/x.txt': 'x', 'x.log': '', '.hidden': '', 'sub/inner.txt': 'i', 'sub/.gitignore': 'inner.txt\n', 'sub/kept.md': 'k' };
    for (let i = 0; i < 3000; i++) {
      files[`f${((i * 7919) % 3000).toString(36)}.txt`] = '';
    }
    const t = tempTree(files);
    try {
      fs.symlinkSync('sub', path.join(t.root, 'link'));
      fs.mkdirSync(path.join(t.root, 'dir0'));
      const ctx = await context(t.root);
      const pages = async (input: Record<string, unknown>): Promise<string[]> => {
        const out: string[] = [];
        for (let next: Record<string, unknown> | undefined = input; next && out.length < 5; next = continuation('fs_list', out[out.length - 1])) {
          out.push((await call(ctx, 'fs_list', next)).text);
        }
        return out;
      };
      const inputs = [{ depth: 1, limit: 40 }, { depth: 2, limit: 7 }, { depth: 2, limit: 30, offset: 2990 }, { depth: 1, limit: 5, include_hidden: false }];
      const typed = await Promise.all(inputs.map(pages));
      let asked = 0;
      let read = 0;
      ctx.ws.readDirectoryNames = async (p: string) => {
        const r = await readLocalNames(p, 0);
        assert.ok(!Array.isArray(r), 'read by name');
        read++;
        return {
          names: r.names,
          type: (i: number) => {
            asked++;
            return r.type(i);
          },
        };
      };
      for (let k = 0; k < inputs.length; k++) {
        assert.deepEqual(await pages(inputs[k]), typed[k], JSON.stringify(inputs[k]));
      }
      assert.ok(read > 0);
      asked = 0;
      await call(ctx, 'fs_list', { depth: 1, limit: 20 });
      // the 21 entries the page reaches, and the one ignore file
      assert.ok(asked <= 22, `${asked} types asked for a page of 20 of 3,000 entries`);
    } finally {
      t.cleanup();
    }
  });

  it('property: the lazy folder order equals a full sort, from any lower bound', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 5000 }), fc.option(fc.string({ maxLength: 3 })), (names, lower) => {
        const it = new LazySorted(names, lower ?? undefined);
        const got: string[] = [];
        for (let i = it.next(); i !== undefined; i = it.next()) {
          got.push(names[i]);
        }
        const want = names.filter((x) => lower === null || x >= lower).sort();
        assert.deepEqual(got, want);
      }),
      { numRuns: 60 },
    );
  });

  it('cuts names over 500 characters and escapes control characters', () => {
    const long = 'n'.repeat(600);
    assert.equal(printableName(long), `${'n'.repeat(500)}… [name cut: 600 characters]`);
    assert.equal(printableName('a\nb'), 'a\\x0ab');
  });

  it('cuts a page to the token budget of the call, and continues after the last entry shown', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 80; i++) {
      files[`dir${i % 4}/file-${String(i).padStart(2, '0')}.txt`] = '';
    }
    const t = tempTree(files);
    try {
      const ctx = await context(t.root);
      const tokens = (s: string) => Math.ceil(s.length / 4);
      const whole = (await call(ctx, 'fs_list', { depth: 2 })).text;
      const budget = Math.floor(tokens(whole) / 2);
      ctx.budget = { tokenBudget: budget, countTokens: async (s: string) => tokens(s) };
      const r = await call(ctx, 'fs_list', { depth: 2 });
      assert.ok(tokens(r.text) <= budget, r.text);
      const shown = entries(r.text);
      assert.ok(shown.length > 1 && shown.length < 84);
      assert.match(r.text, new RegExp(`^Folder \\. \\([^)]*\\): entries 1-${shown.length} shown\\n`));
      assert.match(r.text, /\nContinue with: fs_list \{"depth":2,"cursor":"[\w-]+"\}$/);
      const rest = await call({ ...ctx, budget: undefined }, 'fs_list', continuation('fs_list', r.text)!);
      assert.deepEqual([...shown, ...entries(rest.text).filter((l) => !l.endsWith(' (continued)'))], entries(whole));
    } finally {
      t.cleanup();
    }
  });

  it('counts what ignore rules left out only up to the last entry a page shows, when a token budget cuts it', async () => {
    const files: Record<string, string> = { '.gitignore': '*.log\n' };
    for (let i = 0; i < 40; i++) {
      const n = String(i).padStart(2, '0');
      files[`f${n}.log`] = '';
      files[`f${n}.txt`] = '';
    }
    const t = tempTree(files);
    try {
      const ctx = await context(t.root);
      const ignoredFiles = (text: string) => Number(/: (\d+) files? not shown \(/.exec(text)?.[1] ?? 0);
      const whole = (await call(ctx, 'fs_list', { depth: 1 })).text;
      assert.equal(ignoredFiles(whole), 40);
      // The first five are named, then how many more.
      assert.match(whole, /40 files not shown \(f00\.log, f01\.log, f02\.log, f03\.log, f04\.log and 35 more\)\./);
      const tokens = (s: string) => Math.ceil(s.length / 4);
      ctx.budget = { tokenBudget: 120, countTokens: async (s: string) => tokens(s) };
      const cut = await call(ctx, 'fs_list', { depth: 1 });
      const shown = entries(cut.text);
      const last = shown[shown.length - 1];
      assert.match(last, /^f\d\d\.txt$/);
      // f00.log sorts before f00.txt: the logs left out are those up to the last name shown
      assert.equal(ignoredFiles(cut.text), Number(last.slice(1, 3)) + 1, cut.text);
      let rest = 0;
      let input = continuation('fs_list', cut.text);
      const free = { ...ctx, budget: undefined };
      while (input) {
        const page = await call(free, 'fs_list', input);
        rest += ignoredFiles(page.text);
        input = continuation('fs_list', page.text);
      }
      assert.equal(ignoredFiles(cut.text) + rest, 40, 'each left-out file is counted on exactly one page');
    } finally {
      t.cleanup();
    }
  });

  it('gives byte-identical output for the same tree and input', async () => {
    const ctx = await context(tree.root);
    const a = await call(ctx, 'fs_list', { depth: 3, limit: 7 });
    const b = await call(ctx, 'fs_list', { depth: 3, limit: 7 });
    assert.equal(a.text, b.text);
  });

  it('explains a missing folder, a file given as folder, and a cancelled call', async () => {
    const ctx = await context(tree.root);
    const missing = await call(ctx, 'fs_list', { path: 'srx' });
    assert.equal(missing.isError, true);
    assert.match(missing.text, /^Folder not found: srx\nDid you mean one of these\?\n- src/);
    const file = await call(ctx, 'fs_list', { path: 'readme.md' });
    assert.match(file.text, /readme\.md is a file, not a folder\. fs_list walks folders: give its folder as path, or read the file with fs_read\./);
    const cancelled = await call({ ...ctx, signal: { isCancellationRequested: true } }, 'fs_list', {});
    assert.match(cancelled.text, /cancelled/);
  });

  it('asks before listing outside the workspace', async () => {
    const ctx = await context(path.join(tree.root, 'a'));
    const prep = await prepare(ctx, 'fs_list', { path: path.join(tree.root, 'src') });
    assert.deepEqual(prep?.confirmation?.reasons, ['outside']);
    const inside = await prepare(ctx, 'fs_list', { path: 'b' });
    assert.equal(inside?.confirmation, undefined);
    // outside a workspace folder, paths are absolute and the folder's own rules apply
    const r = await call(ctx, 'fs_list', { path: path.join(tree.root, 'src') });
    assert.equal(r.text.split('\n')[0], `Folder ${path.join(tree.root, 'src')}: 3 entries, all shown`);
    assert.deepEqual(entries(r.text), ['.gitignore', 'gen/ (ignored)', 'main.ts']);
  });

  it('lists a file git tracks although a .gitignore names it, as git does; names the untracked ones it leaves out', async () => {
    const t = tempTree({
      'package.json': '{}',
      'debug.log': 'd',
      '.gitignore': 'package.json\n*.log\ndist/\n',
      'dist/kept.js': 'k',
      'dist/built.js': 'b',
      'dist/sub/deep.js': 'd',
      'dist/other/x.js': 'x',
    });
    try {
      const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@e', '-c', 'user.name=t', ...args], { cwd: t.root, stdio: 'ignore' });
      git('init', '-q');
      git('add', '.gitignore');
      git('add', '-f', 'package.json', 'dist/kept.js', 'dist/sub/deep.js');
      const ctx = await context(t.root);
      const r = await call(ctx, 'fs_list', { depth: 3, include_hidden: false });
      // The ignored folder is walked for its tracked files alone; what git does not track stays left out, and is named.
      assert.deepEqual(entries(r.text), ['dist/', '  kept.js', '  other/ (ignored)', '  sub/', '    deep.js', 'package.json']);
      assert.deepEqual(footer(r.text).slice(0, 1), ['Left out by ignore rules: 1 folder shown collapsed, 2 files not shown (debug.log, dist/built.js). Add "respect_ignore": false to include them.']);
      // Paging through the ignored folder by its cursor keeps to the same entries.
      const paged: string[] = [];
      for (let input: Record<string, unknown> | undefined = { depth: 3, include_hidden: false, limit: 2 }; input; ) {
        const page = await call(ctx, 'fs_list', input);
        paged.push(...entries(page.text).filter((l) => !l.endsWith(' (continued)')));
        input = continuation('fs_list', page.text);
      }
      assert.deepEqual(paged, entries(r.text));
      // The editor's and the call's globs still apply to tracked files.
      assert.deepEqual(entries((await call(ctx, 'fs_list', { depth: 1, include_hidden: false, ignore: ['package.json'] })).text), ['dist/']);
    } finally {
      t.cleanup();
    }
  });

  it('without a repository, a file a .gitignore names is left out and named', async () => {
    const t = tempTree({ 'package.json': '{}', 'a.txt': 'a', '.gitignore': 'package.json\n' });
    try {
      const r = await call(await context(t.root), 'fs_list', { depth: 1, include_hidden: false });
      assert.deepEqual(entries(r.text), ['a.txt']);
      assert.match(r.text, /1 file not shown \(package\.json\)/);
    } finally {
      t.cleanup();
    }
  });

  it('lists what git tracks with source="git", and says so outside a repository', async () => {
    const t = tempTree({ 'tracked/a.ts': 'a', 'untracked.txt': 'u', 'staged.md': 's', '.gitignore': 'tracked/forced.log\n', 'tracked/forced.log': 'f' });
    try {
      const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@e', '-c', 'user.name=t', ...args], { cwd: t.root, stdio: 'ignore' });
      git('init', '-q');
      git('add', 'tracked/a.ts', '.gitignore');
      git('add', '-f', 'tracked/forced.log');
      git('commit', '-q', '-m', 'x');
      git('add', 'staged.md');
      const ctx = await context(t.root);
      const r = await call(ctx, 'fs_list', { source: 'git', depth: 3 });
      assert.deepEqual(entries(r.text), ['.gitignore', 'staged.md', 'tracked/', '  a.ts', '  forced.log']);
      const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'aft-nogit-')));
      try {
        const c2 = await context(outside);
        const e = await call(c2, 'fs_list', { source: 'git' });
        assert.equal(e.isError, true);
        assert.match(e.text, /is not inside a git repository.*source="filesystem"/);
      } finally {
        fs.rmSync(outside, { recursive: true, force: true });
      }
    } finally {
      t.cleanup();
    }
  });
});
