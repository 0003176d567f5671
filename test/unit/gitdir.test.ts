import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isGitDirectoryListing, isGitDirectoryNames, outsideGitDirectories } from '../../src/core/gitDirectory';
import { GitDirectoryProbe, localEntryExists, localIsFile } from '../../src/host/gitDirectory';
import type { ApprovalPolicy } from '../../src/core/writePolicy';
import { acceptAsProposed } from '../../src/services/approval';
import { call, context, rgOnPath, scriptedApprover, tempTree, withEngine } from './helpers';

const cli = path.resolve(__dirname, '../../../dist/cli.js');

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * A workspace holding git's data under every other name git gives it: a bare repository,
 * a --separate-git-dir, a linked work tree of each (their folders hold HEAD and
 * commondir, not objects), and a work tree whose `.git` is a `gitdir:` file.
 */
function hostileTree(): { root: string; cleanup(): void } {
  const tree = tempTree({ 'src/app.txt': 'fsmonitor is a word here\n' });
  const r = tree.root;
  git(r, 'init', '-q', '--bare', 'repo.git');
  git(r, 'init', '-q', '--separate-git-dir=meta', 'work');
  fs.writeFileSync(path.join(r, 'work/a.txt'), 'a\n');
  git(path.join(r, 'work'), 'add', 'a.txt');
  git(path.join(r, 'work'), 'commit', '-q', '-m', 'init');
  git(path.join(r, 'work'), 'push', '-q', path.join(r, 'repo.git'), 'HEAD:refs/heads/main');
  git(path.join(r, 'work'), 'worktree', 'add', '-q', '../wt-meta');
  git(path.join(r, 'repo.git'), 'worktree', 'add', '-q', '../wt-bare', 'main');
  return tree;
}

const WRITES: [string, string][] = [
  ['bare repository config', 'repo.git/config'],
  ['bare repository hook', 'repo.git/hooks/post-checkout'],
  ['separate git dir config', 'meta/config'],
  ['linked work tree of a separate git dir', 'meta/worktrees/wt-meta/config.worktree'],
  ['linked work tree commondir', 'meta/worktrees/wt-meta/commondir'],
  ['linked work tree of a bare repository', 'repo.git/worktrees/wt-bare/HEAD'],
  ['a new file in a bare repository', 'repo.git/info/attributes'],
];

const FSMONITOR = '[core]\n\tfsmonitor = "touch pwned"\n';

