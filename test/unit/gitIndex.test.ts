import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseGitIndex, UnsupportedIndex } from '../../src/core/list/gitIndex';
import { cliApprover } from '../../src/services/cliApprover';
import { call, context, tempTree } from './helpers';

/** git with an identity and no user or system config, as a test fixture builder. */
function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  });
}

/** What `git ls-files --stage` says the index holds: mode and path of each entry. */
function lsFiles(cwd: string): { mode: number; path: string }[] {
  return git(cwd, '-c', 'core.fsmonitor=false', 'ls-files', '-z', '--stage')
    .split('\0')
    .filter(Boolean)
    .map((r) => ({ mode: parseInt(r.slice(0, 6), 8), path: r.slice(r.indexOf('\t') + 1) }));
}

function repo(files: Record<string, string>, init: string[] = []): ReturnType<typeof tempTree> {
  const t = tempTree(files);
  git(t.root, 'init', '-q', ...init);
  git(t.root, 'add', '-A');
  git(t.root, 'commit', '-q', '-m', 'init');
  return t;
}

const FILES = {
  'README.md': '# r\n',
  'src/app.ts': 'a\n',
  'src/lib/util.ts': 'u\n',
  'docs/spaced name.md': 's\n',
  'docs/ünïcödé.txt': 'u\n',
  [`${Array(14).fill('d'.repeat(200)).join('/')}/long.txt`]: 'deep\n',
};

