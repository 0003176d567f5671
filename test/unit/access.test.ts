import * as assert from 'node:assert/strict';
import { printedPath } from '../../src/core/paths';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as matcher from '../../src/core/glob/matcher';
import { textVersion } from '../../src/core/hash';
import { english } from '../../src/core/phrase';
import { MAX_EDIT_FILE_BYTES } from '../../src/core/limits';
import * as policy from '../../src/core/policy';
import * as writePolicy from '../../src/core/writePolicy';
import { Access } from '../../src/services/access';
import type { Approver, Confirmation } from '../../src/services/approval';
import { renderSingleChange } from '../../src/services/changeResult';
import { cliApprover } from '../../src/services/cliApprover';
import { loadFileText } from '../../src/services/fileText';
import { ReadLedger } from '../../src/services/ledger';
import { landChange } from '../../src/services/mutation';
import { call, context, prepare, tempTree } from './helpers';

/** Counts the calls of a module's exported functions while `fn` runs (the compiled modules call each other through their exports). */
async function counting<T>(fns: [Record<string, unknown>, string][], fn: () => Promise<T>): Promise<{ counts: Record<string, number>; value: T }> {
  const counts: Record<string, number> = {};
  const saved = fns.map(([m, name]) => {
    const original = m[name] as (...a: unknown[]) => unknown;
    counts[name] = 0;
    m[name] = (...a: unknown[]) => {
      counts[name]++;
      return original(...a);
    };
    return () => {
      m[name] = original;
    };
  });
  try {
    return { counts, value: await fn() };
  } finally {
    saved.forEach((restore) => restore());
  }
}

const DECISIONS: [Record<string, unknown>, string][] = [
  [policy as unknown as Record<string, unknown>, 'decideRead'],
  [writePolicy as unknown as Record<string, unknown>, 'decideChange'],
];
const COMPILES: [Record<string, unknown>, string][] = [
  [matcher as unknown as Record<string, unknown>, 'compileGlobs'],
  [matcher as unknown as Record<string, unknown>, 'compileGlob'],
];

/** An approver that records the questions and answers them as the CLI's flags would. */
function recording(flags: { yes: boolean; allowOutside: boolean; allowProtected?: boolean }): { approver: Approver; asked: Confirmation[] } {
  const cli = cliApprover(flags);
  const asked: Confirmation[] = [];
  return { asked, approver: { ...cli, confirm: (q, s) => (asked.push(q), cli.confirm(q, s)) } };
}

