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

function measure(mode, file, offset, runs) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    samples.push(JSON.parse(execFileSync(process.execPath, ['--expose-gc', path.join(import.meta.dirname, 'read-worker.mjs'), mode, file, String(offset)], { encoding: 'utf8', maxBuffer: 64 * MiB })));
  }
  samples.sort((a, b) => a.ms - b.ms);
  return { ms: samples[Math.floor(samples.length / 2)].ms, rss: Math.max(...samples.map((s) => s.rssGrowthMiB)), lines: samples[0].lines };
}

export default async function run({ dataDir, record }) {
  const file = makeFile(dataDir, 100);
  const ours = measure('ours', file, 1, 5);
  const naive = measure('naive', file, 1, 5);
  record({ name: 'fs_read first page, 100 MiB file: time', ours: +ours.ms.toFixed(2), baseline: +naive.ms.toFixed(2), unit: 'ms', note: `median of 5; ${ours.lines} lines vs ${naive.lines}` });
  record({ name: 'fs_read first page, 100 MiB file: peak RSS growth', ours: +ours.rss.toFixed(1), baseline: +naive.rss.toFixed(1), unit: 'MiB' });
  const deep = 1_000_000;
  const oursDeep = measure('ours', file, deep, 3);
  const naiveDeep = measure('naive', file, deep, 3);
  record({ name: `fs_read offset=${deep}, 100 MiB file: time`, ours: +oursDeep.ms.toFixed(2), baseline: +naiveDeep.ms.toFixed(2), unit: 'ms', note: 'median of 3' });
  record({ name: `fs_read offset=${deep}, 100 MiB file: peak RSS growth`, ours: +oursDeep.rss.toFixed(1), baseline: +naiveDeep.rss.toFixed(1), unit: 'MiB' });

  // 1 GiB: too large for one JS string, so the baseline reads bytes and splits on newlines.
  const huge = makeFile(dataDir, 1024);
  const oursHuge = measure('ours', huge, 1, 5);
  const naiveHuge = measure('naive-bytes', huge, 1, 3);
  record({ name: 'fs_read first page, 1 GiB file: time', ours: +oursHuge.ms.toFixed(2), baseline: +naiveHuge.ms.toFixed(2), unit: 'ms', note: 'median; target ratio <= 0.01' });
  record({ name: 'fs_read first page, 1 GiB file: peak RSS growth', ours: +oursHuge.rss.toFixed(1), baseline: +naiveHuge.rss.toFixed(1), unit: 'MiB', note: 'target ours < 64 MiB' });
  const deepHuge = 10_000_000;
  const oursHugeDeep = measure('ours', huge, deepHuge, 3);
  const naiveHugeDeep = measure('naive-bytes', huge, deepHuge, 3);
  record({ name: `fs_read offset=${deepHuge}, 1 GiB file: time`, ours: +oursHugeDeep.ms.toFixed(2), baseline: +naiveHugeDeep.ms.toFixed(2), unit: 'ms', note: 'median of 3' });
  record({ name: `fs_read offset=${deepHuge}, 1 GiB file: peak RSS growth`, ours: +oursHugeDeep.rss.toFixed(1), baseline: +naiveHugeDeep.rss.toFixed(1), unit: 'MiB', note: 'target ours < 64 MiB' });
}
