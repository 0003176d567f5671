import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RIPGREP_ENV, shortParseError } from '../../src/core/search/ripgrep';
import { compileQuery, hasUppercaseLiteral } from '../../src/core/search/regex';
import { findRecords } from '../../src/core/search/textSearch';
import { call, context, continuation, prepare, tempTree, withEngine, rgOnPath } from './helpers';

/** The input of the call a page continues with. */
function continued(text: string): Record<string, unknown> {
  const next = continuation('fs_grep', text);
  assert.ok(next, text);
  return next;
}

/** Both engines: every test of this file runs on each. */
const ENGINES: [string, () => string][] = [
  ['ripgrep', rgOnPath],
  ['javascript', () => 'none'],
];


for (const [engineName, engine] of ENGINES) {
  describe(`fs_grep (${engineName})`, () => {
    let tree: ReturnType<typeof tempTree>;
    before(() => {
      tree = tempTree({
        'src/app.ts': 'import { needle } from "./lib";\nconst a = 1;\nconst b = 2;\nexport const c = needle(a);\n',
        'src/lib.ts': 'export function needle(x: number) {\n  return x;\n}\n',
        'src/notes.md': 'A Needle in prose.\n',
        'ctx/gap.ts': 'needle\na\nb\nc\nd\nneedle\n',
        'src/deep/more.ts': '// needle here\n',
        'docs/crlf.txt': 'needle one\r\nplain\r\nneedle two\r\n',
        'docs/long.txt': `needle ${'x'.repeat(2500)}\n`,
        'docs/bin.dat': Buffer.concat([Buffer.from('needle\n'), Buffer.from([0, 1, 2, 3])]),
        'docs/regex.txt': 'a.b(c)\naxb(c)\n',
        'docs/multi.txt': 'begin\nneedle\nend\nbegin\nend\n',
        'node_modules/pkg/index.js': 'needle\n',
        'logs/run.log': 'needle\n',
        '.gitignore': 'node_modules/\n*.log\n',
        '.env': 'TOKEN_needle=1\n',
        'many.txt': Array.from({ length: 250 }, (_, i) => `row ${i + 1} needle`).join('\n') + '\n',
      });
    });
    after(() => tree.cleanup());

    const run = async (input: Record<string, unknown>, ctxFn?: (ctx: Awaited<ReturnType<typeof context>>) => void) =>
      withEngine(engine(), async () => {
        const ctx = await context(tree.root);
        ctxFn?.(ctx);
        return call(ctx, 'fs_grep', input);
      });

    it('groups matching lines by file in path order under a header with totals', async () => {
      const r = await run({ pattern: 'needle', path: 'src' });
      assert.equal(r.isError, false, r.text);
      assert.equal(
        r.text,
        [
          '5 matching lines in 4 files for "needle" in src; all shown:',
          'src/app.ts',
          '  L1: import { needle } from "./lib";',
          '  L4: export const c = needle(a);',
          'src/deep/more.ts',
          '  L1: // needle here',
          'src/lib.ts',
          '  L1: export function needle(x: number) {',
          'src/notes.md',
          '  L1: A Needle in prose.',
        ].join('\n'),
      );
    });

    it('marks context lines apart from matches and gaps with "--"', async () => {
      const r = await run({ pattern: 'needle', path: 'ctx/gap.ts', context: 1 });
      assert.match(r.text, /\nctx\/gap\.ts\n {2}L1: needle\n {2}L2- a\n {2}--\n {2}L5- d\n {2}L6: needle$/);
      const joined = await run({ pattern: 'needle', path: 'ctx/gap.ts', context: 2 });
      assert.match(joined.text, /\n {2}L1: needle\n {2}L2- a\n {2}L3- b\n {2}L4- c\n {2}L5- d\n {2}L6: needle$/);
    });

    it('a page that starts inside a file does not show again the context lines the page before showed', async () => {
      // records at lines 1 and 6 with context 3: the first page shows lines 1-4 and 5 (6 is a record of the next page)
      const first = await run({ pattern: 'needle', path: 'ctx/gap.ts', context: 3, limit: 1 });
      assert.match(first.text, /\n {2}L1: needle\n {2}L2- a\n {2}L3- b\n {2}L4- c\nContinue with: /);
      const next = await run({ pattern: 'needle', path: 'ctx/gap.ts', context: 3, limit: 1, offset: 2 });
      assert.match(next.text, /\nctx\/gap\.ts \(2 of its 2 matching lines\)\n {2}L5- d\n {2}L6: needle$/);
      // a record shown as context on the page before is shown again, as a record
      const close = await run({ pattern: 'a|b', path: 'ctx/gap.ts', context: 1, limit: 1, offset: 2 });
      assert.match(close.text, /\n {2}L3: b\n {2}L4- c$/);
    });

    it('lists files or counts per file', async () => {
      const files = await run({ pattern: 'needle', path: 'src', output: 'files' });
      assert.equal(files.text, '5 matching lines in 4 files for "needle" in src; all shown:\nsrc/app.ts\nsrc/deep/more.ts\nsrc/lib.ts\nsrc/notes.md');
      const count = await run({ pattern: 'needle', path: 'src', output: 'count' });
      assert.equal(count.text, '5 matching lines in 4 files for "needle" in src; all shown:\nsrc/app.ts: 2\nsrc/deep/more.ts: 1\nsrc/lib.ts: 1\nsrc/notes.md: 1');
      const paged = await run({ pattern: 'needle', path: 'src', output: 'files', limit: 3 });
      assert.match(paged.text, /^5 matching lines in 4 files for "needle" in src; files 1-3 shown:\n/);
    });

    it('narrows with include globs: a bare glob at any depth, a path glob, braces', async () => {
      const bare = await run({ pattern: 'needle', include: '*.ts', output: 'files' });
      assert.match(bare.text, /:\nctx\/gap\.ts\nsrc\/app\.ts\nsrc\/deep\/more\.ts\nsrc\/lib\.ts\nLeft out by ignore rules: not searched: node_modules\/\./);
      const deep = await run({ pattern: 'needle', include: 'src/*/*.ts', output: 'files' });
      assert.match(deep.text, /:\nsrc\/deep\/more\.ts$/, 'a glob that starts in src/ cannot reach node_modules/: no note');
      const braces = await run({ pattern: 'needle', path: 'src', include: '*.{md,txt}', output: 'files' });
      assert.match(braces.text, /:\nsrc\/notes\.md$/);
      const cls = await run({ pattern: 'needle', path: 'src', include: '[al]*.ts', output: 'files' });
      assert.match(cls.text, /:\nsrc\/app\.ts\nsrc\/lib\.ts$/);
    });

    it('uses smart case unless told, and fixed strings literally', async () => {
      assert.match((await run({ pattern: 'Needle', path: 'src', output: 'files' })).text, /:\nsrc\/notes\.md$/);
      assert.match((await run({ pattern: 'needle', path: 'src', case_sensitive: true, output: 'count' })).text, /^4 matching lines in 3 files/);
      assert.match((await run({ pattern: 'NEEDLE', path: 'src', case_sensitive: 'false', output: 'count' })).text, /^5 matching lines in 4 files/);
      const fixed = await run({ pattern: 'a.b(c)', path: 'docs/regex.txt', fixed_strings: true });
      assert.equal(fixed.text, '1 matching line in 1 file for "a.b(c)" in docs/regex.txt; all shown:\ndocs/regex.txt\n  L1: a.b(c)');
      const regex = await run({ pattern: 'a.b\\(c\\)', path: 'docs/regex.txt' });
      assert.match(regex.text, /^2 matching lines in 1 file/);
    });

    it('says when smart case made a search that found nothing case-sensitive, with the call that ignores case', async () => {
      const none = await run({ pattern: 'NEEDLE', path: 'src', output: 'files' });
      assert.equal(
        none.text,
        [
          'No matching lines for "NEEDLE" in src.',
          'The pattern has an uppercase letter, so the search was case-sensitive (smart case).',
          'Try: fs_grep {"pattern":"NEEDLE","path":"src","output":"files","case_sensitive":false}',
        ].join('\n'),
      );
      const tried = await run({ pattern: 'NEEDLE', path: 'src', output: 'files', case_sensitive: false });
      assert.match(tried.text, /^5 matching lines in 4 files/);
      assert.equal((await run({ pattern: 'NEEDLE', path: 'src', case_sensitive: true })).text, 'No matching lines for "NEEDLE" in src.', 'case asked for: no hint');
      assert.equal((await run({ pattern: 'nothing\\W+here', path: 'src' })).text, 'No matching lines for "nothing\\W+here" in src.', 'an uppercase escape is not a letter');
    });

    it('searches across lines with multiline', async () => {
      const r = await run({ pattern: 'begin\\nneedle', path: 'docs/multi.txt', multiline: true });
      assert.equal(r.text, '1 match in 1 file for "begin\\nneedle" in docs/multi.txt; all shown:\ndocs/multi.txt\n  L1: begin\n  L2: needle');
      const refused = await run({ pattern: 'begin\\nneedle', path: 'docs/multi.txt' });
      assert.equal(refused.isError, true);
      assert.match(refused.text, /literal .*\\n.* not allowed|not allowed in a regex/);
    });

    it('pages with limit, offset and the cursor of the continuation, the exact next call', async () => {
      const first = await run({ pattern: 'needle', path: 'many.txt' });
      assert.match(first.text, /^250 matching lines in 1 file for "needle" in many\.txt; 1-100 shown:\nmany\.txt \(1-100 of its 250 matching lines\)\n {2}L1: row 1 needle\n/);
      assert.ok(!first.text.includes('L101:'));
      const m = /\n {2}L100: row 100 needle\nContinue with: fs_grep (\{.*\})$/.exec(first.text);
      assert.ok(m, first.text);
      const { cursor, ...same } = JSON.parse(m[1]) as Record<string, unknown>;
      assert.deepEqual(same, { pattern: 'needle', path: 'many.txt' });
      assert.match(String(cursor), /^[\w-]+$/);
      const second = await run(JSON.parse(m[1]));
      // an offset gives the same page, and continues it the same way
      assert.equal(second.text, (await run({ pattern: 'needle', path: 'many.txt', offset: 101 })).text);
      assert.match(second.text, /^250 matching lines in 1 file for "needle" in many\.txt; 101-200 shown:\nmany\.txt \(101-200 of its 250 matching lines\)\n {2}L101: row 101 needle\n/);
      const last = await run({ pattern: 'needle', path: 'many.txt', offset: 201, limit: 1000 });
      assert.match(last.text, /^250 matching lines in 1 file for "needle" in many\.txt; 201-250 shown \(end\):\n/);
      assert.ok(last.text.endsWith('\n  L250: row 250 needle'), 'nothing remains: no Continue line');
      const past = await run({ pattern: 'needle', path: 'many.txt', offset: 251 });
      assert.equal(past.isError, true);
      assert.match(past.text, /offset=251 is past the end: there are 250 matching lines/);
      const files = await run({ pattern: 'needle', output: 'files', limit: 2 });
      assert.match(files.text, /\nContinue with: fs_grep \{"pattern":"needle","output":"files","limit":2,"cursor":"[\w-]+"\}$/);
    });

    it('continues a cursor after the results it names, file by file and within a file, as an offset would, whatever the output', async () => {
      for (const input of [
        { pattern: 'needle|const', path: 'src', limit: 2 },
        { pattern: 'needle|const', path: 'src', limit: 3, context: 1 },
        { pattern: 'needle', path: 'src', output: 'files', limit: 2 },
        { pattern: 'needle', path: 'src', output: 'count', limit: 3 },
        { pattern: 'needle.*\\n', path: 'src', multiline: true, limit: 1 },
      ]) {
        const whole = await run({ ...input, limit: 1000 });
        const body = (t: string) => t.split('\n').filter((l) => !/^(Left out |Continue with: |The search |Narrow )/.test(l)).slice(1);
        let r = await run(input);
        const seen = body(r.text);
        let pages = 1;
        while (r.text.includes('\nContinue with: ')) {
          const next = continued(r.text);
          const start = Number(/; (?:files )?(\d+)/.exec(r.text)![1]) + input.limit;
          const byOffset = await run({ ...input, offset: start });
          r = await run(next);
          // the same page an offset gives, but for the call that continues it
          assert.deepEqual(r.text.split('\n').slice(0, -1), byOffset.text.split('\n').slice(0, -1), JSON.stringify(input));
          seen.push(...body(r.text));
          pages++;
        }
        assert.ok(pages > 1, JSON.stringify(input));
        // the pages hold the whole search's results, each once
        // a file split across pages is named on each: once, as the whole search names it
        const matches = (ls: string[]) => {
          let file: string | undefined;
          return ls
            .filter((l) => !/^ {2}L\d+- /.test(l))
            .map((l) => l.replace(/ \(\d+(-\d+)? of its [^)]*\)$/, ''))
            .filter((l) => l.startsWith('  ') || (l !== file && (file = l)));
        };
        assert.deepEqual(matches(seen), matches(body(whole.text)), JSON.stringify(input));
      }
    });

    it('continues after the file a cursor names when files before it change, and refuses a cursor of another search', async () => {
      const t = tempTree({ 'a.txt': 'x\nx\n', 'b.txt': 'x\nx\nx\n', 'c.txt': 'x\n' });
      try {
        const grep = (input: Record<string, unknown>) => withEngine(engine(), async () => call(await context(t.root), 'fs_grep', input));
        const first = await grep({ pattern: 'x', limit: 3 });
        assert.match(first.text, /^6 matching lines in 3 files for "x" in the workspace; 1-3 shown:\na\.txt\n {2}L1: x\n {2}L2: x\nb\.txt \(1 of its 3 matching lines\)\n {2}L1: x\n/);
        const cursor = continued(first.text).cursor;
        fs.writeFileSync(path.join(t.root, 'a.txt'), 'x\n');
        fs.writeFileSync(path.join(t.root, '0.txt'), 'x\nx\n');
        const next = await grep({ pattern: 'x', limit: 3, cursor });
        assert.equal(next.text, '7 matching lines in 4 files for "x" in the workspace; 5-7 shown (end):\nb.txt (2-3 of its 3 matching lines)\n  L2: x\n  L3: x\nc.txt\n  L1: x');
        fs.rmSync(path.join(t.root, 'c.txt'));
        fs.writeFileSync(path.join(t.root, 'b.txt'), 'x\n');
        assert.equal((await grep({ pattern: 'x', limit: 3, cursor })).text, '4 matching lines in 3 files for "x" in the workspace; none after the 1 matching line shown in b.txt, where the previous page ended.');
        assert.match((await grep({ pattern: 'x', cursor, offset: 2 })).text, /Give offset or cursor, not both/);
        assert.match((await grep({ pattern: 'y', cursor })).text, /This cursor belongs to a different search/);
        assert.match((await grep({ pattern: 'x', output: 'files', cursor })).text, /This cursor belongs to a different search/);
        assert.match((await grep({ pattern: 'x', cursor: 'nope' })).text, /cursor is not one fs_grep gave/);
        // the page's size and context are the caller's to change
        assert.match((await grep({ pattern: 'x', limit: 1, context: 1, cursor })).text, /^4 matching lines in 3 files for "x" in the workspace; none after/);
      } finally {
        t.cleanup();
      }
    });

    it('cuts a page to the token budget of the call, record by record', async () => {
      const r = await run({ pattern: 'needle', path: 'many.txt' }, (ctx) => {
        ctx.budget = { tokenBudget: 150, countTokens: async (t: string) => Math.ceil(t.length / 4) };
      });
      assert.ok(Math.ceil(r.text.length / 4) <= 150, r.text);
      const n = (r.text.match(/^ {2}L\d+: /gm) ?? []).length;
      assert.ok(n >= 1 && n < 100);
      assert.match(r.text, new RegExp(`many\\.txt \\(1-${n} of its 250 matching lines\\)`));
      assert.match(r.text, /\nContinue with: fs_grep \{"pattern":"needle","path":"many\.txt","cursor":"[\w-]+"\}$/);
      assert.match((await run(continued(r.text))).text, new RegExp(`^250 matching lines in 1 file for "needle" in many\\.txt; ${n + 1}-${n + 100} shown:\\nmany\\.txt \\(${n + 1}-${n + 100} of its 250 matching lines\\)\\n {2}L${n + 1}: row ${n + 1} needle\\n`));
    });

    it('cuts lines over 2000 characters, strips CR, skips binary files', async () => {
      const r = await run({ pattern: 'needle', path: 'docs' });
      const t = r.text;
      assert.match(t, /\ndocs\/crlf\.txt\n {2}L1: needle one\n {2}L3: needle two\n/);
      assert.match(t, /\ndocs\/multi\.txt\n {2}L2: needle/);
      assert.ok(!t.includes('\r'));
      assert.ok(t.includes(`  L1: needle ${'x'.repeat(1993)}… [line cut: characters 1-2000 of 2507 shown; next piece: fs_read {"path":"docs/long.txt","offset":1,"limit":1,"column":2001}]`));
      assert.ok(!t.includes('bin.dat'));
      const named = await run({ pattern: 'needle', path: 'docs/bin.dat' });
      assert.equal(named.isError, true);
      assert.match(named.text, /^docs\/bin\.dat is a binary file \(it holds NUL bytes\), so fs_grep does not search it\./);
    });

    it('names the problem of an invalid regex', async () => {
      const r = await run({ pattern: 'foo(' });
      assert.equal(r.isError, true);
      assert.match(r.text, /^Invalid pattern[\s\S]*(unclosed group|Unterminated group)/i);
      assert.match(r.text, /fixed_strings/);
    });

    it('echoes no long pattern whole: an invalid one around the fault, a valid one cut in the first line, whole in the Continue line', async () => {
      const bad = await run({ pattern: `${'(abc|'.repeat(600)}` });
      assert.equal(bad.isError, true);
      assert.match(bad.text, /^Invalid pattern/);
      assert.ok(bad.text.length < 500, `${bad.text.length} characters: ${bad.text.slice(0, 300)}`);
      const long = `needle|${Array.from({ length: 400 }, (_, i) => `zz${i}`).join('|')}`;
      const r = await run({ pattern: long, limit: 1 });
      const [first] = r.text.split('\n');
      assert.match(first, /^\d+ matching lines in \d+ files for "needle\|zz0\|[^"]*"\.\.\. \(\d+ characters\) in the workspace; 1 shown:$/);
      assert.ok(first.length < 250, first);
      const next = /\nContinue with: fs_grep (\{.*\})$/.exec(r.text);
      assert.equal(next && JSON.parse(next[1]).pattern, long);
    });

    it('searches unsaved editor buffers instead of their files', async () => {
      const dirty = (ctx: Awaited<ReturnType<typeof context>>) => {
        ctx.ws.dirtyDocuments = () => [
          { path: path.join(tree.root, 'src', 'lib.ts'), text: 'no match left\nbut an unsavedNeedle here\n' },
          { path: path.join(tree.root, 'src', 'notes.md'), text: 'nothing\n' },
          { path: path.join(tree.root, 'node_modules', 'pkg', 'index.js'), text: 'unsavedNeedle\n' },
        ];
      };
      const r = await run({ pattern: 'unsavedNeedle' }, dirty);
      assert.match(r.text, /^1 matching line in 1 file for "unsavedNeedle" in the workspace; all shown:\nsrc\/lib\.ts\n {2}L2: but an unsaved/);
      const gone = await run({ pattern: 'Needle', path: 'src', output: 'files' }, dirty);
      assert.match(gone.text, /:\nsrc\/lib\.ts$/, 'the buffer of notes.md no longer matches; its file on disk does');
    });

    it('says nothing that depends on what sensitive files hold, unless that file was approved', async () => {
      const r = await run({ pattern: 'TOKEN' });
      assert.match(r.text, /^No matching lines for "TOKEN" in the workspace\./);
      assert.ok(!r.text.includes('.env'), r.text);
      const miss = await run({ pattern: 'NOTHERE' });
      assert.equal(r.text.replaceAll('TOKEN', 'NOTHERE'), miss.text, 'a right guess reads like a wrong one');
      const approved = await run({ pattern: 'TOKEN', path: '.env' });
      assert.match(approved.text, /L1: TOKEN_needle=1/);
      const prep = await withEngine(engine(), async () => prepare(await context(tree.root), 'fs_grep', { pattern: 'x', path: '.env' }));
      assert.deepEqual(prep?.confirmation?.reasons, ['sensitive']);
    });

    it('says what ignore rules skipped, and searches it on request', async () => {
      const r = await run({ pattern: 'needle', output: 'files' });
      assert.match(r.text, /\nLeft out by ignore rules: not searched: logs\/run\.log, node_modules\/\. Add "respect_ignore": false to include them\.$/);
      const all = await run({ pattern: 'needle', output: 'files', respect_ignore: false });
      assert.match(all.text, /\nlogs\/run\.log\n/);
      assert.match(all.text, /\nnode_modules\/pkg\/index\.js\n/);
      const inc = await run({ pattern: 'needle', include: '*.{log,js}', output: 'files' });
      assert.match(inc.text, /\nLeft out by ignore rules: 1 matching file \(1 matching line\): logs\/run\.log; not searched: node_modules\/\. Add "respect_ignore": false to include them\.$/);
    });

    it('says what ignore rules left out on the first page only: it is the same on every page', async () => {
      const first = await run({ pattern: 'needle', output: 'files', limit: 1 });
      assert.match(first.text, /\nLeft out by ignore rules: not searched: logs\/run\.log, node_modules\/\. Add "respect_ignore": false to include them\.\nContinue with: /);
      const m = /\nContinue with: fs_grep (\{.*\})$/.exec(first.text);
      assert.ok(m, first.text);
      const second = await run(JSON.parse(m[1]));
      assert.ok(!second.text.includes('Left out'), second.text);
      assert.match(second.text, /; files 2 shown( \(end\))?:\n/);
    });

    it('gives byte-identical output for the same tree and input', async () => {
      const a = await run({ pattern: 'needle|const', context: 2 });
      const b = await run({ pattern: 'needle|const', context: 2 });
      assert.equal(a.text, b.text);
    });
  });
}

