import * as vscode from 'vscode';

export const EXTENSION_ID = 'agent-file-tools.agent-file-tools';

export function wsUri(rel: string): vscode.Uri {
  return vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, rel);
}

/** Calls a tool the way Copilot does, and returns its text parts joined. */
export async function invoke(name: string, input: object, token?: vscode.CancellationToken): Promise<{ text: string; result: vscode.LanguageModelToolResult }> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, token ?? new vscode.CancellationTokenSource().token);
  const text = result.content
    .filter((p): p is vscode.LanguageModelTextPart => p instanceof vscode.LanguageModelTextPart)
    .map((p) => p.value)
    .join('\n');
  return { text, result };
}

export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}
