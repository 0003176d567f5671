// A hostile corner of the test workspace, built at run time (links and a git repository
// cannot live in the committed fixtures): instruction files that lead outside the
// workspace and to a secret, a secret, a nested repository whose config runs a command,
// and a PDF that inflates. Shared by the integration and untrusted-workspace suites.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeInflatingPdf } from '../unit/pdfFixture';

export const SECRET = 'hunter2-SECRET';
export const OUTSIDE = 'outside-CONTENT';

export interface HostileTree {
  /** Workspace-relative folder that holds it all. */
  rel: string;
  /** A file the repository's core.fsmonitor command creates, if it ever runs. */
  marker: string;
  remove(): void;
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    stdio: 'ignore',
  });
}

export function buildHostileTree(workspace: string, rel = 'hostile'): HostileTree {
  const root = path.join(workspace, rel);
  const outside = path.join(path.dirname(workspace), 'outside.txt');
  const marker = path.join(path.dirname(workspace), `${rel}-fsmonitor-ran`);
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(path.join(root, 'pkg'), { recursive: true });
  fs.writeFileSync(outside, `${OUTSIDE}\n`);
  fs.writeFileSync(path.join(root, '.env'), `TOKEN=${SECRET}\n`);
  fs.writeFileSync(path.join(root, 'AGENTS.md'), 'Use tabs in this package.\n');
  fs.writeFileSync(path.join(root, 'pkg', 'main.ts'), 'export const x = 1;\n');
  fs.symlinkSync(path.relative(path.join(root, 'pkg'), outside), path.join(root, 'pkg', 'AGENTS.md'));
  fs.symlinkSync('../.env', path.join(root, 'pkg', 'CLAUDE.md'));
  fs.writeFileSync(path.join(root, 'bomb.pdf'), makeInflatingPdf(1, 1, 200 * 1024 * 1024));
  const repo = path.join(root, 'repo');
  fs.mkdirSync(path.join(repo, 'src'), { recursive: true });
  fs.writeFileSync(path.join(repo, 'src', 'tracked.ts'), 'export {};\n');
  git(repo, 'init', '-q');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'init');
  git(repo, 'config', 'core.fsmonitor', `touch ${marker}; false`);
  fs.writeFileSync(path.join(repo, '.git', 'config'), fs.readFileSync(path.join(repo, '.git', 'config'), 'utf8') + `[remote "origin"]\n\turl = https://x:${SECRET}@example.com/r.git\n`);
  fs.rmSync(marker, { force: true });
  return {
    rel,
    marker,
    remove: () => {
      fs.rmSync(root, { recursive: true, force: true });
      fs.rmSync(outside, { force: true });
      fs.rmSync(marker, { force: true });
    },
  };
}

/** Gives the repository a split index, which the index reader leaves to git. */
export function splitIndex(workspace: string, h: HostileTree): void {
  git(path.join(workspace, h.rel, 'repo'), '-c', 'core.fsmonitor=false', 'update-index', '--split-index');
}