describe('one access decision per call and path', () => {
  let tree: ReturnType<typeof tempTree>;
  beforeEach(() => {
    tree = tempTree({ 'a.txt': 'one\ntwo\n', 'b.txt': 'bee\n', '.env': 'K=v\n' });
  });
  afterEach(() => tree.cleanup());

  const cases: { name: string; tool: string; input: unknown; paths: number; ok: boolean }[] = [
    { name: 'fs_edit of a plain file', tool: 'fs_edit', input: { path: 'a.txt', old_string: 'two', new_string: 'three' }, paths: 1, ok: true },
    { name: 'fs_edit of a secret (asked, then matched)', tool: 'fs_edit', input: { path: '.env', old_string: 'K=v', new_string: 'K=w' }, paths: 1, ok: true },
    { name: 'fs_edit of a secret that does not match (the hidden failure)', tool: 'fs_edit', input: { path: '.env', old_string: 'K=zz', new_string: 'K=w' }, paths: 1, ok: false },
    { name: 'fs_edit creating a file', tool: 'fs_edit', input: { path: 'new.txt', old_string: '', new_string: 'x\n' }, paths: 1, ok: true },
    { name: 'fs_write of a plain file', tool: 'fs_write', input: { path: 'a.txt', content: 'x\n', version: textVersion('one\ntwo\n') }, paths: 1, ok: true },
    { name: 'fs_write of a secret', tool: 'fs_write', input: { path: '.env', content: 'K=w\n', version: textVersion('K=v\n') }, paths: 1, ok: true },
    {
      name: 'fs_apply_patch of three paths (an update, an add, a move)',
      tool: 'fs_apply_patch',
      input: { patch: '*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+2\n*** Add File: c.txt\n+see\n*** Update File: b.txt\n*** Move to: d.txt\n@@\n-bee\n+dee\n*** End Patch' },
      paths: 4,
      ok: true,
    },
  ];
  for (const c of cases) {
    it(`${c.name}: each decision once per path in prepare, and once in invoke`, async () => {
      const ctx = await context(tree.root);
      const prep = await counting(DECISIONS, () => prepare(ctx, c.tool, c.input));
      assert.deepEqual(prep.counts, { decideRead: c.paths, decideChange: c.paths });
      const run = await counting(DECISIONS, () => call(ctx, c.tool, c.input));
      assert.equal(run.value.isError, !c.ok, run.value.text);
      assert.deepEqual(run.counts, { decideRead: c.paths, decideChange: c.paths });
    });
  }

  it('compiles the settings\' globs once for the process: later calls, and fs_grep\'s secret test, compile none', async () => {
    const ctx = await context(tree.root);
    const edit = { path: 'a.txt', old_string: 'one', new_string: 'uno' };
    await call(ctx, 'fs_edit', edit);
    await call(ctx, 'fs_grep', { pattern: 'K' });
    const again = await counting(COMPILES, async () => {
      await call(ctx, 'fs_edit', { path: 'a.txt', old_string: 'uno', new_string: 'one' });
      await call(ctx, 'fs_write', { path: '.env', content: 'K=x\n' });
      return call(ctx, 'fs_grep', { pattern: 'K' });
    });
    assert.equal(again.value.isError, false, again.value.text);
    assert.deepEqual(again.counts, { compileGlobs: 0, compileGlob: 0 });
    // other settings are other globs
    const other = await context(tree.root, { sensitiveFiles: ['**/*.secret'] });
    const fresh = await counting(COMPILES, () => call(other, 'fs_edit', { path: 'a.txt', old_string: 'one', new_string: 'uno' }));
    assert.ok(fresh.counts.compileGlobs > 0);
  });

  it('keeps what fs_grep\'s secret test learned to one search: a tester per call', async () => {
    const globs = ['**/.env', '**/.ssh/**'];
    const files = policy.compileSensitiveFiles(globs);
    const first = files.tester();
    assert.equal(first('/w', '.env', true), true);
    assert.equal(first('/w', 'home/.ssh/id', true), true);
    assert.equal(first('/w', 'a.txt', true), false);
    const second = files.tester();
    assert.notEqual(second, first);
    assert.equal(second('/w', '.env', true), true);
    assert.equal(second('/w', 'src/a.ts', true), false);
  });
});

