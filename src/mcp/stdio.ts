import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Calls, sessionServer } from './session';
import type { McpBackend } from './types';

/**
 * The server over standard input and output, for one client (the process that started it).
 * Settles when the client goes (it closes its end of standard input): its calls are cancelled.
 */
export async function serveStdio(backend: McpBackend): Promise<void> {
  const calls = new Calls();
  const { server } = sessionServer(backend, calls, () => 'stdio', (c) => {
    backend.log.info(`MCP: ${c.name}${c.version ? ` ${c.version}` : ''} connected over stdio`);
    backend.onClients?.([c]);
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  await server.connect(transport);
  process.stdin.once('end', () => void transport.close());
  await closed;
}
