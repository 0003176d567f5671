// Helpers of the MCP suite: the window's server as a client finds it, raw requests, the
// Inspector's CLI, and a stand-in of the Responses API that a scripted model answers from.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { run } from './standIn';

export const repo = path.resolve(__dirname, '../../..');

export interface ServerInfo {
  url: string;
  file: string;
  token: string;
  workspaceFolders: string[];
}

/** The window's server: the command says where its connection file is; the file gives the token. */
export async function windowServer(): Promise<ServerInfo> {
  const info = await vscode.commands.executeCommand<{ url: string; file: string } | undefined>('agentFileTools.mcp.info');
  if (!info) {
    throw new Error('the MCP server does not run');
  }
  const c = JSON.parse(fs.readFileSync(info.file, 'utf8')) as { url: string; token: string; workspaceFolders: string[] };
  return { url: c.url, file: info.file, token: c.token, workspaceFolders: c.workspaceFolders };
}

export { request, rpc } from './rawHttp';
export { codexConfig, responsesStandIn, run, toolOutputs, type ResponsesRequest, type Turn } from './standIn';

/**
 * The pinned clients' entry points, installed by the runner (scripts/mcp-clients.mjs, into a
 * cache folder beside the test host) before the window opens, and passed in its environment.
 */
export function clientPath(name: 'codex' | 'inspector'): string {
  const all = JSON.parse(process.env.AFT_MCP_CLIENTS ?? '{}') as Record<string, string | undefined>;
  const p = all[name];
  if (!p || !fs.existsSync(p)) {
    throw new Error(`the ${name} client is not installed (${p ?? 'AFT_MCP_CLIENTS unset'}): run the suite with scripts/run-vscode-tests.mjs --suite mcp`);
  }
  return p;
}

/** The MCP Inspector's CLI (`mcp-inspector --cli`) against the server, with its token. */
export async function inspector(s: ServerInfo, args: string[]): Promise<unknown> {
  const bin = clientPath('inspector');
  const r = await run(process.execPath, [bin, '--cli', s.url, '--transport', 'http', '--header', `Authorization: Bearer ${s.token}`, ...args], { timeoutMs: 90_000 });
  if (r.code !== 0) {
    throw new Error(`mcp-inspector exited with ${r.code}:\n${r.stdout}\n${r.stderr}`);
  }
  return JSON.parse(r.stdout) as unknown;
}