/**
 * Runs `fn` on a temporary tree of `files` holding a stand-in for ripgrep: a shell script
 * whose body `script` gives (from the tree's root), executable, at the path `fn` is given.
 */
async function withStandInRipgrep(files: Record<string, string>, script: (root: string) => string, fn: (root: string, rg: string) => Promise<void>): Promise<void> {
  const t = tempTree(files);
  try {
    const rg = path.join(t.root, 'stand-in-rg');
    fs.writeFileSync(rg, `#!/bin/sh\n${script(t.root)}\n`, { mode: 0o755 });
    await fn(t.root, rg);
  } finally {
    t.cleanup();
  }
}

describe('fs_grep engine', () => {
  it('pages two workspace folders of the same name, whose files print alike, each result once', async () => {
    const parent = tempTree({ 'one/src/a.txt': 'x\nx\n', 'two/src/a.txt': 'x\nx\n' });
    try {
      const roots = [path.join(parent.root, 'one', 'src'), path.join(parent.root, 'two', 'src')];
      const grep = (input: Record<string, unknown>) => withEngine(rgOnPath(), async () => call(await context(roots), 'fs_grep', input));
      let r = await grep({ pattern: 'x', limit: 1 });
      const heads = [r.text.split('\n')[0]];
      while (r.text.includes('\nContinue with: ')) {
        r = await grep(continued(r.text));
        heads.push(r.text.split('\n')[0]);
      }
      assert.deepEqual(heads, [1, 2, 3, 4].map((n) => `4 matching lines in 2 files for "x" in the workspace folders; ${n} shown${n === 4 ? ' (end)' : ''}:`));
    } finally {
      parent.cleanup();
    }
  });

  it('prints the paths of several workspace folders as the model gives them back, in every output, however they sort', async () => {
    const parent = tempTree({ 'one/src/a.txt': 'x\n', 'two/lib/b.txt': 'x\nx\n', 'three/src/c.txt': 'x\n' });
    try {
      const roots = [path.join(parent.root, 'one', 'src'), path.join(parent.root, 'two', 'lib'), path.join(parent.root, 'three', 'src')];
      const grep = (input: Record<string, unknown>) => withEngine(rgOnPath(), async () => call(await context(roots), 'fs_grep', input));
      const head = '4 matching lines in 3 files for "x" in the workspace folders; all shown:';
      assert.equal((await grep({ pattern: 'x' })).text, `${head}\nlib/b.txt\n  L1: x\n  L2: x\nsrc/a.txt\n  L1: x\nsrc/c.txt\n  L1: x`);
      assert.equal((await grep({ pattern: 'x', output: 'files' })).text, `${head}\nlib/b.txt\nsrc/a.txt\nsrc/c.txt`);
      assert.equal((await grep({ pattern: 'x', output: 'count' })).text, `${head}\nlib/b.txt: 2\nsrc/a.txt: 1\nsrc/c.txt: 1`);
      // a page that ends inside a file names it as printed, and so does the page after it
      const first = await grep({ pattern: 'x', limit: 1 });
      assert.match(first.text, /^4 matching lines in 3 files for "x" in the workspace folders; 1 shown:\nlib\/b\.txt \(1 of its 2 matching lines\)\n {2}L1: x\n/);
      const next = await grep(continued(first.text));
      assert.match(next.text, /; 2 shown:\nlib\/b\.txt \(2 of its 2 matching lines\)\n {2}L2: x\n/);
      for (const r of [first, next]) {
        assert.doesNotMatch(r.text, /\0/);
      }
    } finally {
      parent.cleanup();
    }
  });

  it('says the files changed during the search when the lines it counted are gone when read, and gives no call to continue', async () => {
    // a ripgrep whose count finds two lines in a.txt, and whose read of them finds none: the file changed in between
    const script = () => 'for a in "$@"; do [ "$a" = "--count" ] && { printf \'a.txt\\0002\\n\'; exit 0; }; done\nexit 1';
    await withStandInRipgrep({ 'a.txt': 'x\nx\n' }, script, async (root, rg) => {
      const r = await withEngine(rg, async () => call(await context(root), 'fs_grep', { pattern: 'x', limit: 1 }));
      assert.equal(r.isError, true, r.text);
      assert.match(r.text, /The matching files changed while they were searched: the lines counted were gone when read\. Repeat the call\./);
      assert.doesNotMatch(r.text, /Continue with/);
    });
  });

  it('logs which ripgrep it uses, once', async () => {
    const t = tempTree({ 'a.txt': 'x\n' });
    try {
      const logged: string[] = [];
      const ctx = await context(t.root);
      ctx.log = { info: (m) => logged.push(m), warn() {}, error() {} };
      const rg = rgOnPath();
      const fake = path.join(t.root, 'bin-rg');
      fs.symlinkSync(rg, fake);
      await withEngine(fake, async () => {
        await call(ctx, 'fs_grep', { pattern: 'x' });
        await call(ctx, 'fs_grep', { pattern: 'x' });
      });
      assert.equal(logged.filter((l) => l.startsWith('Searching with ripgrep at')).length, 1);
      assert.ok(logged.includes(`Searching with ripgrep at ${fake} (set by AGENT_FILE_TOOLS_RG)`));
      ctx.ws.bundledRipgrep = () => fake;
      const prev = process.env[RIPGREP_ENV];
      delete process.env[RIPGREP_ENV];
      try {
        const r = await call(ctx, 'fs_grep', { pattern: 'x' });
        assert.equal(r.text, '1 matching line in 1 file for "x" in the workspace; all shown:\na.txt\n  L1: x', 'which engine ran is for the log, not the model');
      } finally {
        if (prev !== undefined) {
          process.env[RIPGREP_ENV] = prev;
        }
      }
      assert.ok(logged.includes(`Searching with ripgrep at ${fake} (bundled with the editor)`));
    } finally {
      t.cleanup();
    }
  });

  it('kills ripgrep when the call is cancelled', async () => {
    // a ripgrep that notes its process and then waits
    const script = (root: string) => `echo $$ > "${path.join(root, 'pid')}"\nexec sleep 30`;
    await withStandInRipgrep({ 'a.txt': 'x\n' }, script, async (root, slow) => {
      const pidFile = path.join(root, 'pid');
      const signal = { isCancellationRequested: false };
      const ctx = { ...(await context(root)), signal };
      const t0 = Date.now();
      const pending = withEngine(slow, () => call(ctx, 'fs_grep', { pattern: 'x' }));
      while (!fs.existsSync(pidFile) || fs.readFileSync(pidFile, 'utf8').trim() === '') {
        await new Promise((r) => setTimeout(r, 10));
      }
      signal.isCancellationRequested = true;
      const r = await pending;
      assert.equal(r.isError, true);
      assert.match(r.text, /cancelled/);
      assert.ok(Date.now() - t0 < 5000, 'returned promptly');
      const pid = Number(fs.readFileSync(pidFile, 'utf8'));
      assert.throws(() => process.kill(pid, 0), /ESRCH/, 'the ripgrep process is gone');
    });
  });
});

