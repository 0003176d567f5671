import * as vscode from 'vscode';
import { CancelledError } from '../core/errors';
import { ChangeRejected, timedApprover } from '../services/approval';
import { loggedTime } from '../services/callLog';
import { rejectedOutcome } from '../services/run';
import { WALKTHROUGH_DONE, walkthroughDone } from '../vscode/walkthrough';
import { revertible, revertStates, type JournalEntry, type PathState } from '../services/journal';
import { revertPaths, type RevertConflict } from '../tools/revert';
import type { ContextFactory } from '../vscode/lmTools';
import type { HistoryEntry, HistoryJournal } from './journal';
import { MERGE_SCHEME, MergeResults, mergeInEditor } from './merge';

export const HISTORY_VIEW = 'agentFileTools.history';
export const HISTORY_SCHEME = 'agent-file-tools-history';

export const HISTORY_COMMANDS = {
  show: 'agentFileTools.showHistoryChange',
  revert: 'agentFileTools.revertChange',
  revertSince: 'agentFileTools.revertChangesSince',
  clear: 'agentFileTools.clearHistory',
  list: 'agentFileTools.historyEntries',
} as const;

/** The answer to a revert over newer work that goes on to the review. */
const REVIEW_ANYWAY = vscode.l10n.t('Review Revert over Newer Work');

type HistoryNode = { id: string; index?: number };

function baseName(display: string): string {
  return display.slice(display.lastIndexOf('/') + 1) || display;
}

function originWords(e: Pick<HistoryEntry, 'origin' | 'client'>): string {
  switch (e.origin) {
    case 'chat':
      return vscode.l10n.t('from a chat');
    case 'command':
      return vscode.l10n.t('from a command');
    case 'mcp':
      return typeof e.client === 'string' ? vscode.l10n.t('from {0} (MCP)', e.client) : vscode.l10n.t('from an MCP client');
    default:
      return vscode.l10n.t('from another extension');
  }
}

