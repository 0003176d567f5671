import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { MCP_TOKEN_BYTES } from '../core/limits';
import { connectionDir, removeConnectionFile, removeStaleConnectionFiles, writeConnectionFile } from '../host/connectionFile';
import { invokeTool } from '../services/run';
import { errorResult } from '../services/result';
import type { Logger } from '../services/types';
import { findTool, TOOL_NAMES } from '../tools/registry';
import type { ContextFactory } from '../vscode/lmTools';
import { toolEnabled } from '../vscode/settings';
import { AGENTS, clientConfig, MCP_INSTRUCTIONS, terminalEnvironment, type Agent } from './clientConfig';
import { loadServe } from './load';
import { toolsFromManifest, type ManifestTool } from './results';
import type { HttpServer } from './serve';
import type { McpBackend, McpCall, McpClient } from './types';

export const MCP_SETTING = 'agentFileTools.mcp.enabled';

/** The setting as the person set it: a repository's settings cannot open the window to other programs. */
function settingOn(): boolean {
  return vscode.workspace.getConfiguration().inspect<boolean>(MCP_SETTING)?.globalValue === true;
}

export const MCP_COMMANDS = {
  start: 'agentFileTools.mcp.start',
  stop: 'agentFileTools.mcp.stop',
  copy: {
    claudeCode: 'agentFileTools.mcp.copyConfig.claudeCode',
    codex: 'agentFileTools.mcp.copyConfig.codex',
    geminiCli: 'agentFileTools.mcp.copyConfig.geminiCli',
    openCode: 'agentFileTools.mcp.copyConfig.openCode',
  } satisfies Record<Agent, string>,
  /** The status bar item's menu (not in the palette). */
  menu: 'agentFileTools.mcp.menu',
  /** What the server is (not in the palette): url, connection file, clients. For tests and scripts. */
  info: 'agentFileTools.mcp.info',
} as const;

interface Running {
  server: HttpServer;
  token: string;
  file: string;
  clients: readonly McpClient[];
  removeOnExit: () => void;
}

/** A logger whose lines name the client: every line of its call says who asked. */
function clientLog(log: Logger, client: McpClient): Logger {
  const p = `MCP ${client.name}: `;
  return { info: (m) => log.info(p + m), warn: (m) => log.warn(p + m), error: (m) => log.error(p + m) };
}

/**
 * This window's MCP server: the extension's tools for any MCP client on this machine (Claude
 * Code, Codex CLI, Gemini CLI, OpenCode in the terminal), through the same run path, policy,
 * reviews and history as a Copilot call. Started by the setting or the command; each window
 * has its own server, port, token and connection file.
 */
