import * as vscode from 'vscode';
import { isMultiDiffTab, type DiffReview, type PendingReview } from './diffReview';
import { WALKTHROUGH_DONE, walkthroughDone } from '../vscode/walkthrough';
import { actionLabel, baseName, cleanReason, countActions, proposalLabel, shortAction, waitingText } from './proposalText';

export const PENDING_VIEW = 'agentFileTools.pendingChanges';

/** The scheme of the multi-diff editor's own URI, which its title buttons pass to commands. */
const MULTI_DIFF_SCHEME = 'multi-diff-editor';

export const COMMANDS = {
  accept: 'agentFileTools.acceptChange',
  reject: 'agentFileTools.rejectChange',
  acceptAll: 'agentFileTools.acceptAllChanges',
  rejectAll: 'agentFileTools.rejectAllChanges',
  show: 'agentFileTools.showChange',
} as const;

/** Context keys the manifest's `when` clauses read. */
const KEYS = {
  pending: 'agentFileTools.reviewsPending',
  several: 'agentFileTools.severalReviewsPending',
  editorActive: 'agentFileTools.reviewEditorActive',
} as const;

/** A row of the Pending Changes view: a proposal, or one file of a proposal of several. */
export type PendingNode = { kind: 'proposal'; id: string } | { kind: 'file'; id: string; index: number };

function isNode(v: unknown): v is PendingNode {
  const n = v as PendingNode | undefined;
  return !!n && typeof n === 'object' && typeof n.id === 'string' && (n.kind === 'proposal' || n.kind === 'file');
}

