import type * as Serve from './serve';

/**
 * The MCP server and the SDK under it, loaded when a server starts and not before: the build
 * makes `./serve.js` a bundle of its own (dist/mcp-server.js, see esbuild.mjs), so neither
 * activation nor any other CLI call parses it.
 */
export function loadServe(): Promise<typeof Serve> {
  return import('./serve.js');
}
