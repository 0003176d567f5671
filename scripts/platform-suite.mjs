// Shared pieces of the two platform suites (scripts/run-windows-tests.mjs and
// scripts/run-macos-tests.mjs): their flags, following a log file as it grows, and the
// results file scripts/test.mjs counts.
import fs from 'node:fs';
import path from 'node:path';
import { clearInterval, setInterval, setTimeout } from 'node:timers';
import { root } from './host.mjs';

/** `--grep RE` (cases and tests whose title matches), `--files a,b` (case files whose name holds one), `--only cases|units`. */
export function suiteArgs(argv = process.argv.slice(2)) {
  const a = { grep: undefined, files: undefined, only: undefined };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i].replace(/^--/, '');
    if (!['grep', 'files', 'only'].includes(k) || argv[i + 1] === undefined) {
      console.error(`unknown flag ${argv[i]}; flags: --grep RE, --files NAME[,NAME], --only cases|units`);
      process.exit(2);
    }
    a[k] = argv[++i];
  }
  return a;
}

/**
 * Calls `finish(130)` on SIGINT, SIGTERM or SIGHUP, and `finish(124)` when the run outlasts
 * PLATFORM_TEST_TIMEOUT_MS (default 10 minutes): a stopped or stuck run still cleans up.
 */
export function stopOnSignalOrTimeout(finish, log) {
  const timeoutMs = Number(process.env.PLATFORM_TEST_TIMEOUT_MS || 600000);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, () => {
      log(`${sig}: stopping`);
      void finish(130);
    });
  }
  setTimeout(() => {
    log(`TIMEOUT after ${timeoutMs / 1000} s`);
    void finish(124);
  }, timeoutMs).unref();
}

/** Prints what is added to `file` as it is written, until stop() (which prints the rest). */
export function follow(file, prefix = '') {
  let at = 0;
  let partial = '';
  const pump = () => {
    let fd;
    try {
      fd = fs.openSync(file, 'r');
    } catch {
      return;
    }
    try {
      const size = fs.fstatSync(fd).size;
      if (size > at) {
        const buf = Buffer.alloc(size - at);
        fs.readSync(fd, buf, 0, buf.length, at);
        at = size;
        const text = partial + buf.toString('utf8');
        const lines = text.split('\n');
        partial = lines.pop();
        for (const l of lines) {
          console.log(prefix + l);
        }
      }
    } finally {
      fs.closeSync(fd);
    }
  };
  const timer = setInterval(pump, 250);
  return () => {
    clearInterval(timer);
    pump();
    if (partial) {
      console.log(prefix + partial);
    }
  };
}

/** Reads a results file a part of the suite wrote; a missing or broken one counts as one failure. */
export function readPart(file, what) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return { passes: 0, failures: 1, pending: 0, results: [{ title: what, state: 'failed', err: `${what} wrote no results (${file})` }] };
  }
}

/** Writes test-output/<name>-results.json from the parts, prints the failures and the totals; whether all passed. */
export function writeResults(name, parts, extra = {}) {
  const results = parts.flatMap((p) => p.results);
  const summary = {
    passes: parts.reduce((n, p) => n + p.passes, 0),
    failures: parts.reduce((n, p) => n + p.failures, 0),
    pending: 0,
    ...extra,
    results,
  };
  fs.mkdirSync(path.join(root, 'test-output'), { recursive: true });
  fs.writeFileSync(path.join(root, 'test-output', `${name}-results.json`), JSON.stringify(summary, null, 2));
  const failed = results.filter((r) => r.state === 'failed');
  if (failed.length) {
    console.log(`\n${name}: ${failed.length} failing:`);
    for (const r of failed) {
      console.log(`  ✗ ${r.title}`);
    }
  }
  console.log(`${name}: ${summary.passes} passing, ${summary.failures} failing`);
  return summary.failures === 0 && summary.passes > 0;
}
