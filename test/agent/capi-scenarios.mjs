// The Agent-mode scenarios with Copilot's own models, through the CAPI stand-in (capi.mjs):
// what Agent mode and the shipped agent offer each model family, and that in the shipped agent
// our tools reach the model loaded, read a file and open a review. They run in a host of their
// own (see scripts/run-agent-tests.mjs), in this order.
//
// A scenario: { name, mode, model, prompt, turns, steps, expect(r) }. `turns` are the stand-in's
// answers to the agent requests of the prompt (see capi.mjs); `steps` are the harness's UI steps
// (a review to answer, ...). r: { requests (the agent requests of the scenario, as capi.mjs reads
// them), log (the extension's log since the scenario began), chat, ws, modes }.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const OURS = manifest.contributes.languageModelTools.map((t) => t.name);
const shippedAgent = fs.readFileSync(path.join(root, manifest.contributes.chatAgents[0].path), 'utf8');
const AGENT = /^name: (.*)$/m.exec(shippedAgent)[1];
const AGENT_DESCRIPTION = /^description: "(.*)"$/m.exec(shippedAgent)[1];
/** The first call the shipped agent's body asks for, as written there. */
const FIRST_CALL = JSON.parse(/^tool_search (\{.*\})$/m.exec(shippedAgent)[1]);
/** Copilot's own file tools that the default Agent sends in full beside our deferred ones. */
const COPILOT_FILE_TOOLS = ['read_file', 'list_dir', 'file_search', 'grep_search', 'create_file'];

/** Copilot's model families: the two APIs with tool search, and the control without it. */
export const FAMILIES = [
  { model: 'Claude Sonnet 4.5', id: 'claude-sonnet-4.5', api: 'messages', toolSearch: true, line: 'buy milk' },
  { model: 'GPT-5.4', id: 'gpt-5.4', api: 'responses', toolSearch: true, line: 'call the bank' },
  { model: 'Claude Sonnet 4', id: 'claude-sonnet-4', api: 'messages', toolSearch: false },
];

/** The names the prompt lists under "Available deferred tools". */
function listedDeferred(req) {
  const text = `${req.system}\n${req.user}`;
  const m = /Available deferred tools \(must be loaded with tool_search before use\):\s*([\s\S]*?)(?:<\/availableDeferredTools>|$)/.exec(text);
  return m ? m[1].split('\n').map((l) => l.trim()).filter((l) => /^[\w.-]+$/.test(l)) : [];
}

/** How the request offers a tool: 'full', 'deferred' (sent with defer_loading, or named for tool_search only), or 'absent'. */
function standing(req, name) {
  if (req.full.includes(name)) return 'full';
  if (req.deferred?.includes(name)) return 'deferred';
  if (req.deferred === null && listedDeferred(req).includes(name)) return 'deferred';
  return 'absent';
}

/** One line for the record: how many tools the request sent in full and how many deferred. */
export function figure(req) {
  const deferred = req.deferred ?? listedDeferred(req);
  const ours = OURS.map((t) => `${t}:${standing(req, t)}`).join(' ');
  return `${req.full.length} in full, ${deferred.length} deferred${req.deferred === null ? ' (not sent)' : ''}; ${ours}`;
}

/** The prompt never calls "deferred" a tool that the request sends in full. */
function noFalseDeferral(req) {
  const wrong = listedDeferred(req).filter((t) => req.full.includes(t));
  assert.deepEqual(wrong, [], `the prompt lists as deferred tools the request sends in full: ${wrong.join(', ')}`);
}

/** The request carries the tool's result, and its text matches. */
function resultReached(req, re) {
  const all = JSON.stringify(req.body?.messages ?? req.body?.input ?? '');
  assert.match(all, re, `the model got the tool's result (${re})`);
}

