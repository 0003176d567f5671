// One fs_list (or one readdir) of a folder in a fresh process, so its peak RSS is its own:
//   node bench/list-worker.mjs <ours|readdir> <folder>
// Prints { ms, rssGrowthMiB } as JSON.
import fs from 'node:fs';
import path from 'node:path';
import { callTool, toolContext } from './grep.bench.mjs';

const [mode, dir] = process.argv.slice(2);

/** Peak resident memory of this process in bytes (VmHWM: this exec's own, see read-worker.mjs). */
function peakRss() {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : process.resourceUsage().maxRSS * 1024;
}

// the code loaded and warmed on another folder first, so the growth is the listing's own
const ctx = await toolContext(path.dirname(dir));
await callTool(ctx, 'fs_list', { path: '.', depth: 1, limit: 100 });
await fs.promises.readdir(path.dirname(dir));
globalThis.gc?.();
const idle = process.memoryUsage().rss;
const t0 = performance.now();
if (mode === 'ours') {
  await callTool(ctx, 'fs_list', { path: path.basename(dir), depth: 1, limit: 100 });
} else {
  await fs.promises.readdir(dir);
}
const ms = performance.now() - t0;
console.log(JSON.stringify({ ms, rssGrowthMiB: (peakRss() - idle) / 1048576 }));