describe('fs_grep regex translation for the JavaScript search', () => {
  const q = (pattern: string, extra: Partial<{ multiline: boolean; fixedStrings: boolean }> = {}) =>
    compileQuery({ pattern, fixedStrings: false, caseMode: 'smart', multiline: false, ...extra });

  it('keeps Rust meanings: Unicode \\w and \\b, "." matching CR, $ only before LF', () => {
    assert.equal(findRecords('größe\n', q('^\\w+$')).records.length, 1);
    assert.equal(findRecords('x größe y\n', q('\\bgröße\\b')).records.length, 1);
    assert.equal(findRecords('ab\r\n', q('b.')).records.length, 1);
    assert.equal(findRecords('ab\r\n', q('b$')).records.length, 0);
    assert.equal(findRecords('x\n', q('(?P<name>x)')).records.length, 1);
    assert.equal(findRecords('A\n', q('(?i)a')).records.length, 1);
    assert.equal(findRecords('a#b\n', q('a\\#b')).records.length, 1);
    assert.equal(findRecords('a\n', q('[[:alpha:]]')).records.length, 1);
  });

  it('applies smart case like ripgrep', () => {
    assert.equal(hasUppercaseLiteral('foo\\W\\p{Lu}', false), false);
    assert.equal(hasUppercaseLiteral('Foo', false), true);
    assert.equal(hasUppercaseLiteral('(?P<Name>x)', false), false);
  });

  it('merges touching multiline matches into one record and counts by record', () => {
    const text = 'foo\nbar foo\nbar\nx\nfoo\n\nbar\n';
    assert.deepEqual(findRecords(text, q('foo\\nbar', { multiline: true })).records, [{ first: 1, last: 3 }]);
    assert.deepEqual(findRecords(text, q('foo\\n', { multiline: true })).records, [
      { first: 1, last: 2 },
      { first: 5, last: 5 },
    ]);
    assert.deepEqual(findRecords(text, q('foo|bar', { multiline: true })).records.length, 5, 'a pattern that cannot match a newline stays line by line');
  });

  it('refuses what it cannot translate, naming it', () => {
    assert.throws(() => q('a(?i)b'), /inline flags inside the pattern/);
    assert.throws(() => q('[a&&b]'), /class operator &&/);
  });
});

