// fs_grep against raw ripgrep with the same pattern, in the same run, on a generated tree of
// 50,000 files (about 500 MB): content mode with the default limit, and count mode.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '..');
const TREE_FILES = 50_000;

/**
 * The 50,000-file tree, generated once and cached in dataDir: 25 packages × 20 modules ×
 * 100 files of 2–18 KiB of code-like lines, "needleToken" on about 1% of lines, plus an
 * ignored node_modules and a .git folder so raw ripgrep applies .gitignore too.
 */
export function ensureTree(dataDir) {
  const tree = path.join(dataDir, 'tree-50k');
  const done = path.join(dataDir, 'tree-50k.complete');
  if (fs.existsSync(done)) return tree;
  fs.rmSync(tree, { recursive: true, force: true });
  let seed = 1234567;
  const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
  const words = ['const', 'let', 'return', 'function', 'import', 'export', 'value', 'index', 'result', 'item', 'config', 'handler', 'request', 'response', 'buffer', 'stream', 'error', 'options', 'context', 'render', 'update', 'state', 'props', 'await', 'async', 'if', 'else', 'for', 'while', 'new', 'this', 'null', 'undefined', 'true', 'false', 'map', 'filter', 'reduce', 'length', 'push'];
  const pool = [];
  for (let i = 0; i < 8192; i++) {
    const ws = Array.from({ length: 3 + Math.floor(rnd() * 12) }, () => words[Math.floor(rnd() * words.length)]);
    if (rnd() < 0.01) ws.splice(Math.floor(rnd() * ws.length), 0, 'needleToken');
    if (rnd() < 0.0005) ws.push('rareMarker');
    pool.push('  '.repeat(Math.floor(rnd() * 4)) + ws.join(' ') + (rnd() < 0.5 ? ';' : ''));
  }
  const exts = ['ts', 'js', 'md', 'txt', 'json'];
  let n = 0;
  for (let a = 0; a < 25; a++) {
    for (let b = 0; b < 20; b++) {
      const dir = path.join(tree, `pkg${String(a).padStart(2, '0')}`, `mod${String(b).padStart(2, '0')}`);
      fs.mkdirSync(dir, { recursive: true });
      for (let c = 0; c < 100; c++) {
        const size = 2048 + Math.floor(rnd() * 16384);
        const lines = [];
        for (let len = 0; len < size; ) {
          const l = pool[Math.floor(rnd() * pool.length)];
          lines.push(l);
          len += l.length + 1;
        }
        fs.writeFileSync(path.join(dir, `file${String(c).padStart(3, '0')}.${exts[(a + b + c) % exts.length]}`), lines.join('\n') + '\n');
        n++;
      }
    }
  }
  fs.mkdirSync(path.join(tree, '.git'), { recursive: true });
  fs.writeFileSync(path.join(tree, '.gitignore'), 'node_modules/\n*.log\n');
  for (let p = 0; p < 20; p++) {
    const dir = path.join(tree, 'node_modules', `dep${p}`, 'lib');
    fs.mkdirSync(dir, { recursive: true });
    for (let c = 0; c < 50; c++) fs.writeFileSync(path.join(dir, `m${c}.js`), pool[c] + '\n');
  }
  if (n !== TREE_FILES) throw new Error(`generated ${n} files`);
  fs.writeFileSync(done, String(n));
  return tree;
}

/** A tool context on node:fs for the tree, as the CLI builds it. */
export async function toolContext(dir) {
  const { NodeWorkspace } = require(path.join(root, 'out/src/host/nodeWorkspace.js'));
  const { ReadLedger } = require(path.join(root, 'out/src/services/ledger.js'));
  const { DEFAULT_SETTINGS } = require(path.join(root, 'out/src/services/settings.js'));
  const { FileLocks } = require(path.join(root, 'out/src/services/locks.js'));
  const { cliApprover } = require(path.join(root, 'out/src/services/cliApprover.js'));
  const ws = await NodeWorkspace.create([dir]);
  const approver = cliApprover({ yes: true, allowOutside: false });
  return { ws, approver, settings: DEFAULT_SETTINGS, signal: { isCancellationRequested: false }, ledger: new ReadLedger(), locks: new FileLocks(), log: { info() {}, warn() {}, error() {} } };
}