function timeOf(at: number): string {
  return new Date(at).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

const ACTION_WORDS: Record<HistoryEntry['files'][number]['action'], string> = {
  create: vscode.l10n.t('created'),
  modify: vscode.l10n.t('edited'),
  overwrite: vscode.l10n.t('written'),
  delete: vscode.l10n.t('deleted'),
  move: vscode.l10n.t('moved'),
};

/** The History of Changes view: every change that landed, newest first. */
class HistoryTree implements vscode.TreeDataProvider<HistoryNode> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(
    private readonly journal: HistoryJournal,
    private readonly uriFor: (path: string) => vscode.Uri,
  ) {}

  refresh(): void {
    this.changed.fire();
  }

  getChildren(node?: HistoryNode): HistoryNode[] {
    if (!node) {
      return this.journal.entries().map((e) => ({ id: e.id }));
    }
    const e = node.index === undefined ? this.journal.get(node.id) : undefined;
    return e && e.files.length > 1 ? e.files.map((_, index) => ({ id: e.id, index })) : [];
  }

  getParent(node: HistoryNode): HistoryNode | undefined {
    return node.index !== undefined ? { id: node.id } : undefined;
  }

  getTreeItem(node: HistoryNode): vscode.TreeItem {
    const e = this.journal.get(node.id);
    if (!e) {
      return new vscode.TreeItem(vscode.l10n.t('(no longer in the history)'));
    }
    const added = e.files.reduce((n, f) => n + f.added, 0);
    const removed = e.files.reduce((n, f) => n + f.removed, 0);
    const edited = e.files.some((f) => f.userEdited);
    const reverted = e.revertedAt !== undefined ? vscode.l10n.t('reverted at {0}', timeOf(e.revertedAt)) : '';
    const tooltip = new vscode.MarkdownString();
    tooltip.appendText(`${e.tool}: ${e.summary}\n\n${new Date(e.at).toLocaleString()}, ${originWords(e)}${edited ? vscode.l10n.t(', with your edits to the proposal') : ''}\n\n`);
    if (reverted) {
      tooltip.appendText(`${vscode.l10n.t('Reverted at {0}: the files no longer hold this change.', timeOf(e.revertedAt!))}\n\n`);
    }
    for (const f of e.files) {
      tooltip.appendText(`${f.from ? `${f.from.display} → ` : ''}${f.display}: ${ACTION_WORDS[f.action]}, +${f.added} -${f.removed}${f.kept ? '' : ` (${vscode.l10n.t('not revertible: {0}', f.notKept ?? '')})`}\n\n`);
    }
    tooltip.appendText(reverted ? vscode.l10n.t('Click to see the change again.') : vscode.l10n.t('Click to see the change again. Revert (↺) shows what it would put back, for you to accept.'));
    // The row as a default-width side bar shows it whole: what and when first; who asked, and your edits, in the tooltip.
    const entryContext = reverted ? 'agentFileTools.historyEntryReverted' : 'agentFileTools.historyEntry';
    if (node.index !== undefined || e.files.length === 1) {
      const index = node.index ?? 0;
      const f = e.files[index];
      const item = new vscode.TreeItem(baseName(f.display), vscode.TreeItemCollapsibleState.None);
      item.id = `h${e.id}/${index}`;
      item.resourceUri = this.uriFor(f.path);
      const top = node.index === undefined;
      item.description = [top ? reverted : '', f.action === 'modify' ? '' : ACTION_WORDS[f.action], `+${f.added} -${f.removed}`, top && !reverted ? timeOf(e.at) : '', top ? e.tool : '', top ? originWords(e) : '', f.userEdited ? vscode.l10n.t('your edits') : '']
        .filter(Boolean)
        .join(' · ');
      item.tooltip = tooltip;
      if (reverted && top) {
        item.iconPath = new vscode.ThemeIcon('discard');
      }
      item.contextValue = node.index === undefined ? entryContext : 'agentFileTools.historyFile';
      item.command = { command: HISTORY_COMMANDS.show, title: vscode.l10n.t('Show Change'), arguments: [e.id, node.index] };
      return item;
    }
    const item = new vscode.TreeItem(e.summary, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `h${e.id}`;
    item.iconPath = new vscode.ThemeIcon(reverted ? 'discard' : 'diff-multiple');
    item.description = [reverted, `+${added} -${removed}`, reverted ? '' : timeOf(e.at), e.tool, originWords(e), edited ? vscode.l10n.t('your edits') : ''].filter(Boolean).join(' · ');
    item.tooltip = tooltip;
    item.contextValue = entryContext;
    item.command = { command: HISTORY_COMMANDS.show, title: vscode.l10n.t('Show Change'), arguments: [e.id] };
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** Read-only snapshots that the history's diffs show: a change's sides, a conflict's sides. */
class Snapshots implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private count = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /** A snapshot of `text` named like the file at `path`; forgotten when its document closes. */
  uri(path: vscode.Uri, text: string | undefined, side: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: HISTORY_SCHEME, path: path.path, query: `${++this.count}-${side}` });
    this.texts.set(uri.toString(), text ?? '');
    return uri;
  }

  forget(uri: vscode.Uri): void {
    this.texts.delete(uri.toString());
  }
}

function idOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') {
    return arg;
  }
  const n = arg as HistoryNode | undefined;
  return n && typeof n === 'object' && typeof n.id === 'string' ? n.id : undefined;
}

export interface HistoryDeps {
  journal: HistoryJournal;
  context: ContextFactory;
  uriFor(path: string): vscode.Uri;
}

