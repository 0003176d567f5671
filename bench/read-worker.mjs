// One measurement in a fresh process, so its peak RSS is its own:
//   node bench/read-worker.mjs <ours|naive> <file> <offset>
// Prints { ms, rssGrowthMiB, lines } as JSON.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const [mode, file, offsetArg] = process.argv.slice(2);

/**
 * Peak resident memory of this process in bytes. On Linux, VmHWM belongs to the memory
 * image made by exec; getrusage's maxrss is inherited across fork and exec, so it would
 * report the parent's (the bench runner's) peak instead.
 */
function peakRss() {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch { /* not Linux */ }
  return process.resourceUsage().maxRSS * 1024;
}
const offset = Number(offsetArg || 1);
const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

// load code before the idle reading, so the growth is the read's own
const { NodeWorkspace } = require(path.join(root, 'out/src/host/nodeWorkspace.js'));
const { invokeTool } = require(path.join(root, 'out/src/services/run.js'));
const { findTool } = require(path.join(root, 'out/src/tools/registry.js'));
const { ReadLedger } = require(path.join(root, 'out/src/services/ledger.js'));
const { DEFAULT_SETTINGS } = require(path.join(root, 'out/src/services/settings.js'));
const ws = await NodeWorkspace.create([path.dirname(file)]);
const ctx = { ws, settings: DEFAULT_SETTINGS, signal: { isCancellationRequested: false }, ledger: new ReadLedger(), log: { info() {}, warn() {}, error() {} } };
globalThis.gc?.();
const idle = process.memoryUsage().rss;

const t0 = performance.now();
let lines;
if (mode === 'ours') {
  const r = await invokeTool(findTool('fs_read'), { path: path.basename(file), offset }, ctx);
  if (r.isError) throw new Error(r.parts[0].text);
  lines = (r.parts[0].text.match(/^L\d+: /gm) || []).length;
} else if (mode === 'naive') {
  // the naive read most tools do: whole file, split, slice, number
  const all = fs.readFileSync(file, 'utf8').split('\n');
  const page = all.slice(offset - 1, offset - 1 + 2000).map((l, i) => `L${offset + i}: ${l}`);
  lines = page.length;
} else {
  // the same for files too large for one JS string (over ~512 MiB): whole file as bytes, split on 0x0A
  const buf = fs.readFileSync(file);
  const all = [];
  for (let s = 0; s < buf.length; ) {
    const i = buf.indexOf(10, s);
    const end = i === -1 ? buf.length : i;
    all.push(buf.subarray(s, end));
    s = end + 1;
  }
  const page = all.slice(offset - 1, offset - 1 + 2000).map((l, i) => `L${offset + i}: ${l.toString('utf8')}`);
  lines = page.length;
}
const ms = performance.now() - t0;
const peak = peakRss();
console.log(JSON.stringify({ ms, rssGrowthMiB: (peak - idle) / 1048576, lines }));
