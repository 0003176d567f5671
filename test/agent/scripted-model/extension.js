// The Scripted Model: a chat model for the Agent-mode suite. It never thinks. Each request is
// answered with the next step of the current scenario's script, so Agent mode calls the tools
// a scenario names, in a known order; every request it gets is recorded for the assertions.
//
// It talks to the runner through files in the folder named by AFT_AGENT_DIR (the extension
// host inherits code-server's environment):
//   script.json   { "id": "...", "turns": [step, ...] }, read again on every request
//   model.jsonl   one line per request: script id, turn, tools offered, messages, reply
//   config.json   Copilot's large-tool-result settings, rewritten whenever configuration changes
//   host.json     what the host offers: vscode.lm.tools and every extension's tool contributions
//
// script.json may also hold "settings": { key: value } (user settings, applied before the first answer
// of the scenario through the configuration API, and kept afterwards), and "chats": [{ "prompt", "turns" }]
// for a scenario of several chats at once: a request whose prompt is one of these gets that chat's turns.
//
// Each call of ours is also made once more outside the chat (vscode.lm.invokeTool without an
// invocation token) when its result comes back, and that text is recorded as `direct`, so the
// suite can compare what the chat gave the model with the plain-text contract byte for byte. A
// step with "direct": false is not repeated (a call that needs approval would ask again), nor is
// a call of a tool that changes files (it would propose its change again).
//
// A step is the answer to the n-th model call of a prompt:
//   { "tool": "fs_read", "input": {...} }            one tool call
//   { "tools": [{ "name", "input" }, ...] }          parallel calls
//   { "follow": "continue" }                         the `Continue with: <tool> {json}` line of the
//                                                    latest result, called exactly as printed
//   { "text": "..." }                                the final answer
// Strings in inputs and text may hold {{result}}, {{result:N}} (first N characters of the latest
// tool result), {{match:REGEX}} (its first capture group, else the match) and {{workspace}};
// an input value that is exactly {{number:REGEX}} becomes the number it matches.
'use strict';
const vscode = require('vscode');
const fs = require('fs');
const path = require('path');

const dir = process.env.AFT_AGENT_DIR;
const ROLES = { 1: 'user', 2: 'assistant', 3: 'system' };
/** Tools whose calls change files: never repeated outside the chat. */
const MUTATING = new Set(['fs_edit', 'fs_write', 'fs_apply_patch']);
let seq = 0;
/** callId -> the call, for the calls to repeat outside the chat once their result is back. */
const pendingDirect = new Map();

function write(name, value) {
  if (!dir) {
    return;
  }
  const tmp = path.join(dir, `${name}.tmp`);
  fs.writeFileSync(tmp, JSON.stringify(value, null, 1));
  fs.renameSync(tmp, path.join(dir, name));
}

/** One content part of a tool result, as the model provider receives it. */
function contentPart(p) {
  if (p instanceof vscode.LanguageModelTextPart) {
    return { kind: 'text', text: p.value };
  }
  if (p instanceof vscode.LanguageModelDataPart) {
    return { kind: 'data', mime: p.mimeType, bytes: p.data.byteLength };
  }
  if (p instanceof vscode.LanguageModelPromptTsxPart) {
    return { kind: 'prompt-tsx', json: p.value };
  }
  return { kind: p?.constructor?.name ?? typeof p, text: typeof p?.value === 'string' ? p.value : undefined };
}

function messagePart(p) {
  if (p instanceof vscode.LanguageModelToolCallPart) {
    return { type: 'toolCall', callId: p.callId, name: p.name, input: p.input };
  }
  if (p instanceof vscode.LanguageModelToolResultPart || (p && typeof p.callId === 'string' && Array.isArray(p.content))) {
    const parts = p.content.map(contentPart);
    return { type: 'toolResult', callId: p.callId, parts, text: parts.map((c) => c.text ?? '').join('') };
  }
  if (p instanceof vscode.LanguageModelTextPart) {
    return { type: 'text', text: p.value };
  }
  if (p instanceof vscode.LanguageModelDataPart) {
    return { type: 'data', mime: p.mimeType, bytes: p.data.byteLength };
  }
  return { type: p?.constructor?.name ?? typeof p };
}

