import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { findRipgrep, RIPGREP_ENV } from '../../src/core/search/ripgrep';
import { NODE_PROCESSES } from '../../src/host/process';
import { call, context, tempTree, withEngine } from './helpers';

/**
 * ripgrep and the JavaScript search on the same generated trees must print the same
 * text, the engine line aside: nested .gitignore/.ignore/.rgignore with negations,
 * hidden files, symlinks (never followed), binary, CRLF, BOM and UTF-16 files, every
 * output mode, include globs (whitelisted in ripgrep or not), subfolders whose parent
 * folders hold rules, and the editor's and settings' excludes.
 */

/** The VS Code test host's folder (scripts/host-paths.mjs), read before the tests. */
let hostDir: string | undefined;

/** Every ripgrep here: the one on PATH (required) and the VS Code test host's when it is installed. */
function ripgreps(): string[] {
  const found = findRipgrep(undefined, { ...NODE_PROCESSES, env: { ...process.env, [RIPGREP_ENV]: '' } });
  if (!found) {
    throw new Error('ripgrep (rg) must be on PATH for these tests: install it (Debian: apt-get install ripgrep)');
  }
  const out = [found.path];
  const hostRg = hostDir && path.join(hostDir, 'cs/node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep-universal/bin/linux-x64/rg');
  if (process.platform === 'linux' && process.arch === 'x64' && hostRg && fs.existsSync(hostRg)) {
    out.push(hostRg);
  }
  return out;
}

function withoutEngine(text: string): string {
  return text
    .split('\n')
    .filter((l) => !l.startsWith('Searched with '))
    .join('\n');
}

/** A small deterministic PRNG, so a failing tree can be rebuilt from its seed. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

const DIRS = ['src', 'lib', 'test', 'a', 'b', 'node_modules', 'build', '.hidden', 'deep'];
const FILES = ['x.ts', 'y.js', 'z.md', 'w.txt', 'v.log', 'keep.md', 'u.tsx', '.dot.ts'];
const LINES = ['foo', 'Foo bar', 'foo bar', 'x = 1', 'größe foo', '  bar', 'baz', '', 'fooBar()', 'b', 'o', 'end foo', '42 items'];
const RULES = ['*.md', '!keep.md', 'lib/', '/a', 'deep/*.ts', '!y.js', '*.log', 'build', 'test/', '!*.tsx', 'b/x.ts', '**/deep'];

/** Writes a tree from a seed: folders, files of assorted encodings, ignore files, symlinks. */
function buildTree(root: string, seed: number): void {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const folders = [''];
  for (let i = 0; i < 8; i++) {
    const parent = pick(folders);
    const dir = parent ? `${parent}/${pick(DIRS)}` : pick(DIRS);
    if (dir.split('/').length <= 3 && !folders.includes(dir)) {
      folders.push(dir);
    }
  }
  for (const dir of folders) {
    fs.mkdirSync(path.join(root, dir), { recursive: true });
    const n = 1 + Math.floor(r() * 4);
    for (let i = 0; i < n; i++) {
      const file = path.join(root, dir, pick(FILES));
      const lines = Array.from({ length: 1 + Math.floor(r() * 8) }, () => pick(LINES));
      const kind = r();
      let bytes: Buffer;
      if (kind < 0.08) {
        bytes = Buffer.concat([Buffer.from(lines.join('\n')), Buffer.from([0, 1, 2])]);
      } else if (kind < 0.18) {
        bytes = Buffer.from(lines.join('\r\n') + '\r\n');
      } else if (kind < 0.24) {
        bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lines.join('\n') + '\n')]);
      } else if (kind < 0.28) {
        bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(lines.join('\n') + '\n', 'utf16le')]);
      } else if (kind < 0.32) {
        bytes = Buffer.from('');
      } else {
        bytes = Buffer.from(lines.join('\n') + (r() < 0.8 ? '\n' : ''));
      }
      fs.writeFileSync(file, bytes);
    }
    for (const name of ['.gitignore', '.ignore', '.rgignore']) {
      if (r() < (name === '.gitignore' ? 0.45 : 0.15)) {
        const rules = Array.from({ length: 1 + Math.floor(r() * 3) }, () => pick(RULES));
        fs.writeFileSync(path.join(root, dir, name), rules.join('\n') + '\n');
      }
    }
  }
  fs.writeFileSync(path.join(root, '.gitignore'), 'node_modules/\n*.log\n', { flag: 'a' });
  fs.symlinkSync('.', path.join(root, folders[folders.length - 1], 'loop'));
  fs.symlinkSync('x.ts', path.join(root, 'link.ts'));
}

type Call = [tool: 'fs_grep' | 'fs_glob', input: Record<string, unknown>];