/** The Pending Changes view: every waiting proposal, its files and what each change does. */
class PendingTree implements vscode.TreeDataProvider<PendingNode> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly review: DiffReview) {}

  refresh(): void {
    this.changed.fire();
  }

  getChildren(node?: PendingNode): PendingNode[] {
    if (!node) {
      return this.review.pending().map((p) => ({ kind: 'proposal', id: p.id }));
    }
    const p = node.kind === 'proposal' ? this.review.get(node.id) : undefined;
    return p && p.files.length > 1 ? p.files.map((_, index) => ({ kind: 'file', id: p.id, index })) : [];
  }

  getParent(node: PendingNode): PendingNode | undefined {
    return node.kind === 'file' ? { kind: 'proposal', id: node.id } : undefined;
  }

  getTreeItem(node: PendingNode): vscode.TreeItem {
    const p = this.review.get(node.id);
    if (!p) {
      return new vscode.TreeItem('(no longer waiting)');
    }
    const tooltip = new vscode.MarkdownString();
    tooltip.appendText(`${p.proposal.tool} proposes: ${p.proposal.summary}\n\n`);
    for (const f of p.files) {
      tooltip.appendText(`${f.display}: ${actionLabel(f)}\n\n`);
    }
    tooltip.appendText(vscode.l10n.t('Click to review; Accept or Reject when you have seen it.'));
    if (node.kind === 'file' || p.files.length === 1) {
      const index = node.kind === 'file' ? node.index : 0;
      const f = p.files[index];
      const item = new vscode.TreeItem(baseName(f.display), vscode.TreeItemCollapsibleState.None);
      item.id = `${p.id}/${index}`;
      item.resourceUri = f.real;
      const dir = f.display.slice(0, Math.max(0, f.display.length - baseName(f.display).length - 1));
      item.description = [node.kind === 'proposal' ? `${shortAction(f)} by ${p.proposal.tool}` : shortAction(f), dir].filter(Boolean).join(' · ');
      item.tooltip = tooltip;
      item.contextValue = node.kind === 'proposal' ? 'agentFileTools.proposal' : 'agentFileTools.proposalFile';
      item.command = { command: COMMANDS.show, title: vscode.l10n.t('Review'), arguments: [p.id, node.kind === 'file' ? index : undefined] };
      return item;
    }
    const item = new vscode.TreeItem(p.proposal.summary, vscode.TreeItemCollapsibleState.Expanded);
    item.id = p.id;
    item.iconPath = new vscode.ThemeIcon('diff-multiple');
    item.description = `${countActions(p.files)} · proposed by ${p.proposal.tool}`;
    item.tooltip = tooltip;
    item.contextValue = 'agentFileTools.proposal';
    item.command = { command: COMMANDS.show, title: vscode.l10n.t('Review'), arguments: [p.id] };
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/**
 * What the person uses to answer: Accept / Reject (editor title buttons, palette,
 * keybindings, the view's inline actions), the Pending Changes view with a count badge,
 * and a status bar item that stays while anything waits, so a chat waiting for them is
 * never a silent spinner.
 */
export function registerReviewControls(review: DiffReview): vscode.Disposable[] {
  const tree = new PendingTree(review);
  const view = vscode.window.createTreeView(PENDING_VIEW, { treeDataProvider: tree });
  const status = vscode.window.createStatusBarItem('agentFileTools.reviews', vscode.StatusBarAlignment.Left, 1000);
  status.name = vscode.l10n.t('Agent File Tools: changes waiting for review');
  status.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');

  const update = () => {
    const all = review.pending();
    const n = all.length;
    tree.refresh();
    view.badge = n > 0 ? { value: n, tooltip: waitingText(n) } : undefined;
    if (n > 0) {
      status.text = `$(diff) ${waitingText(n)}`;
      status.tooltip = all.map((p) => proposalLabel(p.proposal)).join('\n');
      status.command = n === 1 ? { command: COMMANDS.show, title: vscode.l10n.t('Review'), arguments: [all[0].id] } : `${PENDING_VIEW}.focus`;
      status.show();
    } else {
      status.hide();
    }
    void vscode.commands.executeCommand('setContext', KEYS.pending, n > 0);
    void vscode.commands.executeCommand('setContext', KEYS.several, n > 1);
    updateActiveEditor();
  };
  const updateActiveEditor = () => {
    const active = review.proposalOfTab(vscode.window.tabGroups.activeTabGroup.activeTab);
    void vscode.commands.executeCommand('setContext', KEYS.editorActive, !!active);
  };

  /** Which proposal a command is about: its argument, else the review in front of the person, else the only one, else ask. */
  const target = async (arg: unknown): Promise<PendingReview | undefined> => {
    const all = review.pending();
    if (typeof arg === 'string' || isNode(arg)) {
      const p = review.get(typeof arg === 'string' ? arg : arg.id);
      if (!p) {
        void vscode.window.showInformationMessage(vscode.l10n.t('That change is no longer waiting for review.'));
      }
      return p;
    }
    if (arg instanceof vscode.Uri && arg.scheme !== MULTI_DIFF_SCHEME) {
      const p = review.proposalOf(arg) ?? single(all.filter((x) => x.files.some((f) => f.real.toString() === arg.toString())));
      if (!p) {
        void vscode.window.showInformationMessage(vscode.l10n.t('No change waiting for review is shown there.'));
      }
      return p;
    }
    if (review.isAnswered(vscode.window.tabGroups.activeTabGroup.activeTab)) {
      // an answered review, still closing: never the answer to another one the person has not looked at
      void vscode.window.showInformationMessage(vscode.l10n.t('That change is no longer waiting for review.'));
      return undefined;
    }
    // The multi-diff editor's buttons pass that editor's own URI: find the review it shows.
    const shown = review.proposalOfTab(vscode.window.tabGroups.activeTabGroup.activeTab) ??
      single(distinct(vscode.window.tabGroups.all.map((g) => g.activeTab).filter((t): t is vscode.Tab => !!t && isMultiDiffTab(t)).map((t) => review.proposalOfTab(t))));
    if (shown) {
      return shown;
    }
    if (all.length <= 1) {
      if (all.length === 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t('No change is waiting for review.'));
      }
      return all[0];
    }
    const pick = await vscode.window.showQuickPick(
      all.map((p) => ({ label: proposalLabel(p.proposal), description: countActions(p.files), p })),
      { title: vscode.l10n.t('Which proposed change?'), placeHolder: vscode.l10n.t('Several changes wait for review') },
    );
    return pick?.p;
  };

  /** The reason for a rejection: given, or asked for (Escape keeps the change waiting). */
  const reasonFor = async (what: string, arg: unknown): Promise<{ reason: string | undefined } | undefined> => {
    if (typeof arg === 'string') {
      return { reason: cleanReason(arg) };
    }
    const typed = await vscode.window.showInputBox({
      title: vscode.l10n.t('Reject {0}', what),
      prompt: vscode.l10n.t('Why? Optional: the model receives it. Enter rejects; Escape keeps the change waiting.'),
      placeHolder: vscode.l10n.t('Reason (optional)'),
      ignoreFocusOut: true,
    });
    return typed === undefined ? undefined : { reason: cleanReason(typed) };
  };

  const subscriptions: vscode.Disposable[] = [
    tree,
    view,
    status,
    review.onDidChange(update),
    vscode.window.tabGroups.onDidChangeTabs(updateActiveEditor),
    vscode.window.tabGroups.onDidChangeTabGroups(updateActiveEditor),
    vscode.commands.registerCommand(COMMANDS.accept, async (arg?: unknown) => {
      const p = await target(arg);
      return p ? answered(p, await review.accept(p.id)) : false;
    }),
    vscode.commands.registerCommand(COMMANDS.reject, async (arg?: unknown, reason?: unknown) => {
      const p = await target(arg);
      const r = p && (await reasonFor(proposalLabel(p.proposal), reason));
      return p && r ? answered(p, await review.reject(p.id, r.reason)) : false;
    }),
    vscode.commands.registerCommand(COMMANDS.acceptAll, async () => {
      const all = review.pending();
      return (await Promise.all(all.map(async (p) => answered(p, await review.accept(p.id))))).filter(Boolean).length;
    }),
    vscode.commands.registerCommand(COMMANDS.rejectAll, async (reason?: unknown) => {
      const all = review.pending();
      const r = all.length ? await reasonFor(`all ${all.length} proposed changes`, reason) : undefined;
      return r ? (await Promise.all(all.map(async (p) => answered(p, await review.reject(p.id, r.reason))))).filter(Boolean).length : 0;
    }),
    vscode.commands.registerCommand(COMMANDS.show, async (arg?: unknown, index?: unknown) => {
      const p = await target(arg);
      const file = isNode(arg) && arg.kind === 'file' ? arg.index : typeof index === 'number' ? index : undefined;
      return p ? review.show(p.id, file) : false;
    }),
  ];
  update();
  return subscriptions;
}

/** The person answered a review (when `did`): the walkthrough's step for its tool is done. */
function answered(p: PendingReview, did: boolean): boolean {
  if (did && p.proposal.tool === 'fs_edit') {
    walkthroughDone(WALKTHROUGH_DONE.reviewedEdit);
  } else if (did && p.proposal.tool === 'fs_apply_patch') {
    walkthroughDone(WALKTHROUGH_DONE.reviewedPatch);
  }
  return did;
}

function single<T>(xs: readonly (T | undefined)[]): T | undefined {
  const defined = xs.filter((x): x is T => x !== undefined);
  return defined.length === 1 ? defined[0] : undefined;
}

function distinct<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}
