// fs_read against the naive read (whole file, split, slice) on the same file in the same run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const MiB = 1024 * 1024;

/** A text file of about `mib` MiB with lines of varied length; cached between runs. */
export function makeFile(dataDir, mib) {
  const file = path.join(dataDir, `text-${mib}MiB.log`);
  if (fs.existsSync(file) && fs.statSync(file).size >= mib * MiB) return file;
  const lines = [];
  let seed = 42;
  for (let i = 0; i < 20000; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    lines.push(`${String(i).padStart(6, '0')} ${'lorem ipsum dolor sit amet '.repeat(1 + (seed % 6))}`.trimEnd());
  }
  const block = Buffer.from(lines.join('\n') + '\n');
  const fd = fs.openSync(file, 'w');
  for (let written = 0; written < mib * MiB; written += block.length) fs.writeSync(fd, block);
  fs.closeSync(fd);
  return file;
}

/** A log of `lines` lines of 53 characters (about 10 MiB for 200,000): an ordinary big file. */
function makeLog(dataDir, lines, name = 'log') {
  const file = path.join(dataDir, `${name}-${lines}.log`);
  const size = lines * 54;
  if (fs.existsSync(file) && fs.statSync(file).size === size) return file;
  const out = [];
  for (let i = 0; i < lines; i++) {
    out.push(`2026-12-01T10:${String(Math.floor(i / 6000) % 60).padStart(2, '0')}:00.000Z INFO request ${String(i).padStart(8, '0')} ok 200`);
  }
  fs.writeFileSync(file, out.join('\n') + '\n');
  if (fs.statSync(file).size !== size) throw new Error(`log line length changed: ${fs.statSync(file).size}`);
  return file;
}

/** The byte where line `line` (1-based) starts: found once, untimed, for the read-loop baseline. */
function byteOfLine(file, line) {
  const fd = fs.openSync(file, 'r');
  const buf = Buffer.allocUnsafe(4 * MiB);
  let seen = 1;
  let pos = 0;
  try {
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) return pos;
      let i = -1;
      while ((i = buf.indexOf(10, i + 1)) !== -1 && i < n) {
        if (++seen === line) return pos + i + 1;
      }
      pos += n;
    }
  } finally {
    fs.closeSync(fd);
  }
}

function measure(mode, file, offset, runs, warmUp) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    samples.push(JSON.parse(execFileSync(process.execPath, ['--expose-gc', path.join(import.meta.dirname, 'read-worker.mjs'), mode, file, String(offset), ...(warmUp ? [warmUp] : [])], { encoding: 'utf8', maxBuffer: 64 * MiB })));
  }
  samples.sort((a, b) => a.ms - b.ms);
  const mid = samples[Math.floor(samples.length / 2)];
  return { ...mid, rss: Math.max(...samples.map((s) => s.rssGrowthMiB)), lines: samples[0].lines };
}

// READ_BENCH_ROWS=seek,next,log runs only those groups (first, deep, seek, next, log)
const groups = process.env.READ_BENCH_ROWS ? new Set(process.env.READ_BENCH_ROWS.split(',')) : undefined;
const want = (g) => !groups || groups.has(g);

export default async function run({ dataDir, record }) {
  const file = makeFile(dataDir, 100);
  const huge = makeFile(dataDir, 1024);
  const deepHuge = 10_000_000;
  if (want('first')) firstRows(file, huge, record);
  if (want('deep')) deepRows(file, huge, deepHuge, record);
  if (want('seek')) seekRows(huge, deepHuge, record);
  if (want('next')) nextRows(file, huge, deepHuge, record);
  if (want('log')) logRows(dataDir, record);
}

