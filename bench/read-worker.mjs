// One measurement in a fresh process, so its peak RSS is its own:
//   node bench/read-worker.mjs <ours|naive|naive-bytes|read-loop|next|total> <file> <offset|bytes> [warm-up file]
// Prints { ms, rssGrowthMiB, lines } as JSON (`next`: { ms, baselineMs, ... }).
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

async function read(input) {
  const r = await invokeTool(findTool('fs_read'), input, ctx);
  if (r.isError) throw new Error(r.parts[0].text);
  return r.parts[0].text;
}
const pageLines = (text) => (text.match(/^L\d+: /gm) || []).length;
const warmUp = process.argv[5];
if (warmUp) {
  // the tool's code warmed on another file, so the figure is the read's, not the first call's compiling
  await read({ path: path.relative(path.dirname(file), warmUp) });
}

const t0 = performance.now();
let lines;
let extra = {};
if (mode === 'ours' || mode === 'total') {
  const text = await read({ path: path.basename(file), offset });
  lines = pageLines(text);
  if (mode === 'total') extra = { counted: !/total not counted/.test(text.split('\n')[2]) };
} else if (mode === 'next') {
  // a page, then the page its continuation names, timed in this process (the extension host keeps what the first one learnt)
  const first = await read({ path: path.basename(file), offset });
  const cont = /^Continue with: fs_read (.*)$/m.exec(first);
  if (!cont) throw new Error(first.slice(-300));
  const t1 = performance.now();
  const next = await read(JSON.parse(cont[1]));
  const ms = performance.now() - t1;
  const t2 = performance.now();
  await read({ path: path.basename(file), offset: 1 });
  console.log(JSON.stringify({ ms, baselineMs: performance.now() - t2, firstMs: t1 - t0, rssGrowthMiB: (peakRss() - idle) / 1048576, lines: pageLines(next) }));
  process.exit(0);
} else if (mode === 'read-loop') {
  // the floor of a cold seek: the bytes before the page, read with one large buffer, nothing else
  const bytes = offset;
  const fd = fs.openSync(file, 'r');
  const buf = Buffer.allocUnsafe(1024 * 1024);
  let pos = 0;
  while (pos < bytes) {
    const n = fs.readSync(fd, buf, 0, Math.min(buf.length, bytes - pos), pos);
    if (n === 0) break;
    pos += n;
  }
  fs.closeSync(fd);
  lines = 0;
} else if (mode === 'read-whole') {
  lines = fs.readFileSync(file).length > 0 ? 1 : 0;
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
console.log(JSON.stringify({ ms, rssGrowthMiB: (peak - idle) / 1048576, lines, ...extra }));
