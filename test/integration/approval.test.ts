// Reviewing changes the way a person does, through the tools: fs_write proposes, the diff
// editor shows it, and the extension's own commands, buttons, keybindings and Pending
// Changes view answer. The approval policy is the default (`always`): every change asks.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { NEVER_CANCELLED } from '../../src/core/cancel';
import { textVersion } from '../../src/core/hash';
import { english } from '../../src/core/phrase';
import { DEFAULT_SENSITIVE_GLOBS } from '../../src/core/policy';
import { DEFAULT_PROTECTED_GLOBS } from '../../src/core/writePolicy';
import { VscodeWorkspace } from '../../src/host/vscodeWorkspace';
import { ReadLedger } from '../../src/services/ledger';
import { FileLocks } from '../../src/services/locks';
import { findTool } from '../../src/tools/registry';
import { prepareTool } from '../../src/services/run';
import { SILENT_LOGGER } from '../../src/services/types';
import { readSettings } from '../../src/vscode/settings';
import { ui, uiAvailable, waitFor } from './ui';
import { invoke, wsUri } from './util';


/** One editor group and no editors: reviews and applied diffs open beside, which leaves groups behind. */
async function resetEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllGroups');
}
const SCHEME = 'agent-file-tools-proposal';

function reviewTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === SCHEME);
}

/** The review diff whose title starts with `name`, once it is open. */
function reviewOf(name: string): Promise<vscode.Tab & { input: vscode.TabInputTextDiff }> {
  return waitFor(`the review of ${name}`, () => reviewTabs().find((t) => t.label.startsWith(`${name} `)) as (vscode.Tab & { input: vscode.TabInputTextDiff }) | undefined);
}

function seed(rel: string, text: string): string {
  const p = wsUri(rel).fsPath;
  fs.mkdirSync(wsUri(rel).with({ path: wsUri(rel).path.replace(/\/[^/]*$/, '') }).fsPath, { recursive: true });
  fs.writeFileSync(p, text);
  return p;
}

