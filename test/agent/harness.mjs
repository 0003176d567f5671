// Runs one Agent-mode scenario in an open workbench and gathers what it needs to assert:
// every request the Scripted Model received, what the extension logged, what the chat showed.
//
// A scenario is data plus assertions (see scenarios.mjs):
//   name       the test's title
//   mode       the mode picker's row to use (default "Agent"; a custom agent's name works too)
//   settings   user settings, applied by the Scripted Model before its first answer (they stay)
//   setup      steps before the prompt (same kinds as `steps`)
//   prompt     what is typed into the chat (omit for a scenario of steps only)
//   model      the Scripted Model's turns for this prompt (see scripted-model/extension.js)
//   chats      [{ prompt, model, stopped }]: the turns of the other chats a `chat` step starts (see below);
//              each chat of the scenario must end with a text, unless `stopped`
//   steps      what to do while the answer runs, in order:
//                { card: { title }, answer: 'allow' | 'skip', screenshot }   wait for a confirmation card,
//                                                                          check its title, record it, answer it
//                { card: {...}, stop: true }     press Stop while the card waits
//                { stop: true }                  press Stop
//                { command: 'Title' }            run a command from the palette
//                { editor: 'Title' }             wait for an editor tab whose title holds this (diff editors too)
//                { open: 'path' }                open a workspace file with Quick Open (Ctrl+P)
//                { mode: 'Name' }                pick a row of the mode picker
//                { chat: 'prompt' }              start another chat and send it this prompt; the one before
//                                                goes on in the background (its turns: `chats`)
//                { review: 'title start', ... }  wait for a review editor (diff or multi-diff) whose tab title
//                                                starts with this, check what shows while it waits, answer it:
//                    waiting: 'text'             the shown chat's tool call reads this meanwhile
//                    pending: n                  the status bar counts n changes waiting (default 1)
//                    edit: { line, append }      the person types at the end of a line of the proposal first
//                    accept: 'button' | 'keys' | 'palette'    the title's ✓, Ctrl+K Ctrl+Y, or the command palette
//                    reject: { reason, via: 'button' | 'keys' | 'palette' }   and the reason typed in the input box
//                    stop: true                  press the chat's Stop instead
//                    as: 'name'                  what was seen goes to r.seen[name] (with the time, `at`)
//                { shows: 'text', pending: n, reviews: n, hold: ms, as }   wait until the shown chat's tool call
//                                                reads this, wait `hold` more, then check the count of changes
//                                                waiting and of review editors open
//                { logged: /regex/, pending: n, reviews: n, as }   the same, once the extension's log has a
//                                                line that matches (written since the scenario began)
//                { screenshot: 'name' }
//              A card that no step expects fails the scenario; so does a review that no step expects.
//   log        regular expressions: the extension's log must hold a line for each before the assertions
//              run (each call whose result reached the model is waited for anyway)
//   screenshot name of a screenshot of the finished answer, tool calls expanded ({ name, readme } also
//              writes media/readme/<readme>.png when the suite runs with --readme-screenshots)
//   expect     async (r) => assertions on the record r (below)
//   run        async (h) => a scenario that drives the workbench itself (h: the harness)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { S } from './chat.mjs';

/** Polls `read` until `ok` holds for its value; returns the last value (the caller judges a timeout). */
async function waitUntil(read, ok, ms = 5000, every = 100) {
  const t0 = Date.now();
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() - t0 > ms) return v;
    await new Promise((r) => setTimeout(r, every));
  }
}

/** The tab label of a review editor: a diff or multi-diff of a change waiting for the person. */
const REVIEW_LABEL = /↔ proposed by /;

export class Harness {
  /**
   * @param {object} o
   * @param {import('./chat.mjs').Chat} o.chat
   * @param {string} o.agentDir   the Scripted Model's folder (script.json, model.jsonl, config.json)
   * @param {string} o.workspace
   * @param {string} o.logsDir    the user-data logs folder, where the extension's Output channel is written
   * @param {string} o.cliPath    dist/cli.js
   * @param {(name: string, opts?: object) => Promise<string>} o.screenshot
   */
  constructor(o) {
    Object.assign(this, o);
    this.page = o.chat.page;
  }

  modelRecords() {
    const f = path.join(this.agentDir, 'model.jsonl');
    return fs.existsSync(f) ? fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
  }

