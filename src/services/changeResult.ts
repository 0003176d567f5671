import { MAX_PATCH_DIFF_BYTES, MAX_UNCHECKED_NAMED } from '../core/limits';
import type { CheckState, Diagnostic } from '../host/workspace';
import type { Landed, LandedFile } from './mutation';

const VERB = { create: 'Created', modify: 'Edited', overwrite: 'Wrote', delete: 'Deleted', move: 'Moved' } as const;

function problemLine(d: Diagnostic): string {
  const code = d.code ? ` [${d.source ? `${d.source} ` : ''}${d.code}]` : d.source ? ` [${d.source}]` : '';
  return `L${d.line}:${d.column}: ${d.message.split('\n')[0]}${code}`;
}

/** What one file's change did, in the order a model needs it: outcome, person's edits, diff, problems. */
export function renderLandedFile(f: LandedFile, opts: { notes?: readonly string[] } = {}): string[] {
  const p = f.planned;
  const display = p.target.located.display;
  const lines: string[] = [];
  const where = p.action === 'move' ? `${p.from!.located.display} to ${display}` : display;
  const lines_ = (n: number) => `${n} line${n === 1 ? '' : 's'}`;
  const size = p.action === 'create' ? lines_(f.added) : p.action === 'delete' ? lines_(f.removed) : `+${f.added} -${f.removed} lines`;
  lines.push(`${VERB[p.action]} ${where}: ${size}${f.version ? `; version ${f.version}` : ''}.`, ...(opts.notes ?? []));
  if (f.unsaved) {
    lines.push('The change is in the editor, not saved: the file had unsaved changes of the user, which were kept.');
  }
  if (f.wasReadOnly) {
    lines.push('The file was read-only; it was written and stays read-only.');
  }
  if (f.formatted) {
    lines.push('The formatter then reformatted the file; the diff shows the result.');
  }
  if (f.userDiff) {
    lines.push('The user edited your proposal before accepting it; what landed differs from what you proposed by:', '<user-edits>', f.userDiff, '</user-edits>');
  }
  if (p.action !== 'create' && p.action !== 'delete' && f.diff) {
    lines.push('<diff>', f.diff, '</diff>');
  }
  if (f.newErrors.length) {
    lines.push(`New errors in ${display}:`, ...f.newErrors.map(problemLine));
  } else if (p.action !== 'delete') {
    lines.push(...checkLine(f.check));
  }
  return lines;
}

/** What the checkers said of a changed file without new errors: silence is no answer, so it says which (a reason of the whole host once). */
function checkLine(c: CheckState): string[] {
  return c.checked ? ['No new errors.'] : c.said ? [] : [`Not checked for errors: ${c.reason}.`];
}

/**
 * The same for the files of a patch, in one or two lines: how many were checked with no new
 * errors, and those no checker looked at, a few named, grouped by why.
 */
function patchCheckLines(files: readonly LandedFile[]): string[] {
  const quiet = files.filter((f) => f.planned.action !== 'delete' && f.newErrors.length === 0);
  const checked = quiet.filter((f) => f.check.checked).length;
  const out: string[] = [];
  if (checked) {
    out.push(`No new errors in the ${checked === 1 ? 'file' : `${checked} files`} checked.`);
  }
  const why = new Map<string, string[]>();
  for (const f of quiet) {
    if (!f.check.checked && !f.check.said) {
      const names = why.get(f.check.reason) ?? [];
      names.push(f.planned.target.located.display);
      why.set(f.check.reason, names);
    }
  }
  for (const [reason, names] of why) {
    const shown = names.slice(0, MAX_UNCHECKED_NAMED);
    out.push(`Not checked for errors (${reason}): ${shown.join(', ')}${names.length > shown.length ? ` and ${names.length - shown.length} more` : ''}.`);
  }
  return out;
}

/** The result of fs_edit or fs_write: one file. */
export function renderSingleChange(landed: Landed, opts: { notes?: readonly string[] } = {}): string {
  const out = renderLandedFile(landed.files[0], opts);
  if (landed.otherProblems.length) {
    out.push('Other files now with errors:', ...landed.otherProblems.map((o) => `${o.display}: ${o.errors} error${o.errors === 1 ? '' : 's'}`));
  }
  out.push(...copiesLeftLines(landed));
  return out.join('\n');
}

/** A saved copy the change could not remove after it landed: said, so that it is not mistaken for the user's file. */
function copiesLeftLines(landed: Landed): string[] {
  return landed.savedCopiesLeft.length ? [`The change landed, but a saved copy of the previous content could not be removed (it can be deleted): ${landed.savedCopiesLeft.join(', ')}`] : [];
}

/**
 * The diffs of a patch's updated and moved files in one block, in file order, within one
 * budget: a patch of 200 files neither prints nor computes 200 diffs (each is computed when
 * read). Added files are the patch's own text; deleted ones are gone.
 */
function patchDiffLines(files: readonly LandedFile[]): string[] {
  const diffs: string[] = [];
  let bytes = 0;
  let left = 0;
  for (const f of files) {
    if (f.planned.action !== 'modify' && f.planned.action !== 'move') {
      continue;
    }
    if (bytes >= MAX_PATCH_DIFF_BYTES) {
      left++;
    } else if (f.diff) {
      diffs.push(f.diff);
      bytes += f.diff.length;
    }
  }
  const out = diffs.length ? ['<diff>', ...diffs, '</diff>'] : [];
  if (left > 0) {
    out.push(`The diffs of ${left} more changed file${left === 1 ? '' : 's'} are not shown: read them to check.`);
  }
  return out;
}

const LETTER = { create: 'A', overwrite: 'A', modify: 'M', move: 'M', delete: 'D' } as const;

/** The result of fs_apply_patch: Codex's summary lines, then what each file needs said, its loose matches and its diff. */
export function renderPatchResult(landed: Landed, notes: ReadonlyMap<string, readonly string[]>, skipped: readonly string[] = []): string {
  const out = ['Success. Updated the following files:'];
  for (const f of landed.files) {
    const p = f.planned;
    const notes = [...(p.action === 'move' ? [`moved from ${p.from!.located.display}`] : []), ...(p.action === 'overwrite' || p.replaces ? ['replacing the file that was there'] : [])];
    out.push(`${LETTER[p.action]} ${p.target.located.display}${notes.length ? ` (${notes.join(', ')})` : ''}`);
  }
  const versions = landed.files.filter((f) => f.version).map((f) => `${f.planned.target.located.display} ${f.version}`);
  if (versions.length) {
    out.push(`Versions: ${versions.join(', ')}.`);
  }
  out.push(...skipped);
  for (const f of landed.files) {
    const display = f.planned.target.located.display;
    const note = notes.get(f.planned.target.real);
    if (note) {
      out.push(`${display}: ${note[0]}`, ...note.slice(1));
    }
    if (f.unsaved) {
      out.push(`${display}: the change is in the editor, not saved: the file had unsaved changes of the user, which were kept.`);
    }
    if (f.wasReadOnly) {
      out.push(`${display}: was read-only; it was written and stays read-only.`);
    }
    if (f.userDiff) {
      out.push(`The user edited your proposal for ${display} before accepting it; what landed differs by:`, '<user-edits>', f.userDiff, '</user-edits>');
    }
    if (f.newErrors.length) {
      out.push(`New errors in ${display}:`, ...f.newErrors.map(problemLine));
    }
  }
  out.push(...patchDiffLines(landed.files));
  out.push(...patchCheckLines(landed.files));
  out.push(...copiesLeftLines(landed));
  return out.join('\n');
}
