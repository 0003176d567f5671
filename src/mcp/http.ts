import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { MCP_BODY_TIMEOUT_MS, MCP_HEADERS_TIMEOUT_MS, MCP_MAX_OPEN_REQUESTS, MCP_MAX_REQUEST_BYTES, MCP_MAX_REQUESTS_PER_SECOND, MCP_MAX_SESSIONS, MCP_SESSION_IDLE_MS } from '../core/limits';
import { checkRequest, RateLimit } from './guard';
import { Calls, sessionServer } from './session';
import type { McpBackend, McpClient } from './types';

/** The one path the server answers. */
export const MCP_PATH = '/mcp';

export interface HttpServer {
  /** `http://127.0.0.1:PORT/mcp` */
  readonly url: string;
  readonly port: number;
  /** The clients connected now, oldest first. */
  clients(): McpClient[];
  /** Closes every session (their calls are cancelled) and the listening socket. */
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  client(): McpClient;
  ready: boolean;
  /** Requests of this session being answered (an event stream, a call waiting for review). */
  open: number;
  lastSeen: number;
  /** It held an event stream (GET) open: a client that does drops it when it goes. */
  streamed: boolean;
  /** Counted among the clients connected, as last told. */
  counted: boolean;
}

/**
 * Whether a client is there: a request of its is open, or it spoke a moment ago. A client
 * that kept an event stream open and has none now is gone (after a moment to reopen it);
 * one that never held a stream counts while it spoke within the last minute. Its session
 * stays valid either way until it ends it or is idle for MCP_SESSION_IDLE_MS: this only
 * decides whom the window counts and names as connected.
 */
function present(s: Session, now: number): boolean {
  return s.ready && (s.open > 0 || now - s.lastSeen < (s.streamed ? STREAM_REOPEN_MS : QUIET_CLIENT_MS));
}

/** How long a client that dropped its event stream has to reopen it before it counts as gone. */
const STREAM_REOPEN_MS = 2000;
/** How long a client that holds no stream counts as there after it last spoke. */
const QUIET_CLIENT_MS = 60_000;

