import * as path from 'node:path';
import type * as vscode from 'vscode';
import { loadBundleInHost, ownFolder } from './host/compileCache';

/**
 * The extension's entry: loads the extension itself (dist/extension-main.js, 1.3 MB) through
 * V8's cached data, kept in this extension's global storage, so a window's first tool call
 * does not wait for the whole bundle to compile again (about half of the load: 60 ms here).
 */
interface Main {
  activate(context: vscode.ExtensionContext): void;
  deactivate(): void;
}

/** How long after activation the compiled code is filed: by then the first calls have compiled what they ran. */
const KEEP_AFTER_MS = 20_000;

let main: Main | undefined;

export function activate(context: vscode.ExtensionContext): void {
  // a local folder: `file:` in a server's host, `vscode-userdata:` (the same path) in desktop VS Code's
  const storage = context.globalStorageUri;
  const dir = storage.scheme === 'file' || storage.scheme === 'vscode-userdata' ? ownFolder(path.join(storage.fsPath, 'code-cache')) : undefined;
  const loaded = loadBundleInHost(path.join(__dirname, 'extension-main.js'), module, dir);
  main = loaded.exports as Main;
  main.activate(context);
  const keep = loaded.keep;
  if (keep) {
    const timer = setTimeout(keep, KEEP_AFTER_MS);
    context.subscriptions.push({ dispose: () => clearTimeout(timer) });
  }
}

export function deactivate(): void {
  main?.deactivate();
}
