// The MCP server with the SDK: its own bundle (dist/mcp-server.js), loaded only when a server
// starts (see load.ts), so that activation and every other CLI call never parse the SDK.
export { serveHttp, MCP_PATH, type HttpServer } from './http';
export { serveStdio } from './stdio';
