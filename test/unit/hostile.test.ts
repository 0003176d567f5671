import * as assert from 'node:assert/strict';
import { textVersion } from '../../src/core/hash';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { DEFAULT_SENSITIVE_GLOBS, isSensitive, sensitiveFileTester, sensitiveSet } from '../../src/core/policy';
import type { OpenedFile } from '../../src/core/file';
import { MAX_INSTRUCTION_FILE_BYTES } from '../../src/core/limits';
import type { Approver, Confirmation } from '../../src/services/approval';
import { cliApprover } from '../../src/services/cliApprover';
import { guardedList } from '../../src/services/settings';
import { LineSplitter } from '../../src/host/process';
import { NEVER_CANCELLED } from '../../src/core/cancel';
import { ToolError } from '../../src/core/errors';
import { boundedRules, ruleBudget } from '../../src/core/ignore/policy';
import { MatchClock, Matcher, Overrides, RuleFile } from '../../src/core/ignore/rules';
import { findProgram } from '../../src/core/process';
import { acceptAsProposed } from '../../src/services/approval';
import type { FileChange } from '../../src/host/workspace';
import { call, context, prepare, rgOnPath, scriptedApprover, settingsOf, tempTree, TestWorkspace, withEngine } from './helpers';
import { makeInflatingPdf } from './pdfFixture';

/**
 * A hostile workspace, tried as the tools' users would meet it: a cloned repository that
 * links where it should not, and a model steered by what it reads. Each class of attack
 * has its tests here, through the tools and through the CLI.
 */

const repoRoot = path.resolve(__dirname, '../../..');
const cli = path.join(repoRoot, 'dist/cli.js');

function runCli(args: string[], opts: { timeoutMs?: number; cwd?: string; env?: NodeJS.ProcessEnv } = {}): { code: number | null; out: string; err: string; ms: number } {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [cli, ...args], { input: '', encoding: 'utf8', timeout: opts.timeoutMs ?? 30000, maxBuffer: 64 * 1024 * 1024, cwd: opts.cwd, env: opts.env });
  return { code: r.status, out: r.stdout, err: r.stderr, ms: Date.now() - t0 };
}

/** An approver that says no to everything and remembers what it was asked. */
function refusing(): Approver & { asked: Confirmation[] } {
  const asked: Confirmation[] = [];
  return {
    asked,
    async confirm(q) {
      asked.push(q);
      return { allowed: false, result: { isError: true, parts: [{ kind: 'text', text: `declined: ${q.reasons.join('+')}` }] } };
    },
    async review() {
      return { kind: 'rejected' };
    },
    showApplied() {},
  };
}

const SECRET = 'hunter2-SECRET';
const OUTSIDE = 'outside-CONTENT';