export class McpWindowServer implements vscode.Disposable {
  private running: Running | undefined;
  private starting: Promise<Running> | undefined;
  private readonly status: vscode.StatusBarItem;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly env: vscode.GlobalEnvironmentVariableCollection,
    private readonly log: Logger,
    private readonly contextFor: ContextFactory,
    private readonly manifest: () => readonly ManifestTool[],
  ) {
    this.status = vscode.window.createStatusBarItem('agentFileTools.mcp', vscode.StatusBarAlignment.Right, 100);
    this.status.name = vscode.l10n.t('Agent File Tools MCP Server');
    this.status.command = MCP_COMMANDS.menu;
    // a window's terminals get its own server; values of a window that has gone are not kept
    this.env.persistent = false;
    this.env.description = vscode.l10n.t('The connection details of this window\'s Agent File Tools MCP server.');
  }

  get url(): string | undefined {
    return this.running?.server.url;
  }

  /** Starts the server unless it runs; resolves once it listens and its connection file is written. */
  start(): Promise<Running> {
    if (this.running) {
      return Promise.resolve(this.running);
    }
    this.starting ??= this.startNow().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async startNow(): Promise<Running> {
    const t0 = performance.now();
    const { serveHttp } = await loadServe();
    const token = randomBytes(MCP_TOKEN_BYTES).toString('hex');
    const backend: McpBackend = {
      serverInfo: { name: 'agent-file-tools', version: String((vscode.extensions.getExtension('agent-file-tools.agent-file-tools')?.packageJSON as { version?: string } | undefined)?.version ?? '0') },
      instructions: MCP_INSTRUCTIONS,
      log: this.log,
      tools: () => toolsFromManifest(this.manifest(), TOOL_NAMES, (n) => findTool(n)?.mutates === true).filter((t) => toolEnabled(t.name)),
      call: (c) => this.call(c),
      onClients: (clients) => {
        if (this.running) {
          this.running = { ...this.running, clients };
          this.showStatus();
        }
      },
    };
    const server = await serveHttp(backend, { token });
    const dir = connectionDir();
    let file: string;
    try {
      const removed = removeStaleConnectionFiles(dir);
      if (removed.length) {
        this.log.info(`MCP: removed ${removed.length} connection file(s) of servers that no longer run`);
      }
      file = writeConnectionFile(dir, {
        url: server.url,
        token,
        port: server.port,
        pid: process.pid,
        workspaceFolders: (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
        name: vscode.workspace.name ?? vscode.l10n.t('no folder'),
        kind: 'vscode',
        startedAt: new Date().toISOString(),
      });
    } catch (e) {
      await server.close();
      throw e;
    }
    // a window that ends without deactivating (its host killed) still removes its file when the process exits
    const removeOnExit = () => removeConnectionFile(file, token);
    process.once('exit', removeOnExit);
    for (const [k, v] of Object.entries(terminalEnvironment(server.url, token, file))) {
      this.env.replace(k, v);
    }
    this.running = { server, token, file, clients: [], removeOnExit };
    this.showStatus();
    this.log.info(`MCP server at ${server.url} (connection file ${file}), started in ${Math.round(performance.now() - t0)} ms`);
    return this.running;
  }

  async stop(): Promise<void> {
    const r = this.running ?? (await this.starting?.catch(() => undefined));
    this.running = undefined;
    if (!r) {
      return;
    }
    this.status.hide();
    this.env.clear();
    process.off('exit', r.removeOnExit);
    removeConnectionFile(r.file, r.token);
    // its clients' calls are cancelled: reviews they wait for are withdrawn, nothing is written
    await r.server.close();
    this.log.info('MCP server stopped');
  }

  private showStatus(): void {
    const r = this.running;
    if (!r) {
      return;
    }
    const n = r.clients.length;
    this.status.text = `$(plug) MCP ${n}`;
    const md = new vscode.MarkdownString();
    md.appendText(vscode.l10n.t('Agent File Tools MCP server at {0}', r.server.url));
    md.appendText('\n\n');
    md.appendText(n === 0 ? vscode.l10n.t('No client connected.') : vscode.l10n.t('Clients: {0}', r.clients.map((c) => c.name).join(', ')));
    this.status.tooltip = md;
    this.status.accessibilityInformation = { label: vscode.l10n.t('Agent File Tools MCP server, {0} clients connected', n) };
    this.status.show();
  }

  private async call(c: McpCall) {
    const log = clientLog(this.log, c.client);
    const spec = findTool(c.tool);
    if (!spec) {
      return errorResult(`Unknown tool ${c.tool}; nothing was done.`);
    }
    if (!toolEnabled(spec.name)) {
      log.info(`${spec.name} refused: turned off in the settings`);
      return errorResult(`${spec.name} is turned off in this workspace's settings (agentFileTools.tools.${spec.name}.enabled); nothing was done.`);
    }
    const cts = new vscode.CancellationTokenSource();
    const cancel = () => {
      log.info(`${spec.name}: the client went away or cancelled the call`);
      cts.cancel();
    };
    c.signal.addEventListener('abort', cancel, { once: true });
    if (c.signal.aborted) {
      cts.cancel();
    }
    const ctx = this.contextFor(spec.name, c.args, cts.token, undefined, 'mcp', c.client.name);
    try {
      return await invokeTool(spec, c.args, { ...ctx, log });
    } finally {
      c.signal.removeEventListener('abort', cancel);
      // after the answer has left: an accepted review's editors close behind it
      setTimeout(() => {
        ctx.endCall();
        cts.dispose();
      }, 0);
    }
  }

  /** The configuration for `agent`, with this server's URL and token (the server starts if it does not run). */
  async configFor(agent: Agent): Promise<string> {
    const r = await this.start();
    return clientConfig(agent, r.server.url, r.token);
  }

  info(): { url: string; file: string; clients: readonly McpClient[] } | undefined {
    const r = this.running;
    return r && { url: r.server.url, file: r.file, clients: r.clients };
  }

  dispose(): void {
    void this.stop();
    this.status.dispose();
    this.subscriptions.forEach((d) => d.dispose());
  }
}

/** Registers the server, its setting, its commands and its status bar item. */
export function registerMcp(context: vscode.ExtensionContext, log: Logger, contextFor: ContextFactory, manifest: () => readonly ManifestTool[]): vscode.Disposable[] {
  const mcp = new McpWindowServer(context.environmentVariableCollection, log, contextFor, manifest);
  const startOrSay = () =>
    mcp.start().then(
      () => true,
      (e: unknown) => {
        const msg = e instanceof Error ? e.message : String(e);
        log.error(`MCP server could not start: ${msg}`);
        void vscode.window.showErrorMessage(vscode.l10n.t('The Agent File Tools MCP server could not start: {0}', msg));
        return false;
      },
    );
  const follow = () => {
    const i = vscode.workspace.getConfiguration().inspect<boolean>(MCP_SETTING);
    log.info(`MCP: ${MCP_SETTING} is ${settingOn() ? 'on: starting the server' : 'off'} (user ${String(i?.globalValue)}, workspace ${String(i?.workspaceValue)})`);
    if (settingOn()) {
      void startOrSay();
    }
  };
  follow();
  const copy = async (agent: Agent): Promise<string | undefined> => {
    const a = AGENTS.find((x) => x.id === agent)!;
    let text: string;
    try {
      text = await mcp.configFor(agent);
    } catch (e) {
      void vscode.window.showErrorMessage(vscode.l10n.t('The Agent File Tools MCP server could not start: {0}', e instanceof Error ? e.message : String(e)));
      return undefined;
    }
    try {
      await vscode.env.clipboard.writeText(text);
    } catch (e) {
      // a browser's window may refuse the clipboard: the text is shown to copy by hand
      log.warn(`MCP: the clipboard refused the configuration (${e instanceof Error ? e.message : String(e)}); it opens in an editor instead`);
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: text, language: agent === 'codex' ? 'toml' : agent === 'claudeCode' ? 'shellscript' : 'json' }));
      return text;
    }
    void vscode.window.showInformationMessage(vscode.l10n.t('Copied the MCP configuration for {0}, with this window\'s port and token: paste it into {1}. It holds until the server restarts.', a.name, a.where));
    return text;
  };
  return [
    mcp,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(MCP_SETTING)) {
        if (settingOn()) {
          void startOrSay();
        } else {
          void mcp.stop();
        }
      }
    }),
    vscode.commands.registerCommand(MCP_COMMANDS.start, async () => {
      const ok = await startOrSay();
      if (ok) {
        void vscode.window.showInformationMessage(vscode.l10n.t('The Agent File Tools MCP server runs at {0}.', mcp.url ?? ''));
      }
      return ok ? mcp.url : undefined;
    }),
    vscode.commands.registerCommand(MCP_COMMANDS.stop, () => mcp.stop()),
    ...AGENTS.map((a) => vscode.commands.registerCommand(MCP_COMMANDS.copy[a.id], () => copy(a.id))),
    vscode.commands.registerCommand(MCP_COMMANDS.info, () => mcp.info()),
    vscode.commands.registerCommand(MCP_COMMANDS.menu, async () => {
      const items = [
        ...AGENTS.map((a) => ({ label: vscode.l10n.t('Copy MCP Configuration for {0}', a.name), run: () => copy(a.id) })),
        { label: vscode.l10n.t('Show Log'), run: () => vscode.commands.executeCommand('agentFileTools.showLog') },
        { label: vscode.l10n.t('Stop MCP Server'), run: () => mcp.stop() },
      ];
      const picked = await vscode.window.showQuickPick(items, { placeHolder: mcp.url });
      await picked?.run();
    }),
  ];
}