function fill(s, last) {
  const ws = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
  return s
    .replace(/\{\{workspace\}\}/g, () => ws)
    .replace(/\{\{result(?::(\d+))?\}\}/g, (_, n) => (n ? last.slice(0, Number(n)) : last))
    .replace(/\{\{match:(.+?)\}\}/g, (_, re) => {
      const m = new RegExp(re, 'm').exec(last);
      return m ? (m[1] ?? m[0]) : '';
    });
}

function fillDeep(v, last) {
  const num = typeof v === 'string' ? /^\{\{number:(.+)\}\}$/.exec(v) : null;
  if (num) {
    const m = new RegExp(num[1], 'm').exec(last);
    return m ? Number(m[1] ?? m[0]) : null;
  }
  if (typeof v === 'string') {
    return fill(v, last);
  }
  if (Array.isArray(v)) {
    return v.map((x) => fillDeep(x, last));
  }
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fillDeep(x, last)]));
  }
  return v;
}

function readScript() {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'script.json'), 'utf8'));
  } catch {
    return { id: '(none)', turns: [{ text: 'Scripted Model: no script.json in AFT_AGENT_DIR.' }] };
  }
}

/** The call after the last `Continue with: ` in a result: the tool name and the JSON object that follows, copied as printed. */
function continuation(text) {
  const at = text.toLowerCase().lastIndexOf('continue with: ');
  if (at < 0) {
    return undefined;
  }
  const m = /^Continue with: (\S+) /i.exec(text.slice(at));
  const start = m ? at + m[0].length : -1;
  if (!m || text[start] !== '{') {
    return undefined;
  }
  // The JSON object ends where its braces balance (strings may hold braces).
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') {
        i++;
      } else if (c === '"') {
        inString = false;
      }
    } else if (c === '"') {
      inString = true;
    } else if (c === '{') {
      depth++;
    } else if (c === '}' && --depth === 0) {
      const json = text.slice(start, i + 1);
      return { name: m[1], input: JSON.parse(json), printed: json };
    }
  }
  return undefined;
}

/** The calls a step makes, or its text. */
function answer(step, last) {
  if (step.text !== undefined) {
    return { text: fill(step.text, last), calls: [] };
  }
  if (step.follow === 'continue') {
    const call = continuation(last);
    if (!call) {
      return { text: `Scripted Model: the latest result has no "Continue with:" call. It was:\n${last}`, calls: [] };
    }
    return { calls: [call] };
  }
  const calls = step.tools ?? (step.tool ? [{ name: step.tool, input: step.input ?? {} }] : []);
  return { calls: calls.map((c) => ({ name: c.name, input: fillDeep(c.input ?? {}, last) })) };
}

