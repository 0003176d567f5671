// fs_list depth=1 limit=100 on a flat folder of 1,000,000 entries against one raw readdir of
// it, in the same run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { callTool, compare, toolContext } from './grep.bench.mjs';

const ENTRIES = 1_000_000;

/**
 * The flat folder (empty files, names in scrambled order). It is built for the run and
 * removed after it rather than cached: vsce walks every file under the project when it
 * packages (its .vscodeignore filter comes after the walk), and a million cached entries
 * in bench/.data made `npm run package` take minutes.
 */
function ensureFlat(dataDir) {
  const dir = path.join(dataDir, 'flat-1m');
  const done = path.join(dataDir, 'flat-1m.complete');
  if (fs.existsSync(done)) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (let i = 0; i < ENTRIES; i++) {
    const name = `entry-${String((i * 7919) % ENTRIES).padStart(7, '0')}.txt`;
    fs.closeSync(fs.openSync(path.join(dir, name), 'w'));
  }
  fs.writeFileSync(done, String(ENTRIES));
  return dir;
}

export default async function run({ dataDir, record }) {
  const dir = ensureFlat(dataDir);
  try {
    const ctx = await toolContext(dataDir);
    const runs = 5;
    const input = { path: 'flat-1m', depth: 1, limit: 100 };
    const first = await callTool(ctx, 'fs_list', input);
    if (!first.includes('\nentry-0000099.txt\n') || !first.includes('\nContinue with: fs_list ')) throw new Error(first.slice(0, 400));
    const r = await compare(runs, () => callTool(ctx, 'fs_list', input), () => fs.promises.readdir(dir));
    record({ name: 'fs_list depth=1 limit=100 on 1,000,000 entries vs one readdir', ours: r.ours, baseline: r.baseline, unit: 'ms', note: `median of ${runs}, alternating; min ${r.oursMin} vs ${r.baselineMin} ms; target ratio <= 1.3` });
    // memory in fresh processes, each its own peak
    const peak = (mode) => {
      const xs = [];
      for (let i = 0; i < 3; i++) {
        xs.push(JSON.parse(execFileSync(process.execPath, ['--expose-gc', path.join(import.meta.dirname, 'list-worker.mjs'), mode, dir], { encoding: 'utf8' })).rssGrowthMiB);
      }
      return +xs.sort((a, b) => a - b)[1].toFixed(1);
    };
    record({ name: 'fs_list depth=1 limit=100 on 1,000,000 entries vs one readdir: peak RSS growth', ours: peak('ours'), baseline: peak('readdir'), unit: 'MiB', note: 'median of 3 fresh processes; target ratio <= 1.5' });
  } finally {
    fs.rmSync(path.join(dataDir, 'flat-1m.complete'), { force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
