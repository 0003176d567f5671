// Raw HTTP to an MCP server, headers exactly as given (fetch sets Host and may set Origin itself):
// for the security cases, in the unit tests and in the MCP suite alike. Free of vscode.
import * as http from 'node:http';

/** One HTTP request with exactly these headers. */
export function request(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: opts.method ?? 'POST', headers: opts.headers ?? {}, setHost: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

export const rpc = (id: number, method: string, params: object = {}) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
