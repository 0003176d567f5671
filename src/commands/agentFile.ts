/**
 * The agent "Agent File Tools": Agent mode's tools with ours in place of the built-in file tools
 * they overlap. The extension ships it (`agents/agent-file-tools.agent.md`, contributed through
 * `contributes.chatAgents`, so it is in the chat's agent picker right after install), and the
 * command "Create Custom Agent for This Workspace" writes the same file, under another name, into
 * the workspace for a user to customise. A unit test keeps the shipped file equal to `agentFile()`.
 *
 * The file is Markdown with a YAML header (`name`, `description`, `tools`) and instructions as
 * its body. Each entry of `tools` is a full reference name: a built-in tool set (`execute`), one
 * member of a set (`read/problems`), or an extension's tool (`<publisher>.<name>/<toolReferenceName>`).
 * Pure: no vscode, so the unit tests can build it.
 */

export const EXTENSION_ID = 'agent-file-tools.agent-file-tools';
export const AGENT_NAME = 'Agent File Tools';
/**
 * The workspace copy's name: the picker lists it beside the shipped agent, and two rows of one
 * name cannot be told apart there.
 */
export const WORKSPACE_AGENT_NAME = 'Agent File Tools (workspace)';
/** Where the command writes the workspace copy. */
export const AGENT_FILE = '.github/agents/agent-file-tools.agent.md';
/** The shipped agent, inside the extension (contributes.chatAgents). */
export const SHIPPED_AGENT_FILE = 'agents/agent-file-tools.agent.md';

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

/**
 * The tool_search call the agent makes first. tool_search ranks every deferred tool VS Code knows
 * (not only this request's) by an embedding of its name and description, keeps the top `limit`
 * (5 when not given), then drops those the request lacks. A limit above the number of deferred
 * tools loads all seven whatever the ranking; the query names them for a ranking that does matter.
 */
export const TOOL_SEARCH_LIMIT = 100;
export function toolSearchCall(ours: readonly ContributedTool[]): { query: string; limit: number } {
  return { query: `${ours.map((t) => t.name).join(' ')}: read, list, find, search, edit, write and patch files`, limit: TOOL_SEARCH_LIMIT };
}

/** The agent picker's line: what the agent is for, and why a user picks it. */
export const AGENT_DESCRIPTION =
  "Agent mode with the Agent File Tools loaded. With Copilot's Claude Sonnet 4.5+, Opus 4.5+ and GPT-5.4+, the default Agent defers other extensions' tools; this agent gets the model ours.";

/** The whole agent file: the shipped one, or with `name` the workspace copy (it differs in its name only). */
export function agentFile(ours: readonly ContributedTool[], extensionId = EXTENSION_ID, name = AGENT_NAME): string {
  const replaced = ours.flatMap((t) => (OVERLAPS[t.name] ?? []).map((b) => b.split('/')[1]));
  const list = agentTools(ours, extensionId)
    .map((t) => `'${t}'`)
    .join(', ');
  const names = ours.map((t) => t.name).join(', ');
  const lines = [
    '---',
    '# Tool search stays on (the `vscode` tool set brings vscode/toolSearch), decided from the requests',
    "# Copilot Chat 0.67 sends its own models. With tool search off, every tool goes in full, yet the",
    '# prompt still lists the fs_* tools as deferred ("must be loaded with tool_search") and a',
    '# tool_search call answers that it is disabled: the model is told two things that cannot both hold.',
    '# With it on, the prompt is true on both APIs (Messages: fs_* sent with defer_loading; Responses:',
    "# not sent until tool_search returns them), and the body's first call, with a limit above the",
    '# number of deferred tools, loads all seven however the embeddings rank them.',
    `name: ${name}`,
    `description: "${AGENT_DESCRIPTION}"`,
    `tools: [${list}]`,
    '---',
    '',
    `Work on the files of this workspace with the Agent File Tools: ${names}.`,
    '',
    `When these tools are listed as deferred, load all of them with your first call, before anything else, exactly so (the limit makes one search return all seven; a smaller one leaves some out):`,
    '',
    `tool_search ${JSON.stringify(toolSearchCall(ours))}`,
    '',
    'Do not search for them again. When they are not listed as deferred, they are loaded already: call them directly.',
    '',
    ...ours.map((t) => `- \`${t.name}\`: ${GUIDANCE[t.name] ?? 'see its description.'}`),
    '',
    `Paths are workspace-relative (\`src/app.ts\`) or absolute. The built-in tools these replace (${[...new Set(replaced)].join(', ')}) are not available in this agent: where other instructions name read_file (a large section of a file, the full text of a skill or instruction file), use fs_read with the same path; a file outside the workspace asks the user first.`,
    '',
  ];
  return lines.join('\n');
}
