import * as vscode from 'vscode';
import type { CancelSignal } from '../core/cancel';
import { ApprovalDenied, type ChangeProposal, type Review } from '../services/approval';
import { errorResult } from '../services/result';
import type { Logger } from '../services/types';
import type { ReviewOptions, ReviewUi } from './vscodeApprover';
import { ProposalFileSystem } from './proposalFileSystem';
import { acceptedText, changesTitle, diffTitle, proposalEditable, type ReviewedFile } from './proposalText';

export const PROPOSAL_SCHEME = 'agent-file-tools-proposal';
/** What a change that landed without a question replaced, shown beside the file as it is now. */
const APPLIED_SUFFIX = '-applied';

/**
 * After the last keystroke, click or cursor move in an editor, how long the person counts
 * as working there: a review then opens beside that editor instead of over it.
 */
const WORKING_MS = 3000;
/** How long an editor may take to show up as a tab after its command returned. */
const TAB_WAIT_MS = 2000;
/** How long an accepted review stays open at most while its change lands (see ReviewOptions.callEnded). */
const ACCEPTED_OPEN_MS = 3000;
/**
 * How long the controls that list waiting changes may still show an accepted one while it
 * is written (see ReviewOptions.written).
 */
const ACCEPTED_LISTED_MS = 1000;
/** How long a review of a file waits at most for an answered review of that file to close. */
const CLOSING_WAIT_MS = ACCEPTED_OPEN_MS + 2000;

/** The files a review is about: where the change lands, and where a move comes from. */
function fileKeys(f: ReviewFile): string[] {
  return [f.path, ...(f.from ? [f.from.path] : [])];
}

/** One file of a waiting proposal, with the two documents its diff shows. */
export interface ReviewFile extends ReviewedFile {
  /** The real file (for a move: the destination), for icons and lists. */
  real: vscode.Uri;
  /** Left side: the text as it was proposed against (the buffer when it was dirty); empty for a new file. Read-only. */
  current: vscode.Uri;
  /** Right side: the proposal, editable; empty and read-only for a delete. */
  proposed: vscode.Uri;
}

/** A proposal waiting for the person. */
export interface PendingReview {
  readonly id: string;
  readonly proposal: ChangeProposal;
  /** The multi-diff editor's title, unique among waiting proposals. */
  readonly title: string;
  readonly files: readonly ReviewFile[];
  readonly since: number;
}

interface Waiting extends PendingReview {
  settle(r: Review | Error): void;
  callEnded?: PromiseLike<unknown>;
  written?: PromiseLike<unknown>;
  done: boolean;
  subscriptions: vscode.Disposable[];
}

export interface DiffReviewOptions {
  /** The URI scheme of the review's documents; one per instance. */
  scheme?: string;
  /** The URI a tool's absolute path stands for (a virtual folder's scheme, else file). */
  uriFor?(path: string): vscode.Uri;
  log?: Logger;
}

type MultiDiffInput = abstract new (...a: never[]) => { textDiffs: { original?: vscode.Uri; modified?: vscode.Uri }[] };

/** The tab input of the multi-diff editor: newer than the typings of the lowest supported VS Code. */
function multiDiffInput(): MultiDiffInput | undefined {
  return (vscode as unknown as { TabInputTextMultiDiff?: MultiDiffInput }).TabInputTextMultiDiff;
}

/** The URIs a tab shows (both sides of diffs, every file of a multi-diff). */
export function tabUris(tab: vscode.Tab): vscode.Uri[] {
  const input = tab.input as unknown;
  if (input instanceof vscode.TabInputText) {
    return [input.uri];
  }
  if (input instanceof vscode.TabInputTextDiff || input instanceof vscode.TabInputNotebookDiff) {
    return [input.original, input.modified];
  }
  const multi = multiDiffInput();
  if (multi && input instanceof multi) {
    return input.textDiffs.flatMap((d) => [d.original, d.modified]).filter((u): u is vscode.Uri => u instanceof vscode.Uri);
  }
  return [];
}

/** Whether the tab is a multi-diff editor (`vscode.changes`). */
export function isMultiDiffTab(tab: vscode.Tab): boolean {
  const multi = multiDiffInput();
  return !!multi && tab.input instanceof multi;
}

