import * as vscode from 'vscode';
import { DiffReview } from './approval/diffReview';
import { registerReviewControls } from './approval/reviewControls';
import { VscodeApprover } from './approval/vscodeApprover';
import { registerCommands } from './commands';
import { VscodeWorkspace } from './host/vscodeWorkspace';
import { registerTools } from './vscode/lmTools';

/** Registers the tools, commands and log. Nothing else runs at activation. */
export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Agent File Tools', { log: true });
  const ws = new VscodeWorkspace();
  const review = new DiffReview({ uriFor: (p) => ws.uriFor(p), log });
  const approver = new VscodeApprover(review);
  context.subscriptions.push(log, ws, review, ...registerReviewControls(review), ...registerTools(ws, approver, log), ...registerCommands(log));
}

export function deactivate(): void {}