function agentScenarios(f) {
  const loadTurn = { tool: 'tool_search', input: FIRST_CALL };
  return [
    {
      name: `CAPI ${f.model}: the default Agent sends our tools deferred and Copilot's file tools in full`,
      mode: 'Agent',
      model: f.model,
      prompt: 'What does README.md say?',
      turns: [{ text: 'The default Agent answered.' }],
      expect(r) {
        const [req] = r.requests;
        assert.ok(req, 'an agent request reached the stand-in');
        assert.equal(req.model, f.id);
        assert.equal(req.api, f.api);
        r.figures.push(`default Agent, ${f.id}: ${figure(req)}`);
        assert.equal(req.toolSearch, true, 'tool search is on for this family');
        assert.match(req.system, /toolSearchInstructions|MUST use tool_search to load deferred tools/, 'the prompt explains tool search');
        // Copilot's behaviour as the README describes it: if this changes, the README must too.
        for (const t of OURS) assert.equal(standing(req, t), 'deferred', `${t} is deferred in the default Agent`);
        for (const t of COPILOT_FILE_TOOLS) assert.equal(standing(req, t), 'full', `Copilot's ${t} goes in full`);
        if (f.api === 'responses') for (const t of OURS) assert.ok(!req.full.includes(t), `the Responses API does not send ${t} at all`);
        assert.deepEqual(OURS.filter((t) => !listedDeferred(req).includes(t)), [], 'the prompt names all seven among the deferred tools');
        noFalseDeferral(req);
      },
    },
    {
      name: `CAPI ${f.model}: #fsRead in the prompt names fs_read, and the default Agent still defers it`,
      mode: 'Agent',
      model: f.model,
      prompt: 'Use #fsRead to read README.md',
      turns: [{ text: 'The reference arrived.' }],
      expect(r) {
        const [req] = r.requests;
        assert.match(req.user, /<toolReferences>[\s\S]*\bfs_read\b[\s\S]*<\/toolReferences>/, 'the prompt names fs_read among its tool references');
        assert.equal(standing(req, 'fs_read'), 'deferred', 'a # reference does not load the tool');
        noFalseDeferral(req);
      },
    },
    {
      name: `CAPI ${f.model}: the shipped agent's first call loads all seven tools, then fs_read reads a file`,
      mode: AGENT,
      model: f.model,
      prompt: 'What does README.md say?',
      turns: [loadTurn, { tool: 'fs_read', input: { path: 'README.md' } }, { text: 'The shipped agent read README.md.' }],
      expect(r) {
        assert.equal(r.requests.length, 3, `three agent requests: ${r.requests.map((q) => q.turn).join(', ')}`);
        const [first, second, third] = r.requests;
        r.figures.push(`shipped agent, ${f.id}: ${figure(first)}`);
        assert.equal(first.toolSearch, true, 'the shipped agent keeps tool search on');
        for (const t of OURS) assert.equal(standing(first, t), 'deferred', `${t} waits for the first call`);
        for (const t of ['read_file', 'list_dir', 'file_search', 'grep_search', 'create_file', 'replace_string_in_file', 'multi_replace_string_in_file']) {
          assert.equal(standing(first, t), 'absent', `the built-in ${t} is not in the agent`);
        }
        assert.ok(`${first.system}\n${first.user}`.includes(`tool_search ${JSON.stringify(FIRST_CALL)}`), "the agent's instructions reach the model with the exact first call");
        for (const q of r.requests) noFalseDeferral(q);
        // what tool_search returned: all seven, whatever the fake embeddings rank first
        const returned = second.searchResults.flat();
        assert.deepEqual(OURS.filter((t) => !returned.includes(t)), [], `tool_search returned all seven: ${JSON.stringify(second.searchResults)}`);
        r.figures.push(`shipped agent, ${f.id}: tool_search returned ${returned.length} tools, ours ${OURS.filter((t) => returned.includes(t)).length}`);
        if (f.api === 'responses') {
          assert.deepEqual(OURS.filter((t) => !second.loaded.includes(t)), [], `the tool_search output brings the definitions of all seven: ${second.loaded.join(', ')}`);
          for (const t of OURS) assert.ok(second.definitions[t]?.description, `${t} arrives with its description`);
        }
        resultReached(third, /<path>README\.md<\/path>[\s\S]*The secret word is PINEAPPLE/);
        assert.ok(r.log.includes('fs_read {"path":"README.md"} -> '), `fs_read ran:\n${r.log}`);
        assert.ok(r.chat.text.includes('The shipped agent read README.md.'), r.chat.text);
      },
    },
    {
      name: `CAPI ${f.model}: an edit from the shipped agent opens its review, and Accept lands it`,
      mode: AGENT,
      model: f.model,
      prompt: 'Mark the todo list as reviewed',
      turns: [loadTurn, { tool: 'fs_edit', input: { path: 'notes/todo.txt', old_string: f.line, new_string: `${f.line} (reviewed)` } }, { text: 'Edited after the review.' }],
      steps: [{ review: 'todo.txt ↔ proposed by fs_edit', accept: 'button' }],
      expect(r) {
        const last = r.requests.at(-1);
        for (const q of r.requests) noFalseDeferral(q);
        resultReached(last, /Edited notes\/todo\.txt: \+1 -1 lines/);
        assert.ok(r.ws.read('notes/todo.txt').split('\n').includes(`${f.line} (reviewed)`), r.ws.read('notes/todo.txt'));
        assert.ok(r.chat.text.includes('Edited after the review.'), r.chat.text);
      },
    },
  ];
}

const CONTROL = FAMILIES[2];

