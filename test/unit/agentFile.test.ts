import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AGENT_NAME, agentFile, agentTools, EXTENSION_ID, SHIPPED_AGENT_FILE, TOOL_SEARCH_LIMIT, toolSearchCall, WORKSPACE_AGENT_NAME } from '../../src/commands/agentFile';

const root = path.resolve(__dirname, '../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const ours = manifest.contributes.languageModelTools.map((t: { name: string; toolReferenceName: string }) => ({ name: t.name, toolReferenceName: t.toolReferenceName }));

describe('the shipped agent', () => {
  const shipped = fs.readFileSync(path.join(root, SHIPPED_AGENT_FILE), 'utf8');

  it('is contributed through chatAgents, from a path inside the extension', () => {
    assert.deepEqual(manifest.contributes.chatAgents, [{ path: `./${SHIPPED_AGENT_FILE}` }]);
  });

  it('is agentFile(), and the workspace copy the command writes differs in its name only', () => {
    assert.equal(shipped, agentFile(ours), `regenerate ${SHIPPED_AGENT_FILE} from agentFile() after changing it`);
    const copy = agentFile(ours, EXTENSION_ID, WORKSPACE_AGENT_NAME);
    assert.equal(copy, shipped.replace(`\nname: ${AGENT_NAME}\n`, `\nname: ${WORKSPACE_AGENT_NAME}\n`));
    assert.notEqual(copy, shipped);
  });

  it('names itself, has a one-line description and lists every tool of ours and tool search', () => {
    const header = /^---\n([\s\S]*?)\n---\n/.exec(shipped)?.[1] ?? '';
    assert.match(header, new RegExp(`^name: ${AGENT_NAME}$`, 'm'));
    const description = /^description: "(.*)"$/m.exec(header)?.[1] ?? '';
    assert.ok(description.length > 0 && description.length <= 200 && !description.includes('"'), `a short description: ${description}`);
    const tools = agentTools(ours);
    for (const t of ours) {assert.ok(tools.includes(`agent-file-tools.agent-file-tools/${t.toolReferenceName}`), t.name);}
    // the whole `vscode` set, which brings vscode/toolSearch: the comment explains why it stays on
    assert.ok(tools.includes('vscode'), `tool search stays on: ${tools.join(', ')}`);
    assert.ok(!tools.some((t) => t === 'read' || t === 'read/readFile'), 'read_file is replaced by fs_read');
    assert.match(header, /^# Tool search stays on/m, 'the reason for the choice is a comment of the header');
  });

  it('makes the first call a tool_search whose limit returns all seven tools', () => {
    const call = toolSearchCall(ours);
    assert.ok(shipped.includes(`\ntool_search ${JSON.stringify(call)}\n`), 'the body gives the exact call');
    assert.ok(call.limit === TOOL_SEARCH_LIMIT && call.limit >= 50, 'a limit above the deferred tools a host registers (41 in VS Code 1.139 with Copilot Chat 0.67)');
    for (const t of ours) {assert.ok(call.query.includes(t.name), `the query names ${t.name}`);}
  });
});
