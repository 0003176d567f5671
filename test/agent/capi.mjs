// A stand-in for Copilot's API on 127.0.0.1, so that the host's Copilot Chat talks to its own
// model families offline: claude-sonnet-4.5 on the Messages API, gpt-5.4 on the Responses API
// (both with tool search), claude-sonnet-4 (without it, the control), a utility model and an
// embeddings model. Copilot only turns tool search on for its own models, never for an
// extension's model such as the Scripted Model, so this is the only way to see what a user's
// request looks like.
//
// Every request is recorded (in memory, and as JSON lines in `logFile`), with what the model was
// offered worked out per API family: tools sent in full, tools deferred, the prompt's text, what
// tool_search returned. Agent requests (those that offer tools) are answered from the current
// script, turn by turn: { tool, input } | { tools: [{ name, input }] } | { text }. A turn is the
// number of tool results the request already carries. Other requests (titles, summaries) get "OK".
//
// Bounded: it listens on 127.0.0.1 only, reads at most MAX_BODY_BYTES of a request, answers at
// most `maxRequests` requests and stops by itself after `maxSeconds`.
import fs from 'node:fs';
import http from 'node:http';

const MAX_BODY_BYTES = 16 * 1024 * 1024;
const EMBEDDING_DIMS = 256;

/** The model list, in the shape Copilot's /models answer has. */
function model(id, name, family, endpoints, extra = {}) {
  return {
    id,
    name,
    vendor: id.startsWith('gpt') || id.startsWith('text-') ? 'Azure OpenAI' : 'Anthropic',
    version: id,
    object: 'model',
    preview: false,
    model_picker_enabled: extra.picker ?? true,
    model_picker_category: 'versatile',
    is_chat_default: extra.chatDefault ?? false,
    is_chat_fallback: extra.fallback ?? false,
    capabilities: {
      type: extra.type ?? 'chat',
      family,
      tokenizer: extra.type === 'embeddings' ? 'cl100k_base' : 'o200k_base',
      object: 'model_capabilities',
      limits: extra.type === 'embeddings' ? { max_inputs: 512 } : { max_prompt_tokens: 128000, max_output_tokens: 16000, max_context_window_tokens: 144000 },
      supports: extra.type === 'embeddings' ? { dimensions: true } : { streaming: true, tool_calls: true, parallel_tool_calls: true, vision: false },
    },
    policy: { state: 'enabled', terms: '' },
    ...(endpoints ? { supported_endpoints: endpoints } : {}),
    billing: { is_premium: false, multiplier: 0 },
  };
}

export const MODELS = {
  object: 'list',
  data: [
    model('claude-sonnet-4.5', 'Claude Sonnet 4.5', 'claude-sonnet-4.5', ['/v1/messages', '/chat/completions'], { chatDefault: true }),
    model('gpt-5.4', 'GPT-5.4', 'gpt-5.4', ['/responses']),
    model('claude-sonnet-4', 'Claude Sonnet 4', 'claude-sonnet-4', ['/v1/messages', '/chat/completions']),
    model('gpt-4o-mini', 'GPT-4o mini', 'gpt-4o-mini', ['/chat/completions'], { picker: false, fallback: true }),
    model('text-embedding-3-small', 'Embedding V3 small', 'text-embedding-3-small', undefined, { type: 'embeddings', picker: false }),
  ],
};

/**
 * A fixed vector per text: word pieces hashed into EMBEDDING_DIMS buckets, normalised. Not a
 * real embedding: two texts are similar only when they share words, so a ranking seen here says
 * nothing about the real one; only "shares no word: similarity 0" holds for both.
 */
export function embed(text) {
  const v = new Float64Array(EMBEDDING_DIMS);
  for (const w of String(text).toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let h = 5381;
    for (let i = 0; i < w.length; i++) h = ((h * 33) ^ w.charCodeAt(i)) >>> 0;
    v[h % EMBEDDING_DIMS] += 1;
  }
  const norm = Math.hypot(...v) || 1;
  return [...v].map((x) => x / norm);
}

