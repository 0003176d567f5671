// The MCP suite: the window's MCP server (on at start: agentFileTools.mcp.enabled is set in the
// run's user settings) called by real clients from this extension host: the MCP SDK's client,
// the MCP Inspector's CLI and Codex CLI driven by a scripted model behind a stand-in of its
// model API on the loopback address. The same runner as the integration suite.
import { runSuite } from '../integration/index';

export function run(): Promise<void> {
  return runSuite(__dirname);
}