/** Whether a multi-diff tab's label is a proposal's title (with its file count after it). */
function showsTitle(tab: vscode.Tab, title: string): boolean {
  return tab.label === title || tab.label.startsWith(`${title} (`);
}

function allTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs);
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Loads the documents an accepted change will be applied to while the person looks at its
 * review: loading one takes the window a moment (seconds when it is busy), which Accept
 * would otherwise wait for. Only an existing file inside the workspace that reading asks
 * nothing about and whose change asks nothing beyond the approval policy: its text goes to
 * every extension. A document only loaded does not count as open in the editor (see
 * access.ts), and landing checks the disk itself, not only this document.
 */
function preloadTargets(files: readonly ReviewFile[], log: Logger | undefined): void {
  for (const f of files) {
    if ((f.action === 'modify' || f.action === 'overwrite') && !f.guarded && !f.outside?.length && !f.asks?.length && !/\.ipynb$/i.test(f.path)) {
      vscode.workspace.openTextDocument(f.real).then(undefined, (e: unknown) => log?.warn(`loading ${f.display} before its review is answered: ${errorText(e)}`));
    }
  }
}

/**
 * Shows each proposed change in VS Code's own diff editor (one file) or multi-diff editor
 * (several), and waits until the person accepts or rejects it, or the call is cancelled.
 * Several proposals can wait at once. The right side of each diff is an editable
 * in-memory document: what it holds at Accept is what gets applied.
 */
export class DiffReview implements ReviewUi, vscode.Disposable {
  readonly scheme: string;
  private readonly files = new ProposalFileSystem();
  private readonly appliedFiles = new ProposalFileSystem();
  private readonly appliedScheme: string;
  private appliedCount = 0;
  private readonly waiting = new Map<string, Waiting>();
  /** Answered reviews whose editors are still open: their files' paths, title and id. */
  private readonly closing = new Map<Promise<void>, { keys: string[]; title: string; id: string }>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a proposal starts or stops waiting. */
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [];
  private nextId = 1;
  /** The document the person last worked in (typed, clicked, moved the cursor), and when. */
  private lastWork: { doc: vscode.TextDocument; at: number } | undefined;

