// `npm test`: everything a change must pass, in one command that works on a fresh machine.
//   1. installs the test host if missing (scripts/setup-host.sh: idempotent, ~0.3 s when present)
//   2. builds the extension and CLI, compiles the tests, installs the pinned MCP clients if
//      missing (scripts/mcp-clients.mjs: the MCP Inspector and Codex CLI, beside the test host)
//   3. unit tests in plain Node (mocha), including the .vsix package check
//   3b. the platform suites: the official Node for Windows under Wine runs the CLI's platform
//      cases and the platform-sensitive unit tests (scripts/run-windows-tests.mjs); the same
//      cases on a FUSE volume that folds case and Unicode normalisation as macOS's APFS does,
//      with the kernel's caches off and with their one-second default (scripts/run-macos-tests.mjs)
//   4. integration tests in a real VS Code extension host (code-server + chromium), the
//      same host with the workspace untrusted (Restricted Mode), and on a virtual workspace
//      folder whose file operations fail on demand (the vfs suite)
//   5. the packaged .vsix installed into a fresh host, its tools called there; the window's MCP
//      server called by real clients (the MCP Inspector's CLI, Codex CLI with a scripted model)
//   6. the Agent-mode suite: Copilot Chat's Agent mode, driven by a scripted model, calls the tools
// Exits non-zero when any step or test fails; ends with one "N passed, M failed" line.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { root } from './host.mjs';

const t0 = Date.now();
const totals = { passed: 0, failed: 0 };
const problems = [];
/** Each step's wall time, for the summary: where a run's time goes. */
const times = [];

function run(title, cmd, args, { capture = false } = {}) {
  console.log(`\n=== ${title}: ${cmd} ${args.join(' ')}`);
  const began = Date.now();
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { cwd: root, stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'] });
    let out = '';
    if (capture) {
      p.stdout.on('data', (d) => {
        out += d;
        process.stdout.write(d);
      });
    }
    p.on('exit', (code) => {
      times.push({ title, s: (Date.now() - began) / 1000 });
      resolve({ code: code ?? 1, out });
    });
  });
}

async function step(title, cmd, args) {
  const { code } = await run(title, cmd, args);
  if (code !== 0) {
    problems.push(`${title} failed (exit ${code})`);
  }
  return code === 0;
}

if (!(await step('test host', 'bash', ['scripts/setup-host.sh']))) {
  console.error('the test host could not be installed; see above');
  process.exit(1);
}
const built = (await step('build', 'npm', ['run', '--silent', 'build'])) && (await step('compile tests', 'npm', ['run', '--silent', 'compile-tests']));
if (!built) {
  console.error(`\n${problems.join('\n')}\n0 passed, 1 failed`);
  process.exit(1);
}

// the pinned MCP clients the unit and MCP suites drive (not in devDependencies: Codex is ~400 MB)
await step('MCP test clients', 'node', ['scripts/mcp-clients.mjs']);

const unit = await run('unit tests', 'npx', ['mocha', '--config', '.mocharc.json', '--no-color', 'out/test/unit/**/*.test.js'], { capture: true });
// mocha's summary lines (the last of each), not a test title with a number before "failing" in it
const count = (word) => Number([...unit.out.matchAll(new RegExp(`^ *(\\d+) ${word}( \\(.*\\))?$`, 'gm'))].at(-1)?.[1] ?? 0);
totals.passed += count('passing');
totals.failed += count('failing');
if (count('pending')) problems.push('unit tests: pending tests are not allowed');
if (unit.code !== 0 && !count('failing')) totals.failed += 1;
if (unit.code !== 0) problems.push(`unit tests failed (exit ${unit.code})`);

/** Runs a suite whose runner writes test-output/<name>-results.json, and counts it. */
async function suite(name, title, cmd, args) {
  const resultsFile = path.join(root, 'test-output', `${name}-results.json`);
  fs.rmSync(resultsFile, { force: true });
  const r = await run(title, cmd, args);
  let summary;
  try { summary = JSON.parse(fs.readFileSync(resultsFile, 'utf8')); } catch { /* none */ }
  if (summary) {
    totals.passed += summary.passes;
    totals.failed += summary.failures;
  } else {
    totals.failed += 1;
  }
  if (r.code !== 0) problems.push(`${title} failed (exit ${r.code})`);
}

// Windows and macOS, as their users have them: each suite alone is `npm run test:windows` / `test:macos`.
await suite('windows', 'Windows suite (Node for Windows under Wine)', 'node', ['scripts/run-windows-tests.mjs']);
await suite('macos', 'macOS-semantics suite (a case- and normalisation-folding volume)', 'node', ['scripts/run-macos-tests.mjs']);

for (const name of ['integration', 'untrusted', 'vfs', 'vsix', 'mcp']) {
  await suite(name, `${name} tests in VS Code`, 'node', ['scripts/run-vscode-tests.mjs', '--suite', name]);
}
// The Agent-mode suite: VS Code's chat, in Agent mode with a scripted model, calls the tools.
await suite('agent', 'Agent-mode tests in VS Code chat', 'node', ['scripts/run-agent-tests.mjs']);

console.log(`\n=== done in ${((Date.now() - t0) / 1000).toFixed(0)} s; slowest steps: ${[...times].sort((a, b) => b.s - a.s).map((t) => `${t.title} ${t.s.toFixed(0)} s`).join(', ')}`);
for (const p of problems) console.log(`  ${p}`);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(problems.length || totals.failed ? 1 : 0);