describe('reviewing a change in VS Code', () => {
  before(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    await vscode.workspace.getConfiguration('agentFileTools').update('approvalPolicy', undefined, vscode.ConfigurationTarget.Global);
  });
  afterEach(async () => {
    // nothing may be left waiting for the next test
    await vscode.commands.executeCommand('agentFileTools.rejectAllChanges', 'test cleanup');
    await resetEditors();
  });

  it('applies the proposal when the person runs Accept on the diff', async () => {
    const p = seed('review/accept.txt', 'one\ntwo\n');
    await invoke('fs_read', { path: 'review/accept.txt' });
    const call = invoke('fs_write', { path: 'review/accept.txt', content: 'one\nTWO\n' });
    const tab = await reviewOf('accept.txt');
    assert.equal(tab.label, 'accept.txt (replaces the existing file) ↔ proposed by fs_write');
    assert.equal(tab.isPreview, false);
    assert.equal(fs.readFileSync(p, 'utf8'), 'one\ntwo\n', 'nothing lands before the answer');
    assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange'), true);
    const { text } = await call;
    assert.match(text, /^Wrote review\/accept\.txt: \+1 -1 lines; version [0-9a-f]{8}\.\n<diff>\n/);
    assert.doesNotMatch(text, /user edited/);
    assert.equal(fs.readFileSync(p, 'utf8'), 'one\nTWO\n');
    // the review stays until the result has left, then closes
    await waitFor('the diff to close', () => (reviewTabs().length === 0 ? true : undefined));
  });

  it('loads the file a waiting change would land on, so Accept does not wait for it; never a sensitive one', async () => {
    const isOpen = (p: string) => vscode.workspace.textDocuments.some((d) => d.uri.scheme === 'file' && d.uri.fsPath === p);
    const plain = seed('review/preload.txt', 'one\n');
    const secret = seed('review/preload/.env', 'TOKEN=1\n');
    assert.equal(isOpen(plain), false);
    await invoke('fs_read', { path: 'review/preload.txt' });
    const call = invoke('fs_write', { path: 'review/preload.txt', content: 'two\n' });
    await reviewOf('preload.txt');
    await waitFor('the file loaded while its review waits', () => (isOpen(plain) ? true : undefined));
    assert.equal(await vscode.commands.executeCommand('agentFileTools.rejectChange', undefined, 'no'), true);
    assert.match((await call).text, /^The user rejected this change/);
    assert.equal(fs.readFileSync(plain, 'utf8'), 'one\n');
    // a sensitive file's change asks for itself: its text is not handed to every extension before the answer
    const secretCall = invoke('fs_write', { path: 'review/preload/.env', content: 'TOKEN=2\n', version: textVersion('TOKEN=1\n') });
    await reviewOf('.env');
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(isOpen(secret), false, 'the secret was not loaded while its review waits');
    assert.equal(await vscode.commands.executeCommand('agentFileTools.rejectChange', undefined, 'no'), true);
    await secretCall;
    fs.rmSync(secret, { force: true });
  });

  it('takes no setting from the workspace that would make the tools ask less: a repository\'s .vscode/settings.json can only add to them', async () => {
    const config = () => vscode.workspace.getConfiguration('agentFileTools');
    const p = seed('review/hostile/.env', 'TOKEN=1\n');
    const outside = path.join(os.tmpdir(), 'aft-outside-by-workspace.txt');
    fs.writeFileSync(outside, 'outside\n');
    // the file as a repository ships it, written directly (VS Code's own API refuses a machine setting there)
    const settingsFile = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, '.vscode', 'settings.json');
    const saved = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : undefined;
    const ws = new VscodeWorkspace();
    try {
      fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
      fs.writeFileSync(settingsFile, JSON.stringify({
        ...(saved ? JSON.parse(saved) : {}),
        'agentFileTools.sensitiveFiles': ['!**/.env', '**/*.private'],
        'agentFileTools.allowedOutsidePaths': ['/**'],
        'agentFileTools.approvalPolicy': 'never',
        'agentFileTools.protectedFiles': ['!**'],
      }, null, 2));
      await waitFor('the workspace settings', () => config().inspect('approvalPolicy')?.workspaceValue === 'never' || undefined);
      const s = readSettings();
      assert.equal(s.approvalPolicy, 'always');
      assert.deepEqual(s.allowedOutsidePaths, []);
      assert.deepEqual(s.sensitiveFiles, [...DEFAULT_SENSITIVE_GLOBS, '**/*.private'], 'the defaults stay, the exemption is dropped, the new pattern is added');
      assert.deepEqual(s.protectedFiles, [...DEFAULT_PROTECTED_GLOBS]);
      const nobody = { confirm: () => Promise.reject(new Error('prepare asks nobody')), review: () => Promise.reject(new Error('prepare asks nobody')), showApplied: () => {} };
      const ctx = { ws, approver: nobody, settings: s, signal: NEVER_CANCELLED, ledger: new ReadLedger(), locks: new FileLocks(), log: SILENT_LOGGER };
      assert.match(english((await prepareTool(findTool('fs_read')!, { path: 'review/hostile/.env' }, ctx))!.confirmation!.message), /may hold secrets/);
      assert.match(english((await prepareTool(findTool('fs_read')!, { path: outside }, ctx))!.confirmation!.message), /outside the workspace/);
      // stricter is taken: the workspace's policy where the person's own waits less
      await config().update('approvalPolicy', 'never', vscode.ConfigurationTarget.Global);
      await config().update('approvalPolicy', 'sensitiveOnly', vscode.ConfigurationTarget.Workspace);
      assert.equal(readSettings().approvalPolicy, 'sensitiveOnly');
      await config().update('approvalPolicy', undefined, vscode.ConfigurationTarget.Workspace);
      assert.equal(readSettings().approvalPolicy, 'never', 'the person\'s own choice');
    } finally {
      await config().update('approvalPolicy', undefined, vscode.ConfigurationTarget.Global);
      if (saved === undefined) {
        fs.rmSync(settingsFile, { force: true });
      } else {
        fs.writeFileSync(settingsFile, saved);
      }
      await waitFor('the workspace settings put back', () => config().inspect('sensitiveFiles')?.workspaceValue === undefined || undefined);
      ws.dispose();
      fs.rmSync(p, { force: true });
      fs.rmSync(outside, { force: true });
    }
  });

  it('fs_write to a secret the model has not read: the read question is on the card before the call, then the review, then the diff', async () => {
    const p = seed('review/.env', 'TOKEN=old-secret\n');
    const ws = new VscodeWorkspace();
    try {
      // what prepareInvocation returns on this host's workspace: the card asks before anything is loaded
      const nobody = {
        confirm: () => Promise.reject(new Error('prepare asks nobody')),
        review: () => Promise.reject(new Error('prepare asks nobody')),
        showApplied: () => {},
      };
      const ctx = { ws, approver: nobody, settings: readSettings(), signal: NEVER_CANCELLED, ledger: new ReadLedger(), locks: new FileLocks(), log: SILENT_LOGGER };
      const prep = await prepareTool(findTool('fs_write')!, { path: 'review/.env', content: '' }, ctx);
      assert.equal(english(prep!.confirmation!.title), 'Allow Agent File Tools to write a sensitive file?');
      assert.match(english(prep!.confirmation!.message), /^`fs_write` wants to write `review\/\.env`, which may hold secrets/);
      assert.equal((await prepareTool(findTool('fs_write')!, { path: 'review/new/.env', content: '' }, ctx))?.confirmation, undefined, 'a secret not there yet holds nothing to ask about');
      // The whole call: outside a chat VS Code shows the card as a dialog, which its test host
      // answers yes; the call's own question must be the card's, or the call would wait on a dialog of its own.
      // the model knows the file's version (it never read it here): an overwrite without it is refused
      const call = invoke('fs_write', { path: 'review/.env', content: 'TOKEN=new\n', version: textVersion('TOKEN=old-secret\n') });
      await reviewOf('.env');
      assert.equal(fs.readFileSync(p, 'utf8'), 'TOKEN=old-secret\n', 'nothing lands before the answer');
      assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange'), true);
      const { text } = await call;
      // the person allowed the read for this call, so the model may see what the file held
      assert.match(text, /^Wrote review\/\.env: \+1 -1 lines; version [0-9a-f]{8}\.\n<diff>\n[^]*-TOKEN=old-secret\n\+TOKEN=new\n/);
      assert.equal(fs.readFileSync(p, 'utf8'), 'TOKEN=new\n');
    } finally {
      ws.dispose();
      fs.rmSync(p, { force: true });
    }
  });

  it('reviews an fs_edit in a diff titled after the file and the tool', async () => {
    const p = seed('review/edit.py', 'def area(r):\n    return 3.14 * r * r\n');
    const call = invoke('fs_edit', { path: 'review/edit.py', old_string: '3.14 * r * r', new_string: 'math.pi * r ** 2' });
    const tab = await reviewOf('edit.py');
    assert.equal(tab.label, 'edit.py ↔ proposed by fs_edit');
    assert.equal((await vscode.workspace.openTextDocument(tab.input.modified)).getText(), 'def area(r):\n    return math.pi * r ** 2\n');
    await vscode.commands.executeCommand('agentFileTools.acceptChange');
    assert.match((await call).text, /^Edited review\/edit\.py: \+1 -1 lines/);
    assert.equal(fs.readFileSync(p, 'utf8'), 'def area(r):\n    return math.pi * r ** 2\n');
  });

  it('gives the model the reason of a rejection, and writes nothing', async () => {
    const p = seed('review/reject.txt', 'keep me\n');
    await invoke('fs_read', { path: 'review/reject.txt' });
    const call = invoke('fs_write', { path: 'review/reject.txt', content: 'replaced\n' });
    const tab = await reviewOf('reject.txt');
    assert.equal(await vscode.commands.executeCommand('agentFileTools.rejectChange', tab.input.modified, 'the old wording is required by the spec'), true);
    const { text } = await call;
    assert.match(text, /^The user rejected this change; nothing was written\. Their reason: the old wording is required by the spec\. Do not retry/);
    assert.equal(fs.readFileSync(p, 'utf8'), 'keep me\n');
    assert.deepEqual(reviewTabs(), []);
  });

  it('applies what the person changed in the proposal, and tells the model how they changed it', async () => {
    const p = seed('review/edited.ts', 'export const a = 1;\n');
    await invoke('fs_read', { path: 'review/edited.ts' });
    const call = invoke('fs_write', { path: 'review/edited.ts', content: 'export const a = 2;\n' });
    const tab = await reviewOf('edited.ts');
    const proposal = await vscode.workspace.openTextDocument(tab.input.modified);
    assert.equal(proposal.languageId, 'typescript', 'the proposal is at the real path: same language');
    const edit = new vscode.WorkspaceEdit();
    edit.insert(proposal.uri, new vscode.Position(1, 0), 'export const b = 3;\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await vscode.commands.executeCommand('agentFileTools.acceptChange', tab.input.modified);
    const { text } = await call;
    assert.equal(fs.readFileSync(p, 'utf8'), 'export const a = 2;\nexport const b = 3;\n');
    assert.match(text, /The user edited your proposal before accepting it; what landed differs from what you proposed by:\n<user-edits>\n[^]*\+export const b = 3;[^]*<\/user-edits>/);
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.scheme === SCHEME && d.isDirty), 'the edited proposal is not left dirty');
  });

  it('shows the unsaved buffer on the left when the file has one, and keeps it unsaved', async () => {
    const p = seed('review/dirty.txt', 'saved line\n');
    const doc = await vscode.workspace.openTextDocument(wsUri('review/dirty.txt'));
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(1, 0), 'unsaved line\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await invoke('fs_read', { path: 'review/dirty.txt' });
    const call = invoke('fs_write', { path: 'review/dirty.txt', content: 'saved line\nunsaved line\nproposed line\n' });
    const tab = await reviewOf('dirty.txt');
    assert.equal((await vscode.workspace.openTextDocument(tab.input.original)).getText(), 'saved line\nunsaved line\n', 'the left side is the buffer');
    await vscode.commands.executeCommand('agentFileTools.acceptChange', tab.input.modified);
    assert.match((await call).text, /not saved: the file had unsaved changes of the user, which were kept/);
    assert.equal(doc.getText(), 'saved line\nunsaved line\nproposed line\n');
    assert.equal(fs.readFileSync(p, 'utf8'), 'saved line\n');
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('never overwrites a file that changed on disk while its proposal waited', async () => {
    const p = seed('review/raced.txt', 'v1\n');
    await invoke('fs_read', { path: 'review/raced.txt' });
    const call = invoke('fs_write', { path: 'review/raced.txt', content: 'proposal\n' });
    await reviewOf('raced.txt');
    fs.writeFileSync(p, 'v2, written meanwhile\n');
    await vscode.commands.executeCommand('agentFileTools.acceptChange');
    assert.match((await call).text, /^review\/raced\.txt changed while the change waited for approval .*Nothing was written, so the newer text is kept/);
    assert.equal(fs.readFileSync(p, 'utf8'), 'v2, written meanwhile\n');
  });

  it('writes nothing when the file was deleted while its proposal waited', async () => {
    const p = seed('review/vanished.txt', 'here\n');
    await invoke('fs_read', { path: 'review/vanished.txt' });
    const call = invoke('fs_write', { path: 'review/vanished.txt', content: 'proposal\n' });
    await reviewOf('vanished.txt');
    fs.rmSync(p);
    await vscode.commands.executeCommand('agentFileTools.acceptChange');
    assert.match((await call).text, /^review\/vanished\.txt was deleted while the change waited for approval\. Nothing was written\./);
    assert.equal(fs.existsSync(p), false);
  });

  it('a document left loaded by an earlier review does not hide a delete or a change on disk at Accept', async () => {
    const p = seed('review/loaded.txt', 'here\n');
    await invoke('fs_read', { path: 'review/loaded.txt' });
    const first = invoke('fs_write', { path: 'review/loaded.txt', content: 'first\n' });
    await reviewOf('loaded.txt');
    await waitFor('the file loaded', () => (vscode.workspace.textDocuments.some((d) => d.uri.scheme === 'file' && d.uri.fsPath === p) ? true : undefined));
    assert.equal(await vscode.commands.executeCommand('agentFileTools.rejectChange', undefined, 'no'), true);
    await first;
    // planned on the clean document now: the file goes while the review waits
    const second = invoke('fs_write', { path: 'review/loaded.txt', content: 'second\n' });
    await reviewOf('loaded.txt');
    fs.rmSync(p);
    assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange'), true);
    assert.match((await second).text, /^review\/loaded\.txt was deleted while the change waited for approval\. Nothing was written\./);
    assert.equal(fs.existsSync(p), false, 'the deleted file was not brought back');
    // and changed on disk, the same length, while the review waits
    fs.writeFileSync(p, 'here\n');
    await invoke('fs_read', { path: 'review/loaded.txt' });
    const third = invoke('fs_write', { path: 'review/loaded.txt', content: 'third\n' });
    await reviewOf('loaded.txt');
    await new Promise((r) => setTimeout(r, 20));
    fs.writeFileSync(p, 'HERE\n');
    assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange'), true);
    assert.match((await third).text, /^review\/loaded\.txt changed while the change waited for approval.*Nothing was written, so the newer text is kept/);
    assert.equal(fs.readFileSync(p, 'utf8'), 'HERE\n');
  });

  it('a file outside the workspace that is only loaded, not shown in a tab, is still asked about', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aft-outside-'));
    const file = path.join(dir, 'notes.txt');
    fs.writeFileSync(file, 'outside\n');
    const ws = new VscodeWorkspace();
    try {
      const ctx = { ws, approver: { confirm: () => Promise.reject(new Error('no')), review: () => Promise.reject(new Error('no')), showApplied: () => {} }, settings: readSettings(), signal: NEVER_CANCELLED, ledger: new ReadLedger(), locks: new FileLocks(), log: SILENT_LOGGER };
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
      const prep = await prepareTool(findTool('fs_read')!, { path: file }, ctx);
      assert.match(english(prep!.confirmation!.title), /outside/i, 'a document only loaded is not the person having it open');
      await vscode.window.showTextDocument(doc);
      assert.equal((await prepareTool(findTool('fs_read')!, { path: file }, ctx))?.confirmation, undefined, 'shown in a tab, it is open in the editor');
    } finally {
      ws.dispose();
      await resetEditors();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps several proposals waiting, lists them in Pending Changes, and answers each on its own', async () => {
    const a = seed('review/first.txt', 'first\n');
    const b = seed('review/second.txt', 'second\n');
    await invoke('fs_read', { path: 'review/first.txt' });
    const callA = invoke('fs_write', { path: 'review/first.txt', content: 'first, changed\n' });
    await invoke('fs_read', { path: 'review/second.txt' });
    const callB = invoke('fs_write', { path: 'review/second.txt', content: 'second, changed\n' });
    await reviewOf('first.txt');
    await reviewOf('second.txt');
    if (uiAvailable()) {
      // the activity bar shows the count while anything waits; its view lists each proposal
      const icon = '.activitybar .action-item:has(.action-label[aria-label^="Agent File Tools"])';
      const r = await ui([
        { waitFor: `${icon} .badge-content`, timeout: 15000 },
        { eval: `document.querySelector('${icon} .badge-content').textContent` },
        { waitFor: '.statusbar-item:has-text("2 changes wait for your review")' },
        { click: icon },
        { waitFor: '.monaco-list-row[aria-label*="first.txt"]' },
        { waitFor: '.monaco-list-row[aria-label*="second.txt"]' },
        { eval: `[...document.querySelectorAll('.monaco-list-row[aria-label*="first.txt"], .monaco-list-row[aria-label*="second.txt"]')].map((e) => e.textContent).sort().join(' | ')` },
        { screenshot: 'review-pending-changes' },
      ]);
      assert.ok(r.ok, r.error);
      assert.equal(r.evals?.[0], '2', 'the activity bar counts the changes waiting');
      assert.equal(r.evals?.[1], 'first.txtreplaced by fs_write · review | second.txtreplaced by fs_write · review');
      console.log(`[aft] screenshots: ${r.shots?.join(', ')}`);
    }
    // answer the second by its file, the first by the view's row
    assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange', wsUri('review/second.txt')), true);
    assert.match((await callB).text, /^Wrote review\/second\.txt/);
    assert.equal(fs.readFileSync(b, 'utf8'), 'second, changed\n');
    assert.equal(fs.readFileSync(a, 'utf8'), 'first\n', 'the other still waits');
    assert.equal(reviewTabs().length, 1);
    assert.equal(await vscode.commands.executeCommand('agentFileTools.rejectAllChanges', ''), 1);
    assert.match((await callA).text, /^The user rejected this change; nothing was written\. Do not retry/);
    assert.equal(fs.readFileSync(a, 'utf8'), 'first\n');
  });

  it('closes the diff and changes nothing when the chat request is cancelled', async () => {
    const p = seed('review/cancel.txt', 'before\n');
    const cts = new vscode.CancellationTokenSource();
    await invoke('fs_read', { path: 'review/cancel.txt' });
    const call = invoke('fs_write', { path: 'review/cancel.txt', content: 'after\n' }, cts.token).then(
      (r) => r.text,
      (e: Error) => `threw ${e.name}: ${e.message}`,
    );
    await reviewOf('cancel.txt');
    cts.cancel();
    // VS Code rejects a cancelled invokeTool itself; the tool's own answer would be its cancelled result
    assert.match(await call, /^(threw Canceled: Canceled|The call was cancelled; nothing was changed\.)$/);
    await waitFor('the diff to close', () => (reviewTabs().length === 0 ? true : undefined));
    assert.equal(fs.readFileSync(p, 'utf8'), 'before\n');
    assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange', 'no-such-id'), false, 'nothing waits any more');
  });

  it('ends with a clear message and nothing written when the diff cannot be opened', async () => {
    const { text } = await invoke('fs_write', { path: 'review/binary.txt', content: 'nul \u0000\u0000\u0000 bytes\n' });
    assert.match(text, /^The change was not applied: its review could not be shown to the user \(.+\)\. Nothing was changed\./);
    assert.equal(fs.existsSync(wsUri('review/binary.txt').fsPath), false);
    assert.deepEqual(reviewTabs(), []);
  });

  it('shows a change that needed no answer beside the editor being typed in, without taking the keyboard', async () => {
    const config = vscode.workspace.getConfiguration('agentFileTools');
    await config.update('approvalPolicy', 'sensitiveOnly', vscode.ConfigurationTarget.Global);
    try {
      const p = seed('review/applied.txt', 'old\n');
      const doc = await vscode.workspace.openTextDocument({ content: 'my notes\n' });
      const editor = await vscode.window.showTextDocument(doc);
      await editor.edit((e) => e.insert(new vscode.Position(1, 0), 'still typing'));
      await invoke('fs_read', { path: 'review/applied.txt' });
      const { text } = await invoke('fs_write', { path: 'review/applied.txt', content: 'new\n' });
      assert.match(text, /^Wrote review\/applied\.txt/);
      assert.equal(fs.readFileSync(p, 'utf8'), 'new\n');
      const shown = await waitFor('the applied diff', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === 'applied.txt (replaces the existing file) ↔ applied by fs_write'));
      assert.equal(vscode.window.activeTextEditor?.document, doc, 'the keyboard stays in the editor being typed in');
      assert.notEqual(shown.group.viewColumn, editor.viewColumn, 'shown beside it, not over it');
      assert.equal(shown.isPreview, true, 'the next change shown replaces it');
      assert.ok(shown.input instanceof vscode.TabInputTextDiff);
      assert.equal(shown.input.modified.toString(), wsUri('review/applied.txt').toString(), 'the right side is the file itself');
      assert.equal((await vscode.workspace.openTextDocument(shown.input.original)).getText(), 'old\n');
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    } finally {
      await config.update('approvalPolicy', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});

describe('a review in the real workbench', () => {
  before(() => vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar'));
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      const r = await ui([{ screenshot: `failed-${this.currentTest.title.replace(/\W+/g, '-')}` }, { eval: `[...document.querySelectorAll('.editor-actions a.action-label')].map((e) => e.getAttribute('aria-label')).join(' | ')` }]);
      console.log(`[aft] on failure: ${JSON.stringify(r)}`);
    }
    await resetEditors();
  });

  it('clicking Accept in the diff title applies the change', async () => {
    const p = seed('review/clicked.md', '# Title\n\nOld paragraph.\n');
    await invoke('fs_read', { path: 'review/clicked.md' });
    const call = invoke('fs_write', { path: 'review/clicked.md', content: '# Title\n\nNew paragraph, proposed.\n' });
    await reviewOf('clicked.md');
    const accept = '.editor-actions a.action-label[aria-label^="Accept Proposed Change"]';
    const r = await ui([{ waitFor: accept }, { waitFor: '.monaco-diff-editor .view-lines' }, { screenshot: 'review-diff' }, { click: accept }]);
    assert.ok(r.ok, r.error);
    console.log(`[aft] screenshots: ${r.shots?.join(', ')}`);
    assert.match((await call).text, /^Wrote review\/clicked\.md/);
    assert.equal(fs.readFileSync(p, 'utf8'), '# Title\n\nNew paragraph, proposed.\n');
  });

  it('Reject from the keyboard asks for a reason, and the model receives it', async () => {
    const p = seed('review/keys.txt', 'left alone\n');
    await invoke('fs_read', { path: 'review/keys.txt' });
    const call = invoke('fs_write', { path: 'review/keys.txt', content: 'changed\n' });
    await reviewOf('keys.txt');
    const keys = [{ click: '.monaco-diff-editor .editor.modified .view-lines' }, { press: 'Control+K' }, { press: 'Control+N' }, { waitFor: '.quick-input-widget input' }];
    const escaped = await ui([...keys, { press: 'Escape' }, { waitFor: '.quick-input-widget', state: 'hidden' }]);
    assert.ok(escaped.ok, escaped.error);
    assert.equal(reviewTabs().length, 1, 'Escape keeps the change waiting');
    const r = await ui([
      ...keys,
      { type: 'keep it as it is' },
      { screenshot: 'review-reject-reason' },
      { press: 'Enter' },
    ]);
    assert.ok(r.ok, r.error);
    assert.match((await call).text, /^The user rejected this change; nothing was written\. Their reason: keep it as it is\. Do not retry/);
    assert.equal(fs.readFileSync(p, 'utf8'), 'left alone\n');
  });
});
