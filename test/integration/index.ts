// Loaded by the VS Code extension host (extensionTestsPath). Runs every *.test.js of
// this folder (or, through runSuite, of another) with mocha inside the host, writes a
// JSON summary for the runner, and rejects on failure so the workbench reports a
// non-zero exit code.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  return runSuite(__dirname);
}

/** Runs every *.test.js of `dir` (the untrusted-workspace suite has its own folder). */
export function runSuite(dir: string): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    timeout: 60000,
    reporter: 'spec',
    forbidOnly: !!process.env.CI,
    grep: process.env.AFT_TEST_GREP || undefined,
  });
  if (process.env.AFT_TEST_INVERT) {
    mocha.invert();
  }
  // The first hour first: the walkthrough's steps, once ticked, stay ticked for the window's life.
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.test.js')).sort();
  for (const f of [...files.filter((f) => f === 'first-hour.test.js'), ...files.filter((f) => f !== 'first-hour.test.js')]) {
    mocha.addFile(path.join(dir, f));
  }
  const out = process.env.AFT_RESULTS_FILE;
  return new Promise((resolve, reject) => {
    const results: { title: string; state: string; err?: string; ms?: number }[] = [];
    const runner = mocha.run((failures) => {
      const summary = { passes: runner.stats?.passes ?? 0, failures, pending: runner.stats?.pending ?? 0, results };
      if (out) {
        fs.writeFileSync(out, JSON.stringify(summary, null, 2));
      }
      if (failures > 0) {
        reject(new Error(`${failures} test(s) failed`));
      } else {
        resolve();
      }
    });
    runner.on('pass', (t) => results.push({ title: t.fullTitle(), state: 'passed', ms: t.duration }));
    runner.on('fail', (t, err) => results.push({ title: t.fullTitle(), state: 'failed', err: String((err as Error)?.stack ?? err) }));
    runner.on('pending', (t) => results.push({ title: t.fullTitle(), state: 'pending' }));
  });
}
