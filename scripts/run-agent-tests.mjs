// The Agent-mode suite: VS Code's real chat Agent mode calls the extension's tools.
//
//   node scripts/run-agent-tests.mjs [--grep REGEX] [--readme-screenshots]
//
// One code-server host for the whole suite. The host's built-in Copilot Chat is loaded as the
// development extension (it runs without sign-in); the extension under test (the packaged
// agent-file-tools.vsix, rebuilt when older than its sources) and the Scripted Model
// (test/agent/scripted-model, packed with the project's vsce) are installed into a fresh
// extensions folder. The Scripted Model is the chat's only model: each scenario of
// test/agent/scenarios.mjs writes the model's turns, opens a new chat, types its prompt and
// answers cards as a person would; then it asserts on what the model received, what the
// extension logged and what the chat showed.
//
// Then a second host for the scenarios of test/agent/capi-scenarios.mjs, with Copilot's own models:
// Copilot Chat signs in with a fake token and sends every model request to a stand-in of Copilot's
// API on 127.0.0.1 (test/agent/capi.mjs, started and stopped here), which records what each model
// family was offered (tools in full and deferred, the prompt, what tool_search returned) and answers
// from the scenario. It needs an environment and settings of its own, hence its own host.
//
// Results: test-output/agent-results.json (passes, failures, per-scenario times, token budgets);
// screenshots in test-output/agent/. With --readme-screenshots the README's images in
// media/readme/ are rewritten too. VSCODE_TEST_KEEP=1 keeps the run folder.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Chat } from '../test/agent/chat.mjs';
import { Harness } from '../test/agent/harness.mjs';
import { makeWorkspace } from '../test/agent/workspace.mjs';
import scenarios from '../test/agent/scenarios.mjs';
import capiScenarios, { runCapiScenario } from '../test/agent/capi-scenarios.mjs';
import { capiHostConfig, startCapi } from '../test/agent/capi.mjs';
import { chromePath, codeServerDir, csEntry, freePort, hostVersion, installVsix, launchChromium, makeRunDir, node24, root, startCodeServer, workbenchUrl } from './host.mjs';

const t0 = Date.now();
const secs = () => ((Date.now() - t0) / 1000).toFixed(1);
const log = (...a) => console.log(`[agent-tests +${secs()}s]`, ...a);
const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const grep = arg('--grep') ?? process.env.AFT_TEST_GREP;
const readmeShots = process.argv.includes('--readme-screenshots');
const outDir = path.join(root, 'test-output');
const shotsDir = path.join(outDir, 'agent');
const resultsFile = path.join(outDir, 'agent-results.json');
fs.mkdirSync(shotsDir, { recursive: true });
for (const f of fs.readdirSync(shotsDir)) if (f.startsWith('FAILED-')) fs.rmSync(path.join(shotsDir, f));
fs.rmSync(resultsFile, { force: true });

const copilot = path.join(codeServerDir, 'lib/vscode/extensions/copilot');
if (!fs.existsSync(path.join(copilot, 'package.json'))) {
  console.error(`Copilot Chat is missing from the VS Code host (expected at ${copilot}): the Agent-mode suite needs code-server 4.139's built-in Copilot Chat; run scripts/setup-host.sh.`);
  fs.writeFileSync(resultsFile, JSON.stringify({ passes: 0, failures: 1, pending: 0, results: [{ title: 'Copilot Chat in the host', state: 'failed', err: 'missing' }] }));
  process.exit(1);
}
for (const p of [node24, csEntry, chromePath]) {
  if (!fs.existsSync(p)) {
    console.error(`missing ${p}: run \`npm test\` (it installs the host) or scripts/setup-host.sh`);
    process.exit(2);
  }
}

