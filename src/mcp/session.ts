import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { MCP_MAX_CONCURRENT_CALLS } from '../core/limits';
import { toMcpContent } from './results';
import type { McpBackend, McpClient } from './types';

/** Characters of a client's own name kept for the log, dialogs and the history. */
const MAX_CLIENT_NAME_CHARS = 64;

/** A client's name as it gave it, made safe to show: one line, no control characters, bounded. */
export function clientName(info: { name?: unknown; title?: unknown } | undefined): string {
  const raw = typeof info?.title === 'string' && info.title.trim() ? info.title : typeof info?.name === 'string' ? info.name : '';
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const clean = raw.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return clean ? (clean.length > MAX_CLIENT_NAME_CHARS ? `${clean.slice(0, MAX_CLIENT_NAME_CHARS)}…` : clean) : 'unnamed client';
}

/**
 * The tool calls running, over every session: bounded in number, each abortable by its
 * session and request id (a dropped connection ends its calls, see http.ts).
 */
export class Calls {
  private readonly running = new Map<string, AbortController>();
  /** Requests whose connection dropped before their call started. */
  private readonly gone = new Set<string>();

  private static key(session: string, id: string | number): string {
    return `${session}\0${typeof id}:${id}`;
  }

  get count(): number {
    return this.running.size;
  }

  /** Starts a call; undefined when MCP_MAX_CONCURRENT_CALLS run already. */
  begin(session: string, id: string | number, signal: AbortSignal): { signal: AbortSignal; end(): void } | undefined {
    if (this.running.size >= MCP_MAX_CONCURRENT_CALLS) {
      return undefined;
    }
    const key = Calls.key(session, id);
    const ctl = new AbortController();
    const abort = () => ctl.abort();
    signal.addEventListener('abort', abort, { once: true });
    this.running.set(key, ctl);
    if (signal.aborted || this.gone.delete(key)) {
      ctl.abort();
    }
    return {
      signal: ctl.signal,
      end: () => {
        signal.removeEventListener('abort', abort);
        if (this.running.get(key) === ctl) {
          this.running.delete(key);
        }
      },
    };
  }

  /** The client can no longer get the answer of this request: its call (running or about to start) is cancelled. */
  drop(session: string, id: string | number): void {
    const key = Calls.key(session, id);
    const ctl = this.running.get(key);
    if (ctl) {
      ctl.abort();
    } else {
      this.gone.add(key);
      // bounded: a key is looked for only while its request's call starts
      setTimeout(() => this.gone.delete(key), 10_000).unref?.();
    }
  }
}

/**
 * The MCP server of one session (`session` gives its id once it has one): lists the backend's tools and runs their calls. A name the
 * list does not hold is refused as MCP says (invalid params), and nothing is run.
 */
export function sessionServer(backend: McpBackend, calls: Calls, session: () => string, onClient: (c: McpClient) => void): { server: Server; client(): McpClient } {
  const server = new Server(backend.serverInfo, { capabilities: { tools: { listChanged: false } }, ...(backend.instructions ? { instructions: backend.instructions } : {}) });
  const client = (): McpClient => {
    const info = server.getClientVersion();
    return { session: session(), name: clientName(info), ...(typeof info?.version === 'string' ? { version: info.version.slice(0, MAX_CLIENT_NAME_CHARS) } : {}) };
  };
  server.oninitialized = () => onClient(client());
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: backend.tools().map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema as { type: 'object'; [k: string]: unknown },
      annotations: { title: t.title, readOnlyHint: !t.mutates, destructiveHint: t.mutates, idempotentHint: !t.mutates, openWorldHint: false },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const name = req.params.name;
    const tools = backend.tools();
    if (!tools.some((t) => t.name === name)) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${JSON.stringify(name.slice(0, 100))}; this server has ${tools.map((t) => t.name).join(', ')}. Nothing was done.`);
    }
    const call = calls.begin(session(), extra.requestId, extra.signal);
    if (!call) {
      backend.log.warn(`${client().name}: ${name} refused: ${MCP_MAX_CONCURRENT_CALLS} calls are running already`);
      return {
        content: [{ type: 'text' as const, text: `${MCP_MAX_CONCURRENT_CALLS} calls are running already, the most this server runs at once; nothing was done. Call again once one has answered.` }],
        isError: true,
      };
    }
    try {
      return toMcpContent(await backend.call({ tool: name, args: req.params.arguments ?? {}, client: client(), signal: call.signal }));
    } finally {
      call.end();
    }
  });
  return { server, client };
}
