import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { acceptedText, actionLabel, baseName, changesTitle, cleanReason, countActions, diffTitle, firstChangedLine, proposalEditable, proposalLabel, reviewActionTitles, shortAction, waitingText, type ReviewedFile } from '../../src/approval/proposalText';

const file = (over: Partial<ReviewedFile>): ReviewedFile => ({ path: '/w/src/a.ts', display: 'src/a.ts', action: 'modify', oldText: 'a\n', newText: 'b\n', ...over });

describe('what the review shows', () => {
  it('titles a diff by file name, action and tool', () => {
    assert.equal(diffTitle('fs_edit', file({})), 'a.ts ↔ proposed by fs_edit');
    assert.equal(diffTitle('fs_write', file({ action: 'create', oldText: undefined })), 'a.ts (new file) ↔ proposed by fs_write');
    assert.equal(diffTitle('fs_write', file({ action: 'create', oldText: undefined }), 'applied'), 'a.ts (new file) ↔ applied by fs_write');
    assert.equal(diffTitle('fs_write', file({ action: 'overwrite' })), 'a.ts (replaces the existing file) ↔ proposed by fs_write');
    assert.equal(diffTitle('fs_apply_patch', file({ action: 'delete', newText: undefined })), 'a.ts (deleted) ↔ proposed by fs_apply_patch');
    const move = file({ action: 'move', path: '/w/lib/b.ts', display: 'lib/b.ts', from: { path: '/w/src/a.ts', display: 'src/a.ts' } });
    assert.equal(diffTitle('fs_apply_patch', move), 'a.ts → b.ts (moved) ↔ proposed by fs_apply_patch');
    assert.equal(diffTitle('fs_apply_patch', { ...move, replacesExisting: true }), 'a.ts → b.ts (moved, replaces the existing file) ↔ proposed by fs_apply_patch');
  });

  it('says what each action does, and names every replaced file in the multi-diff title', () => {
    assert.equal(actionLabel(file({ action: 'create' })), 'new file');
    assert.deepEqual(
      (['create', 'modify', 'overwrite', 'delete'] as const).map((action) => shortAction(file({ action }))),
      ['new', 'modified', 'replaced', 'deleted'],
    );
    assert.equal(shortAction(file({ action: 'move', from: { path: '/w/x', display: 'x' }, replacesExisting: true })), 'moved from x, replacing');
    assert.equal(actionLabel(file({ action: 'move', from: { path: '/w/x', display: 'x' }, replacesExisting: true })), 'moved from x, replaces the existing file');
    const files = [
      file({ action: 'create', display: 'n.ts' }),
      file({ action: 'overwrite', display: 'o.ts' }),
      file({ action: 'delete', display: 'd.ts', newText: undefined }),
      file({ action: 'move', display: 'm2.ts', from: { path: '/w/m.ts', display: 'm.ts' }, replacesExisting: true }),
      file({ action: 'move', display: 'q2.ts', from: { path: '/w/q.ts', display: 'q.ts' } }),
    ];
    assert.equal(countActions(files), '5 files: 1 new, 1 replaced, 2 moved, 1 deleted');
    assert.equal(changesTitle({ tool: 'fs_apply_patch', summary: 'Rework the parser', files }), 'Rework the parser (replaces existing o.ts, m2.ts) ↔ proposed by fs_apply_patch');
    assert.equal(changesTitle({ tool: 't', summary: 's', files: [file({}), file({ action: 'create' })] }), 's ↔ proposed by t');
    assert.equal(countActions([file({})]), '1 file: 1 modified');
  });

  it('names proposals and the wait in plain words', () => {
    assert.equal(baseName('src/x/y.ts'), 'y.ts');
    assert.equal(baseName('C:\\w\\y.ts'), 'y.ts');
    assert.equal(proposalLabel({ tool: 'fs_edit', summary: 's', files: [file({})] }), 'fs_edit: src/a.ts');
    assert.equal(proposalLabel({ tool: 'fs_apply_patch', summary: 'Two files', files: [file({}), file({})] }), 'fs_apply_patch: Two files');
    assert.equal(waitingText(1), '1 change waits for your review');
    assert.equal(waitingText(3), '3 changes wait for your review');
  });
});