describe('a change is neither a window nor an oracle on what reading would ask about', () => {
  const SECRET = 'API_KEY=sk-live-123456\n';
  let tree: ReturnType<typeof tempTree>;
  let outer: ReturnType<typeof tempTree>;
  const p = (rel: string) => path.join(tree.root, rel);
  const o = (rel: string) => path.join(outer.root, rel);
  beforeEach(() => {
    tree = tempTree({ '.env': SECRET, 'a.txt': 'one\n' });
    outer = tempTree({
      '.aws/credentials': `[default]\naws_secret_access_key=${SECRET}`,
      'home/.ssh/id_ed25519': `-----BEGIN OPENSSH PRIVATE KEY-----\n${SECRET}`,
      'etc/shadow': 'root:$6$hash:19000:0:99999:7:::\n',
      'etc/notes.txt': 'plain outside text\n',
      'bin/tool.bin': Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1, 2, 3]),
      'bin/latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
    });
  });
  afterEach(() => {
    tree.cleanup();
    outer.cleanup();
  });

  /** Each call's text, with the path it names replaced, so that answers about different files compare. */
  async function answers(flags: { yes: boolean; allowOutside: boolean }, calls: [string, unknown, string][]): Promise<string[]> {
    const out: string[] = [];
    for (const [tool, input, named] of calls) {
      const ctx = await context(tree.root, {}, cliApprover(flags));
      const r = await call(ctx, tool, input);
      assert.equal(r.isError, true, r.text);
      // the path as given, and as printed (with / on Windows)
      out.push(r.text.split(named).join('<path>').split(printedPath(named)).join('<path>'));
    }
    return out;
  }

  it('fs_write to .env without approval shows no preview of the secret, and a right guess reads like a wrong one', async () => {
    const texts = [];
    for (const content of ['', SECRET, 'API_KEY=wrong\n']) {
      const ctx = await context(tree.root, {}, cliApprover({ yes: false, allowOutside: false }));
      const r = await call(ctx, 'fs_write', { path: '.env', content });
      assert.equal(r.needsApproval, true, r.text);
      assert.doesNotMatch(r.text, /sk-live|already has|---|\+\+\+/, r.text);
      texts.push(r.text);
    }
    assert.deepEqual(new Set(texts).size, 1, texts.join('\n---\n'));
    assert.match(texts[0], /^`fs_write` wants to write `\.env`, which may hold secrets .* run again with --yes/);
    assert.equal(fs.readFileSync(p('.env'), 'utf8'), SECRET);
  });

  it('with only --allow-outside, an outside credentials file or ssh key: no preview, no oracle', async () => {
    for (const rel of ['.aws/credentials', 'home/.ssh/id_ed25519']) {
      const current = fs.readFileSync(o(rel), 'utf8');
      const texts = [];
      for (const content of ['', current, 'wrong\n']) {
        const ctx = await context(tree.root, {}, cliApprover({ yes: false, allowOutside: true }));
        const r = await call(ctx, 'fs_write', { path: o(rel), content });
        assert.equal(r.needsApproval, true, r.text);
        assert.doesNotMatch(r.text, /sk-live|already has|---|\+\+\+/, r.text);
        texts.push(r.text);
      }
      assert.equal(new Set(texts).size, 1, texts.join('\n---\n'));
      assert.match(texts[0], /outside the workspace folders and may hold secrets/);
      assert.equal(fs.readFileSync(o(rel), 'utf8'), current);
    }
  });

  it('answers "already has exactly this content" only once the read question is answered yes', async () => {
    const ctx = await context(tree.root, {}, cliApprover({ yes: true, allowOutside: true }));
    const r = await call(ctx, 'fs_write', { path: '.env', content: SECRET });
    assert.match(r.text, /^\.env already has exactly this content/);
  });

  it('an outside path: the same answer whether it exists, is binary, too large, not UTF-8 or missing, for every changing tool', async () => {
    fs.writeFileSync(o('bin/big.txt'), 'x'.repeat(MAX_EDIT_FILE_BYTES + 1));
    const paths = ['etc/notes.txt', 'bin/tool.bin', 'bin/big.txt', 'bin/latin1.txt', 'etc/missing.txt', 'etc'].map(o);
    for (const tool of ['fs_edit', 'fs_write', 'fs_apply_patch']) {
      const calls = paths.map((q): [string, unknown, string] => {
        if (tool === 'fs_edit') {
          return [tool, { path: q, old_string: '', new_string: 'x' }, q];
        }
        if (tool === 'fs_write') {
          return [tool, { path: q, content: 'x' }, q];
        }
        return [tool, { patch: `*** Begin Patch\n*** Update File: ${q}\n@@\n-x\n+y\n*** End Patch` }, q];
      });
      const texts = await answers({ yes: true, allowOutside: false }, calls);
      assert.equal(new Set(texts).size, 1, `${tool}:\n${texts.join('\n---\n')}`);
      assert.doesNotMatch(texts[0], /binary|MiB|KiB|UTF-8|Latin|a folder|not found|exists|Did you mean/i, texts[0]);
      assert.match(texts[0], /outside the workspace folders.*--allow-outside/);
    }
    assert.equal(fs.existsSync(o('etc/missing.txt')), false);
  });

  it('an outside link a patch would delete is asked about before it is called a link', async () => {
    fs.symlinkSync(o('etc/notes.txt'), o('etc/link'));
    const del = (q: string) => ({ patch: `*** Begin Patch\n*** Delete File: ${q}\n*** End Patch` });
    const refused = await call(await context(tree.root, {}, cliApprover({ yes: true, allowOutside: false })), 'fs_apply_patch', del(o('etc/link')));
    assert.equal(refused.isError, true);
    assert.doesNotMatch(refused.text, /symbolic link/);
    assert.match(refused.text, /outside the workspace folders.*--allow-outside/);
    // once allowed, the link is refused for what it is, and nothing is deleted
    const allowed = await call(await context(tree.root, {}, cliApprover({ yes: true, allowOutside: true })), 'fs_apply_patch', del(o('etc/link')));
    assert.match(allowed.text, /is a symbolic link to/);
    assert.equal(fs.readFileSync(o('etc/notes.txt'), 'utf8'), 'plain outside text\n');
    assert.equal(fs.lstatSync(o('etc/link')).isSymbolicLink(), true);
  });

  it('offers no names from an outside folder the model may not list: /etc/shado suggests nothing, even once allowed', async () => {
    const ctx = await context(tree.root, {}, cliApprover({ yes: true, allowOutside: true }));
    for (const [tool, input] of [
      ['fs_edit', { path: o('etc/shado'), old_string: 'root', new_string: 'x' }],
      ['fs_read', { path: o('etc/shado') }],
    ] as const) {
      const r = await call(ctx, tool, input);
      assert.equal(r.isError, true, r.text);
      assert.match(r.text, /^File not found: /);
      assert.doesNotMatch(r.text, /shadow|notes\.txt|Did you mean/, r.text);
    }
    // a folder the settings allow reading outside is listed as the workspace's are
    const allowed = await context(tree.root, { allowedOutsidePaths: [`${outer.root}/**`] }, cliApprover({ yes: true, allowOutside: true }));
    const r = await call(allowed, 'fs_edit', { path: o('etc/note.txt'), old_string: 'x', new_string: 'y' });
    assert.match(r.text, /Did you mean one of these\?\n- .*etc\/notes\.txt/);
  });

  it('after an approved change the model sees the old text of a secret only when it was allowed to read it', async () => {
    const ctx = await context(tree.root);
    const overwrite = async (a: Access, before: Awaited<ReturnType<typeof loadFileText>>, after = 'API_KEY=new\n') =>
      renderSingleChange(await landChange(ctx, { tool: 'fs_write', summary: 'overwrite .env', files: [{ target: a.target, action: 'overwrite', before, after }] }, [a]));
    // landed on decisions whose read question was never asked: no old text
    const unasked = await Access.resolve(ctx, '.env', 'fs_write', 'write');
    const hidden = await overwrite(unasked, await loadFileText(ctx, unasked.target));
    assert.match(hidden, /^Wrote \.env: \+1 -1 lines; version [0-9a-f]{8}\.\nNot checked for errors: no language server runs outside VS Code\.$/);
    assert.doesNotMatch(hidden, /sk-live|<diff>/);
    // the question answered yes in this call (load asks it first): the diff is shown, as fs_read would show the file
    fs.writeFileSync(p('.env'), SECRET);
    ctx.ledger = new ReadLedger();
    const asked = await Access.resolve(ctx, '.env', 'fs_write', 'write');
    assert.match(await overwrite(asked, await asked.load()), /<diff>\n[^]*-API_KEY=sk-live-123456\n\+API_KEY=new/);
    // a file the model changed (or read) before is in the ledger: shown without a new question
    const known = await Access.resolve(ctx, '.env', 'fs_write', 'write');
    assert.equal(known.mayShowContent, true);
    assert.match(await overwrite(known, await loadFileText(ctx, known.target), 'API_KEY=newer\n'), /<diff>\n[^]*-API_KEY=new\n\+API_KEY=newer/);
  });

  it('in a tool call, a secret\'s old text reaches the model only after the read question was answered yes', async () => {
    const { approver, asked } = recording({ yes: true, allowOutside: false, allowProtected: true });
    const ctx = await context(tree.root, {}, approver);
    const r = await call(ctx, 'fs_edit', { path: '.env', old_string: 'sk-live-123456', new_string: 'sk-live-999' });
    assert.equal(r.isError, false, r.text);
    assert.equal(asked.length, 1);
    assert.equal(english(asked[0].title), 'Allow Agent File Tools to edit a sensitive file?');
    assert.match(r.text, /<diff>\n[^]*-API_KEY=sk-live-123456/);
  });

  it('the chat card asks fs_write\'s question before the call, and the call then asks nothing new', async () => {
    const ctx = await context(tree.root);
    const prep = await prepare(ctx, 'fs_write', { path: '.env', content: '' });
    assert.equal(english(prep!.confirmation!.title), 'Allow Agent File Tools to write a sensitive file?');
    assert.equal(prep?.invocationMessage, 'Writing .env, after your review in the diff');
    // a new secret in the workspace holds nothing yet: the review alone asks
    assert.equal((await prepare(ctx, 'fs_write', { path: 'new/.env', content: 'K=v\n' }))?.confirmation, undefined);
    // outside, whether it exists is itself the answer: asked either way
    assert.deepEqual((await prepare(ctx, 'fs_write', { path: o('etc/missing.txt'), content: '' }))?.confirmation?.reasons, ['outside']);
    assert.deepEqual((await prepare(ctx, 'fs_write', { path: o('etc/notes.txt'), content: '' }))?.confirmation?.reasons, ['outside']);
    const { approver, asked } = recording({ yes: true, allowOutside: true, allowProtected: true });
    const run = await context(tree.root, {}, approver);
    const r = await call(run, 'fs_write', { path: '.env', content: 'K=new\n', version: textVersion(fs.readFileSync(path.join(tree.root, '.env'), 'utf8')) });
    assert.equal(r.isError, false, r.text);
    assert.deepEqual(asked, [prep!.confirmation]);
  });
});

