// fs_glob against `rg --files --glob` with the same glob, in the same run, on the
// 50,000-file tree of grep.bench.mjs.
import { callTool, compare, ensureTree, ripgrepPath, runRaw, toolContext } from './grep.bench.mjs';

export default async function run({ dataDir, record }) {
  const tree = ensureTree(dataDir);
  const rg = ripgrepPath();
  const ctx = await toolContext(tree);
  const runs = 25;
  const note = (r) => `median of ${runs}, alternating; min ${r.oursMin} vs ${r.baselineMin} ms; ${rg}`;

  const first = await callTool(ctx, 'fs_glob', { pattern: '*.ts' });
  if (!/^10000 files match \*\*\/\*\.ts in the workspace; 1-100 shown:\n/.test(first)) throw new Error(first.slice(-400));
  const ts = await compare(runs, () => callTool(ctx, 'fs_glob', { pattern: '*.ts' }), () => runRaw(rg, ['--files', '--glob', '*.ts'], tree));
  record({ name: 'fs_glob *.ts (10,000 of 50,000 files match) vs rg --files --glob *.ts', ours: ts.ours, baseline: ts.baseline, unit: 'ms', note: note(ts) });

  const sub = await compare(runs, () => callTool(ctx, 'fs_glob', { pattern: 'pkg0*/mod1*/*.md' }), () => runRaw(rg, ['--files', '--glob', 'pkg0*/mod1*/*.md'], tree));
  record({ name: 'fs_glob pkg0*/mod1*/*.md vs rg --files --glob (same glob)', ours: sub.ours, baseline: sub.baseline, unit: 'ms', note: note(sub) });
}
