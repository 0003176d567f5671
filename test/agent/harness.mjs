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
//   steps      what to do while the answer runs, in order:
//                { card: { title }, answer: 'allow' | 'skip', screenshot }   wait for a confirmation card,
//                                                                          check its title, record it, answer it
//                { card: {...}, stop: true }     press Stop while the card waits
//                { stop: true }                  press Stop
//                { command: 'Title' }            run a command from the palette
//                { editor: 'Title' }             wait for an editor tab whose title holds this (diff editors too)
//                { mode: 'Name' }                pick a row of the mode picker
//                { screenshot: 'name' }
//              A card that no step expects fails the scenario.
//   screenshot name of a screenshot of the finished answer, tool calls expanded ({ name, readme } also
//              writes media/readme/<readme>.png when the suite runs with --readme-screenshots)
//   expect     async (r) => assertions on the record r (below)
//   run        async (h) => a scenario that drives the workbench itself (h: the harness)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

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
  async settleLog(offset, invokes, quietMs = 250, maxMs = 5000) {
    const t0 = Date.now();
    const count = () => (this.logSince(offset).match(/^\S+ \S+ \[info\] fs_\w+ [{[].* -> /gm) ?? []).length;
    while (count() < invokes && Date.now() - t0 < maxMs) {
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

  async step(s, cards) {
    const { chat, page } = this;
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
    fs.writeFileSync(path.join(this.agentDir, 'script.json'), JSON.stringify({ id, turns: sc.model ?? [], settings: sc.settings }));
    const before = this.modelRecords().length;
    const logStart = this.logSize();
    const cards = [];
    await chat.newChat(sc.mode ?? 'Agent');
    for (const s of sc.setup ?? []) {
      await this.step(s, cards);
    }
    if (sc.prompt !== undefined) {
      await chat.send(sc.prompt);
      const steps = [...(sc.steps ?? [])];
      const t0 = Date.now();
      for (;;) {
        if (Date.now() - t0 > 60000) throw new Error('the answer did not finish within 60 s');
        if (steps.length) {
          await this.step(steps.shift(), cards);
          continue;
        }
        if (await chat.cardVisible()) {
          const card = await chat.readCard();
          throw new Error(`an unexpected confirmation card showed: "${card.title}"`);
        }
        if (await chat.done()) break;
        await page.waitForTimeout(100);
      }
      await chat.expand();
      if (sc.screenshot) await this.shot(sc.screenshot);
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
        .map((x) => ({ tool: x.toolCall, input: x.input, copied: x.copied, result: results.get(x.callId)?.text, parts: results.get(x.callId)?.parts, direct: direct[x.callId] })),
    );
    // Each call of ours that ran logs a line: in the chat (unless skipped or stopped) and again outside it.
    const ran = calls.filter((c) => c.tool.startsWith('fs_') && c.result !== undefined && !/chose to skip|cancelled/i.test(c.result)).length;
    const log = await this.settleLog(logStart, ran + calls.filter((c) => c.direct && !c.direct.error).length);
    const record = {
      requests,
      calls,
      offered: requests[0]?.tools ?? [],
      log,
      logLines: log.split('\n').filter(Boolean),
      budgets: [...log.matchAll(/token budget (\d+)/g)].map((m) => Number(m[1])),
      chat: sc.prompt !== undefined ? await chat.response() : { text: '', invocations: [] },
      cards,
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
