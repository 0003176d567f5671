import * as vscode from 'vscode';
import { DialogReview, VscodeApprover } from './approval/vscodeApprover';
import { registerCommands } from './commands';
import { VscodeWorkspace } from './host/vscodeWorkspace';
import { registerTools } from './vscode/lmTools';

/** Registers the tools, commands and log. Nothing else runs at activation. */
export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Agent File Tools', { log: true });
  const ws = new VscodeWorkspace();
  const approver = new VscodeApprover(new DialogReview());
  context.subscriptions.push(log, ws, ...registerTools(ws, approver, log), ...registerCommands(log));
}

export function deactivate(): void {}
