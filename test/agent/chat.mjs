// Drives VS Code's chat view in the workbench the way a person does (Playwright on chromium):
// new chat, mode and model pickers, typing a prompt, confirmation cards, Stop, the tools picker,
// the command palette. Selectors are those of VS Code 1.139 (code-server 4.139.1).

export const S = {
  input: '.interactive-input-part .interactive-input-editor',
  mode: '.interactive-input-part .chat-mode-picker-item',
  model: '.interactive-input-part .model-picker-item',
  response: '.monaco-list-row.response',
  loading: '.chat-response-loading',
  newChat: '.part.auxiliarybar a.action-label[aria-label^="New Chat ("]',
  maximize: '.part.auxiliarybar a.action-label[aria-label="Maximize Secondary Side Bar"]',
  notice: '.interactive-input-part a.chat-input-notification-dismiss:visible',
  card: '.chat-tool-confirmation-carousel:visible',
  cardTitle: '.chat-tool-carousel-collapsed-title',
  cardMessage: '.chat-confirmation-widget-message',
  cardButtons: '.chat-confirmation-widget-buttons:visible',
  allow: '.monaco-button-dropdown > a.monaco-button.monaco-text-button',
  skip: 'a.monaco-button[aria-label^="Proceed without running"]',
  stop: '.interactive-input-part a.action-label[aria-label^="Cancel"]',
  tools: '.interactive-input-part a.action-label[aria-label^="Configure Tools"]',
  pickerRow: '.context-view .monaco-list-row',
  quickRow: '.quick-input-widget .monaco-list-row',
  suggestRow: '.suggest-widget.visible .monaco-list-row',
  session: '.agent-session-item',
  tab: '.tabs-container .tab',
  editorAction: (label) => `.editor-actions a.action-label[aria-label^="${label}"]`,
  // the proposal side's own lines: in the inline diff (a narrow editor) the deleted lines sit in view zones, which take no focus
  proposalLines: '.monaco-diff-editor .editor.modified .lines-content > .view-lines',
  reviewStatus: '.statusbar-item:has-text("for your review")',
  pendingIcon: '.activitybar .action-item:has(.action-label[aria-label^="Agent File Tools"])',
};

export class Chat {
  constructor(page, log = () => {}) {
    this.page = page;
    this.log = log;
  }

  /**
   * Waits for the chat input and for `model` to be the chat's model (the Scripted Model, the only
   * model of the scripted host, is picked by itself), then widens the chat for screenshots.
   */
  async ready(timeoutMs = 90000, model = 'Scripted Model') {
    const { page } = this;
    const t0 = Date.now();
    await page.waitForSelector(S.input, { timeout: timeoutMs });
    // an empty `model`: any model, once the picker shows one
    for (;;) {
      const shown = await this.currentModel();
      if (shown && shown.includes(model)) break;
      if (Date.now() - t0 > timeoutMs) throw new Error(`${model || 'a model'} never became the chat's model (the picker shows "${shown}")`);
      await page.waitForTimeout(250);
    }
    await page.locator(S.maximize).first().click({ timeout: 3000 }).catch(() => this.log('the chat has no Maximize button'));
  }

  /** The model the picker shows, as text. */
  async currentModel() {
    return (await this.page.locator(S.model).innerText().catch(() => '')).trim();
  }