describe('the CLI asks the read question before a change shows or compares anything', () => {
  const root = path.resolve(__dirname, '../../..');
  const cli = path.join(root, 'dist/cli.js');
  const run = (args: string[]) => {
    const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
    return { code: r.status, out: r.stdout };
  };
  let tree: ReturnType<typeof tempTree>;
  let outer: ReturnType<typeof tempTree>;
  before(function () {
    if (!fs.existsSync(cli)) {
      throw new Error('dist/cli.js is missing: run `npm run build` first (npm test does)');
    }
  });
  beforeEach(() => {
    tree = tempTree({ '.env': 'TOKEN=abc123\n' });
    outer = tempTree({ '.aws/credentials': 'aws_secret_access_key=abc123\n' });
  });
  afterEach(() => {
    tree.cleanup();
    outer.cleanup();
  });

  it('fs_write {".env", ""} without --yes: exit 3, no diff of the secret; the exact content answers the same', () => {
    const outs = ['', 'TOKEN=abc123\n', 'TOKEN=zzz\n'].map((content) => run(['fs_write', '--root', tree.root, '--input', JSON.stringify({ path: '.env', content })]));
    for (const r of outs) {
      assert.equal(r.code, 3, r.out);
      assert.doesNotMatch(r.out, /abc123|already has/);
      assert.equal(r.out, outs[0].out);
    }
    assert.equal(fs.readFileSync(path.join(tree.root, '.env'), 'utf8'), 'TOKEN=abc123\n');
  });

  it('with only --allow-outside, an outside credentials file: exit 3, no diff, no oracle', () => {
    const file = path.join(outer.root, '.aws/credentials');
    const outs = ['', 'aws_secret_access_key=abc123\n', 'x\n'].map((content) => run(['fs_write', '--root', tree.root, '--allow-outside', '--input', JSON.stringify({ path: file, content })]));
    for (const r of outs) {
      assert.equal(r.code, 3, r.out);
      assert.doesNotMatch(r.out, /abc123|already has/);
      assert.equal(r.out, outs[0].out);
    }
    assert.equal(fs.readFileSync(file, 'utf8'), 'aws_secret_access_key=abc123\n');
  });
});
