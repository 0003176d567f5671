// Broad searches as whole CLI processes (Node's own start counted), on trees where every file
// is a match (bench/broad-tree.mjs): 200,000 files in 2,000 folders, and 1,000,000 files in
// 10,000. Each row sets our process beside ripgrep's own run of the same search plus a bare
// `node -e ""` (what the CLI cannot avoid: a Node start, then ripgrep's walk), each timed
// from spawn to exit with its output read through a pipe, alternating in the same run so
// other load hits both alike. Memory is each process's own peak resident set (Linux VmHWM,
// read by a preloaded module as Node exits; ripgrep's from /usr/bin/time when present).
// Targets (a first page): at most 1.3 times the baseline, at most 192 MiB. A later page of
// fs_glob and fs_grep, from the cursor of a page that ended halfway, is measured beside the
// first page (and fs_glob's beside the same page by offset).
//   npm run bench -- broad                 (both trees)
//   AFT_BENCH_BROAD=200000 npm run bench -- broad
//   AFT_BENCH_BEFORE=/elsewhere/dist/cli.js npm run bench -- broad   (also runs another build's CLI
//   in the same rounds, and names its figures in each row's note: before and after in one run)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureBroadTree } from './broad-tree.mjs';
import { ripgrepPath } from './grep.bench.mjs';

const TIME = '/usr/bin/time';

/** Peak resident set of a Node process, written to fd 2 as it exits. */
const PRELOAD = "process.on('exit', () => { try { const s = require('node:fs').readFileSync('/proc/self/status', 'latin1'); const m = /VmHWM:\\s+(\\d+) kB/.exec(s); if (m) require('node:fs').writeSync(2, `\\nPEAK_KIB ${m[1]}\\n`); } catch {} });\n";

/**
 * Runs a command to its end, its standard output read (counted) as a caller would. Gives
 * the wall time in ms, the bytes printed, the standard output's first 64 KiB, and the peak
 * memory in KiB when it can be known (a Node process with the preload; another under time).
 */