describe("ripgrep's parse error, shortened", () => {
  it('keeps a short error as it is', () => {
    const e = 'regex parse error:\n    a(\n     ^\nerror: unclosed group';
    assert.equal(shortParseError(e), e);
  });

  it('cuts a long pattern line around its caret, keeping the caret under the fault', () => {
    const pattern = `${'x'.repeat(300)}(a${'y'.repeat(300)}`;
    const e = `regex parse error:\n    ${pattern}\n    ${' '.repeat(300)}^\nerror: unclosed group`;
    const lines = shortParseError(e).split('\n');
    assert.equal(lines.length, 4);
    assert.ok(lines[1].length < 100 && lines[1].startsWith('    ...') && lines[1].endsWith('...'), lines[1]);
    assert.equal(lines[1][lines[2].indexOf('^')], '(', 'the caret still points at the fault');
    assert.equal(lines[3], 'error: unclosed group');
  });

  it('drops the rules around a multiline pattern and caps its lines, keeping the reason', () => {
    const rule = '~'.repeat(79);
    const body = Array.from({ length: 40 }, (_, i) => `${i + 1}: line${i}`);
    const e = ['regex parse error:', rule, body[0], '   ^', ...body.slice(1), rule, 'error: unclosed group'].join('\n');
    const lines = shortParseError(e).split('\n');
    assert.ok(!lines.some((l) => l.startsWith('~')));
    assert.deepEqual(lines.slice(0, 3), ['regex parse error:', '1: line0', '   ^']);
    assert.equal(lines[lines.length - 1], 'error: unclosed group');
    assert.match(lines[lines.length - 2], /^\.\.\. \(\d+ more lines\)$/);
    assert.ok(lines.length <= 14);
  });
});