  constructor(private readonly opts: DiffReviewOptions = {}) {
    this.scheme = opts.scheme ?? PROPOSAL_SCHEME;
    this.appliedScheme = this.scheme + APPLIED_SUFFIX;
    this.subscriptions.push(
      vscode.workspace.registerFileSystemProvider(this.scheme, this.files, { isCaseSensitive: true }),
      vscode.workspace.registerFileSystemProvider(this.appliedScheme, this.appliedFiles, {
        isCaseSensitive: true,
        isReadonly: new vscode.MarkdownString(vscode.l10n.t('The file as it was before the change; the other side is the file now.')),
      }),
      vscode.window.tabGroups.onDidChangeTabs((e) => this.forgetUnshownApplied(e.closed)),
      // Only the person's keys and clicks count: typing moves the cursor from the keyboard. A
      // change of the text alone may be anyone's: a change this extension just applied, the
      // file reloaded from disk.
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (e.kind === vscode.TextEditorSelectionChangeKind.Keyboard || e.kind === vscode.TextEditorSelectionChangeKind.Mouse) {
          this.noteWork(e.textEditor.document);
        }
      }),
      this.changed,
      this.files,
      this.appliedFiles,
    );
    // Editors restored from an earlier window show documents this window does not hold:
    // close them (an unsaved one is saved into memory first, so closing asks nothing).
    const stale = allTabs().filter((t) => tabUris(t).some((u) => u.scheme === this.scheme || u.scheme === this.appliedScheme));
    void this.closeTabs(stale).then(
      () => stale.flatMap(tabUris).forEach((u) => this.files.forget(u)),
      (e) => opts.log?.warn(`closing review editors left from an earlier window: ${errorText(e)}`),
    );
  }

  /** Every proposal waiting, oldest first. */
  pending(): PendingReview[] {
    return [...this.waiting.values()];
  }

  get(id: string): PendingReview | undefined {
    return this.waiting.get(id);
  }

  /** The waiting proposal a review document belongs to. */
  proposalOf(uri: vscode.Uri): PendingReview | undefined {
    if (uri.scheme !== this.scheme) {
      return undefined;
    }
    const m = /^(\d+)-(current|proposed)$/.exec(uri.query);
    return m ? this.waiting.get(m[1]) : undefined;
  }

  /** The waiting proposal shown by the tab, if it is a review tab. */
  proposalOfTab(tab: vscode.Tab | undefined): PendingReview | undefined {
    if (!tab) {
      return undefined;
    }
    for (const u of tabUris(tab)) {
      const p = this.proposalOf(u);
      if (p) {
        return p;
      }
    }
    // A multi-diff tab lists only the files that have both sides (not adds or deletes):
    // its label, the proposal's unique title and a file count, tells the rest.
    if (isMultiDiffTab(tab)) {
      return [...this.waiting.values()].find((w) => showsTitle(tab, w.title));
    }
    return undefined;
  }

  /**
   * Opens the review and waits for the answer. Started by a tool on its own (a chat), it
   * never takes the keyboard; started by the person (`focus`: a command of the palette or
   * a view), it does, so that the keybindings answer at once.
   */
  async review(proposal: ChangeProposal, signal: CancelSignal, opts: ReviewOptions = {}): Promise<Review> {
    if (signal.isCancellationRequested) {
      return { kind: 'cancelled' };
    }
    if (proposal.files.length === 0) {
      return { kind: 'accepted', texts: new Map(), edited: [] };
    }
    const id = String(this.nextId++);
    const files = await Promise.all(proposal.files.map((f) => this.reviewFile(id, f)));
    const title = changesTitle({ ...proposal, files });
    return new Promise<Review>((resolve, reject) => {
      const w: Waiting = {
        id,
        proposal,
        title: [...this.waiting.values(), ...this.closing.values()].some((o) => o.title === title) ? `${title} #${id}` : title,
        files,
        since: Date.now(),
        done: false,
        subscriptions: [],
        settle: (r) => (r instanceof Error ? reject(r) : resolve(r)),
        ...(opts.callEnded ? { callEnded: opts.callEnded } : {}),
        ...(opts.written ? { written: opts.written } : {}),
      };
      this.waiting.set(id, w);
      this.watchCancellation(w, signal);
      this.changed.fire();
      // one review of a file on screen at a time: an answered one still closing goes first
      this.closed(files).then(() => this.open(w, undefined, opts.focus === true)).then(
        () => {
          // once the review shows, not competing with it
          preloadTargets(files, this.opts.log);
          if (signal.isCancellationRequested) {
            void this.cancel(id);
          }
        },
        (e) => void this.failToOpen(w, e),
      );
    });
  }

  private async reviewFile(id: string, f: ChangeProposal['files'][number]): Promise<ReviewFile> {
    const uriFor = this.opts.uriFor ?? ((p: string) => vscode.Uri.file(p));
    const real = uriFor(f.path);
    const doc = (path: string, side: 'current' | 'proposed') => vscode.Uri.from({ scheme: this.scheme, path: uriFor(path).path, query: `${id}-${side}` });
    const current = doc(f.action === 'move' && f.from ? f.from.path : f.path, 'current');
    const proposed = doc(f.path, 'proposed');
    this.files.set(current, f.oldText ?? '', true);
    this.files.set(proposed, f.newText ?? '', !proposalEditable(f));
    let replacesExisting: boolean | undefined;
    if (f.action === 'move') {
      replacesExisting = await vscode.workspace.fs.stat(real).then(
        () => true,
        () => false,
      );
    }
    return { ...f, real, current, proposed, replacesExisting };
  }

  private watchCancellation(w: Waiting, signal: CancelSignal): void {
    const token = signal as Partial<vscode.CancellationToken>;
    if (typeof token.onCancellationRequested === 'function') {
      w.subscriptions.push(token.onCancellationRequested(() => void this.cancel(w.id)));
    } else {
      const timer = setInterval(() => signal.isCancellationRequested && void this.cancel(w.id), 200);
      w.subscriptions.push(new vscode.Disposable(() => clearInterval(timer)));
    }
  }

  /**
   * Opens (or reveals) the review of a waiting proposal: one file in the diff editor, several
   * in one multi-diff editor; `fileIndex` picks one file of several. Opened for the person
   * (`focus`), it takes the keyboard; opened because a tool asked, it never does.
   */
  async show(id: string, fileIndex?: number): Promise<boolean> {
    const w = this.waiting.get(id);
    if (!w) {
      return false;
    }
    await this.open(w, fileIndex, true);
    return true;
  }

  private async open(w: Waiting, fileIndex: number | undefined, focus: boolean): Promise<void> {
    const one = fileIndex !== undefined ? w.files[fileIndex] : w.files.length === 1 ? w.files[0] : undefined;
    const docs = one ? [one.current, one.proposed] : w.files.flatMap((f) => [f.current, f.proposed]);
    // Decode as UTF-8 whatever files.encoding says: these documents are UTF-8 text.
    await Promise.all(docs.map((u) => vscode.workspace.openTextDocument(u, { encoding: 'utf8' })));
    if (w.done) {
      return;
    }
    if (one) {
      // Beside the editor the person is working in, so it stays visible and keeps the keyboard.
      const viewColumn = !focus && this.working() ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
      await vscode.commands.executeCommand('vscode.diff', one.current, one.proposed, diffTitle(w.proposal.tool, one), {
        preview: false,
        preserveFocus: !focus,
        viewColumn,
      } satisfies vscode.TextDocumentShowOptions);
      // two .ipynb documents open in the notebook diff editor, where the notebook serializer claims them
      await this.expectTab((t) => (t.input instanceof vscode.TabInputTextDiff || t.input instanceof vscode.TabInputNotebookDiff) && t.input.modified.toString() === one.proposed.toString(), 'diff');
      return;
    }
    // The multi-diff editor always takes the keyboard: wait until the person pauses.
    while (!focus && this.working() && !w.done) {
      await new Promise((r) => setTimeout(r, 250));
    }
    if (w.done) {
      return;
    }
    const resources = w.files.map((f) => {
      switch (f.action) {
        case 'create':
          return [f.proposed, undefined, f.proposed];
        case 'delete':
          return [f.current, f.current, undefined];
        default:
          return [f.proposed, f.current, f.proposed];
      }
    });
    await vscode.commands.executeCommand('vscode.changes', w.title, resources);
    if (!multiDiffInput()) {
      return;
    }
    const tab = await this.expectTab((t) => isMultiDiffTab(t) && this.proposalOfTab(t)?.id === w.id, 'multi-diff');
    // vscode.changes opens a preview, which the next file opened in the group would replace.
    if (tab.isPreview && tab.isActive && tab.group.isActive) {
      await vscode.commands.executeCommand('workbench.action.keepEditor');
    }
  }

  /** The tab the editor just opened: the window's tab model can trail the command by a moment. */
  private async expectTab(match: (t: vscode.Tab) => boolean, what: string): Promise<vscode.Tab> {
    for (const t0 = Date.now(); ; ) {
      const tab = allTabs().find(match);
      if (tab) {
        return tab;
      }
      if (Date.now() - t0 > TAB_WAIT_MS) {
        throw new Error(`the ${what} editor did not open`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private noteWork(doc: vscode.TextDocument): void {
    if (doc.uri.scheme !== this.scheme) {
      this.lastWork = { doc, at: Date.now() };
    }
  }

  /** Whether the person is working in the active editor: they used it a moment ago and it is still the active one. */
  private working(): boolean {
    const t = this.lastWork;
    return !!t && Date.now() - t.at < WORKING_MS && vscode.window.activeTextEditor?.document === t.doc;
  }

  /** The review could not be shown: nothing is applied, and both the person and the model are told why. */
  private async failToOpen(w: Waiting, e: unknown): Promise<void> {
    if (w.done) {
      return; // answered (or cancelled) while its editor was opening
    }
    const why = errorText(e);
    this.opts.log?.error(`review of ${w.proposal.tool} (${w.proposal.summary}) could not be opened: ${why}`);
    void vscode.window.showErrorMessage(vscode.l10n.t('{0} proposed a change ({1}) but its review could not be opened: {2}. Nothing was changed.', w.proposal.tool, w.proposal.summary, why));
    await this.finish(
      w,
      new ApprovalDenied(
        errorResult(
          `The change was not applied: its review could not be shown to the user (${why}). Nothing was changed. Tell the user, or propose the change in a different form.`,
        ),
      ),
    );
  }

  /**
   * Shows a change that landed without a question, never taking the keyboard: one file in a
   * preview diff beside the editors (what it replaced, and the file now); several files as
   * a notification whose button opens them in a multi-diff editor (which takes focus, so
   * only when the person asks).
   */
  showApplied(change: ChangeProposal): void {
    const open = async () => {
      if (change.files.length === 1) {
        const [f] = change.files;
        const { before, after } = this.appliedSides(f);
        await vscode.workspace.openTextDocument(before, { encoding: 'utf8' });
        await vscode.commands.executeCommand('vscode.diff', before, after, diffTitle(change.tool, f, 'applied'), {
          preview: true,
          preserveFocus: true,
          viewColumn: vscode.ViewColumn.Beside,
        } satisfies vscode.TextDocumentShowOptions);
        return;
      }
      const show = vscode.l10n.t('Show Changes');
      if ((await vscode.window.showInformationMessage(vscode.l10n.t('{0} changed {1} files: {2}', change.tool, change.files.length, change.summary), show)) !== show) {
        return;
      }
      const resources = change.files.map((f) => {
        const { before, after } = this.appliedSides(f);
        return f.action === 'create' ? [after, undefined, after] : f.action === 'delete' ? [before, before, undefined] : [after, before, after];
      });
      await vscode.commands.executeCommand('vscode.changes', `${change.summary} ↔ applied by ${change.tool}`, resources);
    };
    open().catch((e) => this.opts.log?.warn(`showing the change ${change.summary}: ${errorText(e)}`));
  }

  /** Before: a read-only snapshot (for a move, at the old path); after: the real file (an empty snapshot once deleted). */
  private appliedSides(f: ChangeProposal['files'][number]): { before: vscode.Uri; after: vscode.Uri } {
    const uriFor = this.opts.uriFor ?? ((p: string) => vscode.Uri.file(p));
    const n = ++this.appliedCount;
    const snapshot = (path: string, text: string, side: string) => {
      const uri = vscode.Uri.from({ scheme: this.appliedScheme, path: uriFor(path).path, query: `${n}-${side}` });
      this.appliedFiles.set(uri, text, true);
      return uri;
    };
    const before = snapshot(f.action === 'move' && f.from ? f.from.path : f.path, f.oldText ?? '', 'before');
    const after = f.action === 'delete' ? snapshot(f.path, '', 'after') : uriFor(f.path);
    return { before, after };
  }

  /** A snapshot of an applied change lives as long as a tab shows it. */
  private forgetUnshownApplied(closed: readonly vscode.Tab[]): void {
    const gone = closed.flatMap(tabUris).filter((u) => u.scheme === this.appliedScheme);
    if (gone.length === 0) {
      return;
    }
    const shown = new Set(allTabs().flatMap(tabUris).map((u) => u.toString()));
    for (const u of gone) {
      if (!shown.has(u.toString())) {
        this.appliedFiles.forget(u);
      }
    }
  }

  /** Accepts a waiting proposal with the text its proposal documents hold now. */
  async accept(id: string): Promise<boolean> {
    const w = this.waiting.get(id);
    if (!w || w.done) {
      return false;
    }
    const texts = new Map<string, string>();
    const edited: string[] = [];
    for (const f of w.files) {
      if (f.newText === undefined) {
        continue;
      }
      const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === f.proposed.toString());
      const held = open ? open.getText() : (this.files.text(f.proposed) ?? f.newText);
      const r = acceptedText(f.newText, held);
      texts.set(f.path, r.text);
      if (r.edited) {
        edited.push(f.path);
      }
    }
    await this.finish(w, { kind: 'accepted', texts, edited });
    return true;
  }

  async reject(id: string, reason?: string): Promise<boolean> {
    const w = this.waiting.get(id);
    if (!w || w.done) {
      return false;
    }
    await this.finish(w, reason === undefined ? { kind: 'rejected' } : { kind: 'rejected', reason });
    return true;
  }

  async cancel(id: string): Promise<boolean> {
    const w = this.waiting.get(id);
    if (!w || w.done) {
      return false;
    }
    await this.finish(w, { kind: 'cancelled' });
    return true;
  }


  /** Resolves once no answered review of these files is still closing (or after CLOSING_WAIT_MS). */
  private async closed(files: readonly ReviewFile[]): Promise<void> {
    const keys = new Set(files.flatMap(fileKeys));
    const before = [...this.closing].filter(([, c]) => c.keys.some((k) => keys.has(k))).map(([p]) => p);
    if (before.length === 0) {
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.all(before), new Promise((r) => (timer = setTimeout(r, CLOSING_WAIT_MS)))]);
    clearTimeout(timer);
  }

  /** Whether the tab shows a review that was answered and is closing: nothing there may be answered again. */
  isAnswered(tab: vscode.Tab | undefined): boolean {
    if (!tab) {
      return false;
    }
    const answered = [...this.closing.values()];
    const ids = new Set(answered.map((c) => c.id));
    return (
      tabUris(tab).some((u) => u.scheme === this.scheme && ids.has(/^(\d+)-/.exec(u.query)?.[1] ?? '')) ||
      (isMultiDiffTab(tab) && answered.some((c) => showsTitle(tab, c.title)))
    );
  }

  private finish(w: Waiting, r: Review | Error): Promise<void> {
    const closing = this.close(w, r);
    this.closing.set(closing, { keys: w.files.flatMap(fileKeys), title: w.title, id: w.id });
    return closing.finally(() => this.closing.delete(closing));
  }

  /** Answers the tool, then (once an accepted change's call has answered) closes the proposal's editors and forgets its documents. */
  private async close(w: Waiting, r: Review | Error): Promise<void> {
    const tabsOf = () => allTabs().filter((t) => this.proposalOfTab(t)?.id === w.id || tabUris(t).some((u) => u.scheme === this.scheme && u.query.startsWith(`${w.id}-`)));
    let tabs = tabsOf();
    w.done = true;
    this.waiting.delete(w.id);
    for (const s of w.subscriptions) {
      s.dispose();
    }
    w.settle(r);
    const accepted = !(r instanceof Error) && r.kind === 'accepted';
    if (accepted && w.written) {
      // the window does one thing after another: the view, badge, status bar and context keys
      // updated now would go before the write (20-40 ms of a 1,000-line file's apply and
      // save here); a person sees the change land meanwhile
      let timer: ReturnType<typeof setTimeout> | undefined;
      void Promise.race([w.written, new Promise((r) => (timer = setTimeout(r, ACCEPTED_LISTED_MS)))])
        .catch(() => undefined)
        .finally(() => {
          clearTimeout(timer);
          this.changed.fire();
        });
    } else {
      this.changed.fire();
    }
    try {
      if (w.callEnded && accepted) {
        // the change lands first, its review still showing; then the editors close
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([w.callEnded, new Promise((r) => (timer = setTimeout(r, ACCEPTED_OPEN_MS)))]);
        clearTimeout(timer);
        // as they are now: the person may have closed one, or opened a file of a multi-diff meanwhile
        const multi = new Set(tabs.filter(isMultiDiffTab));
        tabs = [...allTabs().filter((t) => multi.has(t)), ...tabsOf().filter((t) => !multi.has(t))];
      }
      await this.closeTabs(tabs);
    } catch (e) {
      this.opts.log?.warn(`closing the review of ${w.proposal.summary}: ${errorText(e)}`);
    } finally {
      for (const f of w.files) {
        this.files.forget(f.current);
        this.files.forget(f.proposed);
      }
    }
  }

  private async closeTabs(tabs: vscode.Tab[]): Promise<void> {
    if (tabs.length === 0) {
      return;
    }
    // A dirty proposal is saved to its in-memory document first, so closing asks nothing.
    const uris = new Set(tabs.flatMap(tabUris).map((u) => u.toString()));
    await Promise.all(vscode.workspace.textDocuments.filter((d) => d.isDirty && uris.has(d.uri.toString())).map((d) => d.save()));
    await vscode.window.tabGroups.close(tabs, true);
  }

  dispose(): void {
    for (const w of [...this.waiting.values()]) {
      void this.finish(w, { kind: 'cancelled' });
    }
    for (const s of this.subscriptions) {
      s.dispose();
    }
  }
}