describe('the text an accepted proposal applies', () => {
  it('is the proposal byte for byte when the person did not change it, whatever line endings the editor chose', () => {
    assert.deepEqual(acceptedText('a\r\nb\nc', 'a\r\nb\r\nc'), { text: 'a\r\nb\nc', edited: false });
    assert.deepEqual(acceptedText('a\nb\n', 'a\nb\n'), { text: 'a\nb\n', edited: false });
    assert.deepEqual(acceptedText('\uFEFFa\n', 'a\n'), { text: '\uFEFFa\n', edited: false });
    assert.deepEqual(acceptedText('', ''), { text: '', edited: false });
  });

  it('is what the person left when they changed it, even one trailing newline', () => {
    assert.deepEqual(acceptedText('a\nb\n', 'a\nB\n'), { text: 'a\nB\n', edited: true });
    assert.deepEqual(acceptedText('a\nb\n', 'a\nb'), { text: 'a\nb', edited: true });
    assert.deepEqual(acceptedText('a\nb', 'a\nb\n'), { text: 'a\nb\n', edited: true });
    assert.deepEqual(acceptedText('\uFEFFa\n', 'x\n'), { text: '\uFEFFx\n', edited: true }, 'the byte order mark the tool meant stays');
  });

  it('keeps a reason only when there is one', () => {
    assert.equal(cleanReason('  use the helper instead \n'), 'use the helper instead');
    assert.equal(cleanReason('   '), undefined);
    assert.equal(cleanReason(undefined), undefined);
  });

  it('labels Accept and Reject with their keys, for all the files of a change of several, and says what a revert\'s answers do', () => {
    const file = { path: '/w/a', display: 'a', action: 'modify' as const, oldText: 'x', newText: 'y' };
    assert.deepEqual(reviewActionTitles({ tool: 'fs_edit', files: [file] }, 'linux'), { accept: 'Accept (Ctrl+K Ctrl+Y)', reject: 'Reject (Ctrl+K Ctrl+N)' });
    assert.deepEqual(reviewActionTitles({ tool: 'fs_apply_patch', files: [file, file, file] }, 'win32'), { accept: 'Accept all 3 files (Ctrl+K Ctrl+Y)', reject: 'Reject all 3 files (Ctrl+K Ctrl+N)' });
    assert.deepEqual(reviewActionTitles({ tool: 'fs_edit', files: [file] }, 'darwin'), { accept: 'Accept (⌘K ⌘Y)', reject: 'Reject (⌘K ⌘N)' });
    assert.deepEqual(reviewActionTitles({ tool: 'revert', files: [file] }, 'linux'), { accept: 'Accept the revert (Ctrl+K Ctrl+Y)', reject: 'Reject: keep the files as they are (Ctrl+K Ctrl+N)' });
  });

  it('puts the labels above the first line the change touches', () => {
    assert.equal(firstChangedLine('a\nb\nc\n', 'a\nb\nC\n'), 2);
    assert.equal(firstChangedLine('a\r\nb\r\n', 'a\nb\nnew\n'), 2, 'line endings are not a change');
    assert.equal(firstChangedLine('', 'new\n'), 0);
    assert.equal(firstChangedLine('a\nb\nc\n', 'a\n'), 1, 'lines removed at the end: the last line there is');
  });
});

describe('what the review lets the person do, as the change tools describe it', () => {
  const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as { contributes: { languageModelTools: { name: string; modelDescription: string }[] } };
  const description = (name: string) => manifest.contributes.languageModelTools.find((t) => t.name === name)!.modelDescription;

  it('a text proposal takes the person\'s edits and a notebook\'s does not, and fs_edit, fs_write and fs_apply_patch each say so', () => {
    assert.equal(proposalEditable({ path: '/w/src/a.ts', newText: 'b\n' }), true);
    assert.equal(proposalEditable({ path: '/w/nb/analysis.ipynb', newText: '{}' }), false);
    assert.equal(proposalEditable({ path: '/w/nb/Analysis.IPYNB', newText: '{}' }), false);
    assert.equal(proposalEditable({ path: '/w/src/a.ts', newText: undefined }), false, 'a delete has nothing to edit');
    for (const name of ['fs_edit', 'fs_write', 'fs_apply_patch']) {
      const review = description(name).split('\n').find((l) => l.startsWith('- The user may review'));
      assert.ok(review, `${name} describes the review`);
      // the person may edit a text proposal; a notebook's is named as the exception
      assert.match(review, /\baccept, edit \(not notebooks\) or reject\b|\breview, edit \(not notebooks\) or reject\b/, `${name}: ${review}`);
    }
  });
});