/** One tool call in this process; throws on an error result. */
export async function callTool(ctx, name, input) {
  const { invokeTool } = require(path.join(root, 'out/src/services/run.js'));
  const { findTool } = require(path.join(root, 'out/src/tools/registry.js'));
  const r = await invokeTool(findTool(name), input, ctx);
  const text = r.parts.map((p) => p.text).join('\n');
  if (r.isError) throw new Error(text);
  return text;
}

/** The ripgrep the tools use outside VS Code, so the baseline runs the same binary. */
export function ripgrepPath() {
  const { findRipgrep } = require(path.join(root, 'out/src/core/search/ripgrep.js'));
  const { NODE_PROCESSES } = require(path.join(root, 'out/src/host/process.js'));
  const found = findRipgrep(undefined, NODE_PROCESSES);
  if (!found) throw new Error('no ripgrep on PATH: the benchmark compares against it');
  return found.path;
}

/** Runs a command to its end, reading all its output as a caller would; resolves to the output size. */
export function runRaw(cmd, args, cwd) {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let bytes = 0;
    p.stdout.on('data', (d) => (bytes += d.length));
    p.on('error', reject);
    p.on('close', () => resolve(bytes));
  });
}

/**
 * Times ours and the baseline alternately (so drift and other load hit both alike) and
 * returns the medians and minimums in milliseconds.
 */
export async function compare(runs, ours, baseline) {
  await ours();
  await baseline();
  const a = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    await ours();
    a.push(performance.now() - t);
    t = performance.now();
    await baseline();
    b.push(performance.now() - t);
  }
  const med = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const round = (x) => Math.round(x * 10) / 10;
  return { ours: round(med(a)), baseline: round(med(b)), oursMin: round(Math.min(...a)), baselineMin: round(Math.min(...b)) };
}

export default async function run({ dataDir, record }) {
  const tree = ensureTree(dataDir);
  const rg = ripgrepPath();
  const ctx = await toolContext(tree);
  const runs = 11;
  const note = (r) => `median of ${runs}, alternating; min ${r.oursMin} vs ${r.baselineMin} ms; ${rg}`;

  const first = await callTool(ctx, 'fs_grep', { pattern: 'needleToken' });
  if (!/^\d+ matching lines in \d+ files for "needleToken" in the workspace; 1-100 shown:\n/.test(first)) throw new Error(first.slice(0, 300));
  const content = await compare(runs, () => callTool(ctx, 'fs_grep', { pattern: 'needleToken' }), () => runRaw(rg, ['needleToken'], tree));
  record({ name: 'fs_grep content, default limit (100), 50,000 files / 500 MB, ~86k matching lines vs rg PATTERN', ours: content.ours, baseline: content.baseline, unit: 'ms', note: note(content) });

  const count = await compare(runs, () => callTool(ctx, 'fs_grep', { pattern: 'needleToken', output: 'count' }), () => runRaw(rg, ['--count', 'needleToken'], tree));
  record({ name: 'fs_grep count, 50,000 files / 500 MB vs rg --count PATTERN', ours: count.ours, baseline: count.baseline, unit: 'ms', note: note(count) });

  const rare = await compare(runs, () => callTool(ctx, 'fs_grep', { pattern: 'rareMarker' }), () => runRaw(rg, ['rareMarker'], tree));
  record({ name: 'fs_grep content, rare pattern, 50,000 files / 500 MB vs rg PATTERN', ours: rare.ours, baseline: rare.baseline, unit: 'ms', note: note(rare) });
}
