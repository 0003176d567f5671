// Runs the integration tests inside a real VS Code extension host: code-server (VS Code's
// server and web client) on Node 24, its workbench opened by headless Debian chromium, which
// starts the extension host. The tests run with mocha in that host and call the tools
// through vscode.lm.invokeTool.
//
//   node scripts/run-vscode-tests.mjs [--suite integration|untrusted|vsix|vfs|mcp]
//
// integration: the extension from this folder (extensionDevelopmentPath) on a copy of
//   test/fixtures/workspace, tests from out/test/integration.
// untrusted: the same, with workspace trust on, so the folder opens in Restricted Mode;
//   tests from out/test/untrusted.
// vsix: the packaged agent-file-tools.vsix installed with --install-extension into a
//   fresh extensions folder, checked by out/test/vsix from a throwaway probe extension.
// vfs: the window opens on a .code-workspace file whose one folder is aftfault:/ws (code-server
//   keeps no folder added later with updateWorkspaceFolders); the test module registers that
//   scheme over a folder of the run, failing the k-th file operation on demand
//   (test/vfs/faultProvider.ts), before its tests from out/test/vfs run.
// mcp: the integration setup with the window's MCP server on (agentFileTools.mcp.enabled in the
//   user settings); tests from out/test/mcp call it with real MCP clients, the pinned MCP
//   Inspector and Codex CLI, installed first if missing (scripts/mcp-clients.mjs).
// Exit code 0 only when every test passed. Screenshots go to test-output/screenshots.
import fs from 'node:fs';
import path from 'node:path';
import { ensureMcpClients } from './mcp-clients.mjs';
import { chromePath, csEntry, freePort, hostVersion, installVsix, launchChromium, makeRunDir, node24, root, startCodeServer, workbenchUrl } from './host.mjs';

const t0 = Date.now();
const log = (...a) => console.log(`[vscode-tests +${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);
const suite = process.argv.includes('--suite') ? process.argv[process.argv.indexOf('--suite') + 1] : 'integration';
if (!['integration', 'untrusted', 'vsix', 'vfs', 'mcp'].includes(suite)) {
  console.error(`unknown suite ${suite}`);
  process.exit(2);
}
const timeoutMs = Number(process.env.VSCODE_TEST_TIMEOUT_MS || 600000);
const verbose = !!process.env.VSCODE_TEST_VERBOSE;
const testsPath = path.join(root, 'out/test', suite, 'index.js');
const vsix = path.join(root, 'agent-file-tools.vsix');
for (const p of [node24, csEntry, chromePath, testsPath, ...(suite === 'vsix' ? [vsix] : [path.join(root, 'dist/extension.js')])]) {
  if (!fs.existsSync(p)) {
    console.error(`missing ${p}: run \`npm test\` (it installs the host and builds) or scripts/setup-host.sh`);
    process.exit(2);
  }
}

const { dir: runDir, env: runEnv } = makeRunDir(suite);
let workspace = path.join(runDir, 'ws');
fs.cpSync(path.join(root, 'test/fixtures/workspace'), workspace, { recursive: true, verbatimSymlinks: true });
// vfs: the folder behind aftfault:/ (its workspace folder is aftfault:/ws, the tests' trees are made in it)
const vfsRoot = path.join(runDir, 'vfs-root');
const uiDir = path.join(runDir, 'ui');
fs.mkdirSync(uiDir);
const shotsDir = path.join(root, 'test-output', 'screenshots');
fs.mkdirSync(shotsDir, { recursive: true });
const resultsFile = path.join(runDir, 'results.json');

let devPath = root;
if (suite === 'vfs') {
  fs.mkdirSync(path.join(vfsRoot, 'ws'), { recursive: true });
  // Reviews would wait for a person: changes land at once under the policy `never`, set in
  // the user settings below (a workspace's settings cannot loosen it).
  workspace = path.join(runDir, 'vfs.code-workspace');
  fs.writeFileSync(workspace, JSON.stringify({
    folders: [{ name: 'ws', uri: 'aftfault:/ws' }],
    settings: { 'agentFileTools.formatAfterChange': false, 'files.eol': '\n' },
  }, null, 2));
}
if (suite === 'vsix') {
  // A probe extension with no code of its own carries the test module; the extension under
  // test is only the installed vsix.
  devPath = path.join(runDir, 'probe-ext');
  fs.mkdirSync(devPath);
  fs.writeFileSync(path.join(devPath, 'package.json'), JSON.stringify({ name: 'vsix-probe', publisher: 'tests', version: '0.0.0', engines: { vscode: '^1.106.0' }, activationEvents: [] }));
}

log(`VS Code ${hostVersion()} (code-server) on ${node24}; suite ${suite}; run folder ${runDir}`);
const port = Number(process.env.VSCODE_TEST_PORT || (await freePort()));
let server;
let browser;
const finish = async (code) => {
  try { await browser?.close(); } catch { /* already closed */ }
  await server?.stop();
  log(`exit code ${code}${code === 0 && !process.env.VSCODE_TEST_KEEP ? '' : `; logs in ${runDir}`}`);
  if (code === 0 && !process.env.VSCODE_TEST_KEEP) fs.rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
  process.exit(code);
};
setTimeout(() => { log('TIMEOUT'); void finish(124); }, timeoutMs).unref();

