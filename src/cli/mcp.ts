// `agent-file-tools mcp`: the tools as an MCP server for agents outside VS Code, over stdio (the
// agent starts it) or Streamable HTTP (--http). Bundled apart (dist/cli-mcp.js); the SDK loads
// from dist/mcp-server.js, as the extension's server does.
import { randomBytes } from 'node:crypto';
import { MCP_TOKEN_BYTES } from '../core/limits';
import { connectionDir, removeConnectionFile, removeStaleConnectionFiles, writeConnectionFile } from '../host/connectionFile';
import { readManifestTools } from '../host/manifest';
import { NodeWorkspace } from '../host/nodeWorkspace';
import { cliApprover } from '../services/cliApprover';
import { ReadLedger } from '../services/ledger';
import { FileLocks } from '../services/locks';
import { errorResult } from '../services/result';
import { invokeTool } from '../services/run';
import { DEFAULT_SETTINGS } from '../services/settings';
import type { Logger } from '../services/types';
import { findTool, TOOL_NAMES } from '../tools/registry';
import { MCP_INSTRUCTIONS } from '../mcp/clientConfig';
import { loadServe } from '../mcp/load';
import { toolsFromManifest } from '../mcp/results';
import type { McpBackend } from '../mcp/types';

export interface McpOptions {
  roots: readonly string[];
  yes: boolean;
  allowProtected: boolean;
  allowOutside: boolean;
  untrusted: boolean;
  http: boolean;
}

/** One line per event on standard error (standard output is the protocol's, over stdio). */
const STDERR_LOG: Logger = {
  info: (m) => process.stderr.write(`${m}\n`),
  warn: (m) => process.stderr.write(`warning: ${m}\n`),
  error: (m) => process.stderr.write(`error: ${m}\n`),
};

/** Serves until the client goes (stdio) or the process is told to stop (--http); the exit code. */
export async function serve(opts: McpOptions): Promise<number> {
  let ws: NodeWorkspace;
  try {
    ws = await NodeWorkspace.create(opts.roots.length ? opts.roots : [process.cwd()]);
  } catch (e) {
    process.stderr.write(`cannot open --root: ${(e as Error).message}\n`);
    return 2;
  }
  ws.trusted = !opts.untrusted;
  const manifest = readManifestTools(__dirname);
  const approver = cliApprover({ yes: opts.yes, allowProtected: opts.allowProtected, allowOutside: opts.allowOutside, serving: true });
  // shared by every call, as in VS Code: a file read by one call may be written by the next
  const ledger = new ReadLedger();
  const locks = new FileLocks();
  const log = STDERR_LOG;
  const backend: McpBackend = {
    serverInfo: { name: 'agent-file-tools', version: '1' },
    instructions: MCP_INSTRUCTIONS,
    log,
    tools: () => toolsFromManifest(manifest, TOOL_NAMES, (n) => findTool(n)?.mutates === true),
    async call(c) {
      const spec = findTool(c.tool);
      if (!spec) {
        return errorResult(`Unknown tool ${c.tool}; nothing was done.`);
      }
      const p = `MCP ${c.client.name}: `;
      const callLog: Logger = { info: (m) => log.info(p + m), warn: (m) => log.warn(p + m), error: (m) => log.error(p + m) };
      const signal = {
        get isCancellationRequested() {
          return c.signal.aborted;
        },
      };
      return invokeTool(spec, c.args, { ws, approver, settings: DEFAULT_SETTINGS, signal, ledger, locks, log: callLog, origin: 'mcp', client: c.client.name });
    },
  };
  const { serveHttp, serveStdio } = await loadServe();
  if (!opts.http) {
    await serveStdio(backend);
    return 0;
  }
  const token = randomBytes(MCP_TOKEN_BYTES).toString('hex');
  const server = await serveHttp(backend, { token });
  const dir = connectionDir();
  removeStaleConnectionFiles(dir);
  const file = writeConnectionFile(dir, {
    url: server.url,
    token,
    port: server.port,
    pid: process.pid,
    workspaceFolders: ws.roots().map((r) => r.path),
    name: 'agent-file-tools mcp',
    kind: 'cli',
    startedAt: new Date().toISOString(),
  });
  // the first line says where the server is and where its token is; the token itself is only in the file
  process.stderr.write(`agent-file-tools MCP server at ${server.url}; connection file ${file}\n`);
  process.once('exit', () => removeConnectionFile(file, token));
  return new Promise<number>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      log.info(`stopping (${signal})`);
      removeConnectionFile(file, token);
      void server.close().then(() => resolve(0));
    };
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.once(s, stop);
    }
  });
}