/** Answers with a JSON-RPC error (MCP clients read the body) and the status. */
function refuse(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', connection: 'close', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/** The body, bounded by MCP_MAX_REQUEST_BYTES; undefined (and the answer given) when it is too large. */
function readBody(req: http.IncomingMessage, res: http.ServerResponse): Promise<Buffer | undefined> {
  const declared = Number(req.headers['content-length']);
  if (declared > MCP_MAX_REQUEST_BYTES) {
    refuse(res, 413, `The request is ${declared} bytes; at most ${MCP_MAX_REQUEST_BYTES} are read.`);
    req.resume();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MCP_MAX_REQUEST_BYTES) {
        refuse(res, 413, `The request is over ${MCP_MAX_REQUEST_BYTES} bytes, the most that is read.`);
        req.destroy();
        resolve(undefined);
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The ids of the `tools/call` requests of a POST body (one message or a batch). */
function callIds(body: unknown): (string | number)[] {
  const msgs = Array.isArray(body) ? body : [body];
  return msgs.flatMap((m: { method?: unknown; id?: unknown } | null) => (m && m.method === 'tools/call' && (typeof m.id === 'string' || typeof m.id === 'number') ? [m.id] : []));
}

/**
 * The Streamable HTTP server: on 127.0.0.1 only, on `port` (0: one the system picks). Every
 * request passes guard.ts first; then the request count (MCP_MAX_REQUESTS_PER_SECOND), the
 * requests open (MCP_MAX_OPEN_REQUESTS), the body's size (MCP_MAX_REQUEST_BYTES) and the
 * sessions (MCP_MAX_SESSIONS) are bounded. A client that goes away (it ends its session, or
 * drops the connection a call's answer was to come on) has its calls cancelled: a change
 * waiting for review is withdrawn, and nothing is written.
 */
export async function serveHttp(backend: McpBackend, opts: { token: string; port?: number }): Promise<HttpServer> {
  const calls = new Calls();
  const sessions = new Map<string, Session>();
  const rate = new RateLimit(MCP_MAX_REQUESTS_PER_SECOND);
  const refusedRate = new RateLimit(MCP_MAX_REQUESTS_PER_SECOND);
  let openRequests = 0;
  let port = 0;
  const clients = () => [...sessions.values()].filter((s) => s.counted).map((s) => s.client());
  /** Recounts the clients there, logs who came and went, and tells the backend when that changed. */
  const changed = () => {
    const now = Date.now();
    let moved = false;
    for (const s of sessions.values()) {
      const here = present(s, now);
      if (here !== s.counted) {
        s.counted = here;
        moved = true;
        const c = s.client();
        backend.log.info(here ? `MCP: ${c.name}${c.version ? ` ${c.version}` : ''} connected (session ${c.session.slice(0, 8)})` : `MCP: ${c.name} disconnected`);
      }
    }
    if (moved) {
      backend.onClients?.(clients());
    }
  };

  const newSession = async (): Promise<Session | undefined> => {
    if (sessions.size >= MCP_MAX_SESSIONS) {
      // the client idle longest makes room, if any is idle
      const idle = [...sessions.values()].filter((s) => s.open === 0).sort((a, b) => a.lastSeen - b.lastSeen)[0];
      if (!idle) {
        return undefined;
      }
      backend.log.info(`MCP: ${idle.client().name} closed to make room for a new client (${MCP_MAX_SESSIONS} at most)`);
      await idle.transport.close();
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, s);
      },
    });
    const made = sessionServer(backend, calls, () => transport.sessionId ?? '', () => {
      s.ready = true;
      changed();
    });
    const s: Session = { transport, client: made.client, ready: false, open: 0, lastSeen: Date.now(), streamed: false, counted: false };
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id && sessions.get(id) === s) {
        sessions.delete(id);
        if (s.counted) {
          backend.log.info(`MCP: ${s.client().name} disconnected`);
          backend.onClients?.(clients());
        }
      }
    };
    await made.server.connect(transport);
    return s;
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const refusal = checkRequest(req.headers, port, opts.token);
    if (refusal) {
      if (refusedRate.take()) {
        backend.log.warn(`MCP: refused a ${req.method} request: ${refusal.reason}`);
      }
      refuse(res, refusal.status, refusal.status === 401 ? 'Unauthorized' : 'Forbidden', refusal.status === 401 ? { 'www-authenticate': 'Bearer' } : {});
      req.resume();
      return;
    }
    if (!rate.take()) {
      refuse(res, 429, `More than ${MCP_MAX_REQUESTS_PER_SECOND} requests a second; try again in a second.`, { 'retry-after': '1' });
      req.resume();
      return;
    }
    if (openRequests >= MCP_MAX_OPEN_REQUESTS) {
      refuse(res, 503, `${MCP_MAX_OPEN_REQUESTS} requests are open already; try again once one has answered.`, { 'retry-after': '1' });
      req.resume();
      return;
    }
    openRequests++;
    res.once('close', () => openRequests--);
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== MCP_PATH) {
      refuse(res, 404, `Not found; the server answers at ${MCP_PATH}.`);
      req.resume();
      return;
    }
    const sid = req.headers['mcp-session-id'];
    let session = typeof sid === 'string' ? sessions.get(sid) : undefined;
    if (typeof sid === 'string' && !session) {
      refuse(res, 404, 'Session not found; initialize a new one.');
      req.resume();
      return;
    }
    let body: unknown;
    if (req.method === 'POST') {
      const raw = await readBody(req, res);
      if (raw === undefined) {
        return;
      }
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body is not JSON.' }, id: null }));
        return;
      }
      if (!session) {
        if (!(Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body))) {
          refuse(res, 400, 'No session: send initialize first, without an mcp-session-id header.');
          return;
        }
        session = await newSession();
        if (!session) {
          refuse(res, 503, `${MCP_MAX_SESSIONS} clients are connected and busy; try again later.`, { 'retry-after': '5' });
          return;
        }
      }
      const ids = callIds(body);
      if (ids.length) {
        // the client can no longer get these answers: their calls end, a review waiting for one is withdrawn
        const s = session;
        res.once('close', () => {
          if (!res.writableFinished) {
            for (const id of ids) {
              calls.drop(s.transport.sessionId ?? '', id);
            }
          }
        });
      }
    } else if (!session) {
      refuse(res, 400, 'No session: send initialize first.');
      req.resume();
      return;
    }
    const s = session;
    s.open++;
    s.lastSeen = Date.now();
    s.streamed ||= req.method === 'GET';
    res.once('close', () => {
      s.open--;
      s.lastSeen = Date.now();
      changed();
    });
    await s.transport.handleRequest(req, res, body);
  };

  const server = http.createServer({ headersTimeout: MCP_HEADERS_TIMEOUT_MS, requestTimeout: MCP_BODY_TIMEOUT_MS }, (req, res) => {
    handle(req, res).catch((e: unknown) => {
      backend.log.error(`MCP: a request failed: ${e instanceof Error ? e.message : String(e)}`);
      refuse(res, 500, 'Internal error.');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  // who is there changes with time too (a stream not reopened, a quiet client)
  const recount = setInterval(changed, 1000);
  recount.unref();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const s of sessions.values()) {
      if (s.open === 0 && now - s.lastSeen > MCP_SESSION_IDLE_MS) {
        backend.log.info(`MCP: ${s.client().name} idle for ${Math.round(MCP_SESSION_IDLE_MS / 60000)} minutes: closed`);
        void s.transport.close();
      }
    }
  }, 60_000);
  sweep.unref();
  return {
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    port,
    clients,
    async close() {
      clearInterval(sweep);
      clearInterval(recount);
      await Promise.all([...sessions.values()].map((s) => s.transport.close().catch(() => {})));
      sessions.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
