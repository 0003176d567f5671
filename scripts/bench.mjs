// `npm run bench`: builds, then runs every bench/*.bench.mjs. Each bench measures the project
// and a baseline in the same run and records { name, ours, baseline, unit }; the ratio is
// ours / baseline (below 1 means faster or smaller). Writes bench/results.json and
// bench/results.md. Benchmarks are never part of `npm test` and never gate CI.
//   npm run bench [-- name-filter]
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { root } from './host.mjs';

const benchDir = path.join(root, 'bench');
const dataDir = path.join(benchDir, '.data');

// Each bench file runs in a process of its own (`--one FILE OUT`), so one bench's memory
// and warm caches in this process never colour another's figures.
if (process.argv[2] === '--one') {
  const [file, out] = process.argv.slice(3);
  const rows = [];
  const mod = await import(pathToFileURL(path.join(benchDir, file)).href);
  await mod.default({
    dataDir,
    root,
    record: (r) => {
      const row = { ...r, ratio: r.baseline ? Number((r.ours / r.baseline).toFixed(4)) : null };
      rows.push(row);
      console.log(`  ${row.name}: ours ${row.ours} ${row.unit}, baseline ${row.baseline} ${row.unit}, ratio ${row.ratio}${row.note ? ` (${row.note})` : ''}`);
    },
  });
  fs.writeFileSync(out, JSON.stringify(rows));
  process.exit(0);
}

const filter = process.argv[2];
execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
execFileSync('npm', ['run', '--silent', 'compile-tests'], { cwd: root, stdio: 'inherit' });
fs.mkdirSync(dataDir, { recursive: true });
const files = fs.readdirSync(benchDir).filter((f) => /\.bench\.m?js$/.test(f) && (!filter || f.includes(filter))).sort();
const results = [];
let failed = 0;
for (const f of files) {
  console.log(`\n=== ${f}`);
  const out = path.join(dataDir, `.rows-${f}.json`);
  fs.rmSync(out, { force: true });
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--one', f, out], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0 || !fs.existsSync(out)) {
    console.log(`  ${f} failed (exit ${r.status})`);
    failed++;
    continue;
  }
  results.push(...JSON.parse(fs.readFileSync(out, 'utf8')));
  fs.rmSync(out, { force: true });
}
const meta = { node: process.version, cpus: os.cpus().length, cpu: os.cpus()[0]?.model, platform: `${process.platform}-${process.arch}` };
const out = filter ? path.join(benchDir, `results.${filter}.json`) : path.join(benchDir, 'results.json');
fs.writeFileSync(out, JSON.stringify({ meta, results }, null, 2) + '\n');
const md = ['| benchmark | ours | baseline | ratio | unit |', '|---|---:|---:|---:|---|',
  ...results.map((r) => `| ${r.name}${r.note ? ` (${r.note})` : ''} | ${r.ours} | ${r.baseline} | ${r.ratio} | ${r.unit} |`)].join('\n');
fs.writeFileSync(out.replace(/\.json$/, '.md'), md + '\n');
console.log(`\n${md}\n\nwritten: ${path.relative(root, out)}`);
process.exitCode = failed ? 1 : 0;
