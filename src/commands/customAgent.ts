import * as vscode from 'vscode';

/**
 * "Create Custom Agent for This Workspace": writes `.github/agents/agent-file-tools.agent.md`, a
 * custom agent that VS Code's chat offers in its agent picker beside Agent, Ask and Plan. It has
 * the tools Agent mode has, except that the built-in file tools our tools overlap are left out
 * and ours are listed instead, so the model cannot pick the built-in one.
 *
 * The file is Markdown with a YAML header (`name`, `description`, `tools`) and instructions as
 * its body. Each entry of `tools` is a full reference name: a built-in tool set (`execute`), one
 * member of a set (`read/problems`), or an extension's tool (`<publisher>.<name>/<toolReferenceName>`).
 */

export const EXTENSION_ID = 'agent-file-tools.agent-file-tools';
export const AGENT_NAME = 'Agent File Tools';
export const AGENT_FILE = '.github/agents/agent-file-tools.agent.md';

/**
 * The built-in tool sets and their members as VS Code 1.139 with Copilot Chat 0.67 define them,
 * each member by the full reference name the host itself writes into an agent file (its tools
 * picker does): mostly `set/tool`, but a tool that also sits in a hidden set goes by that one
 * (`vscodeGeneral/usages`, `vscodeNotebooks/editNotebook`: `search/usages` and `edit/editNotebook`
 * are not resolved). A set without members is a single
 * tool. A set that keeps all its members is listed by its name, so tools the host adds to it
 * later still come along.
 */
export const BUILT_IN_TOOL_SETS: Readonly<Record<string, readonly string[]>> = {
  agent: ['agent/runSubagent'],
  edit: ['edit/createDirectory', 'edit/createFile', 'vscodeNotebooks/createJupyterNotebook', 'edit/editFiles', 'vscodeNotebooks/editNotebook', 'vscodeGeneral/rename'],
  execute: [
    'execute/createAndRunTask',
    'execute/getTerminalOutput',
    'execute/killTerminal',
    'execute/runInTerminal',
    'execute/runNotebookCell',
    'execute/runTask',
    'execute/runTests',
    'execute/sendToTerminal',
    'execute/testFailure',
  ],
  new: [],
  read: ['read/getNotebookSummary', 'read/getTaskOutput', 'read/problems', 'read/readFile', 'read/readNotebookCellOutput', 'read/terminalLastCommand', 'read/terminalSelection', 'read/viewImage'],
  search: ['search/codebase', 'search/fileSearch', 'search/listDirectory', 'search/textSearch', 'vscodeGeneral/usages'],
  todo: [],
  vscode: ['vscode/askQuestions', 'vscode/extensions', 'vscode/installExtension', 'vscode/memory', 'vscode/newWorkspace', 'vscode/resolveMemoryFileUri', 'vscode/runCommand', 'vscode/vscodeAPI'],
  web: ['web/githubRepo', 'web/githubTextSearch'],
};

/**
 * Which built-in tools each of ours replaces (`set/member`). `edit/editFiles` stands for
 * Copilot's string-replacement and patch tools (replace_string_in_file,
 * multi_replace_string_in_file, insert_edit_into_file, apply_patch), which it offers under it.
 */
export const OVERLAPS: Readonly<Record<string, readonly string[]>> = {
  fs_read: ['read/readFile'],
  fs_list: ['search/listDirectory'],
  fs_glob: ['search/fileSearch'],
  fs_grep: ['search/textSearch'],
  fs_edit: ['edit/editFiles'],
  fs_apply_patch: ['edit/editFiles'],
  fs_write: ['edit/createFile'],
};

/** One line of guidance per tool, for the agent's instructions. */
const GUIDANCE: Readonly<Record<string, string>> = {
  fs_read: 'read a file, folder, PDF, notebook or image. Pages are line-numbered; a cut page ends with the call that continues: make exactly that call to read on.',
  fs_list: 'see a folder as a tree.',
  fs_glob: 'find files by name or path pattern.',
  fs_grep: 'search file contents with a regular expression, then fs_read around the lines it gives.',
  fs_edit: 'change a file by replacing exact text you have read.',
  fs_apply_patch: 'change several files in one reviewed patch.',
  fs_write: 'create a file, or replace one whole.',
};

