// fs_edit's matching cascade (findEdit) on 1k, 10k and 100k-line files, against two naive
// baselines measured in the same run: `content.indexOf(old)` (what an exact-only edit costs)
// and a naive line-trimmed scan (split, trim, compare old_string at every line), the shape of
// the usual fuzzy replacers. Inputs: an exact snippet, a whitespace-drifted copy, a re-indented
// copy, a copy re-indented by different amounts on different lines, and a 300-line old_string
// that matches nowhere; plus the worst case of a file made of a few very common lines.
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '..');

/** A JavaScript-like file of `lines` lines: small functions with unique names. */
function makeFile(lines) {
  const out = [];
  for (let i = 0; out.length < lines; i++) {
    out.push(
      `function fn${i}(a, b) {`,
      `  const x${i} = a + b * ${i % 97};`,
      `  if (x${i} > ${i % 13}) {`,
      `    return helper(x${i}, "label ${i}");`,
      '  }',
      `  return x${i};`,
      '}',
      '',
    );
  }
  return out.slice(0, lines).join('\n') + '\n';
}

/** Milliseconds of `fn()`, median of `runs` (after one warm-up run). */
function time(fn, runs) {
  return timeCpu(fn, runs).ms;
}

/**
 * Wall milliseconds of `fn()` (median of `runs`, after a warm-up run) and the process's CPU
 * milliseconds per run (mean): on a shared machine the wall time also counts waiting for a core.
 */
function timeCpu(fn, runs) {
  fn();
  const samples = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    samples.push(performance.now() - t);
  }
  const cpu = process.cpuUsage(cpu0);
  samples.sort((a, b) => a - b);
  return { ms: samples[Math.floor(samples.length / 2)], cpuMs: (cpu.user + cpu.system) / 1000 / runs };
}

/** The naive fuzzy scan: every line as a possible start, lines compared trimmed. */
function naiveTrimmedScan(content, old) {
  const lines = content.split('\n').map((l) => l.trim());
  const want = old.split('\n').map((l) => l.trim());
  let found = -1;
  for (let i = 0; i + want.length <= lines.length; i++) {
    let j = 0;
    while (j < want.length && lines[i + j] === want[j]) {
      j++;
    }
    if (j === want.length) {
      found = i;
    }
  }
  return found;
}

const round = (ms) => +ms.toFixed(3);

export default async function run({ record }) {
  const { findEdit } = require(path.join(root, 'out/src/core/edit/index.js'));
  for (const size of [1000, 10_000, 100_000]) {
    const content = makeFile(size);
    const lines = content.split('\n');
    const runs = size >= 100_000 ? 7 : 21;
    // A 24-line snippet at 90% of the file.
    const at = Math.floor(size * 0.9 / 8) * 8;
    const snippet = lines.slice(at, at + 24);
    const inputs = {
      exact: snippet.join('\n'),
      'whitespace-drifted': snippet.map((l, k) => (k % 3 === 0 ? l.replace(' = ', '  =  ') + '  ' : l)).join('\n'),
      're-indented': snippet.map((l) => (l ? '        ' + l : l)).join('\n'),
      // A tab for the file's two spaces on each function's second line, the `return helper` line one column short: no one map, the same nesting.
      're-indented line by line': snippet.map((l, k) => (k % 8 === 1 ? l.replace(/^ {2}/, '\t') : k % 8 === 3 ? l.slice(1) : l)).join('\n'),
      // 300 lines of the file, each followed by the next function's line: every line is in the file, the block nowhere.
      'no match (300 lines)': Array.from({ length: 300 }, (_, k) => lines[(k * 9) % (size - 1)]).join('\n'),
    };
    for (const [name, old] of Object.entries(inputs)) {
      const req = { oldString: old, newString: old.replace(/helper/g, 'helper2') + '\n// edited' };
      const r = findEdit(content, req);
      const outcome = r.ok ? r.level : r.reason;
      const { ms: ours, cpuMs } = timeCpu(() => findEdit(content, req), runs);
      const indexOf = time(() => content.indexOf(old), runs);
      const naive = time(() => naiveTrimmedScan(content, old), runs);
      const label = `${size / 1000}k lines`;
      record({ name: `fs_edit ${name}, ${label}: vs indexOf`, ours: round(ours), baseline: round(indexOf), unit: 'ms', note: `${outcome}; median of ${runs}; CPU ${cpuMs.toFixed(2)} ms per call` });
      record({ name: `fs_edit ${name}, ${label}: vs naive trimmed scan`, ours: round(ours), baseline: round(naive), unit: 'ms' });
    }
  }

  // Worst case: 10,000 lines drawn from five very common lines, a 300-line old_string made of
  // the same lines in an order the file never has: every line is a candidate anchor.
  const common = ['}', '  return x;', '  i++;', '', '  x = f(i);'];
  const file = Array.from({ length: 10_000 }, (_, k) => common[(k * 7 + (k >> 3)) % common.length]).join('\n') + '\n';
  const old = Array.from({ length: 300 }, (_, k) => common[(k * 3 + (k >> 1)) % common.length]).join('\n');
  const req = { oldString: old, newString: old + '\n// edited' };
  const r = findEdit(file, req);
  const { ms: ours, cpuMs } = timeCpu(() => findEdit(file, req), 11);
  record({ name: 'fs_edit worst case (no match, common lines), 10k lines x 300-line old_string: vs indexOf', ours: round(ours), baseline: round(time(() => file.indexOf(old), 11)), unit: 'ms', note: `${r.ok ? r.level : r.reason}; CPU ${cpuMs.toFixed(2)} ms per call; target well under 1000 ms` });
  record({ name: 'fs_edit worst case (no match, common lines), 10k lines x 300-line old_string: vs naive trimmed scan', ours: round(ours), baseline: round(time(() => naiveTrimmedScan(file, old), 11)), unit: 'ms' });
}
