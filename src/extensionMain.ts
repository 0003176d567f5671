import * as vscode from 'vscode';
import { DiffReview } from './approval/diffReview';
import { registerReviewControls } from './approval/reviewControls';
import { registerReviewLenses } from './approval/reviewLens';
import { VscodeApprover } from './approval/vscodeApprover';
import { registerCommands } from './commands';
import { HistoryJournal } from './history/journal';
import { registerMcp } from './mcp/window';
import { registerHistory } from './history/view';
import { editorFolders } from './core/writePolicy';
import { VscodeWorkspace } from './host/vscodeWorkspace';
import { CommandCalls, contextFactory, registerTools } from './vscode/lmTools';
import { historyLimits, watchSettings } from './vscode/settings';

/** Registers the tools, commands, views and log. Nothing else runs at activation. */
export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Agent File Tools', { log: true });
  context.subscriptions.push(watchSettings());
  // the editor's own folders, whose files run or steer it: a change inside one always asks
  const storage = context.globalStorageUri;
  const ws = new VscodeWorkspace(
    editorFolders({
      globalStorage: storage.scheme === 'file' || storage.scheme === 'vscode-userdata' ? storage.fsPath : undefined,
      appRoot: vscode.env.appRoot || undefined,
      extensionPath: context.extensionUri.scheme === 'file' ? context.extensionUri.fsPath : undefined,
      installed: context.extensionMode === vscode.ExtensionMode.Production,
    }),
  );
  const uriFor = (p: string) => ws.uriFor(p);
  const review = new DiffReview({ uriFor, log });
  const approver = new VscodeApprover(review);
  // The history lives in this workspace's storage (none without a folder: then in memory).
  const journal = new HistoryJournal(context.storageUri && vscode.Uri.joinPath(context.storageUri, 'history'), historyLimits, log);
  const calls = new CommandCalls();
  const toolContext = contextFactory(ws, approver, log, journal, calls);
  const manifestTools = () => (context.extension.packageJSON as { contributes?: { languageModelTools?: { name: string; inputSchema?: object }[] } }).contributes?.languageModelTools ?? [];
  context.subscriptions.push(
    log,
    ws,
    review,
    journal,
    ...registerReviewControls(review),
    ...registerReviewLenses(review),
    ...registerTools(toolContext, approver),
    ...registerCommands(log, calls, manifestTools, journal),
    ...registerHistory({ journal, context: toolContext, uriFor }),
    // the server itself (and the MCP SDK) loads only when it starts
    ...registerMcp(context, log, toolContext, manifestTools),
  );
}

export function deactivate(): void {}
