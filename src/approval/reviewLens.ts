import * as vscode from 'vscode';
import type { DiffReview, ReviewFile } from './diffReview';
import { firstChangedLine, reviewActionTitles } from './proposalText';
import { COMMANDS } from './reviewControls';

/**
 * Accept and Reject as labelled actions inside the review, with their keys: a CodeLens above
 * the first line the change touches, on the proposal's side (a deleted file has none: on the
 * side it is deleted from), in the diff editor and in each file of the multi-diff editor.
 * VS Code shows CodeLenses in diff editors only with `diffEditor.codeLens` on, which the
 * manifest makes the default.
 */
class ReviewLenses implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  /** Where each file's change starts: computed once per file (a review's file may be 16 MiB). */
  private readonly firstLines = new WeakMap<ReviewFile, number>();

  constructor(private readonly review: DiffReview) {}

  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const p = this.review.proposalOf(doc.uri);
    const f = p?.files.find((x) => x.proposed.toString() === doc.uri.toString() || (x.action === 'delete' && x.current.toString() === doc.uri.toString()));
    if (!p || !f) {
      return [];
    }
    let line = this.firstLines.get(f);
    if (line === undefined) {
      line = f.action === 'delete' ? 0 : firstChangedLine(f.oldText ?? '', f.newText ?? '');
      this.firstLines.set(f, line);
    }
    const range = new vscode.Range(Math.min(line, doc.lineCount - 1), 0, Math.min(line, doc.lineCount - 1), 0);
    const titles = reviewActionTitles(p.proposal, process.platform);
    return [
      new vscode.CodeLens(range, { title: titles.accept, command: COMMANDS.accept, arguments: [p.id] }),
      new vscode.CodeLens(range, { title: titles.reject, command: COMMANDS.reject, arguments: [p.id] }),
    ];
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function registerReviewLenses(review: DiffReview): vscode.Disposable[] {
  const lenses = new ReviewLenses(review);
  return [lenses, vscode.languages.registerCodeLensProvider({ scheme: review.scheme }, lenses), review.onDidChange(() => lenses.refresh())];
}