function runOnce(cmd, args, cwd) {
  return new Promise((resolve, reject) => {
    const timed = cmd !== process.execPath && fs.existsSync(TIME);
    const t0 = performance.now();
    const p = spawn(timed ? TIME : cmd, timed ? ['-f', '\nPEAK_KIB %M', cmd, ...args] : args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let bytes = 0;
    let head = '';
    let err = '';
    p.stdout.on('data', (d) => {
      bytes += d.length;
      if (head.length < 65536) head += d.toString('utf8');
    });
    p.stderr.on('data', (d) => {
      if (err.length < 65536) err += d.toString('utf8');
    });
    p.on('error', reject);
    p.on('close', (code) => {
      const ms = performance.now() - t0;
      const peak = /\nPEAK_KIB (\d+)\n?/.exec(err);
      resolve({ ms, bytes, head, code, peakKiB: peak ? Number(peak[1]) : undefined, err });
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x) => Math.round(x * 10) / 10;
const mib = (kib) => (kib === undefined ? undefined : round(kib / 1024));

/**
 * `runs` rounds, each running every case once in turn (the first round, which fills the
 * caches, not counted). Gives each case's median time, its times round by round (`each`)
 * and its median peak memory.
 */
async function rounds(runs, cases) {
  const out = Object.fromEntries(Object.keys(cases).map((k) => [k, { ms: [], kib: [], first: undefined }]));
  for (let i = 0; i <= runs; i++) {
    for (const [name, c] of Object.entries(cases)) {
      const r = await runOnce(c.cmd, c.args, c.cwd);
      c.check?.(r);
      if (i === 0) out[name].first = r;
      else {
        out[name].ms.push(r.ms);
        if (r.peakKiB !== undefined) out[name].kib.push(r.peakKiB);
      }
    }
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, { ms: round(median(v.ms)), min: round(Math.min(...v.ms)), each: v.ms, peakMiB: v.kib.length ? mib(median(v.kib)) : undefined, first: v.first }]));
}

export default async function run({ dataDir, root, record }) {
  const rg = ripgrepPath();
  const cli = path.join(root, 'dist/cli.js');
  const preload = path.join(dataDir, 'peak-at-exit.cjs');
  fs.writeFileSync(preload, PRELOAD);
  const node = (args, cwd) => ({ cmd: process.execPath, args: ['--require', preload, ...args], cwd });
  const before = process.env.AFT_BENCH_BEFORE;
  const tool = (tree, name, input, check, at = cli) => ({ ...node([at, name, '--root', tree, '--input', JSON.stringify(input)], tree), check });
  const raw = (tree, args) => ({ cmd: rg, args, cwd: tree });
  const sizes = (process.env.AFT_BENCH_BROAD ?? '200000,1000000').split(',').map(Number);
  for (const files of sizes) {
    const tree = ensureBroadTree(dataDir, files);
    const label = files === 1_000_000 ? '1,000,000 files' : `${files / 1000},000 files`;
    const runs = files >= 1_000_000 ? 3 : 5;
    const expect = (re) => (r) => {
      if (r.code !== 0 || !re.test(r.head)) throw new Error(`unexpected output (exit ${r.code}): ${r.head.slice(0, 400)}\n${r.err.slice(0, 400)}`);
    };
    const glob = new RegExp(`^${files} files match \\*\\*/\\*\\.ts in the workspace; 1-100 shown:\\npkg000/mod00/file00\\.ts\\n[^]*\\nLeft out by ignore rules: not searched: node_modules/\\. Add "respect_ignore": false to include them\\.\\nContinue with: fs_glob \\{"pattern":"\\*\\*/\\*\\.ts",(?:"cursor":"[\\w-]+"|"offset":101)\\}\\n?$`);
    // the cursor a page ending at the middle path gives (once, not timed): the later page starts after it
    const half = await runOnce(process.execPath, [cli, 'fs_glob', '--root', tree, '--input', JSON.stringify({ pattern: '**/*.ts', offset: files / 2, limit: 1 })], tree);
    const cursor = /\nContinue with: fs_glob (\{.*\})\n?$/.exec(half.head);
    if (!cursor) throw new Error(`no Continue line: ${half.head.slice(0, 400)}`);
    const halfGrep = await runOnce(process.execPath, [cli, 'fs_grep', '--root', tree, '--input', JSON.stringify({ pattern: 'export', offset: files / 2, limit: 1 })], tree);
    const grepCursor = /\nContinue with: fs_grep (\{.*\})\n?$/.exec(halfGrep.head);
    if (!grepCursor) throw new Error(`no Continue line: ${halfGrep.head.slice(0, 400)}`);
    const cases = {
      node: node(['-e', ''], tree),
      glob: tool(tree, 'fs_glob', { pattern: '**/*.ts' }, expect(glob)),
      rgFiles: raw(tree, ['--files', '-g', '*.ts']),
      grep: tool(tree, 'fs_grep', { pattern: 'export' }, expect(new RegExp(`^${files} matching lines in ${files} files for "export" in the workspace; 1-100 shown:\\npkg000/mod00/file00\\.ts\\n  L2: export const v0 = 0;\\n`))),
      rgGrep: raw(tree, ['-n', 'export']),
      grepInclude: tool(tree, 'fs_grep', { pattern: 'export', include: '*.ts' }, expect(new RegExp(`^${files} matching lines in ${files} files for "export" in the workspace \\(include: \\*\\.ts\\); 1-100 shown:\\n`))),
      rgGrepInclude: raw(tree, ['-n', 'export', '-g', '*.ts']),
      noteWalk: tool(tree, 'fs_glob', { pattern: '**/*.[t]s' }, expect(new RegExp(`^${files} files match \\*\\*/\\*\\.\\[t\\]s in the workspace; 1-100 shown:\\n[^]*Left out by ignore rules: not searched: build\\.log, node_modules/\\.`))),
      rgAll: raw(tree, ['--files']),
      list: tool(tree, 'fs_list', { depth: 3 }, expect(/^Folder \. \([^)]*\): entries 1-100 shown\n/)),
      deepGlob: tool(tree, 'fs_glob', { pattern: '**/*.ts', offset: files / 2 + 1 }, expect(new RegExp(`^${files} files match \\*\\*/\\*\\.ts in the workspace; ${files / 2 + 1}-${files / 2 + 100} shown:\\n`))),
      laterGrep: tool(tree, 'fs_grep', { pattern: 'export', cursor: JSON.parse(grepCursor[1]).cursor }, expect(new RegExp(`^${files} matching lines in ${files} files for "export" in the workspace; ${files / 2 + 1}-${files / 2 + 100} shown:\\n`))),
      laterGlob: tool(tree, 'fs_glob', { pattern: '**/*.ts', cursor: JSON.parse(cursor[1]).cursor }, expect(new RegExp(`^${files} files match \\*\\*/\\*\\.ts in the workspace; ${files / 2 + 1}-${files / 2 + 100} shown:\\n`))),
    };
    if (before) {
      for (const k of ['glob', 'grep', 'grepInclude', 'noteWalk', 'list', 'deepGlob']) {
        cases[`${k}Before`] = { ...cases[k], args: cases[k].args.map((a) => (a === cli ? before : a)) };
      }
    }
    const r = await rounds(runs, cases);
    const base = (k) => round(r[k].ms + r.node.ms);
    // each round's own ratio (ours, ripgrep and node from the same round): a machine whose speed drifts between rounds moves both sides of it
    const paired = (k, b) => Math.round(median(r[k].each.map((ms, i) => ms / (r[b].each[i] + r.node.each[i]))) * 100) / 100;
    const note = (k, b, extra = '') => `median of ${runs}, alternating, on 2 cores shared with other work; the median of each round's own ratio ${paired(k, b)}; ours min ${r[k].min} ms; baseline = ${b} ${r[b].ms} ms + bare node ${r.node.ms} ms; peak ${r[k].peakMiB} MiB (bare node ${r.node.peakMiB}, ripgrep ${r[b].peakMiB ?? 'n/a'}); target ratio <= 1.3, peak <= 192 MiB${extra}${r[`${k}Before`] ? `; the build before: ${r[`${k}Before`].ms} ms (min ${r[`${k}Before`].min}), peak ${r[`${k}Before`].peakMiB} MiB` : ''}`;
    const row = (k, b, what, extra) => {
      record({ name: `${what}, ${label}: whole CLI process vs ripgrep alone + a bare node start`, ours: r[k].ms, baseline: base(b), unit: 'ms', note: note(k, b, extra) });
      record({ name: `${what}, ${label}: peak memory vs a bare node`, ours: r[k].peakMiB, baseline: r.node.peakMiB, unit: 'MiB', note: `median of ${runs}; target at most 192 MiB${r[`${k}Before`] ? `; the build before: ${r[`${k}Before`].peakMiB} MiB` : ''}` });
    };
    row('glob', 'rgFiles', 'fs_glob **/*.ts (every file matches, 100 shown)');
    row('grep', 'rgGrep', 'fs_grep export (every file matches once, 100 shown)', '; ripgrep prints every matching line into a pipe that is read');
    row('grepInclude', 'rgGrepInclude', 'fs_grep export, include *.ts (every file matches once, 100 shown)');
    row('noteWalk', 'rgAll', 'fs_glob **/*.[t]s (a glob ripgrep is not given: the whole walk, noting what ignore rules left out)');
    row('list', 'rgAll', 'fs_list depth 3 (first page)');
    row('deepGlob', 'rgFiles', `fs_glob **/*.ts, the page at offset ${files / 2 + 1}`);
    row('laterGrep', 'rgGrep', `fs_grep export, the page after the cursor of the page ending at result ${files / 2}`, `; the first page: ${r.grep.ms} ms`);
    row('laterGlob', 'rgFiles', `fs_glob **/*.ts, the page after the cursor of the page ending at path ${files / 2}`, `; the same page by offset: ${r.deepGlob.ms} ms`);
  }
}
