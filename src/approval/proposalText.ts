// What the review shows and decides, without the editor: titles, labels, and which text a
// file gets when the person accepts. Pure, so it is unit-tested in plain Node.
import type { ChangeProposal, ProposedAction, ProposedFile } from '../services/approval';

/** The last segment of a displayed path (`src/a.ts` -> `a.ts`). */
export function baseName(display: string): string {
  const parts = display.split(/[\\/]/).filter(Boolean);
  return parts.length ? parts[parts.length - 1] : display;
}

/** What a file's change does, said once for titles, lists and tooltips. */
export interface ReviewedFile extends ProposedFile {
  /** For a move: something already exists at the destination and will be replaced. */
  replacesExisting?: boolean;
}

/** Each action in words: in full (tooltips, titles), and short (list rows). */
const ACTION_WORDS: Record<Exclude<ProposedAction, 'move'>, { full: string; short: string }> = {
  create: { full: 'new file', short: 'new' },
  modify: { full: 'modified', short: 'modified' },
  overwrite: { full: 'replaces the existing file', short: 'replaced' },
  delete: { full: 'deleted', short: 'deleted' },
};

function actionWords(f: ReviewedFile, form: 'full' | 'short'): string {
  if (f.action === 'move') {
    const replacing = form === 'full' ? ', replaces the existing file' : ', replacing';
    return `moved from ${f.from?.display ?? '?'}${f.replacesExisting ? replacing : ''}`;
  }
  return ACTION_WORDS[f.action][form];
}

/** What the change does to the file, in a few words: `replaces the existing file`. */
export function actionLabel(f: ReviewedFile): string {
  return actionWords(f, 'full');
}

/** One word or two for list rows: `new`, `modified`, `replaced`, `deleted`, `moved from a.ts`. */
export function shortAction(f: ReviewedFile): string {
  return actionWords(f, 'short');
}

/**
 * The single diff editor's title: `a.ts ↔ proposed by fs_edit`, with the action when it is
 * not a plain edit; `applied by` for a change that landed without a question.
 */
export function diffTitle(tool: string, f: ReviewedFile, verb: 'proposed' | 'applied' = 'proposed'): string {
  const suffix = `↔ ${verb} by ${tool}`;
  const name = baseName(f.display);
  if (f.action === 'move') {
    return `${baseName(f.from?.display ?? '?')} → ${name} (moved${f.replacesExisting ? ', replaces the existing file' : ''}) ${suffix}`;
  }
  return f.action === 'modify' ? `${name} ${suffix}` : `${name} (${actionLabel(f)}) ${suffix}`;
}

/**
 * The multi-diff editor's title (the editor appends the file count). That editor marks
 * adds, deletes and moves itself (A, D, R), but shows a file that replaces an existing one
 * like any edit: the title names those, before anything a narrow tab would cut.
 */
export function changesTitle(p: { tool: string; summary: string; files: readonly ReviewedFile[] }): string {
  const replaced = p.files.filter((f) => f.action === 'overwrite' || (f.action === 'move' && f.replacesExisting)).map((f) => baseName(f.display));
  return `${p.summary}${replaced.length ? ` (replaces existing ${replaced.join(', ')})` : ''} ↔ proposed by ${p.tool}`;
}

/** `3 files: 1 new, 1 deleted, 1 modified`. */
export function countActions(files: readonly ProposedFile[]): string {
  const order: [ProposedFile['action'], string][] = [
    ['create', 'new'],
    ['modify', 'modified'],
    ['overwrite', 'replaced'],
    ['move', 'moved'],
    ['delete', 'deleted'],
  ];
  const parts = order.map(([a, word]) => [files.filter((f) => f.action === a).length, word] as const).filter(([n]) => n > 0).map(([n, word]) => `${n} ${word}`);
  return `${files.length} ${files.length === 1 ? 'file' : 'files'}: ${parts.join(', ')}`;
}

/** The status bar's words while proposals wait. */
export function waitingText(count: number): string {
  return count === 1 ? '1 change waits for your review' : `${count} changes wait for your review`;
}

function lines(text: string): string[] {
  return text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
}

/**
 * The text to apply for one file, from what its proposal document holds at Accept. An
 * editor holds one line ending per document and drops a byte order mark, so a proposal
 * the person did not touch can come back with other line endings: when the lines are the
 * same, the proposal is applied exactly as the tool made it. Anything else is an edit by
 * the person, applied as they left it.
 */
export function acceptedText(proposed: string, held: string): { text: string; edited: boolean } {
  const a = lines(proposed);
  const b = lines(held);
  if (a.length === b.length && a.every((l, i) => l === b[i])) {
    return { text: proposed, edited: false };
  }
  return { text: proposed.startsWith('\uFEFF') && !held.startsWith('\uFEFF') ? `\uFEFF${held}` : held, edited: true };
}

/**
 * Whether the person can edit a proposal in its review before accepting it: a text file's,
 * yes (their edits are what lands, and the result shows them to the model); a notebook's is
 * shown as cells, whose edits no text of the change could take back, so it is read-only there
 * (accept or reject); a delete has nothing to edit. The change tools' descriptions say the same
 * (test/unit/proposalText.test.ts holds them together).
 */
export function proposalEditable(f: Pick<ProposedFile, 'path' | 'newText'>): boolean {
  return f.newText !== undefined && !/\.ipynb$/i.test(f.path);
}

/** A reason typed by the person, or none: blank means none. */
export function cleanReason(reason: string | undefined): string | undefined {
  const r = reason?.trim();
  return r ? r : undefined;
}

/** One line naming a proposal in lists and pickers. */
export function proposalLabel(p: ChangeProposal): string {
  return p.files.length === 1 ? `${p.tool}: ${p.files[0].display}` : `${p.tool}: ${p.summary}`;
}

/** How the keys that answer a review read on the person's keyboard. */
export function reviewKeys(platform: string): { accept: string; reject: string } {
  return platform === 'darwin' ? { accept: '⌘K ⌘Y', reject: '⌘K ⌘N' } : { accept: 'Ctrl+K Ctrl+Y', reject: 'Ctrl+K Ctrl+N' };
}

/**
 * The labelled actions shown inside the review, above the first line that changes: Accept
 * and Reject with their keys; a revert's say what each answer does to the files, and a change
 * of several files says that the answer is for all of them.
 */
export function reviewActionTitles(p: Pick<ChangeProposal, 'tool' | 'files'>, platform: string): { accept: string; reject: string } {
  const keys = reviewKeys(platform);
  if (p.tool === 'revert') {
    return { accept: `Accept the revert (${keys.accept})`, reject: `Reject: keep the files as they are (${keys.reject})` };
  }
  const all = p.files.length > 1 ? ` all ${p.files.length} files` : '';
  return { accept: `Accept${all} (${keys.accept})`, reject: `Reject${all} (${keys.reject})` };
}

/** The 0-based line where `after` first differs from `before` (0 when one is empty), in `after`'s lines. */
export function firstChangedLine(before: string, after: string): number {
  const a = lines(before);
  const b = lines(after);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) {
    i++;
  }
  return Math.min(i, Math.max(0, b.length - 1));
}
