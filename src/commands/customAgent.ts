import * as vscode from 'vscode';

import { AGENT_FILE, AGENT_NAME, agentFile, type ContributedTool, EXTENSION_ID, WORKSPACE_AGENT_NAME } from './agentFile';

function contributedTools(): ContributedTool[] {
  const manifest = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as { contributes?: { languageModelTools?: ContributedTool[] } } | undefined;
  return (manifest?.contributes?.languageModelTools ?? []).map((t) => ({ name: t.name, toolReferenceName: t.toolReferenceName }));
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/**
 * "Create Custom Agent for This Workspace": writes `.github/agents/agent-file-tools.agent.md`, the
 * agent the extension ships (named "Agent File Tools (workspace)" so the picker tells the two
 * apart), into the workspace, where a user can change its tools and instructions.
 */
async function createCustomAgent(): Promise<void> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Open a folder first: the custom agent is written into the workspace, under .github/agents.'));
    return;
  }
  const folder =
    folders.length === 1
      ? folders[0]
      : (await vscode.window.showQuickPick(folders.map((f) => ({ label: f.name, description: f.uri.fsPath, folder: f })), { title: vscode.l10n.t('Create the custom agent in which folder?') }))?.folder;
  if (!folder) {
    return;
  }
  const uri = vscode.Uri.joinPath(folder.uri, AGENT_FILE);
  if (await exists(uri)) {
    const open = vscode.l10n.t('Open');
    const replace = vscode.l10n.t('Replace');
    const choice = await vscode.window.showInformationMessage(vscode.l10n.t('{0} already exists.', AGENT_FILE), open, replace);
    if (choice === open) {
      await vscode.window.showTextDocument(uri);
    }
    if (choice !== replace) {
      return;
    }
  }
  const newFolder = !(await exists(vscode.Uri.joinPath(uri, '..')));
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(agentFile(contributedTools(), EXTENSION_ID, WORKSPACE_AGENT_NAME)));
  await vscode.window.showTextDocument(uri, { preview: false });
  const picker = vscode.l10n.t('Created {0}: pick "{1}" in the chat\'s agent picker (beside Agent, Ask, Plan and the shipped "{2}").', AGENT_FILE, WORKSPACE_AGENT_NAME, AGENT_NAME);
  if (!newFolder) {
    void vscode.window.showInformationMessage(picker);
    return;
  }
  // VS Code 1.139 does not always notice an agents folder created after the window opened.
  const reload = await vscode.window.showInformationMessage(vscode.l10n.t('{0} If it is not there, reload the window: the .github/agents folder is new.', picker), vscode.l10n.t('Reload Window'));
  if (reload) {
    await vscode.commands.executeCommand('workbench.action.reloadWindow');
  }
}

export function registerCustomAgentCommand(): vscode.Disposable {
  return vscode.commands.registerCommand('agentFileTools.createCustomAgent', createCustomAgent);
}