const textOf = (content) =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((c) => (typeof c === 'string' ? c : (c?.text ?? (c?.content !== undefined ? textOf(c.content) : '')))).join('\n') : '';

/** What a Messages API request offered the model. */
function messagesView(body) {
  const tools = body.tools ?? [];
  const messages = body.messages ?? [];
  const searchResults = [];
  let results = 0;
  for (const m of messages) {
    for (const c of Array.isArray(m.content) ? m.content : []) {
      if (c.type !== 'tool_result') continue;
      results++;
      const refs = (Array.isArray(c.content) ? c.content : []).filter((x) => x.type === 'tool_reference').map((x) => x.tool_name);
      if (refs.length) searchResults.push(refs);
    }
  }
  const calls = messages.flatMap((m) => (m.role === 'assistant' && Array.isArray(m.content) ? m.content.filter((c) => c.type === 'tool_use').map((c) => c.name) : []));
  return {
    api: 'messages',
    full: tools.filter((t) => !t.defer_loading).map((t) => t.name),
    deferred: tools.filter((t) => t.defer_loading).map((t) => t.name),
    toolSearch: tools.some((t) => t.name === 'tool_search'),
    definitions: Object.fromEntries(tools.map((t) => [t.name, { description: t.description ?? '', schema: t.input_schema }])),
    system: textOf(body.system),
    user: messages.filter((m) => m.role === 'user').map((m) => textOf(m.content)).join('\n'),
    searchResults,
    calls,
    turn: results,
  };
}

/** What a Responses API request offered the model: deferred tools are not sent at all there. */
function responsesView(body) {
  const tools = body.tools ?? [];
  const input = Array.isArray(body.input) ? body.input : [];
  const searchResults = input.filter((x) => x.type === 'tool_search_output').map((x) => (x.tools ?? []).map((t) => t.name));
  const loaded = input.filter((x) => x.type === 'tool_search_output').flatMap((x) => x.tools ?? []);
  const functions = tools.filter((t) => t.type === 'function');
  return {
    api: 'responses',
    full: [...(tools.some((t) => t.type === 'tool_search') ? ['tool_search'] : []), ...functions.map((t) => t.name)],
    deferred: null,
    toolSearch: tools.some((t) => t.type === 'tool_search'),
    definitions: Object.fromEntries([...functions, ...loaded].map((t) => [t.name, { description: t.description ?? '', schema: t.parameters }])),
    system: [body.instructions ?? '', ...input.filter((x) => x.role === 'system' || x.role === 'developer').map((x) => textOf(x.content))].join('\n'),
    user: input.filter((x) => x.role === 'user').map((x) => textOf(x.content)).join('\n'),
    searchResults,
    loaded: loaded.map((t) => t.name),
    calls: input.filter((x) => x.type === 'function_call' || x.type === 'tool_search_call').map((x) => (x.type === 'tool_search_call' ? 'tool_search' : x.name)),
    namespaced: input.filter((x) => x.type === 'function_call' && x.namespace).map((x) => x.namespace),
    turn: input.filter((x) => x.type === 'function_call_output' || x.type === 'tool_search_output').length,
  };
}

function chatView(body) {
  const messages = body.messages ?? [];
  return {
    api: 'chat',
    full: (body.tools ?? []).map((t) => t.function?.name),
    deferred: [],
    toolSearch: false,
    system: messages.filter((m) => m.role === 'system').map((m) => textOf(m.content)).join('\n'),
    user: messages.filter((m) => m.role === 'user').map((m) => textOf(m.content)).join('\n'),
    searchResults: [],
    calls: messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.function?.name)),
    turn: messages.filter((m) => m.role === 'tool').length,
  };
}

const sse = (res, events) => {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
  res.end(events.map(([event, data]) => `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`).join(''));
};

