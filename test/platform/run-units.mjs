// Runs the unit tests of windows-units.mjs in this process with mocha (under Node for
// Windows, started by scripts/run-windows-tests.mjs), leaving out the tests that cannot run
// under Wine (each printed with why), and writes { passes, failures, pending, results }.
//
//   node.exe run-units.mjs --results FILE [--grep RE]
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NOT_UNDER_WINE, UNIT_FILES } from './windows-units.mjs';

const require = createRequire(import.meta.url);
const Mocha = require('mocha');
const here = path.dirname(fileURLToPath(import.meta.url));
const unitDir = path.resolve(here, '../../out/test/unit');
const arg = (name) => (process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1] : undefined);
const resultsFile = arg('results');
const grep = arg('grep') ? new RegExp(arg('grep'), 'i') : undefined;
const config = JSON.parse(fs.readFileSync(path.resolve(here, '../../.mocharc.json'), 'utf8'));

// A file call under Wine takes several times what it takes natively (each goes through
// wineserver): the tests keep their own bounds, mocha's per-test limit is three times Linux's.
const mocha = new Mocha({ timeout: config.timeout * 3, reporter: 'dot', forbidOnly: true, color: false });
for (const f of UNIT_FILES) {
  mocha.addFile(path.join(unitDir, `${f}.test.js`));
}
await mocha.loadFilesAsync();

const left = [];
(function prune(suite) {
  suite.tests = suite.tests.filter((t) => {
    const title = t.fullTitle();
    const rule = NOT_UNDER_WINE.find((r) => title.includes(r.title));
    if (rule) {
      left.push({ title, why: rule.why });
      return false;
    }
    return !grep || grep.test(title);
  });
  suite.suites.forEach(prune);
})(mocha.suite);

const results = [];
const runner = mocha.run();
runner.on('pass', (t) => results.push({ title: `unit (Windows Node): ${t.fullTitle()}`, state: 'passed', ms: t.duration }));
runner.on('fail', (t, err) => results.push({ title: `unit (Windows Node): ${t.fullTitle()}`, state: 'failed', ms: t.duration, err: String(err?.stack ?? err).slice(0, 4000) }));
runner.on('end', () => {
  console.log(`\nnot run under Wine (${left.length}; each runs in the Linux unit suite):`);
  for (const l of left) {
    console.log(`  - ${l.title}\n      ${l.why}`);
  }
  const passes = results.filter((r) => r.state === 'passed').length;
  fs.writeFileSync(resultsFile, JSON.stringify({ passes, failures: results.length - passes, pending: 0, notUnderWine: left, results }, null, 2));
  process.exit(0);
});
