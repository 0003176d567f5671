// `npm start`: a real VS Code (code-server: VS Code's server and web client) with this
// extension loaded from source, on a copy of demo/. Prints the URL to open in a browser.
//   npm start [-- --port 8080] [-- --check]
// --check opens the workbench in headless chromium, runs one of the extension's commands
// from the command palette, checks that a message of the extension shows as a notification
// and that VS Code found nothing wrong in its manifest, saves a screenshot to
// test-output/screenshots/start-check.png and exits (0 when all of that held).
//
// The window runs without VS Code's smoke-test driver, which the test suites use: with it the
// workbench shows no notification at all. Without it the built web client ignores a development
// extension path, so the extension is listed as installed in the run's extensions folder, from a
// link to this folder: `npm run build` and Developer: Reload Window load the new build.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { hostVersion, launchChromium, makeRunDir, root, startCodeServer, workbenchUrl } from './host.mjs';

const args = process.argv.slice(2);
const check = args.includes('--check');
const port = Number(args.includes('--port') ? args[args.indexOf('--port') + 1] : process.env.PORT || 8080);

execFileSync('bash', [path.join(root, 'scripts/setup-host.sh')], { stdio: 'inherit' });
execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });

// The demo workspace lives outside git so that what you try in it stays yours.
const workspace = path.join(root, '.demo-workspace');
if (!fs.existsSync(workspace)) fs.cpSync(path.join(root, 'demo'), workspace, { recursive: true });
const big = path.join(workspace, 'logs/big.log');
if (!fs.existsSync(big)) {
  fs.mkdirSync(path.dirname(big), { recursive: true });
  const block = Array.from({ length: 10000 }, (_, i) => `2026-11-30T12:00:${String(i % 60).padStart(2, '0')}Z INFO request ${i} served in ${i % 97} ms`).join('\n') + '\n';
  const fd = fs.openSync(big, 'w');
  for (let n = 0; n < 40 * 1024 * 1024; n += block.length) fs.writeSync(fd, block);
  fs.closeSync(fd);
}

const { dir: runDir, env: runEnv } = makeRunDir('start');
linkExtension(path.join(runDir, 'extensions'));
const server = await startCodeServer({ runDir, runEnv, workspace, port, driver: false });
const url = await workbenchUrl(server.base, workspace);
/** Lists this folder in `extensionsDir` as an installed extension (VS Code reads the folder's extensions.json). */
function linkExtension(extensionsDir) {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const id = `${manifest.publisher}.${manifest.name}`;
  const name = `${id}-${manifest.version}`;
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.symlinkSync(root, path.join(extensionsDir, name), 'dir');
  const entry = { identifier: { id }, version: manifest.version, location: { $mid: 1, scheme: 'file', path: path.join(extensionsDir, name) }, relativeLocation: name, metadata: { installedTimestamp: Date.now() } };
  fs.writeFileSync(path.join(extensionsDir, 'extensions.json'), JSON.stringify([entry]));
}

const stop = async (code) => {
  await server.stop();
  // a failed check keeps its run folder (code-server's log, the window's logs) for a look
  if (code === 0) fs.rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
  else console.error(`the run folder is kept: ${runDir}`);
  process.exit(code);
};
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

console.log(`\nVS Code ${hostVersion()} with Agent File Tools is running on the demo workspace (${workspace}).`);
console.log(`Open this URL in a browser (forward port ${port} if the machine is remote):\n\n  ${url}\n`);
console.log('Press Ctrl+C to stop.');

if (check) {
  const browser = await launchChromium();
  let ok = false;
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    // VS Code logs what it finds wrong in an extension's manifest to the window's console
    const manifestProblems = [];
    page.on('console', (m) => {
      if ((m.type() === 'error' || m.type() === 'warning') && m.text().includes('[agent-file-tools.agent-file-tools]')) manifestProblems.push(m.text().replace(/^%c\s*\w+ color: #\w+ /, ''));
    });
    await page.goto(url);
    await page.waitForSelector('.monaco-workbench .part.statusbar', { timeout: 120000 });
    // The palette lists the commands known when it opens; the extension's arrive once the
    // extension host has scanned it, so reopen until they are there.
    for (let attempt = 1; ; attempt++) {
      await page.keyboard.press('F1');
      await page.waitForSelector('.quick-input-widget input');
      await page.keyboard.type('Agent File Tools: Run a Tool');
      try {
        await page.waitForSelector('.quick-input-list .monaco-list-row[aria-label*="Agent File Tools: Run a Tool"]', { timeout: 3000 });
        break;
      } catch (e) {
        if (attempt === 20) throw e;
        await page.keyboard.press('Escape');
      }
    }
    // "Run a Tool in an Editor..." matches the typed words too: pick the one-line box by its own title
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Run a Tool...' }).first().click();
    await page.waitForSelector('.quick-input-list .monaco-list-row[aria-label*="fs_read"]', { timeout: 30000 });
    await page.keyboard.press('Enter');
    await page.waitForSelector('.quick-input-widget .quick-input-title:has-text("fs_read: input (JSON)")');
    await page.fill('.quick-input-widget input', '{"path": "src/server/routes.ts", "limit": 12}');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.tab[aria-label*="(fs_read)"]', { timeout: 30000 });
    // the result as a person reads it: the path and the lines read as its first line (Monaco draws spaces as no-break spaces)
    await page.waitForFunction(() => document.querySelector('.editor-instance .view-lines')?.textContent?.replace(/\u00a0/g, ' ').includes('src/server/routes.ts · lines 1-12 of'), undefined, { timeout: 30000 });
    // a message of the extension reaches the person as a notification, not only the bell
    await page.keyboard.press('F1');
    await page.waitForSelector('.quick-input-widget input');
    await page.keyboard.type('View: Close All Editors');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'View: Close All Editors' }).first().click();
    await page.keyboard.press('F1');
    await page.waitForSelector('.quick-input-widget input');
    await page.keyboard.type('Agent File Tools: Read Active File');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Read Active File' }).first().click();
    await page.waitForSelector('.notification-toast:has-text("Open a file first")', { timeout: 15000 });
    fs.mkdirSync(path.join(root, 'test-output/screenshots'), { recursive: true });
    await page.screenshot({ path: path.join(root, 'test-output/screenshots/start-check.png') });
    if (manifestProblems.length) throw new Error(`VS Code found problems in the extension's manifest:\n${manifestProblems.join('\n')}`);
    ok = true;
    console.log('check: the workbench loaded the extension, fs_read ran from the command palette, a message showed as a notification, and the manifest is clean');
  } catch (e) {
    console.error(`check failed: ${e?.message ?? e}`);
    try {
      fs.mkdirSync(path.join(root, 'test-output/screenshots'), { recursive: true });
      await browser.contexts()[0]?.pages()[0]?.screenshot({ path: path.join(root, 'test-output/screenshots/start-check-failed.png') });
    } catch { /* no page */ }
  } finally {
    await browser.close();
  }
  await stop(ok ? 0 : 1);
}