describe('git directories by what they are, not by name', () => {
  let tree: ReturnType<typeof hostileTree>;
  let snapshot: Map<string, string>;
  const p = (rel: string) => path.join(tree.root, rel);
  const gitData = () => {
    const out = new Map<string, string>();
    for (const top of ['repo.git', 'meta']) {
      const walk = (rel: string) => {
        for (const e of fs.readdirSync(p(rel), { withFileTypes: true })) {
          const child = `${rel}/${e.name}`;
          if (e.isDirectory()) {
            walk(child);
          } else {
            out.set(child, fs.readFileSync(p(child), 'latin1'));
          }
        }
      };
      walk(top);
    }
    return out;
  };
  before(function () {
    this.timeout(60000);
    tree = hostileTree();
    snapshot = gitData();
  });
  after(() => tree.cleanup());
  afterEach(() => assert.deepEqual(gitData(), snapshot, 'git data changed'));

  it('the rule is git own: objects and refs, or HEAD and commondir, in any case', () => {
    assert.equal(isGitDirectoryListing([{ name: 'HEAD' }, { name: 'objects' }, { name: 'refs' }, { name: 'config' }]), true);
    assert.equal(isGitDirectoryListing([{ name: 'objects' }, { name: 'refs' }]), true, 'a common folder needs no HEAD');
    assert.equal(isGitDirectoryListing([{ name: 'HEAD' }, { name: 'commondir' }, { name: 'gitdir' }]), true);
    assert.equal(isGitDirectoryListing([{ name: 'OBJECTS' }, { name: 'Refs' }]), true);
    assert.equal(isGitDirectoryListing([{ name: 'HEAD' }, { name: 'config' }, { name: 'objects' }]), false);
    assert.equal(isGitDirectoryListing([{ name: 'HEAD' }, { name: 'refs' }, { name: 'src' }]), false);
    assert.equal(isGitDirectoryNames(['HEAD', 'objects', 'refs', 'config']), true);
    assert.equal(isGitDirectoryNames(['Head', 'COMMONDIR']), true);
    assert.equal(isGitDirectoryNames(['HEAD', 'refs', 'src', 'objectsx', 'xrefs']), false);
  });

  it('finds the nearest git directory from a path, counting the path itself, with a few stats per folder', async () => {
    let stats = 0;
    const probe = new GitDirectoryProbe((x) => {
      stats++;
      return localEntryExists(x);
    });
    assert.equal(await probe.enclosing(p('repo.git/config')), p('repo.git'));
    assert.equal(await probe.enclosing(p('repo.git')), p('repo.git'));
    assert.equal(await probe.enclosing(p('meta/worktrees/wt-meta/locked')), p('meta/worktrees/wt-meta'));
    assert.equal(await probe.enclosing(p('src/app.txt')), undefined);
    assert.equal(await probe.enclosing(p('wt-bare/a.txt')), undefined, 'a linked work tree is the project, not git data');
    const depth = p('src/app.txt').split(path.sep).length;
    const before = stats;
    assert.equal(await probe.enclosing(p('src/other.txt')), undefined);
    assert.ok(stats - before <= 4, `asked again: ${stats - before} stats`);
    assert.ok(before <= depth * 4 * 5, `${before} stats`);
    // a folder holding objects becomes a repository when refs is about to be created in it
    fs.mkdirSync(p('half/objects'), { recursive: true });
    assert.equal(await new GitDirectoryProbe(localEntryExists).enclosing(p('half/refs/heads/main')), p('half'));
    assert.equal(await new GitDirectoryProbe(localEntryExists).enclosing(p('half/notes.txt')), undefined);
    fs.rmSync(p('half'), { recursive: true });
  });

  it('asks for no marks inside a regular file, and still takes a link to a git directory for one', async () => {
    const asked: string[] = [];
    const probe = new GitDirectoryProbe((x) => (asked.push(x), localEntryExists(x)), localIsFile);
    assert.equal(await probe.enclosing(p('src/app.txt')), undefined);
    assert.deepEqual(asked.filter((x) => x.startsWith(p('src/app.txt') + path.sep)), [], 'no mark looked for inside the file');
    assert.ok(asked.some((x) => x.startsWith(p('src') + path.sep)), 'its folder is asked');
    assert.equal(await probe.enclosing(p('repo.git/config')), p('repo.git'));
    fs.symlinkSync(p('repo.git'), p('src/linked.git'));
    try {
      assert.equal(localIsFile(p('src/linked.git')), false);
      assert.equal(await probe.enclosing(p('src/linked.git')), p('src/linked.git'));
      assert.equal(await new GitDirectoryProbe(localEntryExists, () => true).enclosing(p('repo.git/HEAD')), p('repo.git'), 'the file\'s folder is still asked');
    } finally {
      fs.rmSync(p('src/linked.git'));
    }
  });

  it('keeps the files of a walk that lie outside git directories, asking each folder once, answered at once or later', async () => {
    for (const now of [false, true]) {
      const asked: string[] = [];
      const answer = (f: string) => (asked.push(f), f.endsWith('/g'));
      const dirs = { isGitDirectory: async (f: string) => answer(f), isGitDirectoryNow: now ? answer : undefined, enclosing: async () => undefined, plan: () => {} };
      const kept = await outsideGitDirectories(['a.txt', 'x/g/config', 'x/g/objects/ab/cd', 'x/y/z.txt', 'x/g/hooks/h', 'x/y/w.txt', 'b/c.txt'], '', (rel) => `/r/${rel}`, dirs);
      assert.deepEqual([...kept].sort(), ['a.txt', 'b/c.txt', 'x/y/w.txt', 'x/y/z.txt'], `answered ${now ? 'at once' : 'later'}`);
      assert.equal(new Set(asked).size, asked.length, `asked twice: ${asked.join(', ')}`);
      assert.ok(!asked.some((f) => f.startsWith('/r/x/g/')), `asked inside the git directory: ${asked.join(', ')}`);
    }
  });

  it('answers at once on a local disk what it answers after waiting elsewhere', async () => {
    const folders = ['repo.git', 'meta', 'meta/worktrees/wt-meta', 'repo.git/worktrees/wt-bare', 'src', 'work', 'wt-bare', 'wt-meta'];
    const local = new GitDirectoryProbe(localEntryExists);
    const remote = new GitDirectoryProbe(async (x) => localEntryExists(x));
    for (const f of folders) {
      const want = isGitDirectoryNames(fs.readdirSync(p(f)));
      assert.equal(local.isGitDirectoryNow(p(f)), want, f);
      assert.equal(await local.isGitDirectory(p(f)), want, f);
      assert.equal(remote.isGitDirectoryNow(p(f)), undefined, `${f}: an answer that must be waited for is not given at once`);
      assert.equal(await remote.isGitDirectory(p(f)), want, f);
    }
    assert.equal(folders.filter((f) => local.isGitDirectoryNow(p(f))).length, 4);
  });

  for (const policy of ['always', 'sensitiveOnly', 'never'] as ApprovalPolicy[]) {
    for (const [what, rel] of WRITES) {
      it(`${policy}: fs_edit, fs_write and fs_apply_patch refuse the ${what} (${rel}), approved or not`, async () => {
        const ctx = await context(tree.root, { approvalPolicy: policy });
        const exists = fs.existsSync(p(rel));
        const calls: [string, unknown][] = [
          ['fs_edit', { path: rel, old_string: '', new_string: FSMONITOR }],
          ['fs_write', { path: rel, content: FSMONITOR }],
          ['fs_apply_patch', { patch: exists ? `*** Begin Patch\n*** Delete File: ${rel}\n*** End Patch` : `*** Begin Patch\n*** Add File: ${rel}\n+x\n*** End Patch` }],
        ];
        if (exists) {
          calls.push(['fs_apply_patch', { patch: `*** Begin Patch\n*** Update File: src/app.txt\n*** Move to: ${rel}\n@@\n-fsmonitor is a word here\n+moved\n*** End Patch` }]);
        }
        for (const [tool, input] of calls) {
          const r = await call(ctx, tool, input);
          assert.equal(r.isError, true, `${tool}: ${r.text}`);
          assert.match(r.text, /is (inside the git folder \S+|a git folder) \(a repository under another name than \.git\): git's own files are never written/, `${tool}: ${r.text}`);
        }
        assert.equal(fs.readFileSync(p('src/app.txt'), 'utf8'), 'fsmonitor is a word here\n');
      });
    }
  }

  it('a patch that makes a git directory only with the files it adds together is refused, and so is each step of building one', async () => {
    const ctx = await context(tree.root, { approvalPolicy: 'never' });
    const whole = await call(ctx, 'fs_apply_patch', {
      patch: '*** Begin Patch\n*** Add File: made/config\n+[core]\n+\tfsmonitor = "touch pwned"\n*** Add File: made/HEAD\n+ref: refs/heads/main\n*** Add File: made/objects/info/packs\n+\n*** Add File: made/refs/heads/.keep\n+\n*** End Patch',
    });
    assert.equal(whole.isError, true, whole.text);
    assert.match(whole.text, /made\/\S+ is inside the git folder made \(a repository under another name than \.git\)/);
    assert.equal(fs.existsSync(p('made')), false);
    // one file at a time: the file that would complete it is refused
    assert.equal((await call(await context(tree.root, { approvalPolicy: 'never' }), 'fs_write', { path: 'step/objects/info/packs', content: '\n' })).isError, false);
    const last = await call(await context(tree.root, { approvalPolicy: 'never' }), 'fs_write', { path: 'step/refs/heads/main', content: '0000\n' });
    assert.equal(last.isError, true, last.text);
    assert.match(last.text, /step\/refs\/heads\/main is inside the git folder step /);
    fs.rmSync(p('step'), { recursive: true });
  });

  it('the CLI refuses them with --yes, --allow-protected and --allow-outside, and the next git command runs nothing', function () {
    this.timeout(120000);
    if (!fs.existsSync(cli)) {
      throw new Error('dist/cli.js is missing: run `npm run build` first (npm test does)');
    }
    for (const [, rel] of WRITES) {
      const r = spawnSync(process.execPath, [cli, 'fs_edit', '--root', tree.root, '--yes', '--allow-outside', '--input', JSON.stringify({ path: rel, old_string: '', new_string: FSMONITOR })], { encoding: 'utf8' });
      assert.equal(r.status, 1, r.stdout);
      assert.match(r.stdout, /git's own files are never written/);
    }
    git(p('repo.git'), 'log', '--oneline');
    git(p('wt-bare'), 'status', '--porcelain=v1');
    git(p('work'), 'status', '--porcelain=v1');
    assert.equal(fs.existsSync(p('repo.git/pwned')) || fs.existsSync(p('wt-bare/pwned')) || fs.existsSync(p('work/pwned')), false);
  });

  it('fs_read, fs_list and fs_grep refuse a path inside one', async () => {
    const ctx = await context(tree.root);
    for (const [tool, input] of [
      ['fs_read', { path: 'repo.git/config' }],
      ['fs_read', { path: 'meta/HEAD' }],
      ['fs_list', { path: 'repo.git' }],
      ['fs_list', { path: 'meta/worktrees' }],
      ['fs_grep', { pattern: 'bare', path: 'repo.git' }],
      ['fs_glob', { pattern: '*', path: 'meta' }],
    ] as const) {
      const r = await call(ctx, tool, input);
      assert.equal(r.isError, true, `${tool}: ${r.text}`);
      assert.match(r.text, /is (inside the git folder \S+|a git folder) \(a repository under another name than \.git\)/, `${tool}: ${r.text}`);
    }
  });

  it('fs_list shows them collapsed, as .git, and never walks them', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_list', { depth: 3 });
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /^repo\.git\/ \(not listed\)$/m);
    assert.match(r.text, /^meta\/ \(not listed\)$/m);
    assert.doesNotMatch(r.text, /HEAD|objects|refs|hooks|commondir|description/);
    assert.match(r.text, /^wt-bare\/\n {2}a\.txt$/m, 'a linked work tree is listed');
  });

  for (const engine of ['ripgrep', 'javascript']) {
    it(`${engine}: fs_grep and fs_glob never return what they hold`, async () => {
      await withEngine(engine === 'ripgrep' ? rgOnPath() : 'none', async () => {
        const ctx = await context(tree.root);
        for (const output of ['content', 'files', 'count']) {
          const r = await call(ctx, 'fs_grep', { pattern: 'bare|repositoryformatversion|gitdir|\\.\\./\\.\\.|fsmonitor', output });
          assert.equal(r.isError, false, r.text);
          assert.match(r.text, /src\/app\.txt/);
          assert.doesNotMatch(r.text, /(^|\s)(repo\.git|meta)\/|worktrees/m, `${output}: ${r.text}`);
        }
        for (const pattern of ['**/config', '**/HEAD', '**/commondir', '**/*']) {
          const r = await call(ctx, 'fs_glob', { pattern });
          assert.doesNotMatch(r.text, /(^|\s)(repo\.git|meta)\/|worktrees/m, `${pattern}: ${r.text}`);
        }
        const all = await call(ctx, 'fs_glob', { pattern: '**/*.txt' });
        assert.match(all.text, /wt-bare\/a\.txt/);
      });
    });
  }
});