describe('hostile workspace: every byte the model sees passes the path policy', () => {
  let outer: ReturnType<typeof tempTree>;
  let ws: string;
  before(() => {
    outer = tempTree({ 'outside.txt': `${OUTSIDE}\n`, 'home/.env': `TOKEN=${SECRET}\n` });
    ws = path.join(outer.root, 'ws');
    fs.mkdirSync(path.join(ws, 'pkg', 'deep'), { recursive: true });
    fs.mkdirSync(path.join(ws, '.git'));
    fs.writeFileSync(path.join(ws, '.git', 'config'), `[remote]\n\turl = https://user:${SECRET}@example.com\n`);
    fs.writeFileSync(path.join(ws, '.env'), `TOKEN=${SECRET}\n`);
    fs.writeFileSync(path.join(ws, 'pkg', 'main.ts'), 'export const x = 1;\n');
    fs.writeFileSync(path.join(ws, 'pkg', 'deep', 'inner.ts'), 'export const y = 2;\n');
    fs.symlinkSync('../../outside.txt', path.join(ws, 'pkg', 'AGENTS.md'));
    fs.symlinkSync('../.env', path.join(ws, 'pkg', 'CLAUDE.md'));
    fs.symlinkSync('../../.git/config', path.join(ws, 'pkg', 'deep', 'AGENTS.md'));
    fs.symlinkSync('/dev/zero', path.join(ws, 'pkg', 'deep', 'CLAUDE.md'));
  });
  after(() => outer.cleanup());

  describe('instruction files', () => {
    it('skips, in one line each, those that resolve outside the workspace, to a secret, into .git or to a device', async function () {
      this.timeout(10000);
      const r = await call(await context(ws, {}, refusing()), 'fs_read', { path: 'pkg/deep/inner.ts' });
      assert.equal(r.isError, false, r.text);
      assert.ok(!r.text.includes(OUTSIDE) && !r.text.includes(SECRET), r.text);
      assert.match(r.text, /^\(Skipped pkg\/AGENTS\.md: it resolves outside the workspace\.\)$/m);
      assert.match(r.text, /^\(Skipped pkg\/CLAUDE\.md: it may hold secrets \(agentFileTools\.sensitiveFiles\)\.\)$/m);
      assert.match(r.text, /^\(Skipped pkg\/deep\/AGENTS\.md: it leads into a \.git folder\.\)$/m);
      assert.match(r.text, /^\(Skipped pkg\/deep\/CLAUDE\.md: it resolves outside the workspace\.\)$/m, 'a link to /dev/zero');
    });

    it('skips a FIFO without waiting on it, and a folder of that name', async function () {
      this.timeout(10000);
      const t = tempTree({ 'a/main.ts': 'x\n', 'a/CLAUDE.md/x': '' });
      try {
        spawnSync('mkfifo', [path.join(t.root, 'a', 'AGENTS.md')]);
        const r = await call(await context(t.root), 'fs_read', { path: 'a/main.ts' });
        assert.equal(r.isError, false, r.text);
        assert.match(r.text, /^\(Skipped a\/AGENTS\.md: it is not a regular file\.\)$/m);
        assert.match(r.text, /^\(Skipped a\/CLAUDE\.md: it is not a regular file\.\)$/m);
      } finally {
        t.cleanup();
      }
    });

    it('reads at most the cap of a huge one, never the whole file', async () => {
      const t = tempTree({ 'a/main.ts': 'x\n', 'a/AGENTS.md': `${'rule line\n'.repeat(2_000_000)}` });
      try {
        const ctx = await context(t.root);
        let most = 0;
        const open = ctx.ws.openFile.bind(ctx.ws);
        ctx.ws.openFile = async (p: string): Promise<OpenedFile | undefined> => {
          const f = await open(p);
          if (!f || !p.endsWith('AGENTS.md')) {
            return f;
          }
          return { ...f, read: async (pos, len) => ((most = Math.max(most, pos + len)), f.read(pos, len)), stream: () => assert.fail('instruction files are not streamed') };
        };
        const r = await call(ctx, 'fs_read', { path: 'a/main.ts' });
        assert.match(r.text, /\(Cut: the file is 19\.1 MiB, and only its start is shown/);
        assert.ok(most > 0 && most <= MAX_INSTRUCTION_FILE_BYTES, `read up to byte ${most}`);
      } finally {
        t.cleanup();
      }
    });

    it('through the CLI: exit 0, nothing from outside or from the secret', () => {
      const r = runCli(['fs_read', '--root', ws, '--input', JSON.stringify({ path: 'pkg/main.ts' })]);
      assert.equal(r.code, 0, r.out + r.err);
      assert.ok(!r.out.includes(OUTSIDE) && !r.out.includes(SECRET), r.out);
      assert.match(r.out, /Skipped pkg\/AGENTS\.md: it resolves outside the workspace/);
      assert.match(r.out, /Skipped pkg\/CLAUDE\.md: it may hold secrets/);
    });
  });

  describe('the decision is made on the file actually read', () => {
    /** A child process that swaps `link` between a harmless file and a link to `target` as fast as it can. */
    function swapper(dir: string, name: string, target: string): ChildProcess {
      const code = `
        const fs = require('fs'); const p = require('path');
        const f = p.join(${JSON.stringify(dir)}, ${JSON.stringify(name)}); const tmp = f + '.swap';
        // each state is held for a random 0-2 ms, so a read meets both whatever the machine's load
        const hold = () => { const until = Date.now() + Math.random() * 2; while (Date.now() < until) {} };
        for (;;) {
          try { fs.writeFileSync(tmp, 'harmless\\n'); fs.renameSync(tmp, f); } catch {}
          hold();
          try { fs.symlinkSync(${JSON.stringify(target)}, tmp); fs.renameSync(tmp, f); } catch {}
          hold();
        }`;
      return spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
    }

    for (const [what, target] of [
      ['a secret inside the workspace', '.env'],
      ['a file outside the workspace', '../outside.txt'],
    ] as const) {
      it(`never reads ${what} through a file swapped for a link in a loop`, async function () {
        this.timeout(30000);
        const child = swapper(ws, 'swapped.txt', target);
        try {
          const ctx = await context(ws, {}, cliApprover({ yes: false, allowOutside: false }));
          const seen = { ok: 0, asked: 0, other: 0 };
          // at least 3 s of reads, and on until both states were met (at most 20 s)
          const start = Date.now();
          while (Date.now() - start < 3000 || ((seen.ok === 0 || seen.asked === 0) && Date.now() - start < 20000)) {
            const r = await call(ctx, 'fs_read', { path: 'swapped.txt' });
            assert.ok(!r.text.includes(SECRET) && !r.text.includes(OUTSIDE), r.text);
            if (!r.isError) {
              assert.match(r.text, /L1: harmless/);
              seen.ok++;
            } else if (/--yes|--allow-outside/.test(r.text)) {
              seen.asked++;
            } else {
              seen.other++;
            }
          }
          assert.ok(seen.ok > 0 && seen.asked > 0, JSON.stringify(seen));
        } finally {
          child.kill();
        }
      });
    }

    it('never lists or reads another folder through a folder swapped for a link', async function () {
      this.timeout(30000);
      fs.mkdirSync(path.join(outer.root, 'elsewhere'), { recursive: true });
      fs.writeFileSync(path.join(outer.root, 'elsewhere', 'other.txt'), `${OUTSIDE}\n`);
      const child = spawn(
        process.execPath,
        [
          '-e',
          `const fs = require('fs'); const f = ${JSON.stringify(path.join(ws, 'dirswap'))};
           for (;;) { try { fs.rmSync(f, { recursive: true, force: true }); fs.mkdirSync(f); fs.writeFileSync(f + '/mine.txt', 'mine\\n'); } catch {}
                      try { fs.rmSync(f, { recursive: true, force: true }); fs.symlinkSync(${JSON.stringify(path.join(outer.root, 'elsewhere'))}, f); } catch {} }`,
        ],
        { stdio: 'ignore' },
      );
      try {
        const ctx = await context(ws, {}, cliApprover({ yes: false, allowOutside: false }));
        const deadline = Date.now() + 3000;
        while (Date.now() < deadline) {
          for (const [tool, input] of [
            ['fs_read', { path: 'dirswap/other.txt' }],
            ['fs_read', { path: 'dirswap' }],
            ['fs_list', { path: 'dirswap' }],
            ['fs_list', { depth: 3 }],
          ] as const) {
            const r = await call(ctx, tool, input);
            assert.ok(!r.text.includes(OUTSIDE), `${tool}: ${r.text}`);
            if (!('path' in input) || input.path === 'dirswap') {
              assert.ok(!r.text.includes('other.txt'), `${tool}: ${r.text}`);
            }
          }
        }
      } finally {
        child.kill();
      }
    });
  });

  describe('sensitivity is checked for every path, inside or outside', () => {
    it('asks both questions for a secret outside the workspace, and the allow-list never skips the secret one', async () => {
      const secret = path.join(outer.root, 'home', '.env');
      const prep = await prepare(await context(ws), 'fs_read', { path: secret });
      assert.deepEqual(prep?.confirmation?.reasons, ['outside', 'sensitive']);
      const allowed = await prepare(await context(ws, { allowedOutsidePaths: [`${outer.root}/**`] }), 'fs_read', { path: secret });
      assert.deepEqual(allowed?.confirmation?.reasons, ['sensitive']);
      const plain = await prepare(await context(ws, { allowedOutsidePaths: [`${outer.root}/**`] }), 'fs_read', { path: path.join(outer.root, 'outside.txt') });
      assert.equal(plain?.confirmation, undefined);
      const ask = refusing();
      const r = await call(await context(ws, { allowedOutsidePaths: [`${outer.root}/**`] }, ask), 'fs_read', { path: secret });
      assert.equal(r.isError, true);
      assert.ok(!r.text.includes(SECRET));
      assert.deepEqual(ask.asked.map((q) => q.reasons), [['sensitive']]);
    });

    it('through the CLI: an outside secret needs both --allow-outside and --yes', () => {
      const secret = path.join(outer.root, 'home', '.env');
      const half = runCli(['fs_read', '--root', ws, '--allow-outside', '--input', JSON.stringify({ path: secret })]);
      assert.equal(half.code, 3, half.out);
      assert.ok(!half.out.includes(SECRET));
      const none = runCli(['fs_read', '--root', ws, '--yes', '--input', JSON.stringify({ path: secret })]);
      assert.equal(none.code, 1, none.out);
      const both = runCli(['fs_read', '--root', ws, '--yes', '--allow-outside', '--input', JSON.stringify({ path: secret })]);
      assert.equal(both.code, 0, both.out);
      assert.match(both.out, new RegExp(SECRET));
    });

    it('matches names regardless of case', async () => {
      const t = tempTree({ '.ENV': 'X=1\n', 'keys/ID_RSA': 'k\n', '.Aws/Credentials': 'c\n' });
      try {
        const ctx = await context(t.root);
        for (const p of ['.ENV', 'keys/ID_RSA', '.Aws/Credentials']) {
          assert.deepEqual((await prepare(ctx, 'fs_read', { path: p }))?.confirmation?.reasons, ['sensitive'], p);
        }
      } finally {
        t.cleanup();
      }
    });
  });

  describe('the sensitive set covers the credential files developers have', () => {
    const set = sensitiveSet(DEFAULT_SENSITIVE_GLOBS);
    const secret = [
      '.env',
      'app/.env.production',
      'deploy/prod.env',
      '.envrc',
      '.aws/credentials',
      '.aws/config',
      '.config/gcloud/application_default_credentials.json',
      '.config/gcloud/credentials.db',
      'keys/my-project-service-account.json',
      'serviceAccountKey.json',
      'client_secret_1234.apps.googleusercontent.com.json',
      '.azure/accessTokens.json',
      '.azure/msal_token_cache.json',
      '.docker/config.json',
      '.kube/config',
      'clusters/prod.kubeconfig',
      '.npmrc',
      '.yarnrc.yml',
      '.pypirc',
      '.gem/credentials',
      '.cargo/credentials.toml',
      '.m2/settings.xml',
      '.gradle/gradle.properties',
      '.composer/auth.json',
      '.nuget/NuGet/NuGet.Config',
      '.git-credentials',
      '.config/git/credentials',
      '.config/gh/hosts.yml',
      '.ssh/id_rsa',
      '.ssh/id_ed25519',
      '.ssh/config',
      '.ssh/deploy_key',
      'id_ecdsa',
      'server.pem',
      'tls/server.key',
      'cert.p12',
      'release.keystore',
      'putty.ppk',
      '.gnupg/private-keys-v1.d/abc.key',
      'backup/secring.gpg',
      'private.asc',
      'terraform.tfstate',
      'terraform.tfstate.backup',
      'prod.tfvars',
      'vars.auto.tfvars.json',
      '.terraformrc',
      '.htpasswd',
      '.netrc',
      '.pgpass',
      '.my.cnf',
      '.vault-token',
      '.env-production',
      '.env_local',
      '.aws/cli/cache/0123abcd.json',
      '.aws/sso/cache/token.json',
      '.kube/config-prod',
      '.kube/cache/discovery/x.json',
      '.ssh/known_hosts',
      'deploy/github_ed25519',
      'keys/ci_rsa',
      '.putty/sessions/prod',
      '.yarnrc',
      '.config/pip/pip.conf',
      'pip.ini',
      '.config/pypoetry/auth.toml',
      '.local/share/gem/credentials',
      '.bundle/config',
      'auth.json',
      '.sbt/.credentials',
      '.mylogin.cnf',
      'AppData/Roaming/gcloud/credentials.db',
      'vpn/office.ovpn',
      'config/secrets.yml',
      '.streamlit/secrets.toml',
    ];
    for (const p of secret) {
      it(`asks before reading ${p}`, () => {
        assert.ok(set.test(p), p);
        assert.ok(set.test(`home/me/${p}`), `home/me/${p}`);
      });
    }
    for (const p of ['.env.example', '.env.sample', '.env.template', 'src/.env.example', '.env-example', '.env_sample', '.ENV.EXAMPLE', '.env.local.example', '.env.production.template', 'README.md', 'src/env.ts', 'package.json', 'config.json', 'main.tf', 'docs/keys.md', '.gitignore', '.ssh.md', 'id_rsa.pub', 'keys/ci_rsa.pub', 'src/rsa.ts']) {
      it(`reads ${p} without asking`, () => assert.ok(!set.test(p), p));
    }
    it('decides for a search\'s many files as for one read', () => {
      const fast = sensitiveFileTester(DEFAULT_SENSITIVE_GLOBS);
      const segs = ['src', '.aws', '.ssh', 'home', 'me', '.config', 'gcloud', 'git', 'x'];
      const names = ['credentials', 'config', '.env', '.env.example', 'main.ts', 'id_rsa', 'a.pem', 'hosts.yml', 'kubeconfig'];
      fc.assert(
        fc.property(fc.array(fc.constantFrom(...segs), { maxLength: 4 }), fc.array(fc.constantFrom(...segs), { maxLength: 3 }), fc.constantFrom(...names), fc.boolean(), (rootSegs, dir, name, inside) => {
          const root = `/${rootSegs.join('/')}`.replace(/\/$/, '') || '/r';
          const rel = [...dir, name].join('/');
          assert.equal(fast(root, rel, inside), isSensitive(set, inside ? rel : undefined, `${root}/${rel}`), `${root} ${rel} ${inside}`);
        }),
        { numRuns: 2000 },
      );
    });

    it('applies the built-in patterns whatever the setting holds: it starts empty and only adds to them', () => {
      const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
      assert.deepEqual(settingsOf(manifest)['agentFileTools.sensitiveFiles'].default, []);
      assert.deepEqual(guardedList([], DEFAULT_SENSITIVE_GLOBS, []), [...DEFAULT_SENSITIVE_GLOBS]);
      assert.deepEqual(guardedList(['!**/.env'], DEFAULT_SENSITIVE_GLOBS, [['!**/*.pem']]), [...DEFAULT_SENSITIVE_GLOBS, '!**/.env'], 'only the person exempts');
    });
  });
});

for (const [engineName, engine] of [
  ['ripgrep', rgOnPath],
  ['javascript', () => 'none'],
] as [string, () => string][]) {
  describe(`hostile workspace: search and listing never reveal what reading would ask about (${engineName})`, () => {
    let tree: ReturnType<typeof tempTree>;
    before(() => {
      tree = tempTree({
        '.env': `TOKEN=${SECRET}\n`,
        'sub/.env.local': `TOKEN=${SECRET}\n`,
        'ignored/.env': `TOKEN=${SECRET}\n`,
        '.gitignore': 'ignored/\n.env.local\n',
        'src/a.ts': 'const TOKEN = process.env.TOKEN;\n',
        '.git/config': `[remote "origin"]\n\turl = https://x:${SECRET}@example.com/r.git\n`,
        '.git/HEAD': 'ref: refs/heads/main\n',
        'nested/repo/.git/config': `token = ${SECRET}\n`,
        'nested/repo/file.txt': 'tracked\n',
        // git's folder as macOS and Windows name it when an archive spelled it so
        'Upper/.GIT/config': `token = ${SECRET}\n`,
        'lower/.Git/HEAD': `ref: ${SECRET}\n`,
      });
      fs.symlinkSync('.git', path.join(tree.root, 'gitlink'));
    });
    after(() => tree.cleanup());

    const grep = (input: Record<string, unknown>, dirty?: string) =>
      withEngine(engine(), async () => {
        const ctx = await context(tree.root, {}, refusing());
        if (dirty) {
          ctx.ws.docs.set(path.join(tree.root, '.env'), { text: dirty, isDirty: true, encoding: 'utf-8', eol: 'LF', version: 2 });
        }
        return call(ctx, 'fs_grep', input);
      });

    it('fs_grep answers a right guess at a secret exactly as a wrong one', async () => {
      for (const extra of [{}, { output: 'count' }, { output: 'files' }, { respect_ignore: false }, { include: '.env*' }, { include: '**/.env' }, { path: 'sub' }, { path: 'ignored', respect_ignore: false }, { multiline: true }, { fixed_strings: true }]) {
        const right = await grep({ pattern: 'hunter2', ...extra });
        const wrong = await grep({ pattern: 'hunter3', ...extra });
        assert.equal(right.text.replaceAll('hunter2', 'hunter3'), wrong.text, JSON.stringify(extra));
        assert.ok(!right.text.includes(SECRET), right.text);
      }
      const buffered = await grep({ pattern: 'typed' }, 'TOKEN=typed-in-editor\n');
      const none = await grep({ pattern: 'typez' }, 'TOKEN=typed-in-editor\n');
      assert.equal(buffered.text.replaceAll('typed', 'typez'), none.text, 'an unsaved buffer of a secret too');
    });

    it('keeps a file name with a line feed in it whole, and never searches what its last line names', async () => {
      const t = tempTree({ 'inner.txt': 'needle inside\n' });
      try {
        fs.writeFileSync(path.join(t.root, 'x\n..'), 'needle\n');
        fs.writeFileSync(path.join(t.root, 'y\ninner.txt'), 'no match here\n');
        const r = await withEngine(engine(), async () => call(await context(t.root), 'fs_grep', { pattern: 'needle' }));
        assert.equal(r.isError, false, r.text);
        // the name is printed escaped, as every tool prints names: its line feed starts no line
        assert.match(r.text, /^2 matching lines in 2 files for "needle" in the workspace; all shown:\ninner\.txt\n {2}L1: needle inside\nx\\x0a\.\.\n {2}L1: needle$/m);
      } finally {
        t.cleanup();
      }
    });

    it('refuses .git named as the path, nested repositories and links to .git too, saying why', async () => {
      const ctx = await context(tree.root, {}, refusing());
      for (const [tool, input] of [
        ['fs_grep', { pattern: 'hunter2', path: '.git' }],
        ['fs_grep', { pattern: 'hunter2', path: '.git/config' }],
        ['fs_grep', { pattern: 'hunter2', path: 'nested/repo/.git' }],
        ['fs_grep', { pattern: 'hunter2', path: 'gitlink' }],
        ['fs_list', { path: '.git' }],
        ['fs_list', { path: 'nested/repo/.git' }],
        ['fs_glob', { pattern: '*', path: '.git' }],
        ['fs_read', { path: '.git/config' }],
        ['fs_read', { path: '.GIT/config' }],
        ['fs_read', { path: 'nested/repo/.git/config' }],
        ['fs_read', { path: 'gitlink/config' }],
        ['fs_read', { path: '.git' }],
        ['fs_grep', { pattern: 'hunter2', path: 'Upper/.GIT' }],
        ['fs_list', { path: 'lower/.Git' }],
        ['fs_glob', { pattern: '*', path: 'Upper/.GIT' }],
        ['fs_read', { path: 'Upper/.GIT/config' }],
        // names Windows resolves to .git
        ['fs_read', { path: '.git./config' }],
        ['fs_read', { path: '.git /config' }],
        ['fs_read', { path: 'GIT~1/config' }],
        ['fs_list', { path: '.git::$INDEX_ALLOCATION' }],
      ] as const) {
        const r = await withEngine(engine(), () => call(ctx, tool, input));
        assert.equal(r.isError, true, `${tool} ${JSON.stringify(input)}: ${r.text}`);
        assert.match(r.text, /is (inside )?a \.git folder: fs_\w+ never (reads|lists|searches) git's own data/, r.text);
        assert.ok(!r.text.includes(SECRET) && !r.text.includes('HEAD'), r.text);
      }
    });

    it('never walks into .git, whatever the pattern', async () => {
      const ctx = await context(tree.root, {}, refusing());
      for (const [tool, input] of [
        ['fs_grep', { pattern: 'hunter2', respect_ignore: false }],
        ['fs_grep', { pattern: 'ref', include: '**/.git/**', respect_ignore: false }],
        ['fs_glob', { pattern: '**/.git/**', respect_ignore: false }],
        ['fs_glob', { pattern: '**/config' }],
        ['fs_list', { depth: 10, respect_ignore: false }],
        ['fs_grep', { pattern: 'hunter2', path: 'Upper', respect_ignore: false }],
        ['fs_grep', { pattern: 'ref', include: '**/.Git/*', respect_ignore: false }],
        ['fs_glob', { pattern: '**/.GIT/**', respect_ignore: false }],
        ['fs_glob', { pattern: '**/HEAD', respect_ignore: false }],
        ['fs_list', { path: 'Upper', depth: 5, respect_ignore: false }],
      ] as const) {
        const r = await withEngine(engine(), () => call(ctx, tool, input));
        assert.ok(!r.text.includes(SECRET) && !/\.git\/(config|HEAD)/i.test(r.text), `${tool} ${JSON.stringify(input)}: ${r.text}`);
      }
      const listed = await withEngine(engine(), () => call(ctx, 'fs_list', { depth: 3 }));
      assert.match(listed.text, /^ {2}\.GIT\/ \(not listed\)$/m, listed.text);
      assert.match(listed.text, /^ {2}\.Git\/ \(not listed\)$/m, listed.text);
    });

    it('through the CLI: fs_grep on .git exits 1 with the reason, and prints no token', () => {
      const r = withEngineSync(engine(), () => runCli(['fs_grep', '--root', tree.root, '--input', JSON.stringify({ pattern: 'hunter2', path: '.git' })]));
      assert.equal(r.code, 1, r.out);
      assert.match(r.out, /^\.git is a \.git folder: fs_grep never searches git's own data/);
      assert.ok(!r.out.includes(SECRET));
      for (const input of [{ pattern: 'hunter2', respect_ignore: false }, { pattern: 'hunter2', path: 'Upper', include: '**/.GIT/**' }]) {
        const all = withEngineSync(engine(), () => runCli(['fs_grep', '--root', tree.root, '--input', JSON.stringify(input)]));
        assert.equal(all.code, 0, all.out);
        assert.ok(!all.out.includes(SECRET), all.out);
      }
    });
  });
}

function withEngineSync<T>(engine: string, fn: () => T): T {
  const prev = process.env.AGENT_FILE_TOOLS_RG;
  process.env.AGENT_FILE_TOOLS_RG = engine;
  try {
    return fn();
  } finally {
    if (prev === undefined) {
      delete process.env.AGENT_FILE_TOOLS_RG;
    } else {
      process.env.AGENT_FILE_TOOLS_RG = prev;
    }
  }
}

/** A signal the test cancels after `ms`. */
function cancelAfter(ms: number): { isCancellationRequested: boolean } {
  const s = { isCancellationRequested: false };
  setTimeout(() => (s.isCancellationRequested = true), ms).unref();
  return s;
}

describe('hostile workspace: every call is bounded in time and memory, and cancellable', () => {
  describe('ignore files that never end or never open', () => {
    let t: ReturnType<typeof tempTree>;
    before(() => {
      t = tempTree({ 'zero/a.txt': 'hello\n', 'pipe/b.txt': 'hello\n', 'plain/c.txt': 'hello\n' });
      fs.symlinkSync('/dev/zero', path.join(t.root, 'zero', '.gitignore'));
      spawnSync('mkfifo', [path.join(t.root, 'pipe', '.ignore')]);
    });
    after(() => t.cleanup());

    for (const [engineName, engine] of [
      ['ripgrep', rgOnPath],
      ['javascript', () => 'none'],
    ] as [string, () => string][]) {
      for (const folder of ['zero', 'pipe', undefined]) {
        it(`${engineName}: fs_list, fs_glob and fs_grep on ${folder ?? 'the whole workspace'} end within seconds, saying why when they stop`, async function () {
          this.timeout(30000);
          await withEngine(engine(), async () => {
            const ctx = await context(t.root);
            for (const [tool, input] of [
              ['fs_list', { path: folder, depth: 3 }],
              ['fs_glob', { pattern: '*.txt', path: folder }],
              ['fs_grep', { pattern: 'hello', path: folder }],
              ['fs_read', { path: `${folder ?? 'plain'}/${folder === 'zero' ? 'a' : folder === 'pipe' ? 'b' : 'c'}.txt` }],
            ] as const) {
              const t0 = Date.now();
              const r = await call(ctx, tool, input);
              const ms = Date.now() - t0;
              assert.ok(ms < 8000, `${tool} took ${ms} ms`);
              if (r.isError) {
                // Only ripgrep, which reads ignore files itself, is stopped; the message says why.
                assert.equal(engineName, 'ripgrep', `${tool}: ${r.text}`);
                assert.match(r.text, /ripgrep was stopped: it (needed more than 512\.0 MiB of memory|made no progress for 3 seconds)/, r.text);
              }
            }
          });
        });
      }
    }

    it('fs_read and fs_grep named on the FIFO or the device refuse it at once, never waiting on it', async function () {
      this.timeout(30000);
      const ctx = await context(t.root, {}, cliApprover({ yes: false, allowOutside: true }));
      for (const [tool, input, expected] of [
        ['fs_read', { path: 'pipe/.ignore' }, /is not a regular file/],
        ['fs_read', { path: 'zero/.gitignore' }, /is not a regular file/],
        ['fs_grep', { pattern: 'x', path: 'pipe/.ignore' }, /is not a folder or a regular file/],
        ['fs_grep', { pattern: 'x', path: 'zero/.gitignore' }, /is not a folder or a regular file/],
      ] as const) {
        const t0 = Date.now();
        const r = await call(ctx, tool, input);
        assert.equal(r.isError, true, r.text);
        assert.match(r.text, expected);
        assert.ok(Date.now() - t0 < 3000, `${tool} ${input.path}: ${Date.now() - t0} ms`);
      }
    });

    it('through the CLI', function () {
      this.timeout(30000);
      const r = withEngineSync(rgOnPath(), () => runCli(['fs_grep', '--root', t.root, '--input', JSON.stringify({ pattern: 'hello', path: 'pipe' })]));
      assert.equal(r.code, 1, r.out);
      assert.match(r.out, /made no progress for 3 seconds, as happens when it waits on a FIFO/);
      assert.ok(r.ms < 8000, `${r.ms} ms`);
      const l = runCli(['fs_list', '--root', t.root, '--input', JSON.stringify({ depth: 3 })]);
      assert.equal(l.code, 0, l.out);
      assert.match(l.out, /\.gitignore@ -> \/dev\/zero/);
    });
  });

  describe('ignore files of a great many rules, or rules built to backtrack', () => {
    let t: ReturnType<typeof tempTree>;
    let slow: ReturnType<typeof tempTree>;
    const rules = (make: (i: number) => string) => {
      const out: string[] = [];
      for (let i = 0, n = 0; n < 4 * 1024 * 1024 - 100; i++) {
        out.push(make(i));
        n += out[out.length - 1].length + 1;
      }
      return `${out.join('\n')}\n`;
    };
    before(function () {
      this.timeout(30000);
      const files: Record<string, string> = {};
      for (let i = 0; i < 2000; i++) {
        files[`src/file_${'a'.repeat(32)}_${i}.txt`] = `line ${i}\n`;
      }
      // 150,000 rules that each cost a walk of the name (stars and texts only).
      t = tempTree({ ...files, '.gitignore': rules((i) => `**/*a*a*a*a*a*a*a*a*b${i}`) });
      // Rules whose texts every name holds, so only the full match can say no, and it backtracks.
      const names: Record<string, string> = {};
      for (let i = 0; i < 2000; i++) {
        names[`src/${'a'.repeat(200)}${i}.x`] = 'x\n';
      }
      slow = tempTree({ ...names, '.gitignore': rules(() => '**/*a?*a?*a?*a?*a?*a?*a?*a?*.x?') });
    });
    after(() => {
      t.cleanup();
      slow.cleanup();
    });

    it('applies at most the first 10,000 rules of a file, no line past 4096 characters', () => {
      const text = boundedRules(['# comment', 'a', `${'b'.repeat(5000)}`, ...Array.from({ length: 20_000 }, (_, i) => `r${i}`)].join('\n'));
      const lines = text.split('\n');
      assert.equal(lines.length, 1 + 1 + 9_999);
      assert.equal(lines[lines.length - 1], 'r9998');
      assert.ok(!text.includes('bbbb'));
      // rules matched by the general walk (a star with ? or a set) share 8 KiB per call
      const budget = ruleBudget();
      const wild = boundedRules(Array.from({ length: 1000 }, (_, i) => `*a?*b[0-9]*${i}`).join('\n'), budget);
      const kept = wild.split('\n');
      assert.ok(kept.length > 400 && kept.length < 1000, `${kept.length} kept`);
      assert.equal(kept.join('').length, 8 * 1024 - budget.wildcardChars);
      assert.equal(boundedRules('*a?*b\n*.py[cod]\n*.log\nbuild/', budget), '*.log\nbuild/', 'the budget is the call\'s, not each file\'s');
    });

    for (const tool of ['fs_list', 'fs_glob', 'fs_grep'] as const) {
      it(`JavaScript walk: ${tool} over 2000 files under 150,000 rules ends within seconds`, async function () {
        this.timeout(60000);
        const input = tool === 'fs_list' ? { path: 'src', limit: 1000 } : tool === 'fs_glob' ? { pattern: '**/*.txt' } : { pattern: 'line 1' };
        const t0 = Date.now();
        const r = await withEngine('none', async () => call(await context(t.root), tool, input));
        const ms = Date.now() - t0;
        assert.equal(r.isError, false, r.text);
        assert.ok(ms < 10000, `${tool} took ${ms} ms`);
      });
    }

    it('stops matching once the call has spent its time on it, saying why', function () {
      this.timeout(30000);
      const matcher = new Matcher(new Overrides([]), new RuleFile('.gitignore', Array(10_000).fill('*a?*a?*a?*a?*a?*a?*a?*a?*.x?')), true, new MatchClock(200));
      const t0 = Date.now();
      assert.throws(
        () => {
          for (let i = 0; i < 1_000_000; i++) {
            matcher.match(undefined, `src/${'a'.repeat(200)}${i}.x`, false);
          }
        },
        (e: unknown) => e instanceof ToolError && e.code === 'too-large' && /ignore rules here took more than 0\.2 seconds to apply[^]*"respect_ignore": false/.test(e.message),
      );
      assert.ok(Date.now() - t0 < 3000, `${Date.now() - t0} ms`);
    });

    /** Runs a call while a timer measures the longest time the thread was held at once. */
    const held = async <T>(run: () => Promise<T>): Promise<{ value: T; longest: number; ms: number }> => {
      let longest = 0;
      let last = Date.now();
      const beat = setInterval(() => {
        longest = Math.max(longest, Date.now() - last);
        last = Date.now();
      }, 5);
      const t0 = Date.now();
      try {
        const value = await run();
        return { value, longest: Math.max(longest, Date.now() - last), ms: Date.now() - t0 };
      } finally {
        clearInterval(beat);
      }
    };
    const inputOf = (tool: string, ext: string) => (tool === 'fs_list' ? { path: 'src', limit: 1000 } : tool === 'fs_glob' ? { pattern: `**/*.${ext}` } : { pattern: 'x' });

    for (const tool of ['fs_list', 'fs_glob', 'fs_grep'] as const) {
      it(`JavaScript walk: ${tool} under rules built to backtrack ends within seconds, the thread never held long`, async function () {
        this.timeout(60000);
        const ctx = await context(slow.root);
        const r = await held(() => withEngine('none', () => call(ctx, tool, inputOf(tool, 'x'))));
        assert.equal(r.value.isError, false, r.value.text.slice(0, 300));
        // bounds for a loaded 2-core machine: without the fix these took minutes and held the thread throughout
        assert.ok(r.ms < 15000, `${tool} took ${r.ms} ms`);
        assert.ok(r.longest < 1500, `the thread was held for ${r.longest} ms at once`);
      });

      it(`JavaScript walk: ${tool} under 150,000 rules stops at once when cancelled`, async function () {
        this.timeout(60000);
        const ctx = { ...(await context(t.root)), signal: cancelAfter(100) };
        const r = await held(() => withEngine('none', () => call(ctx, tool, inputOf(tool, 'txt'))));
        assert.equal(r.value.isError, true, r.value.text.slice(0, 300));
        assert.match(r.value.text, /cancelled/);
        assert.ok(r.ms < 5000, `${tool} took ${r.ms} ms to stop`);
        assert.ok(r.longest < 1500, `the thread was held for ${r.longest} ms at once`);
      });
    }
  });

  describe('the JavaScript search on a pattern that backtracks', () => {
    let t: ReturnType<typeof tempTree>;
    before(() => (t = tempTree({ 'a.txt': `${'a'.repeat(64)}!\n`, 'b.txt': 'aaa\n' })));
    after(() => t.cleanup());

    it('is stopped after a deadline with a message that names the cause', async function () {
      this.timeout(30000);
      const t0 = Date.now();
      const r = await withEngine('none', async () => call(await context(t.root), 'fs_grep', { pattern: '(a+)+$' }));
      assert.equal(r.isError, true, r.text);
      assert.match(r.text, /The pattern was stopped after 5 seconds on one file: it backtracks without end/);
      assert.ok(Date.now() - t0 < 9000, `${Date.now() - t0} ms`);
    });

    it('stops at once when the call is cancelled', async function () {
      this.timeout(30000);
      const t0 = Date.now();
      const r = await withEngine('none', async () => call({ ...(await context(t.root)), signal: cancelAfter(300) }, 'fs_grep', { pattern: '(a+)+$' }));
      assert.equal(r.isError, true);
      assert.match(r.text, /cancelled/);
      assert.ok(Date.now() - t0 < 2000, `${Date.now() - t0} ms`);
    });

    it('through the CLI', function () {
      this.timeout(30000);
      const r = withEngineSync('none', () => runCli(['fs_grep', '--root', t.root, '--input', JSON.stringify({ pattern: '(a+)+$' })]));
      assert.equal(r.code, 1, r.out);
      assert.match(r.out, /backtracks without end/);
      assert.ok(r.ms < 9000, `${r.ms} ms`);
    });
  });

  describe('files with very long lines', () => {
    let t: ReturnType<typeof tempTree>;
    before(() => {
      t = tempTree({ 'short.txt': 'needle here\n' });
      const fd = fs.openSync(path.join(t.root, 'minified.js'), 'w');
      const block = Buffer.alloc(1024 * 1024, 'abcdefghij');
      for (let i = 0; i < 100; i++) {
        fs.writeSync(fd, block);
      }
      fs.writeSync(fd, ' needle\n');
      fs.closeSync(fd);
    });
    after(() => t.cleanup());

    for (const output of ['content', 'count', 'files']) {
      it(`fs_grep (${output}) reads a 100 MiB line within seconds, the line cut`, async function () {
        this.timeout(30000);
        const t0 = Date.now();
        const r = await withEngine(rgOnPath(), async () => call(await context(t.root), 'fs_grep', { pattern: 'needle', output, context: output === 'content' ? 1 : undefined }));
        assert.equal(r.isError, false, r.text.slice(0, 500));
        assert.ok(Date.now() - t0 < 8000, `${Date.now() - t0} ms`);
        assert.ok(r.text.length < 64 * 1024, `${r.text.length} characters`);
        if (output === 'content') {
          assert.match(r.text, /^minified\.js\n {2}L1: (abcdefghij){100}[a-j]*… \[line cut: characters 1-2000 shown of a line over 8000 bytes; next piece: fs_read \{"path":"minified\.js","offset":1,"limit":1,"column":2001\}\]$/m);
        }
      });
    }

    it('through the CLI, in multiline mode too', function () {
      this.timeout(30000);
      const r = withEngineSync(rgOnPath(), () => runCli(['fs_grep', '--root', t.root, '--input', JSON.stringify({ pattern: ' needle\\n', multiline: true })]));
      assert.equal(r.code, 0, r.out.slice(0, 500));
      assert.match(r.out, /^1 match in 1 file for /);
      assert.ok(r.ms < 8000, `${r.ms} ms`);
    });
  });

  describe('PDFs whose streams inflate enormously', () => {
    let t: ReturnType<typeof tempTree>;
    before(function () {
      this.timeout(60000);
      t = tempTree({ 'bomb.pdf': makeInflatingPdf(1, 1, 200 * 1024 * 1024), 'late.pdf': makeInflatingPdf(3, 2, 200 * 1024 * 1024) });
    });
    after(() => t.cleanup());

    it('are stopped within seconds, off the calling thread, saying why', async function () {
      this.timeout(30000);
      const t0 = Date.now();
      let ticks = 0;
      const tick = setInterval(() => ticks++, 100);
      const r = await call(await context(t.root), 'fs_read', { path: 'bomb.pdf' });
      clearInterval(tick);
      const ms = Date.now() - t0;
      assert.equal(r.isError, true, r.text);
      assert.match(r.text, /^Stopped extracting the text of page 1 of bomb\.pdf: it (took more than 5 seconds|needed more than 512\.0 MiB of memory)/);
      assert.ok(ms < 9000, `${ms} ms`);
      assert.ok(ticks >= Math.floor(ms / 100) - 10, `this thread stayed free: ${ticks} ticks in ${ms} ms`);
    });

    it('give the pages before the heavy one, and say where to continue', async function () {
      this.timeout(30000);
      const r = await call(await context(t.root), 'fs_read', { path: 'late.pdf' });
      assert.equal(r.isError, false, r.text);
      assert.match(r.text, /=== Page 1 ===\n> page 1 text\n\n\(Page 2 could not be extracted within the time and memory allowed\.\)\n<\/content>\nContinue with: fs_read \{"path":"late\.pdf","offset":2\}$/);
    });

    it('stop at once when the call is cancelled', async function () {
      this.timeout(30000);
      const t0 = Date.now();
      const r = await call({ ...(await context(t.root)), signal: cancelAfter(300) }, 'fs_read', { path: 'bomb.pdf' });
      assert.equal(r.isError, true);
      assert.match(r.text, /cancelled/);
      assert.ok(Date.now() - t0 < 2500, `${Date.now() - t0} ms`);
    });

    it('through the CLI', function () {
      this.timeout(30000);
      const r = runCli(['fs_read', '--root', t.root, '--input', JSON.stringify({ path: 'bomb.pdf' })]);
      assert.equal(r.code, 1, r.out);
      assert.match(r.out, /^Stopped extracting the text of page 1 of bomb\.pdf/);
      assert.ok(r.ms < 9000, `${r.ms} ms`);
    });
  });

  describe('notebooks whose outputs hold huge structures', () => {
    let t: ReturnType<typeof tempTree>;
    const nb = (data: string) =>
      `{"cells":[{"cell_type":"code","source":["x = 1"],"outputs":[{"output_type":"execute_result","data":{"text/plain":["1"],"application/json":${data}},"metadata":{}}]}],"metadata":{},"nbformat":4,"nbformat_minor":5}`;
    before(() => {
      t = tempTree({
        // 30 MiB of brackets, under the size cap: 15 million nested arrays once parsed
        'deep.ipynb': nb(`${'['.repeat(15_000_000)}${']'.repeat(15_000_000)}`),
        'wide.ipynb': nb(`[${Array(3_000_000).fill('{}').join(',')}]`),
        'fine.ipynb': nb(`{"a":[[1,2],{"b":"[[[[[[ not nesting \\" ]]]]"}]}`),
      });
    });
    after(() => t.cleanup());

    it('are refused before parsing, at once, saying why; a notebook with brackets in its strings is read', async function () {
      this.timeout(30000);
      const ctx = await context(t.root);
      for (const [name, why] of [
        ['deep.ipynb', /nests more than 256 levels deep/],
        ['wide.ipynb', /holds more than 1000000 arrays and objects/],
      ] as const) {
        const before = process.memoryUsage().rss;
        const t0 = Date.now();
        const r = await call(ctx, 'fs_read', { path: name });
        assert.equal(r.isError, true, r.text);
        assert.match(r.text, why);
        assert.match(r.text, /Use fs_grep on it/);
        assert.ok(Date.now() - t0 < 5000, `${name}: ${Date.now() - t0} ms`);
        assert.ok(process.memoryUsage().rss - before < 300 * 1024 * 1024, `${name}: ${(process.memoryUsage().rss - before) >> 20} MiB more`);
      }
      const fine = await call(ctx, 'fs_read', { path: 'fine.ipynb' });
      assert.equal(fine.isError, false, fine.text);
      assert.match(fine.text, /x = 1/);
    });

    it('through the CLI', function () {
      this.timeout(30000);
      const r = runCli(['fs_read', '--root', t.root, '--input', JSON.stringify({ path: 'deep.ipynb' })]);
      assert.equal(r.code, 1, r.out);
      assert.match(r.out, /nests more than 256 levels deep/);
      assert.ok(r.ms < 5000, `${r.ms} ms`);
    });
  });

  describe('fs_glob sorted by modification time', () => {
    it('stats the matches in bulk, not one await per file, and pages them', async function () {
      this.timeout(60000);
      const t = tempTree();
      try {
        fs.mkdirSync(path.join(t.root, 'd'));
        for (let i = 0; i < 20000; i++) {
          fs.writeFileSync(path.join(t.root, 'd', `f${i}.txt`), '');
        }
        const newest = new Date(Date.now() + 60_000);
        fs.utimesSync(path.join(t.root, 'd', 'f123.txt'), newest, newest);
        const ctx = await context(t.root);
        let stats = 0;
        const stat = ctx.ws.stat.bind(ctx.ws);
        ctx.ws.stat = (p: string) => ((stats += 1), stat(p));
        const r = await call(ctx, 'fs_glob', { pattern: '*.txt', sort: 'mtime', limit: 2 });
        assert.match(r.text, /^20000 files match \*\*\/\*\.txt in the workspace, newest first; 1-2 shown:\nd\/f123\.txt\n/);
        assert.ok(stats < 100, `${stats} stat calls`);
      } finally {
        t.cleanup();
      }
    });
  });
});

describe('reading a program\'s output', () => {
  it('splits lines in one pass over each chunk, keeping at most the cap of a line', () => {
    const lines: string[] = [];
    const s = new LineSplitter('\n', 10, (l) => lines.push(l));
    const t0 = Date.now();
    for (let i = 0; i < 20_000; i++) {
      s.push('x'.repeat(10_000));
    }
    s.push('\nshort\n\nlast');
    s.end();
    assert.ok(Date.now() - t0 < 2000, `${Date.now() - t0} ms for 200 MB in one line`);
    assert.deepEqual(lines, ['x'.repeat(10), 'short', '', 'last']);
  });
});

describe('hostile input: a clear, bounded answer', () => {
  let t: ReturnType<typeof tempTree>;
  before(() => (t = tempTree({ 'a.txt': 'x\n' })));
  after(() => t.cleanup());

  const deep = (n: number): unknown => {
    let v: unknown = 'x';
    for (let i = 0; i < n; i++) {
      v = [v];
    }
    return v;
  };
  const cases: [string, string, Record<string, unknown>, RegExp][] = [
    ['input nested deep enough to overflow the stack', 'fs_read', { path: deep(200_000) }, /`path`: nests arrays or objects more than 16 levels deep/],
    ['nesting under an unknown field', 'fs_list', { other: deep(200_000) }, /`other`: nests arrays or objects more than 16 levels deep/],
    ['a 10 MB path', 'fs_read', { path: 'a'.repeat(10_000_000) }, /`path`: is 10000000 characters long; at most 4096 are accepted/],
    ['a 10 MB pattern', 'fs_grep', { pattern: 'a'.repeat(10_000_000) }, /`pattern`: is 10000000 characters long; at most 8192 are accepted/],
    ['a 10 MB glob', 'fs_glob', { pattern: `{${Array.from({ length: 1_000_000 }, (_, i) => `a${i}`).join(',')}}` }, /`pattern`: is \d+ characters long; at most 4096 are accepted/],
    ['a huge include', 'fs_grep', { pattern: 'x', include: `{${Array.from({ length: 1_000_000 }, (_, i) => `a${i}`).join(',')}}` }, /`include`: is \d+ characters long; at most 4096 are accepted/],
    ['a huge ignore list', 'fs_list', { ignore: Array(200_000).fill('*.tmp') }, /`ignore`: holds 200000 globs; at most 100 are accepted/],
    ['many bad globs', 'fs_list', { ignore: Array(100).fill('') }, /`ignore\.7`: must not be empty[^\n]*\n- and 92 more problems like these\n/],
    ['a 10 MB cursor', 'fs_list', { cursor: 'c'.repeat(10_000_000) }, /`cursor`: is 10000000 characters long; at most 65536 are accepted/],
    ['a 10 MB unknown field name', 'fs_read', { path: 'a.txt', ['k'.repeat(10_000_000)]: 1 }, /unknown field `k{40}\.\.\.` \(10000000 characters\): the fields are `path`/],
  ];
  for (const [what, tool, input, expected] of cases) {
    it(`${what}: names the field and its limit, never echoing the input`, async function () {
      this.timeout(20000);
      const r = await call(await context(t.root), tool, input);
      assert.equal(r.isError, true);
      assert.match(r.text, expected);
      assert.match(r.text, new RegExp(`^Invalid input for ${tool}:`));
      assert.ok(r.text.length < 2000, `${r.text.length} characters of error`);
      assert.doesNotMatch(r.text, /failed unexpectedly|internal error|E2BIG|Maximum call stack/);
    });
  }

  it('200,000 unknown fields: a few named, the rest counted, at once', async function () {
    this.timeout(20000);
    const input: Record<string, unknown> = { path: 'a.txt' };
    for (let i = 0; i < 200_000; i++) {
      input[`k${i}`] = i;
    }
    const t0 = Date.now();
    const r = await call(await context(t.root), 'fs_read', input);
    const ms = Date.now() - t0;
    assert.equal(r.isError, true);
    assert.match(r.text, /^Invalid input for fs_read:\n- unknown fields `k0`, `k1`, `k2`, `k3`, `k4`, `k5`, `k6`, `k7`: the fields are `path`/);
    assert.match(r.text, /\n- and 199992 more unknown fields\n/);
    assert.ok(r.text.length < 2000, `${r.text.length} characters of error`);
    assert.ok(ms < 3000, `${ms} ms`);
  });

  it('a list where a string belongs: the wrong type, never its length as characters', async () => {
    const r = await call(await context(t.root), 'fs_grep', { pattern: 'x', include: Array(100_000).fill('*') });
    assert.equal(r.isError, true);
    assert.match(r.text, /^Invalid input for fs_grep:\n- `include`: expected a glob, e\.g\. "\*\.ts" \(string\) \(got \["\*"/);
    assert.doesNotMatch(r.text, /characters long/);
  });

  it('caps any error text', async () => {
    const dir = `${'d'.repeat(250)}/`.repeat(15);
    const deepTree = tempTree({ [`${dir}notes-1.txt`]: '', [`${dir}notes-2.txt`]: '', [`${dir}notes-3.txt`]: '' });
    try {
      const r = await call(await context(deepTree.root), 'fs_read', { path: `${dir}notes-4.txt` });
      assert.equal(r.isError, true);
      assert.match(r.text, /^File not found: [^\n]*\nDid you mean one of these\?/);
      assert.match(r.text, /… \[error text cut at 8000 characters\]$/);
      assert.ok(r.text.length < 8100, `${r.text.length}`);
    } finally {
      deepTree.cleanup();
    }
  });

  it('through the CLI: exit 1 with the field named, never an internal error', function () {
    this.timeout(30000);
    const file = path.join(t.root, 'input.json');
    for (const [tool, text, expected] of [
      ['fs_read', `{"path":${'['.repeat(500_000)}"x"${']'.repeat(500_000)}}`, /`path`: nests arrays or objects more than 16 levels deep/],
      ['fs_grep', JSON.stringify({ pattern: 'a'.repeat(10_000_000) }), /at most 8192 are accepted/],
      ['fs_list', JSON.stringify({ ignore: Array(200_000).fill('x') }), /at most 100 are accepted/],
    ] as const) {
      fs.writeFileSync(file, text);
      const r = runCli([tool, '--root', t.root, '--input-file', file]);
      assert.equal(r.code, 1, r.out + r.err);
      assert.match(r.out, expected);
      assert.equal(r.err, '');
      assert.ok(r.out.length < 2000);
    }
  });
});

describe('hostile workspace: nothing in the workspace runs', () => {
  let t: ReturnType<typeof tempTree>;
  let marker: string;
  const pathWithRelative = () => ['.', 'bin', process.env.PATH ?? ''].join(path.delimiter);
  before(function () {
    this.timeout(20000);
    t = tempTree({ 'a.txt': 'needle\n' });
    marker = `${t.root}.ran`;
    // A repository's own `git` and `rg`, where a PATH entry of "." or "bin" would find them.
    for (const dir of ['', 'bin']) {
      for (const name of ['git', 'rg']) {
        const p = path.join(t.root, dir, name);
        fs.mkdirSync(path.dirname(p), { recursive: true });
        fs.writeFileSync(p, `#!/bin/sh\necho ${name} >> '${marker}'\nexit 1\n`, { mode: 0o755 });
      }
    }
    const git = (...args: string[]) => spawnSync('git', ['-c', 'user.email=a@b.c', '-c', 'user.name=n', ...args], { cwd: t.root });
    git('init', '-q');
    git('add', 'a.txt');
    git('commit', '-qm', 'a');
    // A split index is the one the tools leave to git to read.
    git('update-index', '--split-index');
  });
  after(() => {
    t.cleanup();
    fs.rmSync(marker, { force: true });
  });

  it('a program is looked up only in the absolute folders of PATH', () => {
    const proc = { env: { PATH: ['.', 'bin', '', '/usr/local/bin', '/opt/bin'].join(':') }, isExecutable: (p: string) => p.endsWith('/git') };
    assert.equal(findProgram('git', proc, path.posix), '/usr/local/bin/git');
    assert.equal(findProgram('git', { ...proc, env: { PATH: '.:bin' } }, path.posix), undefined);
    const win = { env: { PATH: 'tools;C:\\Git\\cmd', PATHEXT: '.COM;.EXE' }, isExecutable: (p: string) => p.endsWith('git.exe') };
    assert.equal(findProgram('git', win, path.win32), 'C:\\Git\\cmd\\git.exe');
  });

  it('fs_grep and fs_list source="git" never run the repository\'s git or rg, whatever PATH holds', async function () {
    this.timeout(30000);
    const saved = { path: process.env.PATH, cwd: process.cwd() };
    process.env.PATH = pathWithRelative();
    process.chdir(t.root);
    try {
      const ctx = await context(t.root);
      const g = await withEngine('', () => call(ctx, 'fs_grep', { pattern: 'needle' }));
      assert.match(g.text, /^a\.txt\n {2}L1: needle$/m, g.text);
      const l = await call(ctx, 'fs_list', { source: 'git' });
      assert.match(l.text, /^a\.txt$/m, l.text);
    } finally {
      process.env.PATH = saved.path;
      process.chdir(saved.cwd);
    }
    assert.equal(fs.existsSync(marker), false, fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : '');
  });

  it('through the CLI, run from the workspace with "." on PATH', function () {
    this.timeout(30000);
    const env = { ...process.env, PATH: pathWithRelative(), AGENT_FILE_TOOLS_RG: '' };
    const g = runCli(['fs_grep', '--root', t.root, '--input', JSON.stringify({ pattern: 'needle' })], { cwd: t.root, env });
    assert.equal(g.code, 0, g.out + g.err);
    assert.match(g.out, /L1: needle/);
    const l = runCli(['fs_list', '--root', t.root, '--input', JSON.stringify({ source: 'git' })], { cwd: t.root, env });
    assert.equal(l.code, 0, l.out + l.err);
    assert.match(l.out, /^a\.txt$/m);
    assert.equal(fs.existsSync(marker), false, fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : '');
  });
});

describe('hostile workspace: a change lands only where it was decided', () => {
  let t: ReturnType<typeof tempTree>;
  let outside: ReturnType<typeof tempTree>;
  beforeEach(() => {
    t = tempTree({ 'dir/a.txt': 'one\n', 'other.txt': 'other\n' });
    outside = tempTree({ 'a.txt': 'one\n' });
  });
  afterEach(() => {
    t.cleanup();
    outside.cleanup();
  });
  /** Swaps `dir` for a link to the outside folder, which holds a file of the same text. */
  const swap = () => {
    fs.renameSync(path.join(t.root, 'dir'), path.join(t.root, 'dir.old'));
    fs.symlinkSync(outside.root, path.join(t.root, 'dir'));
  };
  const outsideState = () => fs.readdirSync(outside.root).map((f) => `${f}=${fs.readFileSync(path.join(outside.root, f), 'utf8')}`);

  for (const [tool, input] of [
    ['fs_write', { path: 'dir/a.txt', content: 'written\n', version: textVersion('one\n') }],
    ['fs_edit', { path: 'dir/a.txt', old_string: 'one', new_string: 'edited' }],
    ['fs_write', { path: 'dir/new.txt', content: 'created\n' }],
    ['fs_edit', { path: 'dir/sub/new.txt', old_string: '', new_string: 'created\n' }],
    ['fs_apply_patch', { patch: '*** Begin Patch\n*** Update File: other.txt\n@@\n-other\n+patched\n*** Update File: dir/a.txt\n@@\n-one\n+patched\n*** End Patch' }],
    ['fs_apply_patch', { patch: '*** Begin Patch\n*** Update File: other.txt\n*** Move to: dir/moved.txt\n@@\n-other\n+moved\n*** End Patch' }],
  ] as const) {
    it(`${tool} ${JSON.stringify(input).slice(0, 60)}: a folder swapped for a link while the person reviews is refused, nothing written`, async () => {
      const { approver } = scriptedApprover((p) => {
        swap();
        return acceptAsProposed(p);
      });
      const r = await call(await context(t.root, {}, approver), tool, input);
      assert.equal(r.isError, true, r.text);
      assert.match(r.text, /changed while the change waited \(it, or a folder on its path, became a link or stopped being one\), so nothing was written/);
      assert.deepEqual(outsideState(), ['a.txt=one\n']);
      assert.equal(fs.readFileSync(path.join(t.root, 'other.txt'), 'utf8'), 'other\n');
    });
  }

  it('the apply itself writes nothing through a folder that became a link after the last check', async () => {
    const ws = await TestWorkspace.create([t.root]);
    const p = (rel: string) => path.join(t.root, rel);
    const opts = { signal: NEVER_CANCELLED, saveIfClean: true, label: 'test' };
    swap();
    for (const change of [
      { kind: 'edit', path: p('dir/a.txt'), base: 'one\n', edits: [{ start: 0, end: 3, text: 'x' }] },
      { kind: 'create', path: p('dir/a.txt'), bytes: Buffer.from('x'), overwrite: true },
      { kind: 'create', path: p('dir/deeper/n.txt'), bytes: Buffer.from('x'), overwrite: false },
      { kind: 'delete', path: p('dir/a.txt') },
      { kind: 'rename', from: p('other.txt'), to: p('dir/o.txt'), overwrite: false },
    ] as FileChange[]) {
      await assert.rejects(ws.applyChanges([{ kind: 'create', path: p('first.txt'), bytes: Buffer.from('1'), overwrite: false }, change], opts), /changed while the change was applied/, change.kind);
      assert.deepEqual(outsideState(), ['a.txt=one\n'], change.kind);
      assert.equal(fs.existsSync(p('first.txt')), false, 'what was written first is taken back');
      assert.equal(fs.readFileSync(p('other.txt'), 'utf8'), 'other\n');
    }
  });

  it('asks before writing a secret of a workspace opened on its folder, whatever the policy', async () => {
    const home = tempTree({ '.docker/config.json': '{}\n' });
    try {
      const s = scriptedApprover();
      const ctx = await context(path.join(home.root, '.docker'), { approvalPolicy: 'never' }, s.approver);
      const r = await call(ctx, 'fs_write', { path: 'config.json', content: '{"auths": {}}\n', version: textVersion('{}\n') });
      assert.equal(r.isError, false, r.text);
      assert.equal(s.reviews.length, 1, 'the change waited for the person');
      const plain = await call(ctx, 'fs_write', { path: 'notes.txt', content: 'x\n' });
      assert.equal(plain.isError, false, plain.text);
      assert.equal(s.reviews.length, 1, 'an ordinary file lands as the policy says');
    } finally {
      home.cleanup();
    }
  });

  it('never writes through the names Windows gives .git, nor a .GIT folder', async () => {
    fs.mkdirSync(path.join(t.root, '.git', 'hooks'), { recursive: true });
    const ctx = await context(t.root);
    for (const p of ['.git./hooks/pre-commit', '.git /hooks/pre-commit', 'GIT~1/hooks/pre-commit', '.GIT/hooks/pre-commit', 'sub/../.Git/config']) {
      const r = await call(ctx, 'fs_write', { path: p, content: '#!/bin/sh\n' });
      assert.equal(r.isError, true, p);
      assert.match(r.text, /is inside a \.git folder: git's own files are never written/, p);
    }
    assert.deepEqual(fs.readdirSync(path.join(t.root, '.git', 'hooks')), []);
    const cli = runCli(['fs_write', '--root', t.root, '--yes', '--input', JSON.stringify({ path: '.git./hooks/post-checkout', content: 'x' })]);
    assert.equal(cli.code, 1, cli.out);
    assert.match(cli.out, /is inside a \.git folder/);
    assert.equal(fs.existsSync(path.join(t.root, '.git.')), false);
  });
});