const provider = {
  provideLanguageModelChatInformation() {
    return [
      {
        id: 'scripted-1',
        name: 'Scripted Model',
        family: 'scripted',
        version: '1',
        detail: 'tests',
        tooltip: 'Answers from the scenario the Agent-mode suite wrote',
        maxInputTokens: 200000,
        maxOutputTokens: 8192,
        capabilities: { toolCalling: true, imageInput: true },
      },
    ];
  },
  async provideTokenCount(_model, text) {
    const s = typeof text === 'string' ? text : (text.content ?? []).map((p) => messagePart(p).text ?? '').join('');
    return Math.ceil(s.length / 4);
  },
  async provideLanguageModelChatResponse(model, messages, options, progress) {
    const msgs = messages.map((m) => ({ role: ROLES[m.role] ?? String(m.role), parts: (m.content ?? []).map(messagePart) }));
    // The prompt is the last user message that carries no tool result; each assistant
    // message with tool calls after it is one turn already taken.
    let start = msgs.length - 1;
    while (start >= 0 && !(msgs[start].role === 'user' && !msgs[start].parts.some((p) => p.type === 'toolResult'))) {
      start--;
    }
    const after = msgs.slice(start + 1);
    const turn = after.filter((m) => m.role === 'assistant' && m.parts.some((p) => p.type === 'toolCall')).length;
    const results = [];
    for (let i = msgs.length - 1; i > start && msgs[i].role !== 'assistant'; i--) {
      results.unshift(...msgs[i].parts.filter((p) => p.type === 'toolResult').map((p) => p.text));
    }
    const last = results.join('\n');
    const script = readScript();
    // The chat's prompt, as the request states it: it picks the turns of a scenario of several chats.
    const prompt = msgs[start]?.parts.map((p) => /<userRequest>\n?([\s\S]*?)\n?<\/userRequest>/.exec(p.text ?? '')?.[1]).find((x) => x !== undefined);
    const turns = script.chats?.find((c) => c.prompt === prompt)?.turns ?? script.turns;
    await applySettings(script.settings);
    const direct = {};
    for (const m of msgs) {
      for (const p of m.parts) {
        const c = p.type === 'toolResult' ? pendingDirect.get(p.callId) : undefined;
        if (c) {
          pendingDirect.delete(p.callId);
          direct[p.callId] = await invokeDirect(c);
        }
      }
    }
    const tools = (options.tools ?? []).map((t) => t.name);
    let step = turns?.[turn] ?? { text: `Scripted Model: the script "${script.id}" has no step ${turn + 1}${prompt !== undefined ? ` for "${prompt}"` : ''}.` };
    if (!tools.length && step.text === undefined) {
      step = { text: 'Scripted Model: this request offered no tools.' };
    }
    const { text, calls } = answer(step, last);
    writeHost();
    const reply = [];
    if (text !== undefined) {
      progress.report(new vscode.LanguageModelTextPart(text));
      reply.push({ text });
    }
    calls.forEach((c, i) => {
      const callId = `call_${++seq}_${i}`;
      if (c.name.startsWith('fs_') && !MUTATING.has(c.name) && step.direct !== false) {
        pendingDirect.set(callId, c);
      }
      progress.report(new vscode.LanguageModelToolCallPart(callId, c.name, c.input));
      reply.push({ toolCall: c.name, callId, input: c.input, ...(c.printed ? { copied: c.printed } : {}) });
    });
    if (dir) {
      const record = { seq, at: Date.now(), script: script.id, prompt, model: model.id, turn, toolMode: options.toolMode, tools, messages: msgs, reply, direct };
      fs.appendFileSync(path.join(dir, 'model.jsonl'), JSON.stringify(record) + '\n');
    }
  },
};

/** The same call outside any chat: its parts' kinds and its text parts joined by "\n". */
async function invokeDirect(c) {
  try {
    const r = await vscode.lm.invokeTool(c.name, { input: c.input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
    const parts = r.content.map(contentPart);
    return { kinds: parts.map((p) => p.kind), text: parts.filter((p) => p.kind === 'text').map((p) => p.text).join('\n') };
  } catch (e) {
    return { error: `${e?.name}: ${e?.message}` };
  }
}

async function applySettings(settings) {
  for (const [key, value] of Object.entries(settings ?? {})) {
    const i = key.lastIndexOf('.');
    const section = vscode.workspace.getConfiguration(key.slice(0, i));
    if (section.get(key.slice(i + 1)) !== value) {
      await section.update(key.slice(i + 1), value, vscode.ConfigurationTarget.Global);
    }
  }
}

/** A control: one plain text part of the asked length, to show what the chat does with text. */
const textTool = {
  async invoke(options) {
    const n = Number(options.input?.chars) || 1;
    const line = 'plain text part of the control tool, one line of sixty-four chars\n';
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(line.repeat(Math.ceil(n / line.length)).slice(0, n))]);
  },
};

function writeConfig() {
  const c = vscode.workspace.getConfiguration('github.copilot.chat.agent.largeToolResultsToDisk');
  write('config.json', { enabled: c.get('enabled'), thresholdBytes: c.get('thresholdBytes') });
}

function writeHost() {
  const contributions = vscode.extensions.all.map((e) => ({
    id: e.id,
    tools: (e.packageJSON?.contributes?.languageModelTools ?? []).map((t) => ({ name: t.name, toolReferenceName: t.toolReferenceName, when: t.when })),
    toolSets: (e.packageJSON?.contributes?.languageModelToolSets ?? []).map((s) => ({ name: s.name, tools: s.tools })),
  }));
  write('host.json', {
    version: vscode.version,
    lmTools: vscode.lm.tools.map((t) => ({ name: t.name, tags: t.tags })),
    contributions: contributions.filter((c) => c.tools.length || c.toolSets.length),
  });
}

function activate(context) {
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider('scripted', provider),
    vscode.lm.registerTool('scripted_text', textTool),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('github.copilot.chat') && writeConfig()),
  );
  writeConfig();
}

module.exports = { activate };