/** The packaged extension, rebuilt when any source is newer than it. */
function ensureVsix() {
  const vsix = path.join(root, 'agent-file-tools.vsix');
  const newest = (p) => {
    const st = fs.statSync(p);
    if (!st.isDirectory()) return st.mtimeMs;
    return Math.max(st.mtimeMs, ...fs.readdirSync(p).map((e) => newest(path.join(p, e))));
  };
  const sources = Math.max(newest(path.join(root, 'src')), newest(path.join(root, 'package.json')), newest(path.join(root, 'README.md')));
  if (!fs.existsSync(vsix) || fs.statSync(vsix).mtimeMs < sources) {
    log('packaging agent-file-tools.vsix');
    execFileSync(process.execPath, [path.join(root, 'scripts/package.mjs')], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return vsix;
}

const selected = scenarios.filter((s) => !grep || new RegExp(grep).test(s.name));
const selectedCapi = capiScenarios.filter((s) => !grep || new RegExp(grep).test(s.name));
const { dir: runDir, env: runEnv } = makeRunDir('agent');
const workspace = path.join(runDir, 'ws');
const agentDir = path.join(runDir, 'agent');
fs.mkdirSync(agentDir);
makeWorkspace(path.join(root, 'test/agent/workspace'), workspace);

let server;
let browser;
let capi;
const runDirs = [runDir];
const results = [];
const finish = async (code) => {
  try {
    await browser?.close();
  } catch {
    /* already closed */
  }
  await server?.stop();
  await capi?.stop();
  const passes = results.filter((r) => r.state === 'passed').length;
  const failures = results.filter((r) => r.state === 'failed').length + (code !== 0 && results.every((r) => r.state === 'passed') ? 1 : 0);
  fs.writeFileSync(resultsFile, JSON.stringify({ passes, failures, pending: 0, seconds: Number(secs()), hostVersion: hostVersion(), results }, null, 2));
  const budgets = results.flatMap((r) => r.budgets ?? []);
  if (budgets.length) log(`token budgets Agent mode passed to our tools: ${Math.min(...budgets)} to ${Math.max(...budgets)} (${budgets.length} calls)`);
  log(`agent: ${passes} passing, ${failures} failing in ${secs()} s${code === 0 && !process.env.VSCODE_TEST_KEEP ? '' : `; run folders ${runDirs.join(', ')}`}`);
  if (code === 0 && failures === 0 && !process.env.VSCODE_TEST_KEEP) for (const d of runDirs) fs.rmSync(d, { recursive: true, force: true, maxRetries: 3 });
  process.exit(code === 0 && failures === 0 ? 0 : 1);
};
/** Each host has its own time bound (AGENT_TESTS_TIMEOUT_MS, default 15 minutes): a 2-core machine shared with other work runs the scripted host in 3 to 13 minutes. */
let timer;
const armTimeout = (host) => {
  clearTimeout(timer);
  timer = setTimeout(() => {
    log(`TIMEOUT in the ${host} host`);
    results.push({ title: `the ${host} host`, state: 'failed', err: 'timed out' });
    void finish(124);
  }, Number(process.env.AGENT_TESTS_TIMEOUT_MS || 900000));
  timer.unref();
};

/** Installs the .vsix files into a fresh extensions folder of `dir`, one after the other, and checks they are there. */
async function install(dir, env, vsixes, ids) {
  const extensionsDir = path.join(dir, 'extensions');
  fs.mkdirSync(extensionsDir, { recursive: true });
  // One after the other: with two installs at once, one extension's folder was missing (though
  // extensions.json listed it) and the host ran without it.
  for (const v of vsixes) await installVsix(v, extensionsDir, env);
  const folders = fs.readdirSync(extensionsDir);
  for (const id of ids) {
    if (!folders.some((f) => f.startsWith(`${id}-`) && fs.existsSync(path.join(extensionsDir, f, 'package.json')))) {
      throw new Error(`${id} is not installed in ${extensionsDir} (it holds ${folders.join(', ')})`);
    }
  }
}

/** A chromium page on the workbench of a started host, and the screenshot helper of its scenarios. */
async function openWorkbench(ws, env) {
  const url = await workbenchUrl(server.base, ws, { devPath: copilot });
  browser = await launchChromium(env);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(url);
  const chat = new Chat(page, log);
  const screenshot = async (name, opts = {}) => {
    await chat.dismissNotice();
    const file = path.join(shotsDir, `${name}.png`);
    if (opts.locator) await opts.locator.screenshot({ path: file });
    else await page.screenshot({ path: file, clip: opts.clip });
    if (readmeShots && opts.readme) {
      fs.mkdirSync(path.join(root, 'media/readme'), { recursive: true });
      fs.copyFileSync(file, path.join(root, 'media/readme', `${opts.readme}.png`));
    }
    return file;
  };
  return { page, chat, screenshot };
}

/** Runs scenarios one by one; a failed one gets a screenshot and a cleanup, and the next goes on. */
async function runAll(list, h, screenshot, runOne) {
  for (const sc of list) {
    const ts = Date.now();
    try {
      const record = await runOne(sc);
      const ms = Date.now() - ts;
      results.push({ title: sc.name, state: 'passed', ms, budgets: record?.budgets, figures: record?.figures });
      console.log(`  ✔ ${sc.name} (${ms} ms${record?.budgets?.length ? `; token budgets ${record.budgets.join(', ')}` : ''})`);
      for (const f of record?.figures ?? []) console.log(`      ${f}`);
    } catch (e) {
      const ms = Date.now() - ts;
      results.push({ title: sc.name, state: 'failed', ms, err: String(e?.stack ?? e) });
      console.log(`  ✗ ${sc.name} (${ms} ms)\n${String(e?.stack ?? e).replace(/^/gm, '       ')}`);
      await screenshot(`FAILED-${sc.name.replace(/[^\w]+/g, '-')}`).catch(() => {});
      await h.cleanup().catch((err) => log(`cleaning up after "${sc.name}": ${err?.message ?? err}`));
    }
  }
}

/** The scripted-model host: the Scripted Model is the chat's only model. */
async function scriptedHost(vsix) {
  // The Scripted Model goes in as a .vsix too: the web workbench loads one development extension only
  // (several extensionDevelopmentPath entries in the payload: only the last one loaded).
  const modelDir = path.join(runDir, 'scripted-model');
  fs.cpSync(path.join(root, 'test/agent/scripted-model'), modelDir, { recursive: true });
  const modelVsix = path.join(runDir, 'scripted-model.vsix');
  execFileSync(process.execPath, [path.join(root, 'node_modules/@vscode/vsce/vsce'), 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', modelVsix], { cwd: modelDir, stdio: 'ignore' });
  await install(runDir, runEnv, [vsix, modelVsix], ['agent-file-tools.agent-file-tools', 'agent-file-tools-tests.scripted-model']);
  log(`VS Code ${hostVersion()} (code-server) with Copilot Chat ${JSON.parse(fs.readFileSync(path.join(copilot, 'package.json'), 'utf8')).version}; installed ${path.basename(vsix)} and the Scripted Model; run folder ${runDir}`);

  server = await startCodeServer({ runDir, runEnv, workspace, port: await freePort(), extraEnv: { AFT_AGENT_DIR: agentDir } });
  const { chat, screenshot } = await openWorkbench(workspace, runEnv);
  await chat.ready();
  log('chat ready: Agent mode, Scripted Model');
  const h = new Harness({ chat, agentDir, workspace, logsDir: path.join(runDir, 'user-data', 'logs'), cliPath: path.join(root, 'dist/cli.js'), screenshot });
  h.records = new Map();
  h.root = root;
  h.shotsDir = shotsDir;
  await runAll(selected, h, screenshot, async (sc) => {
    const record = await h.run(sc);
    h.records.set(sc.name, record);
    return record;
  });
  await browser.close();
  browser = undefined;
  await server.stop();
  server = undefined;
}

/** The CAPI host: Copilot's own models, through the stand-in; only our extension is installed. */
async function capiHost(vsix) {
  const t = Date.now();
  const { dir, env } = makeRunDir('agent-capi');
  runDirs.push(dir);
  const ws = path.join(dir, 'ws');
  makeWorkspace(path.join(root, 'test/agent/workspace'), ws);
  const current = { id: '(before the first scenario)', turns: [] };
  const logFile = path.join(dir, 'capi.jsonl');
  capi = await startCapi({ logFile, script: () => current, maxRequests: 800, maxSeconds: 600 });
  capi.logFile = logFile;
  await install(dir, env, [vsix], ['agent-file-tools.agent-file-tools']);
  const config = capiHostConfig(capi.url);
  server = await startCodeServer({ runDir: dir, runEnv: env, workspace: ws, port: await freePort(), extraEnv: config.env, settings: config.settings });
  const { chat, screenshot } = await openWorkbench(ws, env);
  // Copilot's picker starts on "Auto"; each scenario picks its model.
  await chat.ready(120000, '');
  await chat.pickModel('Claude Sonnet 4.5');
  log(`CAPI host ready in ${((Date.now() - t) / 1000).toFixed(1)} s: Copilot's models from the stand-in at ${capi.url}; run folder ${dir}`);
  const h = new Harness({ chat, agentDir: dir, workspace: ws, logsDir: path.join(dir, 'user-data', 'logs'), cliPath: path.join(root, 'dist/cli.js'), screenshot });
  await runAll(selectedCapi, h, screenshot, (sc) => runCapiScenario(h, capi, sc, current));
  const requests = capi.records.filter((r) => r.url);
  log(`CAPI stand-in: ${requests.length} requests (${requests.filter((r) => r.agent).length} agent requests); CAPI scenarios took ${((Date.now() - t) / 1000).toFixed(1)} s with the host's start`);
  if (capi.records.some((r) => r.stopped)) throw new Error(`the CAPI stand-in stopped early: ${capi.records.find((r) => r.stopped).stopped}`);
}

try {
  const vsix = ensureVsix();
  armTimeout('scripted-model');
  if (selected.length) await scriptedHost(vsix);
  armTimeout('CAPI');
  if (selectedCapi.length) await capiHost(vsix);
  await finish(0);
} catch (e) {
  log('error:', e?.stack ?? e);
  results.push({ title: 'the suite', state: 'failed', err: String(e?.stack ?? e) });
  await finish(1);
}