describe('the git index, read without git', () => {
  const cases: [string, (t: string) => void, string[]][] = [
    ['a plain repository (version 2)', () => undefined, []],
    [
      'symlinks, executables, a submodule entry and an intent-to-add file (version 3)',
      (r) => {
        fs.symlinkSync('src/app.ts', path.join(r, 'link.ts'));
        fs.writeFileSync(path.join(r, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
        fs.writeFileSync(path.join(r, 'later.txt'), 'l\n');
        git(r, 'add', 'link.ts', 'run.sh');
        git(r, 'add', '-N', 'later.txt');
        git(r, 'update-index', '--add', '--cacheinfo', `160000,${git(r, 'rev-parse', 'HEAD').trim()},vendor/sub`);
      },
      [],
    ],
    ['a version 4 index (prefix-compressed paths)', (r) => git(r, 'update-index', '--index-version', '4'), []],
    ['a SHA-256 repository', () => undefined, ['--object-format=sha256']],
  ];
  for (const [name, setup, init] of cases) {
    it(`lists what git ls-files lists: ${name}`, () => {
      const t = repo(FILES, init);
      try {
        setup(t.root);
        const config = fs.readFileSync(path.join(t.root, '.git', 'config'), 'utf8');
        const ours = parseGitIndex(fs.readFileSync(path.join(t.root, '.git', 'index')), /sha256/.test(config) ? 32 : 20);
        assert.deepEqual(ours, lsFiles(t.root));
      } finally {
        t.cleanup();
      }
    });
  }

  it('refuses an index it cannot read, naming what it uses', () => {
    const t = repo(FILES);
    try {
      git(t.root, 'update-index', '--split-index');
      assert.throws(() => parseGitIndex(fs.readFileSync(path.join(t.root, '.git', 'index'))), (e: unknown) => e instanceof UnsupportedIndex && /split index/.test(e.message));
      assert.throws(() => parseGitIndex(Buffer.from('DIRC\0\0\0\x09\0\0\0\0')), UnsupportedIndex);
      assert.throws(() => parseGitIndex(Buffer.from('DIRC\0\0\0\x02\0\0\0\x05')), UnsupportedIndex, 'an index that ends early');
    } finally {
      t.cleanup();
    }
  });

  it('fs_list source=git lists a subfolder, a linked work tree (asking, as it is outside), and nothing outside a repository', async () => {
    const t = repo(FILES);
    const wt = tempTree();
    const plain = tempTree({ 'a.txt': 'a' });
    try {
      const sub = await call(await context(t.root), 'fs_list', { path: 'src', source: 'git' });
      assert.match(sub.text, /^app\.ts$/m);
      assert.match(sub.text, /^lib\/$/m);
      assert.doesNotMatch(sub.text, /README/);
      fs.rmSync(wt.root, { recursive: true });
      git(t.root, 'worktree', 'add', '-q', wt.root);
      const asked = await call(await context(wt.root, {}, cliApprover({ yes: false, allowOutside: false })), 'fs_list', { source: 'git' });
      assert.equal(asked.isError, true);
      assert.match(asked.text, /read the git index in `[^`]*\.git\/worktrees\/[^`]*`, which is outside the workspace folders/);
      const listed = await call(await context(wt.root), 'fs_list', { source: 'git' });
      assert.match(listed.text, /^README\.md$/m);
      const none = await call(await context(plain.root), 'fs_list', { source: 'git' });
      assert.match(none.text, /is not inside a git repository/);
    } finally {
      t.cleanup();
      wt.cleanup();
      plain.cleanup();
    }
  });

  it('fs_list source=git asks before reading the index of a .git that is a link out of the workspace', async () => {
    const other = repo(FILES);
    const ws = tempTree({ 'mine.txt': 'x' });
    try {
      fs.symlinkSync(path.join(other.root, '.git'), path.join(ws.root, '.git'));
      const asked = await call(await context(ws.root, {}, cliApprover({ yes: false, allowOutside: false })), 'fs_list', { source: 'git' });
      assert.equal(asked.isError, true, asked.text);
      assert.match(asked.text, /read the git index in `[^`]*\.git`, which is outside the workspace folders/);
      assert.doesNotMatch(asked.text, /README|app\.ts/);
      const cli = spawnSync(process.execPath, [path.resolve(__dirname, '../../../dist/cli.js'), 'fs_list', '--root', ws.root, '--input', '{"source":"git"}'], { encoding: 'utf8' });
      assert.equal(cli.status, 1, cli.stdout);
      assert.match(cli.stdout, /read the git index in .*which is outside the workspace folders/);
      assert.doesNotMatch(cli.stdout, /README|app\.ts/);
      // a .git link that stays inside the workspace asks nothing
      fs.unlinkSync(path.join(ws.root, '.git'));
      fs.renameSync(path.join(other.root, '.git'), path.join(ws.root, 'store.git'));
      fs.symlinkSync('store.git', path.join(ws.root, '.git'));
      const inside = await call(await context(ws.root, {}, cliApprover({ yes: false, allowOutside: false })), 'fs_list', { source: 'git' });
      assert.equal(inside.isError, false, inside.text);
      assert.match(inside.text, /^README\.md$/m);
    } finally {
      other.cleanup();
      ws.cleanup();
    }
  });
});

describe('hostile workspace: nothing in the workspace can run code', () => {
  let t: ReturnType<typeof tempTree>;
  let marker: string;
  const cli = path.resolve(__dirname, '../../../dist/cli.js');
  beforeEach(() => {
    t = repo(FILES);
    marker = path.join(t.root, '..', `${path.basename(t.root)}-ran`);
    // What a cloned repository's config can say: run this on every index refresh.
    git(t.root, 'config', 'core.fsmonitor', `touch ${marker}; false`);
  });
  afterEach(() => {
    t.cleanup();
    fs.rmSync(marker, { force: true });
  });

  it('fs_list source=git never runs the repository\'s core.fsmonitor', async () => {
    const r = await call(await context(t.root), 'fs_list', { source: 'git' });
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /^README\.md$/m);
    assert.ok(!fs.existsSync(marker), 'the fsmonitor command ran');
  });

  it('through the CLI too, trusted or not', () => {
    for (const flags of [[], ['--untrusted']]) {
      const r = spawnSync(process.execPath, [cli, 'fs_list', '--root', t.root, ...flags, '--input', '{"source":"git"}'], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.ok(!fs.existsSync(marker), `the fsmonitor command ran (${flags.join(' ')})`);
    }
  });

  it('runs git only in a trusted workspace, for an index it cannot read, and then with the hook disarmed', async () => {
    git(t.root, '-c', 'core.fsmonitor=false', 'update-index', '--split-index');
    const trusted = await call(await context(t.root), 'fs_list', { source: 'git' });
    assert.equal(trusted.isError, false, trusted.text);
    assert.match(trusted.text, /^README\.md$/m);
    assert.ok(!fs.existsSync(marker), 'the fsmonitor command ran');
    const ctx = await context(t.root);
    ctx.ws.trusted = false;
    const untrusted = await call(ctx, 'fs_list', { source: 'git' });
    assert.equal(untrusted.isError, true);
    assert.match(untrusted.text, /uses a split index, which fs_list reads only by running git, and git is not run in an untrusted workspace/);
    const viaCli = spawnSync(process.execPath, [cli, 'fs_list', '--root', t.root, '--untrusted', '--input', '{"source":"git"}'], { encoding: 'utf8' });
    assert.equal(viaCli.status, 1);
    assert.match(viaCli.stdout, /not run in an untrusted workspace/);
    assert.ok(!fs.existsSync(marker));
  });
});
