import type { Logger } from '../services/types';
import type { ToolResult } from '../services/result';

/**
 * What the MCP server needs from whoever runs it (the extension, the headless CLI): the
 * tools to list, how to run one, and where to log. Free of `vscode` and of the MCP SDK, so
 * that the SDK loads only with the server (see load.ts).
 */

/** One tool as MCP lists it: the manifest's model description and input schema, as Copilot gets them. */
export interface McpTool {
  name: string;
  /** The manifest's displayName. */
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** It changes files (each change is reviewed as the approver decides). */
  mutates: boolean;
}

/** A connected client, as its `initialize` named itself. */
export interface McpClient {
  /** The MCP session; `stdio` for the one client of the stdio server. */
  session: string;
  /** `clientInfo.name` (cut to a readable length); `unnamed client` when it gave none. */
  name: string;
  version?: string;
}

export interface McpCall {
  tool: string;
  args: unknown;
  client: McpClient;
  /** Aborted when the client cancels the call, its session closes or its connection drops. */
  signal: AbortSignal;
}

export interface McpBackend {
  /** The tools served now (a tool turned off in the settings is left out). */
  tools(): readonly McpTool[];
  /** Runs one call of a listed tool; every failure is a result with isError. */
  call(c: McpCall): Promise<ToolResult>;
  log: Logger;
  /** Told whenever a client comes or goes. */
  onClients?(clients: readonly McpClient[]): void;
  /** The server's name and version in `initialize`. */
  serverInfo: { name: string; version: string };
  /** Told to the client in `initialize`: what the tools are for, and to prefer them. */
  instructions?: string;
}