describe('looking for the parts of a git directory', () => {
  it('only "not there" counts as absent: a path that cannot be looked at counts as there', async () => {
    const t = tempTree({ 'file.txt': 'x' });
    try {
      fs.symlinkSync('/nowhere', path.join(t.root, 'link'));
      assert.equal(await localEntryExists(path.join(t.root, 'missing')), false, 'ENOENT');
      assert.equal(await localEntryExists(path.join(t.root, 'file.txt', 'objects')), false, 'ENOTDIR');
      assert.equal(await localEntryExists(path.join(t.root, 'link')), true, 'a dangling link is there');
      assert.equal(await localEntryExists(path.join(t.root, `${'n'.repeat(300)}`)), true, 'ENAMETOOLONG: not looked at, so not taken as absent');
    } finally {
      t.cleanup();
    }
  });
});

describe('a git directory that appears while a change waits for review', () => {
  const files = { 'bare/notes.txt': 'notes\n', 'deep/inner/keep.txt': 'keep\n', 'plain/a.txt': 'a\n' };
  /** Ways a folder becomes git's data while the person looks, the folder, and the file in it the change writes. */
  const appear: [string, (root: string) => void, string, string][] = [
    ['git init --bare of the file’s folder', (r) => void git(r, 'init', '-q', '--bare', 'bare'), 'bare', 'bare/notes.txt'],
    [
      'HEAD, objects and refs in a folder above it',
      (r) => {
        fs.mkdirSync(path.join(r, 'deep/objects'));
        fs.mkdirSync(path.join(r, 'deep/refs'));
        fs.writeFileSync(path.join(r, 'deep/HEAD'), 'ref: refs/heads/main\n');
      },
      'deep',
      'deep/inner/keep.txt',
    ],
  ];
  /** Each tool's change to `rel` (an existing file) or beside it; the path the refusal names. */
  const changes = (rel: string): [string, unknown, string][] => {
    const added = `${path.posix.dirname(rel)}/added.txt`;
    const old = files[rel as keyof typeof files].trim();
    return [
      ['fs_edit', { path: rel, old_string: old, new_string: 'hooked' }, rel],
      ['fs_write', { path: added, content: 'new\n' }, added],
      ['fs_apply_patch', { patch: `*** Begin Patch\n*** Update File: plain/a.txt\n@@\n-a\n+b\n*** Update File: ${rel}\n@@\n-${old}\n+hooked\n*** End Patch` }, rel],
    ];
  };
  for (const [how, make, gitDir, rel] of appear) {
    for (const [tool, input, named] of changes(rel)) {
      it(`${tool}: refused with the words of a refusal at plan time when ${how} appears during the review`, async () => {
        const t = tempTree(files);
        const control = tempTree(files);
        try {
          const { approver, reviews } = scriptedApprover((p) => {
            make(t.root);
            return acceptAsProposed(p);
          });
          const ctx = await context(t.root, { approvalPolicy: 'always' }, approver);
          const r = await call(ctx, tool, input);
          assert.equal(reviews.length, 1, `the change was reviewed: ${r.text}`);
          assert.equal(r.isError, true, r.text);
          const words = `${named} is inside the git folder ${gitDir} (a repository under another name than .git): git's own files are never written by these tools.`;
          assert.ok(r.text.startsWith(words), r.text);
          for (const [x, text] of Object.entries(files)) {
            assert.equal(fs.readFileSync(path.join(t.root, x), 'utf8'), text, `${x} is as it was`);
          }
          assert.equal(fs.existsSync(path.join(t.root, path.dirname(rel), 'added.txt')), false, 'nothing was created');
          // the same change on a tree where nothing appears lands
          const landed = await call(await context(control.root, { approvalPolicy: 'always' }, scriptedApprover().approver), tool, input);
          assert.equal(landed.isError, false, landed.text);
        } finally {
          t.cleanup();
          control.cleanup();
        }
      });
    }
  }
});