export interface ContributedTool {
  name: string;
  toolReferenceName: string;
}

/** The `tools` entries of the agent: built-in sets less what ours replace, then ours. */
export function agentTools(ours: readonly ContributedTool[], extensionId = EXTENSION_ID): string[] {
  const replaced = new Set(ours.flatMap((t) => OVERLAPS[t.name] ?? []));
  const tools: string[] = [];
  for (const [set, members] of Object.entries(BUILT_IN_TOOL_SETS)) {
    const kept = members.filter((m) => !replaced.has(m));
    tools.push(...(kept.length === members.length ? [set] : kept));
  }
  tools.push(...ours.map((t) => `${extensionId.toLowerCase()}/${t.toolReferenceName}`));
  return tools;
}

/** The whole agent file. */
export function agentFile(ours: readonly ContributedTool[], extensionId = EXTENSION_ID): string {
  const replaced = ours.flatMap((t) => (OVERLAPS[t.name] ?? []).map((b) => b.split('/')[1]));
  const list = agentTools(ours, extensionId)
    .map((t) => `'${t}'`)
    .join(', ');
  const lines = [
    '---',
    `name: ${AGENT_NAME}`,
    `description: 'Agent mode that works on files with the Agent File Tools (${ours.map((t) => t.name).join(', ')}) instead of the built-in file tools they overlap.'`,
    `tools: [${list}]`,
    '---',
    '',
    'Work on the files of this workspace with these tools:',
    '',
    ...ours.map((t) => `- \`${t.name}\`: ${GUIDANCE[t.name] ?? 'see its description.'}`),
    '',
    `Paths are workspace-relative (\`src/app.ts\`) or absolute. The built-in tools these replace (${[...new Set(replaced)].join(', ')}) are not available in this agent.`,
    '',
  ];
  return lines.join('\n');
}

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

async function createCustomAgent(): Promise<void> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    void vscode.window.showInformationMessage('Open a folder first: the custom agent is written into the workspace, under .github/agents.');
    return;
  }
  const folder =
    folders.length === 1
      ? folders[0]
      : (await vscode.window.showQuickPick(folders.map((f) => ({ label: f.name, description: f.uri.fsPath, folder: f })), { title: 'Create the custom agent in which folder?' }))?.folder;
  if (!folder) {
    return;
  }
  const uri = vscode.Uri.joinPath(folder.uri, AGENT_FILE);
  if (await exists(uri)) {
    const choice = await vscode.window.showInformationMessage(`${AGENT_FILE} already exists.`, 'Open', 'Replace');
    if (choice === 'Open') {
      await vscode.window.showTextDocument(uri);
    }
    if (choice !== 'Replace') {
      return;
    }
  }
  const newFolder = !(await exists(vscode.Uri.joinPath(uri, '..')));
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(agentFile(contributedTools())));
  await vscode.window.showTextDocument(uri, { preview: false });
  const picker = `Created ${AGENT_FILE}: pick "${AGENT_NAME}" in the chat's agent picker (beside Agent, Ask and Plan).`;
  if (!newFolder) {
    void vscode.window.showInformationMessage(picker);
    return;
  }
  // VS Code 1.139 does not always notice an agents folder created after the window opened.
  const reload = await vscode.window.showInformationMessage(`${picker} If it is not there, reload the window: the .github/agents folder is new.`, 'Reload Window');
  if (reload) {
    await vscode.commands.executeCommand('workbench.action.reloadWindow');
  }
}

export function registerCustomAgentCommand(): vscode.Disposable {
  return vscode.commands.registerCommand('agentFileTools.createCustomAgent', createCustomAgent);
}
