import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { FolderGate, PacedQueue } from '../../src/core/folderGate';
import { PathSubject } from '../../src/core/glob/matcher';
import { compileGitignoreRule } from '../../src/core/glob/gitignoreRule';
import { mayMatchName, nameHint } from '../../src/core/glob/nameHint';
import { Matcher, Overrides, RuleFile } from '../../src/core/ignore/rules';
import { comparePaths, select, Smallest } from '../../src/core/list/order';
import { call, context, rgOnPath, tempTree, withEngine } from './helpers';
import { turnCounter } from './eventLoop';
import type { ProcessHost } from '../../src/core/process';
import type { IgnorePolicy } from '../../src/core/ignore/policy';
import { rgCount, rgDetails, rgFiles, rgMultilineCount, rgTextDetails, threadArgs, type RgScope } from '../../src/core/search/ripgrep';

describe('broad searches: streams, bounded selections, name screens', () => {
  it('a bounded selection keeps exactly the smallest k in order, whatever the order offered', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ maxLength: 6 }), { maxLength: 60 }), fc.nat(70), (items, k) => {
        const top = new Smallest<string>(k, comparePaths);
        for (const x of items) {
          top.offer(x);
        }
        assert.deepEqual(top.sorted(), [...items].sort(comparePaths).slice(0, k));
      }),
    );
  });

  it('a bounded selection cut back many times keeps exactly the smallest k, and from(start) gives those from the start-th on, in order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 100_000 }), { minLength: 0, maxLength: 6000 }), fc.nat(4000), fc.nat(4000), fc.constantFrom('random', 'ascending', 'descending'), (items, k, start, order) => {
        const offered = order === 'ascending' ? [...items].sort((a, b) => a - b) : order === 'descending' ? [...items].sort((a, b) => b - a) : items;
        const top = new Smallest<number>(k, (a, b) => a - b);
        for (const x of offered) {
          top.offer(x);
        }
        const want = [...items].sort((a, b) => a - b).slice(0, k);
        assert.deepEqual(top.from(start), want.slice(start));
      }),
      { numRuns: 60 },
    );
  });

  it('a selection puts the n-th item in its place, none smaller after it and none larger before it, with many equal items', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 3000 }), fc.nat(), (items, at) => {
        const a = [...items];
        const n = at % a.length;
        select(a, n, (x, y) => x - y);
        const sorted = [...items].sort((x, y) => x - y);
        assert.equal(a[n], sorted[n]);
        assert.ok(a.slice(0, n).every((x) => x <= a[n]) && a.slice(n + 1).every((x) => x >= a[n]));
        assert.deepEqual([...a].sort((x, y) => x - y), sorted, 'the same items');
      }),
      { numRuns: 200 },
    );
  });

  it('a folder gate asks each folder once, passes every path of a folder that passes with its answer and where its folder ends, and only those', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('', 'a', 'a/b', 'ab', 'b', 'c', 'g', 'g/h', 'h/g'), fc.constantFrom('x', 'y', 'z', 'a')), { maxLength: 60 }),
        fc.boolean(),
        async (files, later) => {
          const asked: string[] = [];
          const passed: string[] = [];
          const gate = new FolderGate<number, { label: string }>(
            (folder) => {
              asked.push(folder);
              const answer = folder.startsWith('g') ? false : { label: `<${folder}>` };
              return later ? new Promise((r) => setTimeout(() => r(answer), 1)) : answer;
            },
            (rel, n, answer, cut) => passed.push(`${rel}#${n}${answer.label}${cut}`),
          );
          files.forEach(([dir, name], i) => gate.push(dir ? `${dir}/${name}` : name, i));
          await gate.done();
          assert.equal(new Set(asked).size, asked.length, `asked twice: ${asked.join(', ')}`);
          const want = files
            .map(([dir, name], i) => [dir, `${dir ? `${dir}/${name}` : name}#${i}<${dir}>${dir ? dir.length : -1}`])
            .filter(([dir]) => !dir.startsWith('g'))
            .map(([, p]) => p);
          assert.deepEqual([...passed].sort(), want.sort());
        },
      ),
    );
  });

  it('a paced queue works on every item pushed, in later turns than the one that pushed it, and gives its first failure from done', async () => {
    const seen: string[] = [];
    let pushing = true;
    const q = new PacedQueue<string, number>((s, n) => seen.push(`${s}${n}${pushing ? ' in the pushing turn' : ''}`));
    for (let i = 0; i < 100; i++) {
      q.push('p', i);
    }
    await Promise.resolve();
    pushing = false;
    await q.done();
    assert.deepEqual(seen, Array.from({ length: 100 }, (_, i) => `p${i}`));
    const failing = new PacedQueue<string, number>((_s, n) => {
      if (n === 3) {
        throw new Error('too slow');
      }
    });
    for (let i = 0; i < 10; i++) {
      failing.push('q', i);
    }
    await assert.rejects(failing.done(), /too slow/);
  });

  it('a folder gate passes the paths of a folder that come after its answer, as those that waited for it', async () => {
    for (const passes of [true, false]) {
      const passed: string[] = [];
      const gate = new FolderGate<undefined>(
        (folder) => new Promise((r) => setTimeout(() => r(passes || folder !== 'a'), 1)),
        (rel) => passed.push(rel),
      );
      gate.push('a/x', undefined);
      await new Promise((r) => setTimeout(r, 10));
      gate.push('a/y', undefined);
      gate.push('b/z', undefined);
      gate.push('a/w', undefined);
      await gate.done();
      assert.deepEqual([...passed].sort(), passes ? ['a/w', 'a/x', 'a/y', 'b/z'] : ['b/z']);
    }
  });

  it('a folder gate passes the paths that waited for a late answer a slice at a time, giving the thread back between', async () => {
    let passed = 0;
    let turnsAtFirst = 0;
    let turnsAtLast = 0;
    const gate = new FolderGate<undefined>(
      () => new Promise<true>((r) => setTimeout(() => r(true), 5)),
      () => {
        if (passed === 0) {
          turnsAtFirst = counter.turns;
        }
        turnsAtLast = counter.turns;
        const t = performance.now();
        while (performance.now() - t < 0.05) {
          // a path that takes a while to pass on (matching many rules)
        }
        passed++;
      },
    );
    for (let i = 0; i < 2000; i++) {
      gate.push(`a/f${i}`, undefined);
    }
    const counter = turnCounter();
    const t0 = performance.now();
    await gate.done();
    counter.stop();
    const took = performance.now() - t0;
    assert.equal(passed, 2000);
    // about 100 ms of passing: the other work ran between its slices
    assert.ok(turnsAtLast - turnsAtFirst > 5, `${turnsAtLast - turnsAtFirst} turns of other work while the paths were passed on, in ${took.toFixed(0)} ms`);
  });

  it('a folder gate gives the failure of an answer from done, once the stream ends', async () => {
    const gate = new FolderGate<undefined>(
      (folder) => (folder === 'bad' ? Promise.reject(new Error('no answer')) : true),
      () => undefined,
    );
    gate.push('bad/x', undefined);
    gate.push('ok/y', undefined);
    await assert.rejects(gate.done(), /no answer/);
  });

  it('a name screen says "no rule can match" only where the rules, tested one by one, match nothing', () => {
    const part = fc.constantFrom('a', 'B', 'log', '.', '*', '?', 'x', 'é', '[ab]', 'K');
    const line = fc.tuple(fc.constantFrom('', '!', '**/', '/', 'd/'), fc.array(part, { minLength: 1, maxLength: 4 }), fc.constantFrom('', '/')).map(([a, b, c]) => `${a}${b.join('')}${c}`);
    const name = fc.array(fc.constantFrom('a', 'b', 'B', 'log', '.', 'x', 'é', 'K', 'k', '\u212a'), { minLength: 1, maxLength: 5 }).map((xs) => xs.join(''));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 6 }), fc.array(line, { maxLength: 3 }), fc.constantFrom('', 'd', 'd/e'), name, (lines, excludes, dir, file) => {
        const rel = dir ? `${dir}/${file}` : file;
        const rules = new RuleFile('.gitignore', lines);
        // one by one: the last rule that matches decides
        let naive: 'ignore' | 'keep' | undefined;
        for (const l of lines) {
          const r = compileGitignoreRule(l);
          if (r && !r.dirOnly && r.test(new PathSubject(rel))) {
            naive = r.negated ? 'keep' : 'ignore';
          }
        }
        assert.equal(rules.test(rel, false), naive, `${JSON.stringify(lines)} on ${rel}`);
        const matcher = new Matcher(new Overrides(excludes.map((e) => `!${e}`)), undefined, true);
        const frame = { dir: '', files: { '.gitignore': rules }, parent: undefined };
        const screen = matcher.fileScreen(frame);
        if (screen && !screen(rel, rel.lastIndexOf('/') + 1)) {
          assert.equal(matcher.match(frame, rel, false).verdict, undefined, `screened out, yet ${JSON.stringify({ lines, excludes, rel })} matches`);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('name hints: a literal, *literal or literal* on the last segment, compared without regard to ASCII case', () => {
    assert.deepEqual(nameHint('**/build'), { kind: 'exact', text: 'build' });
    assert.deepEqual(nameHint('**/*.LOG'), { kind: 'suffix', text: '.log' });
    assert.deepEqual(nameHint('**/**/.env*'), { kind: 'prefix', text: '.env' });
    for (const p of ['build', 'src/*.log', '**/*.py[cod]', '**/a\\*b', '**/é', '**/*a*']) {
      assert.equal(nameHint(p), undefined, p);
    }
    assert.ok(mayMatchName('App.Log', { kind: 'suffix', text: '.log' }) && !mayMatchName('app.ts', { kind: 'suffix', text: '.log' }));
    assert.ok(!mayMatchName('builds', { kind: 'exact', text: 'build' }) && mayMatchName('.ENV.local', { kind: 'prefix', text: '.env' }));
  });

  it('a whitelisted glob leaves out what a walk by the ignore rules leaves out: random trees with ignore files at every depth, each folder probed at once or waited for, ripgrep or not', async function () {
    this.timeout(120000);
    const rg = rgOnPath();
    const rule = fc.constantFrom('*.ts', '!keep.ts', 'a.ts', 'b/', '/a', 'd/*.ts', '**/e.ts', '!*.ts', 'f*', '*.log', 'keep.ts');
    const ignoreName = fc.constantFrom('.gitignore', '.ignore', '.rgignore');
    const folder = fc.array(fc.constantFrom('a', 'b', 'd'), { maxLength: 3 }).map((xs) => xs.join('/'));
    const file = fc.constantFrom('a.ts', 'e.ts', 'f.ts', 'keep.ts', 'x.log', 'z.ts');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(folder, file), { minLength: 1, maxLength: 60 }),
        fc.array(fc.tuple(folder, ignoreName, fc.array(rule, { minLength: 1, maxLength: 3 })), { maxLength: 6 }),
        fc.boolean(),
        async (paths, ignores, waited) => {
          const files: Record<string, string> = {};
          for (const [dir, name] of paths) {
            files[dir ? `${dir}/${name}` : name] = 'x\n';
          }
          for (const [dir, name, lines] of ignores) {
            files[dir ? `${dir}/${name}` : name] = lines.join('\n') + '\n';
          }
          const t = tempTree(files);
          try {
            const ctx = await context(t.root);
            if (waited) {
              // a folder whose ignore files cannot be asked about at once (a virtual folder): each is waited for
              (ctx.ws as { presentNow?: unknown }).presentNow = undefined;
            }
            // `**/*.ts` is given to the walk as a whitelist, so its matches are checked against the ignore rules
            // here; `**/*.[t]s` is not, so the walk itself leaves out what the rules leave out: the same files
            const listed = (text: string) => text.split('\n').filter((l) => /\.ts$/.test(l) && !l.includes(' '));
            for (const engine of [rg, 'none']) {
              const checked = await withEngine(engine, () => call(ctx, 'fs_glob', { pattern: '**/*.ts', limit: 1000 }));
              const walked = await withEngine(engine, () => call(ctx, 'fs_glob', { pattern: '**/*.[t]s', limit: 1000 }));
              assert.deepEqual(listed(checked.text), listed(walked.text), `${engine}: ${JSON.stringify(files)}\n${checked.text}\n${walked.text}`);
              assert.equal(/^\d+/.exec(checked.text)?.[0] ?? 'No', /^\d+/.exec(walked.text)?.[0] ?? 'No');
            }
          } finally {
            t.cleanup();
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  for (const engine of ['rg', 'none'] as const) {
    it(`${engine === 'rg' ? 'ripgrep' : 'the JavaScript search'}: totals are exact and pages exact when matches outnumber a page many times over, ignored and git-directory matches left out`, async function () {
      this.timeout(60000);
      const files: Record<string, string> = { '.gitignore': 'skip/\n*.log\n', 'pkg/.gitignore': 'local.ts\n' };
      for (let d = 0; d < 12; d++) {
        for (let f = 0; f < 30; f++) {
          files[`m${String(d).padStart(2, '0')}/f${String(f).padStart(2, '0')}.ts`] = `export const x${d}_${f} = 1;\n`;
        }
      }
      Object.assign(files, { 'skip/a.ts': 'export 1\n', 'm00/x.log': 'export\n', 'pkg/local.ts': 'export\n', 'pkg/kept.ts': 'export\n', 'bare.git/HEAD': 'ref\n', 'bare.git/objects/x.ts': 'export\n', 'bare.git/refs/y.ts': 'export\n', 'bare.git/commondir': '.\n' });
      // folders that sort after every page's paths, each with a match its own rules leave out: most come after the page is full, whatever order the walk takes
      for (let d = 0; d < 12; d++) {
        Object.assign(files, { [`z${d}/.gitignore`]: 'local.ts\n', [`z${d}/local.ts`]: 'export\n', [`z${d}/kept.ts`]: 'export\n' });
      }
      const t = tempTree(files);
      try {
        const ctx = await context(t.root);
        const all = [...Object.keys(files).filter((p) => /^(m\d\d|z\d+)\/.*\.ts$/.test(p) && !p.endsWith('local.ts')), 'pkg/kept.ts'].sort(comparePaths);
        await withEngine(engine === 'rg' ? rgOnPath() : 'none', async () => {
          const seen: string[] = [];
          for (let offset = 1; offset <= all.length; offset += 50) {
            const r = await call(ctx, 'fs_glob', { pattern: '**/*.ts', limit: 50, offset });
            assert.match(r.text, new RegExp(`^${all.length} files match \\*\\*/\\*\\.ts in the workspace; ${offset}-${Math.min(offset + 49, all.length)} shown`), r.text.slice(0, 200));
            seen.push(...r.text.split('\n').filter((l) => /^(m\d\d|pkg|z\d+)\//.test(l)));
          }
          assert.deepEqual(seen, all);
          // page after page by the cursor each gives: the matches before it are counted, not listed
          const byCursor: string[] = [];
          let input: Record<string, unknown> = { pattern: '**/*.ts', limit: 40 };
          for (let page = 0; page < 20; page++) {
            const r = await call(ctx, 'fs_glob', input);
            assert.match(r.text, new RegExp(`^${all.length} files match \\*\\*/\\*\\.ts in the workspace; ${byCursor.length + 1}-`), r.text.slice(0, 200));
            byCursor.push(...r.text.split('\n').filter((l) => /^(m\d\d|pkg|z\d+)\//.test(l)));
            const next = /\nContinue with: fs_glob (\{.*\})$/.exec(r.text);
            if (!next) {
              break;
            }
            input = JSON.parse(next[1]) as Record<string, unknown>;
          }
          assert.deepEqual(byCursor, all);
          const g = await call(ctx, 'fs_grep', { pattern: 'export', output: 'files', limit: 1000 });
          assert.match(g.text, new RegExp(`^${all.length} matching lines in ${all.length} files for "export"`));
          assert.deepEqual(g.text.split('\n').filter((l) => /^(m\d\d|pkg|z\d+)\//.test(l)), all);
          const inc = await call(ctx, 'fs_grep', { pattern: 'export', include: '*.ts', offset: all.length });
          assert.match(inc.text, new RegExp(`^${all.length} matching lines in ${all.length} files for "export" in the workspace \\(include: \\*\\.ts\\); ${all.length} shown \\(end\\):\\nz9/kept\\.ts\\n`), inc.text.slice(0, 300));
        });
      } finally {
        t.cleanup();
      }
    });
  }
  it('ripgrep: where a page fills before the walk ends, the paths of folders that sort after it (or before the cursor) are counted from their bytes, ignored and git-directory matches left out', async function () {
    this.timeout(60000);
    // over 2,000 matches, so the page's bar is set, and moves, while ripgrep walks on; folders holding a match their own rules leave out, among them
    const files: Record<string, string> = { '.gitignore': 'skip/\n', 'skip/a.ts': 'x\n', 'bare.git/HEAD': 'ref\n', 'bare.git/objects/x.ts': 'x\n', 'bare.git/refs/y.ts': 'x\n' };
    for (let d = 0; d < 60; d++) {
      const dir = `m${String(d).padStart(2, '0')}`;
      for (let f = 0; f < 40; f++) {
        files[`${dir}/f${String(f).padStart(2, '0')}.ts`] = 'x\n';
      }
      if (d % 3 === 0) {
        Object.assign(files, { [`${dir}/.gitignore`]: 'local.ts\n', [`${dir}/local.ts`]: 'x\n' });
      }
      if (d % 3 === 1) {
        // two characters in three bytes and three in four: ripgrep's `???` (bytes) would take `xé.ts` and leave out `xéz.ts`
        Object.assign(files, { [`${dir}/xé.ts`]: 'x\n', [`${dir}/xéz.ts`]: 'x\n' });
      }
    }
    const t = tempTree(files);
    try {
      const ctx = await context(t.root);
      const all = Object.keys(files)
        .filter((p) => /^m\d\d\/(f\d\d|xé|xéz)\.ts$/.test(p))
        .sort(comparePaths);
      await withEngine(rgOnPath(), async () => {
        const head = (n: number, first: number) => new RegExp(`^${all.length} files match \\*\\*/\\*\\.ts in the workspace; ${first === n ? first : `${first}-${n}`} shown:\\n${all.slice(first - 1, n).join('\\n')}\\n`);
        const one = await call(ctx, 'fs_glob', { pattern: '**/*.ts', limit: 1 });
        assert.match(one.text, head(1, 1), one.text.slice(0, 300));
        const deep = await call(ctx, 'fs_glob', { pattern: '**/*.ts', limit: 3, offset: 1201 });
        assert.match(deep.text, head(1203, 1201), deep.text.slice(0, 300));
        const next = /\nContinue with: fs_glob (\{.*\})$/.exec(deep.text);
        const later = await call(ctx, 'fs_glob', { ...(JSON.parse(next![1]) as object), limit: 1 });
        assert.match(later.text, head(1204, 1204), later.text.slice(0, 300));
        // a `?` is one character, whatever ripgrep takes it for
        const three = await call(ctx, 'fs_glob', { pattern: '**/???.ts', limit: 1 });
        assert.match(three.text, /^2420 files match \*\*\/\?\?\?\.ts in the workspace; 1 shown:\nm00\/f00\.ts\n/, three.text.slice(0, 300));
        const two = await call(ctx, 'fs_glob', { pattern: '**/??.ts', limit: 1 });
        assert.match(two.text, /^20 files match \*\*\/\?\?\.ts in the workspace; 1 shown:\nm01\/xé\.ts\n/, two.text.slice(0, 300));
      });
    } finally {
      t.cleanup();
    }
  });

  it('ripgrep is given one thread fewer than the processors, one at least, twelve at most, for a walk that lists the files a glob whitelists where the extension host reads it, and its own count for a whole walk, a search of contents or a process of its own; every run prints paths with "/"', async () => {
    assert.deepEqual([1, 2, 3, 8, 13, 64].map((n) => threadArgs(n)), [['--threads=1'], ['--threads=1'], ['--threads=2'], ['--threads=7'], ['--threads=12'], ['--threads=12']]);
    assert.deepEqual(threadArgs(undefined), []);
    assert.deepEqual(threadArgs(0), []);
    const runs: string[][] = [];
    const proc = {
      cores: 4,
      env: {},
      isExecutable: () => true,
      tempFile: () => Promise.reject(new Error('no file needed')),
      startTask: () => {
        throw new Error('no task needed');
      },
      run: (_command: string, args: readonly string[], opts: { onLine?: (l: string) => void }) => {
        runs.push([...args]);
        opts.onLine?.('a.ts\u00002');
        return Promise.resolve({ code: 0, stdout: '', stderr: '', overflow: false });
      },
    } as unknown as ProcessHost;
    const policy = { spec: { respectIgnore: true }, ancestorLines: [], ripgrepArgs: () => ['--no-config'] } as unknown as IgnorePolicy;
    const scope: RgScope = { rg: '/bin/rg', proc, cwd: '/w', target: undefined, policy };
    const q = { pattern: 'x', fixedStrings: false, caseMode: 'smart', multiline: false } as const;
    await rgFiles(scope, ['**/*.ts'], [], () => undefined);
    await rgFiles(scope, [], [], () => undefined);
    await rgCount(scope, q, [], () => undefined);
    await rgMultilineCount(scope, { ...q, multiline: true }, [], () => undefined);
    await rgDetails(scope, q, ['a.ts'], 1, 0, 1000);
    await rgTextDetails(scope, q, 'x', undefined, 0);
    assert.equal(runs.length, 6);
    assert.deepEqual(runs[0].slice(0, 3), ['--threads=3', '--path-separator=/', '--files'], runs[0].join(' '));
    // the CLI's own process: no thread kept back for other work
    await rgFiles({ ...scope, proc: { ...proc, run: proc.run, readerShared: false } }, ['**/*.ts'], [], () => undefined);
    assert.equal(runs.length, 7);
    assert.deepEqual(runs[6].slice(0, 2), ['--path-separator=/', '--files'], runs[6].join(' '));
    for (const args of runs.slice(1)) {
      assert.ok(!args.some((a) => a.startsWith('--threads') || a === '-j'), args.join(' '));
      // ripgrep separates with a backslash on Windows unless told: every folder question would see the root
      assert.equal(args[0], '--path-separator=/', args.join(' '));
    }
  });
});