export default [
  {
    name: 'CAPI: "Agent File Tools" is in the agent picker right after install, with its description',
    async run(h, r) {
      await h.chat.newChat('Agent');
      const modes = await h.chat.modes();
      const row = modes.find((m) => m.startsWith(`${AGENT}, `) || m === AGENT);
      assert.ok(row, `the agent picker offers ${AGENT} with no command run: ${modes.join(' | ')}`);
      r.figures.push(`agent picker: ${modes.join(' | ')}`);
      const copies = fs.readdirSync(path.join(h.workspace, '.github/agents')).filter((f) => f.endsWith('.agent.md'));
      assert.deepEqual(copies, [], 'no workspace copy: the agent is the shipped one');
      const page = h.page;
      await page.click('.interactive-input-part .chat-mode-picker-item a.action-label');
      await page.locator('.context-view .monaco-list-row').first().waitFor();
      const hover = await page.locator(`.context-view .monaco-list-row[aria-label^="${AGENT}"]`).first().innerText().catch(() => '');
      r.figures.push(`picker row: ${JSON.stringify(hover)}; description: ${AGENT_DESCRIPTION}`);
      // the chat input with the agent picker open, as a newcomer sees it
      await h.screenshot('agent-picker-shipped', { readme: 'agent-picker', clip: { x: 52, y: 540, width: 520, height: 240 } });
      await page.keyboard.press('Escape');
    },
  },
  ...agentScenarios(FAMILIES[0]),
  ...agentScenarios(FAMILIES[1]),
  {
    name: `CAPI ${CONTROL.model} (control, no tool search): the default Agent sends every tool in full`,
    mode: 'Agent',
    model: CONTROL.model,
    prompt: 'What does README.md say?',
    turns: [{ tool: 'fs_read', input: { path: 'README.md' } }, { text: 'The control read README.md.' }],
    expect(r) {
      const [req, next] = r.requests;
      assert.equal(req.model, CONTROL.id);
      r.figures.push(`default Agent, ${CONTROL.id}: ${figure(req)}`);
      assert.equal(req.toolSearch, false, 'no tool search for claude-sonnet-4');
      assert.deepEqual(req.deferred, [], 'nothing deferred');
      for (const t of OURS) assert.equal(standing(req, t), 'full', `${t} in full`);
      assert.deepEqual(listedDeferred(req), [], 'the prompt lists no deferred tools');
      resultReached(next, /<path>README\.md<\/path>/);
    },
  },
  {
    name: `CAPI ${CONTROL.model} (control): the shipped agent sends every tool in full, and calls none deferred`,
    mode: AGENT,
    model: CONTROL.model,
    prompt: 'What does README.md say?',
    turns: [{ tool: 'fs_read', input: { path: 'README.md' } }, { text: 'The control read README.md in the shipped agent.' }],
    expect(r) {
      const [req, next] = r.requests;
      r.figures.push(`shipped agent, ${CONTROL.id}: ${figure(req)}`);
      assert.equal(req.toolSearch, false);
      for (const t of OURS) assert.equal(standing(req, t), 'full', `${t} in full`);
      for (const q of r.requests) noFalseDeferral(q);
      resultReached(next, /<path>README\.md<\/path>/);
    },
  },
];

/** Runs one scenario against the stand-in; returns its record. */
export async function runCapiScenario(h, capi, sc, current) {
  const r = { figures: [] };
  const from = capi.records.length;
  const logStart = h.logSize();
  h.logStart = logStart;
  if (sc.run) {
    await sc.run(h, r);
    return r;
  }
  current.id = sc.name;
  current.turns = sc.turns;
  await h.chat.newChat(sc.mode);
  await h.chat.pickModel(sc.model);
  h.mode = sc.mode;
  await h.chat.send(sc.prompt);
  const steps = [...(sc.steps ?? [])];
  const t0 = Date.now();
  for (;;) {
    if (Date.now() - t0 > 60000) throw new Error('the answer did not finish within 60 s');
    if (steps.length) {
      await h.step(steps.shift(), [], {});
      continue;
    }
    if (await h.chat.cardVisible()) throw new Error(`an unexpected confirmation card showed: "${(await h.chat.readCard()).title}"`);
    const reviews = await h.reviewTabs();
    if (reviews.length) throw new Error(`an unexpected review opened: ${JSON.stringify(reviews)}`);
    if (await h.chat.done()) break;
    await h.page.waitForTimeout(100);
  }
  await h.chat.expand();
  Object.assign(r, {
    requests: capi.records.slice(from).filter((x) => x.agent && x.script === sc.name),
    all: capi.records.slice(from),
    log: await h.settleLog(logStart, sc.turns.filter((t) => t.tool?.startsWith('fs_')).length),
    chat: await h.chat.response(),
    ws: { read: (rel) => fs.readFileSync(path.join(h.workspace, rel), 'utf8') },
  });
  // The request bodies of the scenario, for the assertions that look into messages.
  const bodies = new Map(
    fs
      .readFileSync(capi.logFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((x) => x.agent && x.script === sc.name)
      .map((x) => [x.seq, x.body]),
  );
  for (const q of r.requests) q.body = bodies.get(q.seq);
  await sc.expect(r);
  return r;
}