function calls(folders: string[]): Call[] {
  const out: Call[] = [];
  const patterns = ['foo', 'Foo', 'foo|bar', 'f.o', '^b', 'bar$', '\\bfoo\\b', 'größe', '\\w+ \\w+', '[[:digit:]]+', 'o'];
  for (const path of [undefined, ...folders.filter(Boolean).slice(0, 3)]) {
    for (const p of patterns) {
      out.push(['fs_grep', { pattern: p, path }]);
    }
    out.push(['fs_grep', { pattern: 'foo', path, output: 'files' }]);
    out.push(['fs_grep', { pattern: 'foo', path, output: 'count', respect_ignore: false }]);
    out.push(['fs_grep', { pattern: 'foo', path, context: 2 }]);
    out.push(['fs_grep', { pattern: 'bar', path, include: '*.ts' }]);
    out.push(['fs_grep', { pattern: 'bar', path, include: '*.{md,txt,log}', output: 'count' }]);
    out.push(['fs_grep', { pattern: 'o', path, include: 'src/**', output: 'files' }]);
    out.push(['fs_grep', { pattern: 'o', path, include: '*.[tj]s', output: 'files' }]);
    out.push(['fs_grep', { pattern: 'FOO', path, case_sensitive: false, output: 'count' }]);
    out.push(['fs_grep', { pattern: 'foo\\nb', path, multiline: true }]);
    out.push(['fs_grep', { pattern: 'foo\\s+bar', path, multiline: true, context: 1 }]);
    out.push(['fs_grep', { pattern: 'o', path, limit: 3, offset: 2 }]);
    for (const g of ['*.ts', '**/*', 'src/**', '*.{md,log}', '*.[tj]s', '.*', 'x.ts', 'lib/*']) {
      out.push(['fs_glob', { pattern: g, path }]);
    }
    out.push(['fs_glob', { pattern: '**/*', path, respect_ignore: false }]);
  }
  return out;
}

function foldersOf(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      if (e.isDirectory()) {
        const child = rel ? `${rel}/${e.name}` : e.name;
        out.push(child);
        walk(child);
      }
    }
  };
  walk('');
  return out.sort();
}

async function compareOn(root: string, list: Call[], engines: string[], tweak?: (ctx: Awaited<ReturnType<typeof context>>) => void): Promise<number> {
  let compared = 0;
  for (const [tool, input] of list) {
    const js = await withEngine('none', async () => {
      const ctx = await context(root);
      tweak?.(ctx);
      return call(ctx, tool, input);
    });
    for (const rg of engines) {
      const viaRg = await withEngine(rg, async () => {
        const ctx = await context(root);
        tweak?.(ctx);
        return call(ctx, tool, input);
      });
      assert.equal(withoutEngine(js.text), withoutEngine(viaRg.text), `${tool} ${JSON.stringify(input)} with ${rg}`);
      assert.equal(js.isError, viaRg.isError);
      compared++;
    }
  }
  return compared;
}

describe('fs_grep and fs_glob: ripgrep and the JavaScript search agree', function () {
  this.timeout(180_000);
  before(async () => {
    const paths = (await import(pathToFileURL(path.resolve(__dirname, '../../../scripts/host-paths.mjs')).href)) as { hostDirectory(): string };
    hostDir = paths.hostDirectory();
  });

  it('on generated trees, every mode and option, with each ripgrep found here', async () => {
    const engines = ripgreps();
    let compared = 0;
    for (const seed of [1, 7, 42]) {
      const t = tempTree({});
      try {
        buildTree(t.root, seed);
        compared += await compareOn(t.root, calls(foldersOf(t.root)), engines);
      } finally {
        t.cleanup();
      }
    }
    assert.ok(compared > 300, `compared ${compared} calls`);
  });

  it('with the editor excludes and the ignoreGlobs setting', async () => {
    const t = tempTree({});
    try {
      buildTree(t.root, 99);
      const tweak = (ctx: Awaited<ReturnType<typeof context>>) => {
        ctx.ws.excludeGlobs = () => ['**/test', 'src/**', '**/*.{md,txt}'];
        ctx.settings = { ...ctx.settings, ignoreGlobs: ['deep', '*.tsx'] };
      };
      await compareOn(t.root, calls(foldersOf(t.root)).slice(0, 40), ripgreps(), tweak);
    } finally {
      t.cleanup();
    }
  });

  it('property: on random trees and queries', async () => {
    const engines = ripgreps().slice(0, 1);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 0, max: 10_000 }), async (seed, pickSeed) => {
        const t = tempTree({});
        try {
          buildTree(t.root, seed);
          const all = calls(foldersOf(t.root));
          const r = rng(pickSeed + 1);
          const chosen = Array.from({ length: 6 }, () => all[Math.floor(r() * all.length)]);
          await compareOn(t.root, chosen, engines);
        } finally {
          t.cleanup();
        }
      }),
      { numRuns: 25 },
    );
  });
});