try {
  const extraEnv = { AFT_RESULTS_FILE: resultsFile, AFT_UI_DIR: uiDir, AFT_SHOTS_DIR: shotsDir, AFT_WORKSPACE: workspace, AFT_VFS_ROOT: vfsRoot };
  if (suite === 'vsix') {
    const extensionsDir = path.join(runDir, 'extensions');
    fs.mkdirSync(extensionsDir, { recursive: true });
    const out = await installVsix(vsix, extensionsDir, runEnv);
    log('installed', path.basename(vsix), '->', out.trim().split('\n').filter(Boolean).pop());
    extraEnv.AFT_EXTENSIONS_DIR = extensionsDir;
  }
  if (suite === 'mcp') {
    extraEnv.AFT_MCP_CLIENTS = JSON.stringify(ensureMcpClients({ log }));
  }
  server = await startCodeServer({
    runDir, runEnv, workspace, port, extraEnv, trusted: suite !== 'untrusted',
    // VS Code's git extension runs git on the repositories the tests build, and so their
    // hooks: the tests check what this extension runs, so it stays off.
    // The vfs suite's changes land at once: a policy only the person's own settings can loosen.
    settings: { 'git.enabled': false, ...(suite === 'vfs' ? { 'agentFileTools.approvalPolicy': 'never' } : {}), ...(suite === 'mcp' ? { 'agentFileTools.mcp.enabled': true } : {}) },
    onOutput: (s) => {
      if (verbose || /^\s*(✔|✓|\d+\) |\d+ passing|\d+ failing|\d+ pending)|\[aft\]|Error:/m.test(s)) process.stdout.write(s.replace(/^/gm, '  │ '));
    },
  });
  log('code-server up on', server.base);
  const url = await workbenchUrl(server.base, workspace, { devPath, testsPath });

  browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('pageerror', (e) => verbose && console.log('  [pageerror]', e.message));
  // The extension host's console reaches the page's console: show mocha's report and our own lines.
  const interesting = /^\s*(✔|✓|\d+\) |\d+ passing|\d+ failing|\d+ pending)|\[aft\]/m;
  page.on('console', (m) => {
    const s = m.text();
    if (verbose) console.log('  [browser]', s.slice(0, 2000));
    else if (interesting.test(s)) console.log(s.replace(/^%c \w+ color: #\w+ /, '').split('\n').filter((l) => l.trim()).map((l) => `  │ ${l}`).join('\n'));
  });
  let exitResolve;
  const exited = new Promise((r) => (exitResolve = r));
  // The workbench calls this when the test module's run() settles.
  await page.exposeFunction('codeAutomationExit', (code) => exitResolve(code));
  log('opening the workbench');
  await page.goto(url);

  // Answer the tests' UI requests (see test/integration/ui.ts) while mocha runs in the host.
  let bridgeOn = true;
  const bridge = (async () => {
    const done = new Set();
    while (bridgeOn) {
      let reqs = [];
      try { reqs = fs.readdirSync(uiDir).filter((f) => f.startsWith('req-') && f.endsWith('.json') && !done.has(f)).sort(); } catch { /* none */ }
      for (const f of reqs) {
        done.add(f);
        const req = JSON.parse(fs.readFileSync(path.join(uiDir, f), 'utf8'));
        const res = { ok: true };
        try {
          for (const step of req.steps) {
            if (step.waitFor) await page.waitForSelector(step.waitFor, { timeout: step.timeout ?? 15000, state: step.state ?? 'visible' });
            if (step.click) await page.click(step.click, { timeout: step.timeout ?? 10000 });
            if (step.press) await page.keyboard.press(step.press);
            if (step.type) await page.keyboard.type(step.type);
            if (step.eval) (res.evals ??= []).push(await page.evaluate(step.eval));
            if (step.screenshot) {
              const p = path.join(shotsDir, `${step.screenshot}.png`);
              await page.screenshot({ path: p });
              (res.shots ??= []).push(p);
            }
          }
        } catch (e) {
          res.ok = false;
          res.error = String(e?.message ?? e).slice(0, 2000);
        }
        if (verbose) log('ui', req.id, res.ok ? 'ok' : res.error);
        fs.writeFileSync(path.join(uiDir, `res-${req.id}.json.tmp`), JSON.stringify(res));
        fs.renameSync(path.join(uiDir, `res-${req.id}.json.tmp`), path.join(uiDir, `res-${req.id}.json`));
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();

  const code = await exited;
  bridgeOn = false;
  await bridge;
  let summary;
  try { summary = JSON.parse(fs.readFileSync(resultsFile, 'utf8')); } catch { /* none written */ }
  if (!summary) {
    log(`the extension host exited with ${code} and wrote no results`);
    await finish(1);
  }
  for (const r of summary.results) {
    const mark = r.state === 'passed' ? '✔' : r.state === 'failed' ? '✗' : '-';
    console.log(`  ${mark} ${r.title}${r.ms !== undefined ? ` (${r.ms} ms)` : ''}`);
    if (r.state === 'failed') console.log(r.err.replace(/^/gm, '       '));
  }
  log(`${suite}: ${summary.passes} passing, ${summary.failures} failing, ${summary.pending} pending`);
  fs.writeFileSync(path.join(root, 'test-output', `${suite}-results.json`), JSON.stringify(summary, null, 2));
  await finish(code === 0 && summary.failures === 0 && summary.pending === 0 && summary.passes > 0 ? 0 : 1);
} catch (e) {
  log('error:', e?.stack ?? e);
  await finish(1);
}