  /**
   * Picks a model by its whole name ("Claude Sonnet 4" is not "Claude Sonnet 4.5") in the model
   * picker; a model may sit in its collapsed "Other Models" section.
   */
  async pickModel(name, timeoutMs = 60000) {
    const { page } = this;
    const whole = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![.\\w])`);
    const t0 = Date.now();
    while (!whole.test(await this.currentModel())) {
      if (Date.now() - t0 > timeoutMs) throw new Error(`the model picker never offered ${name} (it shows "${await this.currentModel()}")`);
      await page.keyboard.press('Escape');
      await page.click(`${S.model} a.model-picker-name`).catch(() => page.click(S.model));
      await page.locator(S.pickerRow).first().waitFor({ timeout: 5000 }).catch(() => {});
      const labels = async () => page.locator(S.pickerRow).evaluateAll((rs) => rs.map((r) => r.getAttribute('aria-label') ?? ''));
      let at = (await labels()).findIndex((l) => whole.test(l));
      if (at < 0) {
        const other = (await labels()).findIndex((l) => l.startsWith('Other Models'));
        if (other >= 0) {
          await page.locator(S.pickerRow).nth(other).click({ timeout: 2000 }).catch(() => {});
          await page.waitForTimeout(300);
          at = (await labels()).findIndex((l) => whole.test(l));
        }
      }
      if (at >= 0) {
        await page.locator(S.pickerRow).nth(at).click({ timeout: 2000 }).catch(() => {});
      } else {
        this.log(`model rows: ${JSON.stringify(await labels())}`);
        await page.keyboard.press('Escape');
      }
      await page.waitForTimeout(500);
    }
  }

  /** Closes the "Set BYOK utility models" notice, which shows up a while after start. */
  async dismissNotice() {
    await this.page.locator(S.notice).first().click({ timeout: 300 }).catch(() => {});
  }

  /**
   * Opens a quick input with `key`, types `text`, waits for a row whose label holds `row` and
   * presses Enter, trying again when the quick input lost focus (what was typed may then have
   * landed in the chat input, which is cleared).
   */
  async quickPick(key, text, row, what) {
    const { page } = this;
    for (let attempt = 1; ; attempt++) {
      await page.keyboard.press('Escape');
      await page.keyboard.press(key);
      const opened = await page
        .waitForSelector('.quick-input-widget input:focus', { timeout: 5000 })
        .then(() => page.keyboard.type(text))
        .then(() => page.waitForSelector(`${S.quickRow}[aria-label*="${row}"]`, { timeout: 5000 }))
        .then(
          () => true,
          () => false,
        );
      if (opened && (await page.locator('.quick-input-widget input:focus').count())) {
        await page.keyboard.press('Enter');
        return;
      }
      this.log(`${what} lost focus (attempt ${attempt}); trying again`);
      await this.type('');
      if (attempt === 3) {
        throw new Error(`could not pick "${text}" in ${what}`);
      }
    }
  }

  /** Runs a command from the palette (F1, its title, Enter). */
  runCommand(title) {
    return this.quickPick('F1', title, title, 'the command palette');
  }

  /** Opens a workspace file in an editor through Quick Open (Ctrl+P), as a person does. */
  async quickOpen(rel) {
    const name = rel.split('/').pop();
    await this.quickPick('Control+P', rel, name, 'Quick Open');
    await this.page.waitForSelector(`${S.tab}[aria-label^="${name}"]`, { timeout: 5000 });
  }

  /** The labels of the editor tabs. */
  tabs() {
    return this.page.locator(S.tab).evaluateAll((es) => es.map((e) => e.getAttribute('aria-label')));
  }

  /** How many changes the status bar says wait for review (0 when it shows none). */
  async reviewsWaiting() {
    const texts = await this.page.locator(S.reviewStatus).evaluateAll((es) => es.map((e) => e.textContent));
    const m = /(\d+) changes? waits? for your review/.exec(texts.join(' '));
    return m ? Number(m[1]) : 0;
  }

  /** Clicks a button of the active editor's title bar, by the start of its label. */
  async clickEditorAction(label) {
    await this.page.locator(S.editorAction(label)).first().click({ timeout: 5000 });
  }

  /** Types at the end of the proposal's line holding `line`, as a person edits the proposal before accepting it. */
  async appendToProposalLine(line, text) {
    const { page } = this;
    await page.locator(`${S.proposalLines} > .view-line`, { hasText: line }).first().click({ timeout: 5000 });
    await page.keyboard.press('End');
    await page.keyboard.type(text);
  }

  /** Answers the input box that is open (a Reject's reason): types and presses Enter. */
  async answerInputBox(text) {
    const { page } = this;
    await page.waitForSelector('.quick-input-widget input:focus', { timeout: 5000 });
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.quick-input-widget', { state: 'hidden', timeout: 5000 });
  }

  /** A new, empty chat in the given mode (a row of the mode picker: Agent, Ask, Plan or a custom agent). */
  async newChat(mode = 'Agent') {
    const { page } = this;
    await page.keyboard.press('Escape');
    await page.click(S.newChat);
    await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 0, S.response, { timeout: 5000 });
    await this.setMode(mode);
    await this.dismissNotice();
  }

  async setMode(mode) {
    const { page } = this;
    if ((await page.locator(S.mode).innerText()).trim() === mode) {
      return;
    }
    // A new custom agent shows up a moment after its file is written; an open picker is not refreshed.
    const t0 = Date.now();
    for (;;) {
      await page.click(`${S.mode} a.action-label`);
      await page.locator(S.pickerRow).first().waitFor({ timeout: 5000 });
      const row = page.locator(`${S.pickerRow}[aria-label^="${mode},"]`);
      // The picker animates in: a click may land while its rows are being laid out.
      if ((await row.count()) && (await row.first().click({ timeout: 2000 }).then(() => true, () => false))) {
        if (Date.now() - t0 > 3000) {
          this.log(`the mode picker offered "${mode}" after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
        }
        break;
      }
      await page.keyboard.press('Escape');
      if (Date.now() - t0 > 20000) {
        throw new Error(`the mode picker has no "${mode}" after 20 s`);
      }
      await page.waitForTimeout(500);
    }
    await page.waitForFunction(([sel, m]) => document.querySelector(sel)?.textContent?.trim() === m, [S.mode, mode], { timeout: 5000 });
  }

  /** The rows of the mode picker. */
  async modes() {
    const { page } = this;
    await page.click(`${S.mode} a.action-label`);
    await page.locator(S.pickerRow).first().waitFor({ timeout: 5000 });
    const rows = await page.locator(S.pickerRow).evaluateAll((rs) => rs.map((r) => r.getAttribute('aria-label')).filter(Boolean));
    await page.keyboard.press('Escape');
    return rows;
  }

  async type(prompt) {
    const { page } = this;
    await page.click(S.input);
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type(prompt);
    // A `#name` opens the suggestions, where Enter would pick an item instead of sending.
    if (await page.locator('.suggest-widget.visible').count()) {
      await page.keyboard.press('Escape');
    }
  }

  /** Closes the `#` suggestions if they are open (they may open a moment after the typing). */
  async closeSuggestions() {
    for (let i = 0; i < 5; i++) {
      await this.page.waitForTimeout(100);
      if (!(await this.page.locator('.suggest-widget.visible').count())) {
        return;
      }
      await this.page.keyboard.press('Escape');
    }
  }

  async send(prompt) {
    const { page } = this;
    await this.type(prompt);
    // Enter sends, unless a suggestion list opened late and takes it: then send again.
    for (let attempt = 1; ; attempt++) {
      await this.closeSuggestions();
      await page.keyboard.press('Enter');
      if (await page.waitForSelector(S.response, { timeout: 4000 }).then(() => true, () => false)) {
        return;
      }
      if (attempt === 3) {
        throw new Error(`the prompt "${prompt}" was not sent`);
      }
      this.log(`Enter did not send "${prompt}" (attempt ${attempt}); again`);
    }
  }

  /** True once the last response has finished (it stays loading while a card waits). */
  async done() {
    const last = this.page.locator(S.response).last();
    return (await last.count()) > 0 && (await last.locator(S.loading).count()) === 0 && !(await last.evaluate((e) => e.querySelector('.interactive-item-container')?.classList.contains('chat-response-loading')));
  }

  async cardVisible() {
    return (await this.page.locator(S.cardButtons).count()) > 0;
  }

  /** The confirmation card's title and message, and what the Sessions list says meanwhile. */
  async readCard() {
    const { page } = this;
    const card = page.locator(S.card).first();
    const title = (await card.locator(S.cardTitle).first().textContent()).trim();
    const message = (await card.locator(`${S.cardMessage} .rendered-markdown`).first().textContent().catch(() => '')).trim();
    // The Sessions list shows the pending card's title under the chat's entry, a moment after the card.
    let sessions = await this.sessions();
    for (let i = 0; i < 30 && !sessions.some((t) => t.includes(title)); i++) {
      await page.waitForTimeout(100);
      sessions = await this.sessions();
    }
    return { title, message, text: await card.innerText(), sessions };
  }

  /** The entries of the Sessions list, as shown: a chat's title, what it is doing, when. */
  sessions() {
    return this.page.locator(S.session).evaluateAll((es) => es.filter((e) => e.offsetParent).map((e) => e.innerText));
  }

  async answerCard(answer) {
    const buttons = this.page.locator(S.cardButtons).first();
    await buttons.locator(answer === 'skip' ? S.skip : S.allow).first().click();
  }

  async stop() {
    await this.page.locator(S.stop).first().click();
  }

  /** Opens what the last response folds away, so its tool calls show their input and output. */
  async expand() {
    const { page } = this;
    const last = page.locator(S.response).last();
    for (const [sel, max] of [
      ['summary.completed-response-summary', 1],
      ['.chat-thinking-box .chat-used-context-label a.monaco-button', 3],
      ['.chat-tool-invocation-part .chat-confirmation-widget-title', 4],
    ]) {
      const l = last.locator(`${sel}:visible`);
      for (let i = 0, n = Math.min(await l.count(), max); i < n; i++) {
        await l.nth(i).click({ timeout: 2000 }).catch(() => {});
        await page.waitForTimeout(150);
      }
    }
  }

  /** The last response as text, and the invocation message of each tool call in it. */
  async response() {
    const last = this.page.locator(S.response).last();
    const text = await last.innerText();
    const invocations = await last
      .locator('.chat-tool-invocation-part')
      .evaluateAll((es) => es.map((e) => (e.querySelector('.chat-confirmation-widget-title, .progress-container, .rendered-markdown')?.textContent ?? e.textContent).replace(/\s+/g, ' ').trim()));
    return { text, invocations };
  }

  /** Every `#` reference the chat input suggests, as the user sees them (the list is virtualised: page through it). */
  async hashSuggestions() {
    const { page } = this;
    // typed here, not with type(): type() closes a list that opens at once, and this one must stay open
    await page.click(S.input);
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type('#');
    const seen = new Map();
    let total = Infinity; // each row says how many there are (aria-setsize)
    let asked = 0;
    const deadline = Date.now() + 60_000;
    while (seen.size < total && Date.now() < deadline) {
      const rows = await page.locator(S.suggestRow).evaluateAll((rs) => rs.map((r) => [r.getAttribute('data-index'), r.getAttribute('aria-label'), r.getAttribute('aria-setsize')]));
      if (!rows.length) {
        // the list may miss the typed trigger, or close as the chat input settles: wait, then ask for it as a person would
        const open = await page.waitForSelector(S.suggestRow, { timeout: asked ? 10_000 : 5000 }).then(() => true, () => false);
        if (!open) {
          if (++asked > 4) break;
          // typed again into an input that may have been cleared as it settled; the second time, asked for as a person would
          this.log(`the # suggestions were not open; typing # again${asked > 1 ? ' and Ctrl+Space' : ''} (${asked})`);
          await page.click(S.input);
          await page.keyboard.press('Control+A');
          await page.keyboard.press('Delete');
          await page.keyboard.type('#');
          if (asked > 1) {
            await page.keyboard.press('Control+Space');
          }
        }
        continue;
      }
      for (const [idx, label, size] of rows) {
        seen.set(Number(idx), label);
        total = Number(size) || total;
      }
      await page.keyboard.press('PageDown');
      await page.waitForTimeout(30);
    }
    if (seen.size < total) {
      throw new Error(`read ${seen.size} of the ${total} # suggestions`);
    }
    await page.keyboard.press('Escape');
    await this.type('');
    return [...seen.entries()].sort((a, b) => a[0] - b[0]).map(([, label]) => label);
  }

  /** Opens the tools picker with only the named group expanded; returns its rows. */
  async openToolsPicker(group) {
    const { page } = this;
    await page.click(S.tools);
    await page.locator(S.quickRow).first().waitFor({ timeout: 5000 });
    const builtIn = page.locator(`${S.quickRow}[aria-label="Built-In"]`);
    if ((await builtIn.getAttribute('aria-expanded')) === 'true') {
      await builtIn.locator('.monaco-tl-twistie').click();
    }
    const row = page.locator(`${S.quickRow}[aria-label="${group}"]`);
    if ((await row.getAttribute('aria-expanded')) !== 'true') {
      await row.locator('.monaco-tl-twistie').click();
    }
    await page.waitForTimeout(200);
    return page.locator(S.quickRow).evaluateAll((rs) => rs.map((r) => ({ label: r.getAttribute('aria-label'), level: Number(r.getAttribute('aria-level')), checked: r.getAttribute('aria-checked') })));
  }
}