/** The History of Changes view and its commands: see a change again, revert one, revert everything since one. */
export function registerHistory(deps: HistoryDeps): vscode.Disposable[] {
  const { journal } = deps;
  const tree = new HistoryTree(journal, deps.uriFor);
  const view = vscode.window.createTreeView(HISTORY_VIEW, { treeDataProvider: tree });
  const snapshots = new Snapshots();
  const mergeResults = new MergeResults();

  const pick = async (arg: unknown, placeHolder: string): Promise<HistoryEntry | undefined> => {
    const id = idOf(arg);
    if (id !== undefined) {
      const e = journal.get(id);
      if (!e) {
        void vscode.window.showInformationMessage(vscode.l10n.t('That change is no longer in the history.'));
      }
      return e;
    }
    const all = journal.entries();
    if (all.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('The history of changes is empty.'));
      return undefined;
    }
    const chosen = await vscode.window.showQuickPick(
      all.map((e) => ({ label: e.summary, description: `${e.tool} · ${originWords(e)} · ${timeOf(e.at)}`, e })),
      { title: vscode.l10n.t('Agent File Tools: history of changes'), placeHolder },
    );
    return chosen?.e;
  };

  const show = async (arg: unknown, index?: unknown): Promise<boolean> => {
    const e = await pick(arg, vscode.l10n.t('Which change?'));
    const full = e && (await journal.full(e.id));
    if (!e || !full) {
      return false;
    }
    const files = typeof index === 'number' && full.files[index] ? [full.files[index]] : full.files;
    if (files.some((f) => !f.kept)) {
      const f = files.find((x) => !x.kept)!;
      void vscode.window.showInformationMessage(vscode.l10n.t('{0} is listed without its text: {1}.', f.display, f.notKept ?? ''));
      if (files.length === 1) {
        return false;
      }
    }
    const sides = files
      .filter((f) => f.kept)
      .map((f) => {
        const left = snapshots.uri(deps.uriFor(f.from?.path ?? f.path), f.action === 'create' ? '' : f.before, 'before');
        const right = snapshots.uri(deps.uriFor(f.path), f.after, 'after');
        return { f, left, right };
      });
    if (sides.length === 1) {
      const [{ f, left, right }] = sides;
      await vscode.commands.executeCommand('vscode.diff', left, right, vscode.l10n.t('{0} ↔ changed by {1} at {2}', baseName(f.display), full.tool, timeOf(full.at)), { preview: true } satisfies vscode.TextDocumentShowOptions);
      return true;
    }
    await vscode.commands.executeCommand(
      'vscode.changes',
      vscode.l10n.t('{0} ↔ changed by {1} at {2}', full.summary, full.tool, timeOf(full.at)),
      sides.map(({ f, left, right }) => (f.action === 'create' ? [right, undefined, right] : f.action === 'delete' ? [left, left, undefined] : [right, left, right])),
    );
    return true;
  };

  /** Shows what a revert would replace, labelled as such, and asks; true: go on to the review. */
  const confirmOverNewer = async (conflicts: readonly RevertConflict[]): Promise<boolean> => {
    const resources = conflicts.map((c) => {
      const left = snapshots.uri(deps.uriFor(c.path), c.now, 'now');
      const right = snapshots.uri(deps.uriFor(c.path), c.restore, 'revert');
      return { c, left, right };
    });
    if (resources.length === 1) {
      const [{ c, left, right }] = resources;
      await vscode.commands.executeCommand('vscode.diff', left, right, vscode.l10n.t('{0}: changed since (now) ↔ what Revert would write', baseName(c.display)), { preview: false } satisfies vscode.TextDocumentShowOptions);
    } else {
      await vscode.commands.executeCommand(
        'vscode.changes',
        vscode.l10n.t('Changed since (now) ↔ what Revert would write'),
        resources.map(({ left, right }) => [right, left, right]),
      );
    }
    const names = conflicts.map((c) => c.display).join(', ');
    // A quick pick beside the diff, not a notification that can pass unseen: nothing happens until the person chooses.
    const keep = vscode.l10n.t('Keep the newer work (nothing is changed)');
    const answer = await vscode.window.showQuickPick([REVIEW_ANYWAY, keep], {
      title: vscode.l10n.t('{0} changed since this change: reverting it would replace the newer work, as the diff shows', names),
      placeHolder: vscode.l10n.t('Review the revert over the newer work, or keep it'),
      ignoreFocusOut: true,
    });
    return answer === REVIEW_ANYWAY;
  };

  /**
   * A three-way merge per path, in turn (the merge editor shows one file): base what the
   * change wrote, left the newer work, right what the revert puts back, the result starting
   * as the newer work. A path without a text on each side (a file deleted now or by the
   * revert) or whose newer work lies between two reverted changes (it has no base of its own)
   * gets the two-way view instead. Returns each merged path's result, or undefined when the
   * person kept the newer work (a merge editor closed without Complete Merge, or the answer
   * to the two-way view).
   */
  const resolveOverNewer = async (conflicts: readonly RevertConflict[], states: readonly PathState[]): Promise<Map<string, string> | undefined> => {
    const stateOf = (c: RevertConflict) => states.find((s) => s.path === c.path);
    const mergeable = conflicts.filter((c) => c.now !== undefined && c.restore !== undefined && stateOf(c)?.wrote !== undefined && !stateOf(c)?.between);
    const twoWay = conflicts.filter((c) => !mergeable.includes(c));
    const merged = new Map<string, string>();
    for (const [i, c] of mergeable.entries()) {
      const file = deps.uriFor(c.path);
      void vscode.window.showInformationMessage(
        mergeable.length > 1
          ? vscode.l10n.t('{0} changed since this change ({1} of {2}): Complete Merge sends the result to the review as the revert; closing the merge editor keeps the newer work and reverts nothing.', c.display, i + 1, mergeable.length)
          : vscode.l10n.t('{0} changed since this change: Complete Merge sends the result to the review as the revert; closing the merge editor keeps the newer work and reverts nothing.', c.display),
      );
      const outcome = await mergeInEditor(mergeResults, {
        base: snapshots.uri(file, stateOf(c)!.wrote, 'changed'),
        now: { uri: snapshots.uri(file, c.now, 'now'), title: vscode.l10n.t('Now (newer work)'), description: c.display },
        revert: { uri: snapshots.uri(file, c.restore, 'revert'), title: vscode.l10n.t('What Revert would write'), description: c.display },
        result: mergeResults.create(file, c.now!),
      });
      if (outcome.kind === 'closed') {
        void vscode.window.showInformationMessage(vscode.l10n.t('The merge editor of {0} closed without Complete Merge: the newer work stays, nothing was reverted.', c.display));
        return undefined;
      }
      if (outcome.kind === 'unavailable') {
        // no merge editor in this host: the rest get the two-way view, which asks before anything
        journal.log?.warn(`history: the merge editor could not be used for ${c.display} (${outcome.why}); showing the two-way view`);
        twoWay.push(...mergeable.slice(i));
        break;
      }
      merged.set(c.path, outcome.text);
    }
    if (twoWay.length > 0 && !(await confirmOverNewer(twoWay))) {
      return undefined;
    }
    return merged;
  };

  /**
   * Reverts the entries through a review of their own, says beforehand what that review will
   * do, marks them reverted in the view once it lands and says so, and logs how it ended.
   */
  const revert = async (entries: readonly HistoryEntry[], summary: string): Promise<boolean> => {
    const t0 = performance.now();
    let waited = 0;
    const log = (outcome: string) => journal.log?.info(`revert of ${entries.length === 1 ? `"${entries[0].summary}" (${entries[0].tool}, ${timeOf(entries[0].at)})` : `${entries.length} changes since "${entries[0].summary}" (${timeOf(entries[0].at)})`} -> ${outcome} ${loggedTime(performance.now() - t0, waited)}`);
    const landed = await revertEntries(entries, summary, (ms) => (waited += ms), log);
    if (landed) {
      await journal.markReverted(entries.map((e) => e.id), Date.now());
      walkthroughDone(WALKTHROUGH_DONE.reverted);
      const files = landed.map((f) => f.display);
      log(`reverted: ${files.join(', ')}`);
      void vscode.window.showInformationMessage(
        entries.length === 1
          ? vscode.l10n.t('Reverted "{0}": {1} hold again what they held before {2}.', entries[0].summary, files.join(', '), timeOf(entries[0].at))
          : vscode.l10n.t('Reverted {0} changes since "{1}": {2} hold again what they held before {3}.', entries.length, entries[0].summary, files.join(', '), timeOf(entries[0].at)),
      );
    }
    return landed !== undefined;
  };

  /** The revert itself; the files it put back, or undefined when nothing landed (`log` has said why). */
  const revertEntries = async (entries: readonly HistoryEntry[], summary: string, waitedFor: (ms: number) => void, log: (outcome: string) => void): Promise<{ display: string }[] | undefined> => {
    const full: JournalEntry[] = [];
    for (const e of entries) {
      const f = await journal.full(e.id);
      if (!f) {
        log('not reverted: its texts can no longer be read from the history');
        void vscode.window.showWarningMessage(vscode.l10n.t('The change "{0}" can no longer be read from the history, so it cannot be reverted.', e.summary));
        return undefined;
      }
      full.push(f);
    }
    if (!revertible(full)) {
      const f = full.flatMap((e) => e.files).find((x) => !x.kept)!;
      log(`not reverted: ${f.display} is listed without its text`);
      void vscode.window.showWarningMessage(vscode.l10n.t('{0} cannot be reverted from the history: {1}.', f.display, f.notKept ?? ''));
      return undefined;
    }
    const states = revertStates(full);
    const cts = new vscode.CancellationTokenSource();
    try {
      // each call's accepted review closes once that call has landed its change
      const revert = async (...args: [readonly PathState[], ReadonlyMap<string, string | null>?]) => {
        const ctx = deps.context('revert', summary, cts.token, undefined, 'command');
        const timed = timedApprover(ctx.approver);
        try {
          return await revertPaths({ ...ctx, approver: timed.approver }, summary, ...args);
        } finally {
          waitedFor(timed.waitedMs());
          ctx.endCall();
        }
      };
      // what comes next, said before it opens: a review, and what each answer does
      void vscode.window.showInformationMessage(
        vscode.l10n.t('The revert of "{0}" opens for your review: Accept puts the files back as they were before {1}; Reject leaves them as they are.', entries[0].summary, timeOf(entries[0].at)),
      );
      let outcome = await revert(states);
      if (outcome.kind === 'conflicts') {
        const t = performance.now();
        const merged = await resolveOverNewer(outcome.conflicts, states);
        waitedFor(performance.now() - t);
        if (!merged) {
          log('not reverted: the person kept the newer work');
          return undefined;
        }
        // the review shows the revert over the text the person saw, with what they merged where they merged
        const seen = new Map(outcome.conflicts.map((c) => [c.path, c.now ?? null] as const));
        const resolved = states.map((s) => (merged.has(s.path) ? { ...s, restore: merged.get(s.path) } : s));
        outcome = await revert(resolved, seen);
        if (outcome.kind === 'conflicts') {
          log(`not reverted: ${outcome.conflicts.map((c) => c.display).join(', ')} changed again`);
          void vscode.window.showWarningMessage(vscode.l10n.t('{0} changed again; nothing was reverted.', outcome.conflicts.map((c) => c.display).join(', ')));
          return undefined;
        }
      }
      if (outcome.landed.files.length === 0) {
        log('nothing to revert: every file already holds what it held before');
        void vscode.window.showInformationMessage(vscode.l10n.t('Every file already holds what it held before; nothing to revert.'));
        return undefined;
      }
      return outcome.landed.files.map((f) => ({ display: f.planned.target.located.display }));
    } catch (err) {
      if (err instanceof CancelledError) {
        log('cancelled');
      } else if (err instanceof ChangeRejected) {
        log(rejectedOutcome(err.reason));
      } else {
        log(`failed: ${err instanceof Error ? err.message : String(err)}`);
        void vscode.window.showErrorMessage(vscode.l10n.t('Revert failed: {0}', err instanceof Error ? err.message : String(err)));
      }
      return undefined;
    } finally {
      cts.dispose();
    }
  };

  const refresh = () => {
    tree.refresh();
    void vscode.commands.executeCommand('setContext', 'agentFileTools.historyEmpty', journal.entries().length === 0);
  };
  const subscriptions: vscode.Disposable[] = [
    tree,
    view,
    vscode.workspace.registerTextDocumentContentProvider(HISTORY_SCHEME, snapshots),
    vscode.workspace.registerFileSystemProvider(MERGE_SCHEME, mergeResults, { isCaseSensitive: true }),
    mergeResults,
    vscode.workspace.onDidCloseTextDocument((d) => d.uri.scheme === HISTORY_SCHEME && snapshots.forget(d.uri)),
    journal.onDidChange(refresh),
    vscode.commands.registerCommand(HISTORY_COMMANDS.show, show),
    vscode.commands.registerCommand(HISTORY_COMMANDS.revert, async (arg?: unknown) => {
      const e = await pick(arg, vscode.l10n.t('Which change to revert?'));
      return e ? revert([e], vscode.l10n.t('revert {0}', e.summary)) : false;
    }),
    vscode.commands.registerCommand(HISTORY_COMMANDS.revertSince, async (arg?: unknown) => {
      const e = await pick(arg, vscode.l10n.t('Revert this change and every change after it'));
      if (!e) {
        return false;
      }
      const all = journal.since(e.id);
      return revert(all, all.length === 1 ? vscode.l10n.t('revert {0}', e.summary) : vscode.l10n.t('revert {0} changes since {1}', all.length, e.summary));
    }),
    vscode.commands.registerCommand(HISTORY_COMMANDS.clear, async () => {
      await journal.clear();
    }),
    // what the view lists, for other extensions and tests: no file text
    vscode.commands.registerCommand(HISTORY_COMMANDS.list, async () => {
      await journal.flush();
      return journal.entries();
    }),
  ];
  refresh();
  return subscriptions;
}
