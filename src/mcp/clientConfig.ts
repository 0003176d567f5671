/**
 * What each agent needs to reach a running server, with its URL and token, in the form that
 * agent reads (the "Copy MCP Configuration for ..." commands; README shows each). Pure text.
 */

/** The server's name in every agent's configuration: its tools show as `agent-file-tools` ones. */
export const MCP_SERVER_NAME = 'agent-file-tools';

/** A review waits for the person: how long an agent should let one call run, in seconds. */
export const MCP_CALL_TIMEOUT_S = 900;

export type Agent = 'claudeCode' | 'codex' | 'geminiCli' | 'openCode';

export const AGENTS: readonly { id: Agent; name: string; where: string }[] = [
  { id: 'claudeCode', name: 'Claude Code', where: 'a terminal (it runs `claude mcp add`)' },
  { id: 'codex', name: 'Codex CLI', where: '~/.codex/config.toml' },
  { id: 'geminiCli', name: 'Gemini CLI', where: 'the mcpServers object of ~/.gemini/settings.json (or .gemini/settings.json)' },
  { id: 'openCode', name: 'OpenCode', where: 'the mcp object of opencode.json' },
];

/** The text to paste for `agent`. */
export function clientConfig(agent: Agent, url: string, token: string): string {
  const auth = `Bearer ${token}`;
  switch (agent) {
    case 'claudeCode':
      return `claude mcp add --transport http ${MCP_SERVER_NAME} ${url} --header "Authorization: ${auth}"\n`;
    case 'codex':
      return [
        `[mcp_servers.${MCP_SERVER_NAME}]`,
        `url = "${url}"`,
        `http_headers = { Authorization = "${auth}" }`,
        `# a change waits for your Accept in VS Code: let a call run that long`,
        `tool_timeout_sec = ${MCP_CALL_TIMEOUT_S}`,
        `# VS Code asks you about every change and every sensitive read: Codex need not ask again`,
        `default_tools_approval_mode = "approve"`,
        '',
      ].join('\n');
    case 'geminiCli':
      return (
        JSON.stringify({ mcpServers: { [MCP_SERVER_NAME]: { httpUrl: url, headers: { Authorization: auth }, timeout: MCP_CALL_TIMEOUT_S * 1000, trust: true } } }, null, 2) + '\n'
      );
    case 'openCode':
      return JSON.stringify({ mcp: { [MCP_SERVER_NAME]: { type: 'remote', url, headers: { Authorization: auth }, enabled: true } } }, null, 2) + '\n';
  }
}

/** The environment a terminal of the window gets: the server of that window, whatever others run. */
export function terminalEnvironment(url: string, token: string, file: string): Record<string, string> {
  return { AGENT_FILE_TOOLS_MCP_URL: url, AGENT_FILE_TOOLS_MCP_TOKEN: token, AGENT_FILE_TOOLS_MCP_FILE: file };
}

/** Told to every client at `initialize`: what the tools are for, and why to prefer them. */
export const MCP_INSTRUCTIONS =
  'Agent File Tools: read, list, search and change the files of this workspace through the editor. Reads see unsaved editor text; every change is shown to the user in a diff to accept, lands as an undoable edit and is kept in a history. Prefer these tools (fs_read, fs_list, fs_glob, fs_grep, fs_edit, fs_write, fs_apply_patch) over built-in file tools and shell commands for reading, searching and editing files.';