function firstRows(file, huge, record) {
  const ours = measure('ours', file, 1, 5);
  const naive = measure('naive', file, 1, 5);
  record({ name: 'fs_read first page, 100 MiB file: time', ours: +ours.ms.toFixed(2), baseline: +naive.ms.toFixed(2), unit: 'ms', note: `median of 5; ${ours.lines} lines vs ${naive.lines}` });
  record({ name: 'fs_read first page, 100 MiB file: peak RSS growth', ours: +ours.rss.toFixed(1), baseline: +naive.rss.toFixed(1), unit: 'MiB' });
  // 1 GiB: too large for one JS string, so the baseline reads bytes and splits on newlines.
  const oursHuge = measure('ours', huge, 1, 5);
  const naiveHuge = measure('naive-bytes', huge, 1, 3);
  record({ name: 'fs_read first page, 1 GiB file: time', ours: +oursHuge.ms.toFixed(2), baseline: +naiveHuge.ms.toFixed(2), unit: 'ms', note: 'median; target ratio <= 0.01' });
  record({ name: 'fs_read first page, 1 GiB file: peak RSS growth', ours: +oursHuge.rss.toFixed(1), baseline: +naiveHuge.rss.toFixed(1), unit: 'MiB', note: 'target ours < 64 MiB' });
}

function deepRows(file, huge, deepHuge, record) {
  const deep = 1_000_000;
  const oursDeep = measure('ours', file, deep, 3);
  const naiveDeep = measure('naive', file, deep, 3);
  record({ name: `fs_read offset=${deep}, 100 MiB file: time`, ours: +oursDeep.ms.toFixed(2), baseline: +naiveDeep.ms.toFixed(2), unit: 'ms', note: 'median of 3' });
  record({ name: `fs_read offset=${deep}, 100 MiB file: peak RSS growth`, ours: +oursDeep.rss.toFixed(1), baseline: +naiveDeep.rss.toFixed(1), unit: 'MiB' });

  const oursHugeDeep = measure('ours', huge, deepHuge, 3);
  const naiveHugeDeep = measure('naive-bytes', huge, deepHuge, 3);
  record({ name: `fs_read offset=${deepHuge}, 1 GiB file: time`, ours: +oursHugeDeep.ms.toFixed(2), baseline: +naiveHugeDeep.ms.toFixed(2), unit: 'ms', note: 'median of 3' });
  record({ name: `fs_read offset=${deepHuge}, 1 GiB file: peak RSS growth`, ours: +oursHugeDeep.rss.toFixed(1), baseline: +naiveHugeDeep.rss.toFixed(1), unit: 'MiB', note: 'target ours < 64 MiB' });
}

function seekRows(huge, deepHuge, record) {
  // The cold seek against its floor: reading the bytes before the page (and the page) with one large buffer.
  const pageEnd = byteOfLine(huge, deepHuge + 2000);
  const loop = measure('read-loop', huge, pageEnd, 5);
  const seek = measure('ours', huge, deepHuge, 5);
  record({ name: `fs_read offset=${deepHuge}, 1 GiB file (cold seek) vs a 1 MiB read loop over its ${pageEnd} bytes`, ours: +seek.ms.toFixed(2), baseline: +loop.ms.toFixed(2), unit: 'ms', note: 'median of 5; target <= 300 ms or ratio <= 1.5' });
}

function nextRows(file, huge, deepHuge, record) {
  // The page after a page, in the process that read the first (the extension host keeps its index).
  const next = measure('next', huge, deepHuge, 3);
  record({ name: `fs_read next page after offset=${deepHuge}, 1 GiB file (warm) vs the first page`, ours: +next.ms.toFixed(2), baseline: +next.baselineMs.toFixed(2), unit: 'ms', note: `median of 3; target <= 20 ms; the first call took ${next.firstMs.toFixed(0)} ms` });
  const nextMid = measure('next', file, 500_000, 3);
  record({ name: 'fs_read next page after offset=500000, 100 MiB file (warm) vs the first page', ours: +nextMid.ms.toFixed(2), baseline: +nextMid.baselineMs.toFixed(2), unit: 'ms', note: `median of 3; target <= 20 ms; the first call took ${nextMid.firstMs.toFixed(0)} ms` });
}

function logRows(dataDir, record) {
  // An ordinary big log: its first page with the total, against reading the file whole.
  const log = makeLog(dataDir, 200_000);
  const warm = makeLog(dataDir, 200_000, 'warm-up');
  const withTotal = measure('total', log, 1, 7, warm);
  const whole = measure('read-whole', log, 1, 7, warm);
  record({ name: `fs_read first page, 10 MiB 200,000-line log vs reading it whole`, ours: +withTotal.ms.toFixed(2), baseline: +whole.ms.toFixed(2), unit: 'ms', note: `median of 7; total ${withTotal.counted ? 'counted' : 'not counted'}; target ratio <= 1.2 with the total` });
}
