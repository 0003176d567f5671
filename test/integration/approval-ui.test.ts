// The review UI itself (src/approval/diffReview.ts) in the real host, on an instance of
// its own (its own URI scheme), driven through its methods: what the diff and multi-diff
// editors show, what Accept returns, how cancellation and failures end. The product's
// commands, view and keybindings are tested through the tools in approval.test.ts.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DiffReview, isMultiDiffTab, tabUris, type PendingReview } from '../../src/approval/diffReview';
import { ApprovalDenied, type ChangeProposal, type Review } from '../../src/services/approval';
import { resultText } from '../../src/services/result';
import { ui, uiAvailable, waitFor } from './ui';
import { wsUri } from './util';


/** One editor group and no editors: reviews and applied diffs open beside, which leaves groups behind. */
async function resetEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllGroups');
}
const SCHEME = 'aft-test-proposal';

function reviewTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => isMultiDiffTab(t) || tabUris(t).some((u) => u.scheme === SCHEME));
}

function modify(rel: string, oldText: string, newText: string, tool = 'fs_edit'): ChangeProposal {
  return { tool, summary: `edit ${rel}`, files: [{ path: wsUri(rel).fsPath, display: rel, action: 'modify', oldText, newText }] };
}

describe('the review UI in the host', () => {
  let review: DiffReview;
  let cts: vscode.CancellationTokenSource;

  before(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    review = new DiffReview({ scheme: SCHEME });
  });
  beforeEach(() => (cts = new vscode.CancellationTokenSource()));
  afterEach(async () => {
    for (const p of review.pending()) {
      await review.cancel(p.id);
    }
    cts.dispose();
    await resetEditors();
  });
  after(() => review.dispose());

  async function waiting(n = 1): Promise<PendingReview[]> {
    return waitFor(`${n} proposal(s) waiting`, () => (review.pending().length === n ? review.pending() : undefined));
  }

  it('shows one file in a pinned diff editor, current text left and the proposal right, and applies what the person left there', async () => {
    const asked = review.review(modify('hello.txt', 'hello world\nsecond line\n', 'hello there\nsecond line\n'), cts.token);
    const [p] = await waiting();
    const tab = await waitFor('the diff tab', () => reviewTabs()[0]);
    assert.equal(tab.label, 'hello.txt ↔ proposed by fs_edit');
    assert.equal(tab.isPreview, false);
    assert.ok(tab.input instanceof vscode.TabInputTextDiff);
    const left = await vscode.workspace.openTextDocument(tab.input.original);
    const right = await vscode.workspace.openTextDocument(tab.input.modified);
    assert.equal(left.getText(), 'hello world\nsecond line\n');
    assert.equal(right.getText(), 'hello there\nsecond line\n');
    assert.equal(tab.input.modified.path, wsUri('hello.txt').path, 'same path as the real file: not shown as a rename');

    // the left side is read-only, the proposal side takes edits
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(left.uri, new TextEncoder().encode('x'))), /NoPermissions|read/i);
    if (uiAvailable()) {
      const typed = await ui([{ click: '.editor-instance .original .view-lines' }, { type: 'XYZ' }]);
      assert.ok(typed.ok, typed.error);
      assert.equal(left.getText(), 'hello world\nsecond line\n', 'typing on the current side changes nothing');
    }
    const edit = new vscode.WorkspaceEdit();
    edit.replace(right.uri, new vscode.Range(0, 6, 0, 11), 'reviewer');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.equal(right.isDirty, true);

    assert.equal(await review.accept(p.id), true);
    const r = await asked;
    assert.equal(r.kind, 'accepted');
    assert.equal(r.kind === 'accepted' && r.texts.get(wsUri('hello.txt').fsPath), 'hello reviewer\nsecond line\n');
    assert.deepEqual(r.kind === 'accepted' && r.edited, [wsUri('hello.txt').fsPath]);
    assert.deepEqual(reviewTabs(), [], 'the diff is closed');
    assert.equal(review.pending().length, 0);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.readFile(right.uri)), 'the proposal document is forgotten');
    assert.equal(await review.accept(p.id), false, 'answering twice does nothing');
  });

  it('applies the proposal exactly as made when the person did not change it, CRLF and all', async () => {
    const newText = 'alpha\r\nbeta\r\ngamma\r\n';
    const asked = review.review(modify('crlf.txt', 'alpha\r\nbeta\r\n', newText), cts.token);
    const [p] = await waiting();
    await review.accept(p.id);
    const r = await asked;
    assert.deepEqual(r.kind === 'accepted' && [r.texts.get(wsUri('crlf.txt').fsPath), r.edited], [newText, []]);
  });

  it('updates the list of waiting changes once an accepted change is written, not while the window writes it', async () => {
    let markWritten!: () => void;
    let endCall!: () => void;
    const written = new Promise<void>((r) => (markWritten = r));
    const callEnded = new Promise<void>((r) => (endCall = r));
    const asked = review.review(modify('hello.txt', 'a\n', 'b\n'), cts.token, { callEnded, written });
    const [p] = await waiting();
    await waitFor('the diff tab', () => reviewTabs()[0]);
    let changes = 0;
    const sub = review.onDidChange(() => changes++);
    try {
      const accepting = review.accept(p.id);
      assert.equal((await asked).kind, 'accepted');
      assert.deepEqual(review.pending(), [], 'no longer waiting');
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(changes, 0, 'the view, badge and status bar were updated before the change was written');
      markWritten();
      await waitFor('the list updated', () => changes > 0 || undefined, 2000);
      endCall();
      await accepting;
    } finally {
      sub.dispose();
      markWritten();
      endCall();
    }
  });

  it('updates the list of waiting changes a second after Accept at most when the write is not told', async () => {
    let endCall!: () => void;
    const callEnded = new Promise<void>((r) => (endCall = r));
    const asked = review.review(modify('hello.txt', 'a\n', 'b\n'), cts.token, { callEnded, written: new Promise<void>(() => {}) });
    const [p] = await waiting();
    await waitFor('the diff tab', () => reviewTabs()[0]);
    let changes = 0;
    const sub = review.onDidChange(() => changes++);
    try {
      const t0 = Date.now();
      const accepting = review.accept(p.id);
      await asked;
      await waitFor('the list updated', () => changes > 0 || undefined, 3000);
      const took = Date.now() - t0;
      assert.ok(took >= 900 && took < 2000, `updated after ${took} ms`);
      endCall();
      await accepting;
    } finally {
      sub.dispose();
      endCall();
    }
  });

  it('returns a rejection with the reason given, and closes the diff', async () => {
    const asked = review.review(modify('hello.txt', 'a\n', 'b\n'), cts.token);
    const [p] = await waiting();
    await waitFor('the diff tab', () => reviewTabs()[0]);
    await review.reject(p.id, 'keep the greeting');
    assert.deepEqual(await asked, { kind: 'rejected', reason: 'keep the greeting' });
    assert.deepEqual(reviewTabs(), []);
  });

  it('closes the diff and answers "cancelled" when the request is cancelled, even after the proposal was edited', async () => {
    const asked = review.review(modify('hello.txt', 'a\n', 'b\n'), cts.token);
    const [p] = await waiting();
    await waitFor('the diff tab', () => reviewTabs()[0]);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(p.files[0].proposed, new vscode.Position(0, 0), 'typed ');
    assert.ok(await vscode.workspace.applyEdit(edit));
    cts.cancel();
    assert.deepEqual(await asked, { kind: 'cancelled' });
    await waitFor('the diff to close', () => (reviewTabs().length === 0 ? true : undefined));
    assert.equal(review.pending().length, 0);
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.scheme === SCHEME && d.isDirty), 'no dirty proposal is left to ask about');
  });

  it('answers "cancelled" at once for a request already cancelled, showing nothing', async () => {
    cts.cancel();
    assert.deepEqual(await review.review(modify('hello.txt', 'a\n', 'b\n'), cts.token), { kind: 'cancelled' });
    assert.deepEqual(reviewTabs(), []);
  });

  it('keeps several proposals waiting at once and answers each on its own', async () => {
    const first = review.review(modify('hello.txt', 'a\n', 'b\n'), cts.token);
    await waiting(1);
    const second = review.review(modify('crlf.txt', 'c\n', 'd\n', 'fs_write'), cts.token);
    const [p1, p2] = await waiting(2);
    await waitFor('two diff tabs', () => (reviewTabs().length === 2 ? true : undefined));
    await review.accept(p2.id);
    const r2 = await second;
    assert.equal(r2.kind, 'accepted');
    assert.equal(review.pending().length, 1, 'the first still waits');
    assert.equal(reviewTabs().length, 1, 'only the answered diff closed');
    await review.reject(p1.id);
    assert.deepEqual(await first, { kind: 'rejected' });
  });

  it('keeps a proposal waiting when its diff tab is closed, and shows it again', async () => {
    const asked = review.review(modify('hello.txt', 'a\n', 'b\n'), cts.token);
    const [p] = await waiting();
    await vscode.window.tabGroups.close(await waitFor('the diff tab', () => reviewTabs()[0]));
    assert.equal(review.pending().length, 1, 'closing the tab is not an answer');
    assert.equal(await review.show(p.id), true);
    assert.equal(reviewTabs().length, 1);
    await review.reject(p.id);
    assert.equal((await asked).kind, 'rejected');
  });

  it('opens beside the editor the person is typing in, and leaves the keyboard there', async () => {
    const doc = await vscode.workspace.openTextDocument({ content: 'notes\n', language: 'plaintext' });
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(1, 0, 1, 0);
    // typed the way keys type: the editor's `type` command
    await vscode.commands.executeCommand('type', { text: 'typing' });
    assert.equal(doc.getText(), 'notes\ntyping');
    const asked = review.review(modify('hello.txt', 'a\n', 'b\n'), cts.token);
    const [p] = await waiting();
    const tab = await waitFor('the diff tab', () => reviewTabs()[0]);
    assert.equal(vscode.window.activeTextEditor?.document, doc, 'the editor being typed in keeps the keyboard');
    assert.notEqual(tab.group.viewColumn, editor.viewColumn, 'the diff opens beside it, not over it');
    await review.reject(p.id);
    await asked;
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('opens over the active editor when its text changed without the person (a change just applied, a reload from disk)', async () => {
    const doc = await vscode.workspace.openTextDocument({ content: 'notes\n', language: 'plaintext' });
    const editor = await vscode.window.showTextDocument(doc);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(1, 0), 'landed by a tool\n');
    // the change event can come after applyEdit returns: wait until the review has had it too
    const seen = new Promise<void>((resolve) => {
      const sub = vscode.workspace.onDidChangeTextDocument((e) => e.document === doc && (sub.dispose(), resolve()));
    });
    assert.ok(await vscode.workspace.applyEdit(edit));
    await seen;
    const asked = review.review(modify('hello.txt', 'a\n', 'b\n'), cts.token);
    const [p] = await waiting();
    const tab = await waitFor('the diff tab', () => reviewTabs()[0]);
    assert.equal(tab.group.viewColumn, editor.viewColumn, 'nobody types there: the diff opens in that group, where it is wide enough for its buttons');
    await review.reject(p.id);
    await asked;
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('shows several files in one pinned multi-diff editor where adds, deletes, moves and replacements are unmistakable', async () => {
    const at = (rel: string) => wsUri(rel).fsPath;
    const proposal: ChangeProposal = {
      tool: 'fs_apply_patch',
      summary: 'Rename the greeting',
      files: [
        { path: at('src/greeting.ts'), display: 'src/greeting.ts', action: 'create', oldText: undefined, newText: 'export const greeting = "hi";\n' },
        { path: at('hello.txt'), display: 'hello.txt', action: 'modify', oldText: 'hello world\nsecond line\n', newText: 'hi world\nsecond line\n' },
        { path: at('notes/old.md'), display: 'notes/old.md', action: 'delete', oldText: '# old\n', newText: undefined },
        { path: at('docs/moved.md'), display: 'docs/moved.md', action: 'move', from: { path: at('notes/a.md'), display: 'notes/a.md' }, oldText: '# a\n', newText: '# a, moved\n' },
        { path: at('crlf.txt'), display: 'crlf.txt', action: 'overwrite', oldText: 'alpha\r\nbeta\r\ngamma\r\n', newText: 'replaced\n' },
      ],
    };
    const asked = review.review(proposal, cts.token);
    const [p] = await waiting();
    const tab = await waitFor('the multi-diff tab, pinned so that opening another file does not replace it', () => reviewTabs().find((t) => isMultiDiffTab(t) && !t.isPreview));
    assert.equal(reviewTabs().length, 1, 'one editor for the whole proposal');
    assert.match(tab.label, /^Rename the greeting \(replaces existing crlf\.txt\) ↔ proposed by fs_apply_patch \(5 files\)$/);
    assert.equal(review.proposalOfTab(tab)?.id, p.id);
    if (uiAvailable()) {
      // The product's controls set this key for their own reviews; set here, it shows that the
      // manifest's title buttons appear on a multi-diff review.
      await vscode.commands.executeCommand('setContext', 'agentFileTools.reviewEditorActive', true);
      const r = await ui([
        { waitFor: '.monaco-workbench .editor-instance', timeout: 15000 },
        { waitFor: '.editor-actions a.action-label[aria-label^="Accept Proposed Change"]' },
        { waitFor: '.editor-actions a.action-label[aria-label^="Reject Proposed Change"]' },
        { eval: `[...document.querySelectorAll('.status.added, .status.deleted, .status.renamed')].map((e) => e.textContent).sort().join(',')` },
        { screenshot: 'review-multi-diff' },
      ]);
      await vscode.commands.executeCommand('setContext', 'agentFileTools.reviewEditorActive', false);
      assert.ok(r.ok, r.error);
      assert.equal(r.evals?.[0], 'A,D,R', 'the editor marks the add, the delete and the move');
      console.log(`[aft] screenshots: ${r.shots?.join(', ')}`);
    }
    await review.accept(p.id);
    const r = await asked;
    assert.equal(r.kind, 'accepted');
    if (r.kind === 'accepted') {
      assert.deepEqual([...r.texts.keys()].sort(), [at('crlf.txt'), at('docs/moved.md'), at('hello.txt'), at('src/greeting.ts')].sort(), 'every file but the delete has a text');
      assert.equal(r.texts.get(at('docs/moved.md')), '# a, moved\n');
      assert.deepEqual(r.edited, []);
    }
    await waitFor('the multi-diff to close', () => (reviewTabs().length === 0 ? true : undefined));
  });

  it('fails with a clear message and changes nothing when the diff cannot be opened', async () => {
    // The editor refuses to open text with NUL bytes as a document.
    let r: Review | undefined;
    let err: unknown;
    try {
      r = await review.review(modify('hello.txt', 'a\n', 'b\u0000\u0000\u0000binary\n'), cts.token);
    } catch (e) {
      err = e;
    }
    assert.equal(r, undefined);
    assert.ok(err instanceof ApprovalDenied, String(err));
    assert.match(resultText(err.result), /^The change was not applied: its review could not be shown to the user \(.+\)\. Nothing was changed\./);
    assert.equal(review.pending().length, 0);
    assert.deepEqual(reviewTabs(), []);
  });
});
