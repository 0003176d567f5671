// A stand-in of the Responses API (Codex CLI's model API) on the loopback address, answered by a
// scripted model, and a helper that runs a program to its end. Free of vscode: the unit tests
// run Codex against the headless server with it, the MCP suite against the window's.
import { spawn } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';

/** Runs a program to its end; its output and exit code. */
export function run(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const timer = setTimeout(() => {
      p.kill('SIGKILL');
      reject(new Error(`${path.basename(cmd)} ${args.slice(0, 3).join(' ')} ran over ${opts.timeoutMs ?? 60000} ms\n${stdout}\n${stderr}`));
    }, opts.timeoutMs ?? 60000);
    p.on('error', reject);
    p.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Codex's `config.toml` for a run against the stand-in: the scripted model, no approvals asked,
 * a read-only sandbox, and `servers` (the `[mcp_servers...]` tables) after it.
 */
export function codexConfig(baseUrl: string, servers: string): string {
  return [
    'model = "scripted"',
    'model_provider = "standin"',
    'approval_policy = "never"',
    'sandbox_mode = "read-only"',
    '[model_providers.standin]',
    'name = "standin"',
    `base_url = "${baseUrl}"`,
    'wire_api = "responses"',
    '',
    servers,
  ].join('\n');
}

/** One turn of the scripted model: a tool call (by its MCP name) or a final text. */
export type Turn = { call: string; args: object } | { text: string };

/**
 * A stand-in of the Responses API (`POST /v1/responses`, streamed as server-sent events) on
 * the loopback address: each request gets the next turn of the script. Every request is kept,
 * with when its answer was sent.
 */
export async function responsesStandIn(script: (req: { body: ResponsesRequest; n: number }) => Turn): Promise<{ baseUrl: string; requests: { body: ResponsesRequest; answeredAt: number; turn: Turn }[]; close(): void }> {
  const requests: { body: ResponsesRequest; answeredAt: number; turn: Turn }[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (raw += d));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/responses')) {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(raw) as ResponsesRequest;
      const n = requests.length + 1;
      const turn = script({ body, n });
      const id = `resp-${n}`;
      const events: object[] = [{ type: 'response.created', response: { id } }];
      if ('call' in turn) {
        const ns = body.tools.find((t) => t.type === 'namespace' && t.tools?.some((x) => x.name === turn.call));
        const item = { type: 'function_call', id: `fc-${n}`, call_id: `call-${n}`, name: turn.call, ...(ns ? { namespace: ns.name } : {}), arguments: JSON.stringify(turn.args) };
        events.push({ type: 'response.output_item.added', output_index: 0, item }, { type: 'response.output_item.done', output_index: 0, item });
      } else {
        const item = { type: 'message', role: 'assistant', id: `msg-${n}`, status: 'completed', content: [{ type: 'output_text', text: turn.text }] };
        events.push({ type: 'response.output_item.done', output_index: 0, item });
      }
      events.push({ type: 'response.completed', response: { id, usage: { input_tokens: 1, input_tokens_details: null, output_tokens: 1, output_tokens_details: null, total_tokens: 2 } } });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const e of events) {
        res.write(`event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`);
      }
      res.end();
      requests.push({ body, answeredAt: performance.now(), turn });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests, close: () => server.close() };
}

export interface ResponsesRequest {
  tools: { type: string; name: string; tools?: { name: string }[] }[];
  input: { type: string; call_id?: string; output?: string | { type: string; text: string }[] }[];
}

/** The outputs of the tool calls the model got back, as text, in order. */
export function toolOutputs(body: ResponsesRequest): string[] {
  return body.input.filter((i) => i.type === 'function_call_output').map((i) => (typeof i.output === 'string' ? i.output : (i.output ?? []).map((p) => p.text).join('\n')));
}