const callsOf = (step) => step.tools ?? (step.tool ? [{ name: step.tool, input: step.input ?? {} }] : []);

function answerMessages(res, body, step, id) {
  const events = [['message_start', { type: 'message_start', message: { id: `msg_${id}`, type: 'message', role: 'assistant', model: body.model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1000, output_tokens: 1 } } }]];
  const blocks = [
    ...(step.text !== undefined ? [{ start: { type: 'text', text: '' }, delta: { type: 'text_delta', text: step.text } }] : []),
    ...callsOf(step).map((c, k) => ({ start: { type: 'tool_use', id: `toolu_${id}_${k}`, name: c.name, input: {} }, delta: { type: 'input_json_delta', partial_json: JSON.stringify(c.input ?? {}) } })),
  ];
  blocks.forEach((b, index) => {
    events.push(['content_block_start', { type: 'content_block_start', index, content_block: b.start }]);
    events.push(['content_block_delta', { type: 'content_block_delta', index, delta: b.delta }]);
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  events.push(['message_delta', { type: 'message_delta', delta: { stop_reason: callsOf(step).length ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 10 } }]);
  events.push(['message_stop', { type: 'message_stop' }]);
  sse(res, events);
}

function answerResponses(res, step, id) {
  const output = [];
  if (step.text !== undefined) output.push({ type: 'message', id: `msg_${id}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: step.text, annotations: [] }] });
  callsOf(step).forEach((c, k) =>
    output.push(
      c.name === 'tool_search'
        ? { type: 'tool_search_call', id: `tsc_${id}_${k}`, call_id: `call_${id}_${k}`, execution: 'client', status: 'completed', arguments: c.input ?? {} }
        : { type: 'function_call', id: `fc_${id}_${k}`, call_id: `call_${id}_${k}`, name: c.name, arguments: JSON.stringify(c.input ?? {}), status: 'completed' },
    ),
  );
  const response = (status, out) => ({ id: `resp_${id}`, object: 'response', status, output: out });
  const events = [['response.created', { type: 'response.created', response: response('in_progress', []) }]];
  output.forEach((item, i) => {
    events.push(['response.output_item.added', { type: 'response.output_item.added', output_index: i, item }]);
    if (item.type === 'message') events.push(['response.output_text.delta', { type: 'response.output_text.delta', output_index: i, content_index: 0, item_id: item.id, delta: item.content[0].text }]);
    events.push(['response.output_item.done', { type: 'response.output_item.done', output_index: i, item }]);
  });
  events.push(['response.completed', { type: 'response.completed', response: { ...response('completed', output), usage: { input_tokens: 1000, output_tokens: 10, total_tokens: 1010, input_tokens_details: { cached_tokens: 0 } } } }]);
  sse(res, events);
}

function answerChat(res, body, step, id) {
  const base = { id: `chatcmpl-${id}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: body.model };
  const events = [];
  if (step.text !== undefined) events.push(['', { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: step.text } }] }]);
  callsOf(step).forEach((c, index) => events.push(['', { ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, id: `call_${id}_${index}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.input ?? {}) } }] } }] }]));
  events.push(['', { ...base, choices: [{ index: 0, delta: {}, finish_reason: callsOf(step).length ? 'tool_calls' : 'stop' }], usage: { prompt_tokens: 1000, completion_tokens: 10, total_tokens: 1010 } }]);
  events.push(['', '[DONE]']);
  sse(res, events);
}

/**
 * Starts the stand-in. `script()` gives the current scenario's { id, turns }. Resolves once it
 * listens, with its URL, the records so far and stop().
 */
export function startCapi({ logFile, script, maxRequests = 600, maxSeconds = 900 }) {
  const records = [];
  let seq = 0;
  let stopped = false;
  const sockets = new Set();
  const server = http.createServer((req, res) => {
    if (stopped || seq >= maxRequests) {
      res.writeHead(503, { connection: 'close' }).end();
      if (!stopped) void stop('request bound reached');
      return;
    }
    const id = ++seq;
    const chunks = [];
    let size = 0;
    req.on('data', (d) => {
      size += d.length;
      if (size > MAX_BODY_BYTES) {
        req.destroy();
        return;
      }
      chunks.push(d);
    });
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const url = req.url.split('?')[0];
      const s = script();
      const record = { seq: id, at: Date.now(), script: s.id, method: req.method, url };
      try {
        if (req.method === 'GET' && url.endsWith('/models')) {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(MODELS));
        } else if (req.method === 'POST' && url.endsWith('/embeddings')) {
          const inputs = [body?.input ?? []].flat();
          record.embeddings = inputs.length;
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', model: body?.model, data: inputs.map((t, index) => ({ object: 'embedding', index, embedding: embed(t) })), usage: { prompt_tokens: 1, total_tokens: 1 } }));
        } else if (req.method === 'POST' && (url.endsWith('/v1/messages') || url.endsWith('/responses') || url.endsWith('/chat/completions'))) {
          const view = url.endsWith('/v1/messages') ? messagesView(body ?? {}) : url.endsWith('/responses') ? responsesView(body ?? {}) : chatView(body ?? {});
          // An agent request offers tools; a title or summary request offers none.
          const agent = view.full.length > 0 || (view.deferred?.length ?? 0) > 0;
          const step = agent ? (s.turns?.[view.turn] ?? { text: `CAPI stand-in: the script "${s.id}" has no turn ${view.turn + 1}.` }) : { text: 'OK' };
          Object.assign(record, { model: body?.model, agent, ...view, reply: step });
          if (view.api === 'messages') answerMessages(res, body ?? {}, step, id);
          else if (view.api === 'responses') answerResponses(res, step, id);
          else answerChat(res, body ?? {}, step, id);
        } else {
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        }
      } catch (e) {
        record.error = String(e?.message ?? e);
        if (!res.headersSent) res.writeHead(500).end();
      }
      records.push(record);
      fs.appendFileSync(logFile, JSON.stringify({ ...record, body }) + '\n');
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const timer = setTimeout(() => void stop('time bound reached'), maxSeconds * 1000);
  timer.unref();
  async function stop(reason) {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    if (reason) records.push({ seq: ++seq, at: Date.now(), stopped: reason });
    await new Promise((r) => {
      server.close(() => r());
      for (const s of sockets) s.destroy();
    });
  }
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}`, records, stop: () => stop(), isStopped: () => stopped });
    });
  });
}

/**
 * What code-server needs so that Copilot Chat signs in with a fake token and sends every model
 * request to the stand-in: Copilot's scenario-automation switch (it then takes its token from the
 * environment), a token whose endpoints are the stand-in and whose sku is `no_auth_limited_copilot`
 * (with another sku, tool_search's embedding requests go to GitHub and fail offline), and the
 * debug settings that override the API and proxy URLs.
 */
export function capiHostConfig(url) {
  const sku = 'no_auth_limited_copilot';
  const token = {
    token: `tid=offline;exp=4102444800;sku=${sku};chat=1`,
    expires_at: 4102444800,
    refresh_in: 3600,
    sku,
    individual: true,
    copilot_plan: 'individual',
    chat_enabled: true,
    telemetry: 'disabled',
    endpoints: { api: url, proxy: url, telemetry: url, 'origin-tracker': url },
  };
  return {
    env: { IS_SCENARIO_AUTOMATION: '1', GITHUB_PAT: 'offline-not-a-token', VSCODE_COPILOT_CHAT_TOKEN: Buffer.from(JSON.stringify(token)).toString('base64') },
    settings: { 'github.copilot.advanced.debug.overrideCapiUrl': url, 'github.copilot.advanced.debug.overrideProxyUrl': url },
  };
}
