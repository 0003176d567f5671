// The same integration suite through @vscode/test-electron, for machines that can download
// VS Code desktop (it fetches a VS Code build, which these offline machines cannot; CI uses
// scripts/run-vscode-tests.mjs). The UI smoke test needs the browser bridge and is left out here.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { root } from './host.mjs';

const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'aft-ws-'));
fs.cpSync(path.join(root, 'test/fixtures/workspace'), workspace, { recursive: true });
try {
  await runTests({
    version: process.env.VSCODE_VERSION || '1.106.0',
    extensionDevelopmentPath: root,
    extensionTestsPath: path.join(root, 'out/test/integration/index.js'),
    extensionTestsEnv: { AFT_TEST_GREP: 'the command palette', AFT_TEST_INVERT: '1' },
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
  });
} catch (e) {
  console.error(`test-electron run failed: ${e?.message ?? e}`);
  process.exitCode = 1;
} finally {
  fs.rmSync(workspace, { recursive: true, force: true });
}
