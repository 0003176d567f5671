// The CLI's start-up: the CPU time (user + system, the whole process, Node's own start
// included) of `--list` and of a small fs_read, against bare `node -e ""`, alternating in
// the same run. Each process reports its own total at exit through a preloaded module, so
// the figure has microsecond resolution; the same module is preloaded into the baseline.
// Target: at most 40 ms over bare Node for each. A tool's bundle compiles from V8's code
// cache, kept in a folder of ours (src/host/compileCache.ts; by Node itself from 22.1, by
// the CLI on Node 20): the fs_read figure is with the cache warm (the first run, not
// counted, fills it), and a second row gives it cold (the cache removed before each run:
// the first call after an install or a build).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const RUNS = 21;

export default async function run({ dataDir, root, record }) {
  const dir = path.join(dataDir, 'cli-start');
  fs.mkdirSync(dir, { recursive: true });
  const preload = path.join(dir, 'cpu-at-exit.cjs');
  fs.writeFileSync(preload, "process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').writeSync(2, `\\nCPU ${(u.user + u.system) / 1000}\\n`); });\n");
  fs.writeFileSync(path.join(dir, 'small.txt'), 'one\ntwo\n');
  const cli = path.join(root, 'dist/cli.js');
  const cases = {
    bare: ['-e', ''],
    list: [cli, '--list'],
    read: [cli, 'fs_read', '--root', dir, '--input', '{"path":"small.txt"}'],
    readCold: [cli, 'fs_read', '--root', dir, '--input', '{"path":"small.txt"}'],
  };
  // where the CLI has Node keep its compile cache: ours, emptied for the cold row
  const cacheDir = path.join(os.tmpdir(), `agent-file-tools-compile-cache-${process.getuid?.()}`);
  const dropCache = () => {
    for (const f of fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir) : []) {
      fs.rmSync(path.join(cacheDir, f), { recursive: true, force: true });
    }
  };
  const cpu = {};
  for (let i = 0; i <= RUNS; i++) {
    for (const [name, args] of Object.entries(cases)) {
      if (name === 'readCold') dropCache();
      const r = spawnSync(process.execPath, ['--require', preload, ...args], { encoding: 'utf8' });
      const m = /\nCPU ([\d.]+)\n/.exec(r.stderr);
      if (r.status !== 0 || !m) throw new Error(`${name} failed (exit ${r.status}): ${r.stderr.slice(0, 300)}`);
      if (name.startsWith('read') && !r.stdout.includes('L2: two')) throw new Error(`fs_read printed: ${r.stdout.slice(0, 300)}`);
      if (i > 0) (cpu[name] ??= []).push(Number(m[1]));
    }
  }
  const med = (xs) => Math.round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] * 10) / 10;
  const bare = med(cpu.bare);
  for (const [name, words] of [['list', '`--list`'], ['read', 'a small fs_read (code cache warm)'], ['readCold', 'a small fs_read (code cache cold)']]) {
    const ours = med(cpu[name]);
    record({ name: `CLI start-up, CPU time of ${words} vs bare node -e ""`, ours, baseline: bare, unit: 'ms', note: `median of ${RUNS}, alternating; +${Math.round((ours - bare) * 10) / 10} ms over bare Node (min ${Math.min(...cpu[name])} vs ${Math.min(...cpu.bare)}); target at most +40 ms` });
  }
}
