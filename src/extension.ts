import * as vscode from 'vscode';
import { registerCommands } from './commands';
import { VscodeWorkspace } from './host/vscodeWorkspace';
import { registerTools } from './vscode/lmTools';

/** Registers the tools, commands and log. Nothing else runs at activation. */
export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Agent File Tools', { log: true });
  const ws = new VscodeWorkspace();
  context.subscriptions.push(log, ws, ...registerTools(ws, log), ...registerCommands(log));
}

export function deactivate(): void {}