  extensionLogFile() {
    const found = [];
    const walk = (d) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (p.includes('agent-file-tools.agent-file-tools') && p.endsWith('.log')) found.push(p);
      }
    };
    if (fs.existsSync(this.logsDir)) walk(this.logsDir);
    return found[0];
  }

  logSize() {
    const f = this.extensionLogFile();
    return f ? fs.statSync(f).size : 0;
  }

  logSince(offset) {
    const f = this.extensionLogFile();
    return f ? fs.readFileSync(f).subarray(offset).toString('utf8') : '';
  }

  /**
   * The extension's log since `offset`, once it holds a line for each call that ran (the log is
   * written in batches), and then still for `quietMs`, so that a line that should not be there has
   * had the time to appear.
   */
  async settleLog(offset, invokes, quietMs = 250, maxMs = 5000, lines = []) {
    const t0 = Date.now();
    const count = () => (this.logSince(offset).match(/^\S+ \S+ \[info\] fs_\w+ [{[].* -> /gm) ?? []).length;
    const missing = () => lines.some((re) => !re.test(this.logSince(offset)));
    while ((count() < invokes || missing()) && Date.now() - t0 < maxMs) {
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, quietMs));
    return this.logSince(offset);
  }

  config() {
    try {
      return JSON.parse(fs.readFileSync(path.join(this.agentDir, 'config.json'), 'utf8'));
    } catch {
      return {};
    }
  }

  /** What our CLI prints for a call on the same workspace: the text contract, byte for byte. */
  cli(tool, input) {
    let out;
    try {
      out = execFileSync(process.execPath, [this.cliPath, tool, '--root', this.workspace, '--input', JSON.stringify(input), '--yes', '--json'], { encoding: 'utf8' });
    } catch (e) {
      out = e.stdout; // exit 1: the tool answered with an error, still a result
    }
    return JSON.parse(out).text;
  }

  /** The review editors open: their tab labels. */
  async reviewTabs() {
    return (await this.chat.tabs()).filter((l) => REVIEW_LABEL.test(l));
  }

  /** The editor group that shows the tab whose label starts with `title`, as its active editor. */
  groupOf(title) {
    return this.page.locator('.editor-group-container', { has: this.page.locator(`${S.tab}.active[aria-label^="${title}"]`) }).first();
  }

  /**
   * Waits for the review of a change, checks what the person sees meanwhile (the chat's words,
   * the count of changes waiting), and answers it as a person does.
   */
  async reviewStep(s, seen) {
    const { chat, page } = this;
    const t0 = Date.now();
    const tab = page.locator(`${S.tab}[aria-label^="${s.review}"]`);
    while (!(await tab.count())) {
      if (Date.now() - t0 > (s.timeout ?? 20000)) throw new Error(`no review "${s.review}" opened; tabs: ${JSON.stringify(await chat.tabs())}`);
      if (await chat.done()) throw new Error(`the answer finished without the review "${s.review}"`);
      await page.waitForTimeout(100);
    }
    const openedMs = Date.now() - t0;
    const label = await tab.first().getAttribute('aria-label');
    const pending = await waitUntil(() => chat.reviewsWaiting(), (n) => n === (s.pending ?? 1));
    if (pending !== (s.pending ?? 1)) throw new Error(`the status bar counts ${pending} changes waiting for review, expected ${s.pending ?? 1}`);
    const response = s.waiting ? await waitUntil(() => chat.response(), (r) => r.invocations.includes(s.waiting)) : await chat.response();
    if (s.waiting && !response.invocations.includes(s.waiting)) {
      throw new Error(`while the review waits the chat shows ${JSON.stringify(response.invocations)}, not "${s.waiting}"`);
    }
    const group = this.groupOf(s.review);
    // the title's buttons show once the editor has laid out
    await group.locator(S.editorAction('Accept Proposed Change')).first().waitFor({ timeout: 5000 });
    if (s.edit) {
      await chat.appendToProposalLine(s.edit.line, s.edit.append);
    }
    if (s.screenshot) await this.shot(s.screenshot);
    const badge = await page.locator(`${S.pendingIcon} .badge-content`).first().textContent({ timeout: 2000 }).catch(() => undefined);
    const record = { label, pending, badge, invocations: response.invocations, openedMs, tabs: await chat.tabs(), at: Date.now() };
    if (s.as) seen[s.as] = record;
    if (s.stop) {
      await chat.stop();
    } else if (s.accept) {
      await this.answer(group, 'accept', s.accept);
    } else if (s.reject) {
      await this.answer(group, 'reject', s.reject.via ?? 'button');
      await chat.answerInputBox(s.reject.reason);
    } else {
      throw new Error(`the step for the review "${s.review}" says neither accept, reject nor stop`);
    }
    // answered or stopped, the review editor closes
    const left = await waitUntil(() => tab.count(), (n) => n === 0);
    if (left) throw new Error(`the review "${s.review}" is still open after the answer; tabs: ${JSON.stringify(await chat.tabs())}`);
    record.closedMs = Date.now() - record.at;
  }

  async answer(group, what, via) {
    const { chat } = this;
    const key = what === 'accept' ? 'Y' : 'N';
    if (via === 'button') {
      await group.locator(S.editorAction(what === 'accept' ? 'Accept Proposed Change' : 'Reject Proposed Change')).first().click({ timeout: 5000 });
    } else if (via === 'keys') {
      await group.locator(S.proposalLines).first().click({ timeout: 5000 });
      await this.page.keyboard.press('Control+K');
      await this.page.keyboard.press(`Control+${key}`);
    } else if (via === 'palette') {
      await chat.runCommand(what === 'accept' ? 'Agent File Tools: Accept Proposed Change' : 'Agent File Tools: Reject Proposed Change...');
    } else {
      throw new Error(`unknown way to ${what}: ${via}`);
    }
  }

  async step(s, cards, seen = {}) {
    const { chat, page } = this;
    if (s.open) {
      await chat.quickOpen(s.open);
    }
    if (s.chat) {
      await chat.newChat(this.mode ?? 'Agent');
      await chat.send(s.chat);
    }
    if (s.review) {
      await this.reviewStep(s, seen);
      return;
    }
    if (s.shows) {
      const r = await waitUntil(() => chat.response(), (x) => x.invocations.includes(s.shows), s.timeout ?? 15000);
      if (!r.invocations.includes(s.shows)) throw new Error(`the chat never showed "${s.shows}"; it shows ${JSON.stringify(r.invocations)}`);
    }
    if (s.logged) {
      const found = await waitUntil(() => this.logSince(this.logStart), (l) => s.logged.test(l), s.timeout ?? 5000);
      if (!s.logged.test(found)) throw new Error(`the log never had a line matching ${s.logged}; since the scenario began it has:\n${found}`);
    }
    if (s.shows || s.logged) {
      const at = Date.now();
      const counts = async () => ({ pending: await chat.reviewsWaiting(), reviews: (await this.reviewTabs()).length });
      const expected = (c) => (s.pending === undefined || c.pending === s.pending) && (s.reviews === undefined || c.reviews === s.reviews);
      await waitUntil(counts, expected);
      if (s.hold) await page.waitForTimeout(s.hold);
      const state = { invocations: (await chat.response()).invocations, pending: await chat.reviewsWaiting(), reviews: await this.reviewTabs(), at };
      if (s.pending !== undefined && state.pending !== s.pending) throw new Error(`the status bar counts ${state.pending} changes waiting, expected ${s.pending}`);
      if (s.reviews !== undefined && state.reviews.length !== s.reviews) throw new Error(`${state.reviews.length} review editors are open, expected ${s.reviews}: ${JSON.stringify(state.reviews)}`);
      if (s.as) seen[s.as] = state;
    }
    if (s.command) {
      const t0 = Date.now();
      await chat.runCommand(s.command);
      this.chat.log(`ran "${s.command}" in ${Date.now() - t0} ms`);
    }
    if (s.mode) {
      await chat.setMode(s.mode);
    }
    if (s.editor) {
      await page.waitForSelector(`.tabs-container .tab[aria-label*="${s.editor}"]`, { timeout: s.timeout ?? 15000 });
    }
    if (s.card) {
      // answer: 'allow' (the card's primary button, "Allow in this Session") or 'skip'
      const t0 = Date.now();
      while (!(await chat.cardVisible())) {
        if (Date.now() - t0 > (s.timeout ?? 20000)) throw new Error(`no confirmation card showed (expected "${s.card.title ?? 'any'}")`);
        if (await chat.done()) throw new Error(`the answer finished without the confirmation card "${s.card.title ?? 'any'}"`);
        await page.waitForTimeout(100);
      }
      await page.waitForTimeout(300); // the card animates in; its text is set by then
      const card = await chat.readCard();
      cards.push(card);
      if (s.card.title !== undefined && card.title !== s.card.title) {
        throw new Error(`the card's title is "${card.title}", expected "${s.card.title}"`);
      }
      if (s.screenshot) await this.shot(s.screenshot);
      if (s.stop) await chat.stop();
      else await chat.answerCard(s.answer);
      return;
    }
    if (s.stop) {
      await chat.stop();
    }
    if (s.screenshot) {
      await this.shot(s.screenshot);
    }
  }

  /**
   * After a failed scenario: stops the answer if it still runs and rejects any change left
   * waiting, so that the next scenario starts with no review open.
   */
  async cleanup() {
    const { chat, page } = this;
    await page.keyboard.press('Escape');
    if (!(await chat.done())) await chat.stop().catch(() => {});
    for (let i = 0; i < 5 && (await waitUntil(() => chat.reviewsWaiting(), (n) => n === 0, 2000)) > 0; i++) {
      await chat.runCommand('Agent File Tools: Reject Proposed Change...');
      // several waiting: the first of the picker's rows, then the reason
      if (await page.waitForSelector('.quick-input-widget .quick-input-title:has-text("Which proposed change?")', { timeout: 1000 }).then(() => true, () => false)) {
        await page.keyboard.press('Enter');
      }
      await chat.answerInputBox('the scenario failed');
    }
  }

  /** A screenshot named by a string, or by { name, readme } to be one of the README's images too. */
  shot(spec) {
    const { name, readme } = typeof spec === 'string' ? { name: spec } : spec;
    return this.screenshot(name, { readme });
  }

  /** Runs one scenario; returns the record its `expect` was given. */
  async run(sc) {
    const { chat, page } = this;
    if (sc.run) {
      return sc.run(this);
    }
    const id = sc.name;
    const chats = sc.chats?.map((c) => ({ prompt: c.prompt, turns: c.model }));
    fs.writeFileSync(path.join(this.agentDir, 'script.json'), JSON.stringify({ id, turns: sc.model ?? [], settings: sc.settings, chats }));
    this.mode = sc.mode;
    const before = this.modelRecords().length;
    const logStart = this.logSize();
    this.logStart = logStart;
    const cards = [];
    const seen = {};
    await chat.newChat(sc.mode ?? 'Agent');
    for (const s of sc.setup ?? []) {
      await this.step(s, cards, seen);
    }
    if (sc.prompt !== undefined) {
      await chat.send(sc.prompt);
      const steps = [...(sc.steps ?? [])];
      const t0 = Date.now();
      for (;;) {
        if (Date.now() - t0 > 60000) throw new Error('the answer did not finish within 60 s');
        if (steps.length) {
          await this.step(steps.shift(), cards, seen);
          continue;
        }
        if (await chat.cardVisible()) {
          const card = await chat.readCard();
          throw new Error(`an unexpected confirmation card showed: "${card.title}"`);
        }
        const reviews = await this.reviewTabs();
        if (reviews.length) {
          throw new Error(`an unexpected review opened: ${JSON.stringify(reviews)}`);
        }
        if (await chat.done()) break;
        await page.waitForTimeout(100);
      }
      await chat.expand();
      if (sc.screenshot) await this.shot(sc.screenshot);
    }
    if (sc.chats) {
      // every chat answers, in the background too, and ends with a text (unless it was stopped)
      const prompts = [sc.prompt, ...sc.chats.filter((c) => !c.stopped).map((c) => c.prompt)];
      const answered = () => prompts.every((p) => this.modelRecords().slice(before).some((r) => r.script === id && r.prompt === p && r.reply.some((x) => x.text !== undefined)));
      if (!(await waitUntil(answered, Boolean, 15000))) throw new Error('a chat of the scenario did not finish within 15 s');
    }
    const requests = this.modelRecords().slice(before).filter((r) => r.script === id);
    const results = new Map();
    for (const r of requests) {
      for (const m of r.messages) {
        for (const p of m.parts) {
          if (p.type === 'toolResult') results.set(p.callId, p);
        }
      }
    }
    const direct = Object.assign({}, ...requests.map((r) => r.direct ?? {}));
    const calls = requests.flatMap((r) =>
      r.reply
        .filter((x) => x.toolCall)
        .map((x) => ({ tool: x.toolCall, prompt: r.prompt, input: x.input, copied: x.copied, result: results.get(x.callId)?.text, parts: results.get(x.callId)?.parts, direct: direct[x.callId] })),
    );
    // Each call of ours that ran logs a line: in the chat (unless skipped or stopped) and again outside it.
    const ran = calls.filter((c) => c.tool.startsWith('fs_') && c.result !== undefined && !/chose to skip|cancelled/i.test(c.result)).length;
    const log = await this.settleLog(logStart, ran + calls.filter((c) => c.direct && !c.direct.error).length, 250, 5000, sc.log ?? []);
    const record = {
      requests,
      calls,
      offered: requests[0]?.tools ?? [],
      log,
      logLines: log.split('\n').filter(Boolean),
      budgets: [...log.matchAll(/token budget (\d+)/g)].map((m) => Number(m[1])),
      chat: sc.prompt !== undefined ? await chat.response() : { text: '', invocations: [] },
      cards,
      seen,
      ws: {
        path: this.workspace,
        read: (rel) => fs.readFileSync(path.join(this.workspace, rel), 'utf8'),
        exists: (rel) => fs.existsSync(path.join(this.workspace, rel)),
      },
      cli: (tool, input) => this.cli(tool, input),
      config: this.config(),
      harness: this,
    };
    await sc.expect?.(record);
    return record;
  }
}
