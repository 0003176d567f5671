import { describeFailure, describeMatch, planEdits, type EditRequest } from '../core/edit';
import { callText, tryLine } from '../core/contract';
import { ToolError } from '../core/errors';
import { textVersion } from '../core/hash';
import { applyCellChange, cellsJson, cellsVersion, notebookCells, type CellChange } from '../core/notebook/cells';
import { parseNotebook, type CellKind, type NotebookCell } from '../core/read/notebook';
import { plural } from '../core/format';
import type { Access } from '../services/access';
import { renderSingleChange } from '../services/changeResult';
import { loadFileText, type FileText } from '../services/fileText';
import { landChange } from '../services/mutation';
import { textResult, type ToolResult } from '../services/result';
import { fileKey, type Target } from '../services/target';
import type { ToolContext } from '../services/types';

/** What fs_edit was asked to do to a cell. */
export interface CellRequest {
  /** 1-based, as fs_read's notebook view numbers cells. */
  cell: number;
  insert?: CellKind;
  delete?: boolean;
  /** The new cell's source, or the cell's whole new source when `edits` is empty. */
  newString?: string;
  edits: readonly EditRequest[];
  /** The notebook's path as the model gave it, for the call a failure suggests. */
  path: string;
}

export function isNotebookPath(p: string): boolean {
  return /\.ipynb$/i.test(p);
}

/** The notebook as the edit sees it: the editor's cells when an editor holds it, else the file's. */
interface NotebookState {
  cells: NotebookCell[];
  language: string | undefined;
  /** The editor's cells, which the disk's text may not hold (unsaved changes). */
  open: boolean;
  dirty: boolean;
  version: string;
}

function stateOf(ctx: ToolContext, t: Target, before: FileText): NotebookState {
  const open = ctx.ws.openNotebook(t.abs) ?? (t.real !== t.abs ? ctx.ws.openNotebook(t.real) : undefined);
  if (open) {
    const language = open.cells.find((c) => c.kind === 'code')?.language;
    // before.version is loadFileText's: the cells' when unsaved, else the file text's, as fs_read gives it
    return { cells: open.cells, language, open: true, dirty: open.isDirty, version: before.version };
  }
  const parsed = parseNotebook(before.text, t.located.display);
  return { cells: parsed.cells, language: parsed.language, open: false, dirty: false, version: before.version };
}

/** The language a new code cell gets: its nearest code neighbour's, else the notebook's. */
function languageAt(state: NotebookState, index: number): string {
  for (let d = 0; d < state.cells.length; d++) {
    for (const i of [index - 1 - d, index + d]) {
      const c = state.cells[i];
      if (c?.kind === 'code') {
        return c.language;
      }
    }
  }
  return state.language ?? 'python';
}

function staleMessage(t: Target, seen: string, now: string): string {
  return `${t.located.display} changed since you last read it (version ${seen}, now ${now}), and your old_string no longer matches its cell exactly. Nothing was changed. Read the notebook again, then redo the edit on its current cells.`;
}

/** The change `req` makes to the notebook, and what to tell the model of how it matched. */
function planCell(ctx: ToolContext, t: Target, state: NotebookState, req: CellRequest, seen: string | undefined, guarded: boolean): { change: CellChange; notes: string[] } {
  const count = state.cells.length;
  const index = req.cell - 1;
  const stale = seen !== undefined && seen !== state.version;
  if (req.insert) {
    if (req.cell > count + 1) {
      throw new ToolError('invalid-input', `Invalid input for fs_edit:\n- \`cell\`: is ${req.cell}, and ${t.located.display} has ${plural(count, 'cell')}: a new cell goes at 1 to ${count + 1} (${count + 1} adds it at the end). Nothing was changed.`);
    }
    if (stale) {
      // where the model counted from is not the notebook's order now
      throw new ToolError('stale', `${t.located.display} changed since you last read it (version ${seen}, now ${state.version}), so cell ${req.cell} may not be where you mean. Nothing was changed. Read the notebook again, then redo the edit.`);
    }
    const language = req.insert === 'code' ? languageAt(state, index) : req.insert;
    return { change: { op: 'insert', index, cells: count, kind: req.insert, language, source: req.newString ?? '' }, notes: [`Inserted a ${req.insert} cell as cell ${req.cell} of ${count + 1}.`] };
  }
  if (req.cell > count) {
    throw new ToolError('invalid-input', `Invalid input for fs_edit:\n- \`cell\`: is ${req.cell}, and ${t.located.display} has ${plural(count, 'cell')} (1-${count}). Nothing was changed.`);
  }
  const cell = state.cells[index];
  if (req.delete) {
    if (stale) {
      throw new ToolError('stale', `${t.located.display} changed since you last read it (version ${seen}, now ${state.version}), so cell ${req.cell} may not be the cell you mean. Nothing was changed. Read the notebook again, then redo the edit.`);
    }
    return { change: { op: 'delete', index, cells: count, before: cell.source }, notes: [`Deleted cell ${req.cell} (${cell.kind}); ${plural(count - 1, 'cell')} remain.`] };
  }
  if (req.edits.length === 0) {
    if (stale) {
      throw new ToolError('stale', `${t.located.display} changed since you last read it (version ${seen}, now ${state.version}), so cell ${req.cell} may not hold what you replace. Nothing was changed. Read the notebook again, then redo the edit.`);
    }
    return { change: { op: 'source', index, cells: count, before: cell.source, after: req.newString ?? '' }, notes: [`Replaced the source of cell ${req.cell} (${cell.kind}).`] };
  }
  const plan = planEdits(cell.source, req.edits, ctx.signal);
  const where = `${t.located.display} (cell ${req.cell})`;
  if (!plan.ok) {
    if (stale) {
      throw new ToolError('stale', staleMessage(t, seen, state.version));
    }
    if (guarded && plan.failure.reason !== 'invalid') {
      throw new ToolError('no-match', `old_string does not fit cell ${req.cell} of ${t.located.display} in exactly one place, and nothing was changed. ${t.located.display} may hold secrets or lies outside the workspace, so nothing of its content is shown here. Read it with fs_read (the user is asked first), then retry with the exact text.`);
    }
    const n = req.edits.length > 1 ? { index: plan.index, count: req.edits.length } : undefined;
    // the lines named are the cell's; the call that shows them reads that cell (offset counts cells)
    const read = () => tryLine(callText('fs_read', { path: req.path, offset: req.cell, limit: 1 }));
    throw new ToolError(plan.failure.reason === 'invalid' ? 'invalid-input' : 'no-match', describeFailure(plan.failure, { label: where, read }, n));
  }
  if (stale && plan.results.some((r) => !r.exact)) {
    throw new ToolError('stale', staleMessage(t, seen, state.version));
  }
  const notes = plan.results.length === 1 ? describeMatch(plan.results[0]) : plan.results.flatMap((r, i) => describeMatch(r, i + 1));
  return { change: { op: 'source', index, cells: count, before: cell.source, after: plan.text }, notes };
}

/** The cells after `change`. */
function cellsAfter(cells: readonly NotebookCell[], change: CellChange): NotebookCell[] {
  const out = [...cells];
  switch (change.op) {
    case 'source':
      out[change.index] = { ...out[change.index], source: change.after };
      break;
    case 'insert':
      out.splice(change.index, 0, { kind: change.kind, language: change.language, source: change.source });
      break;
    case 'delete':
      out.splice(change.index, 1);
      break;
  }
  return out;
}

/**
 * fs_edit with `cell`: the edit made inside one cell's source, or a cell inserted or
 * deleted. Computed on the cells the person sees (an open notebook's, unsaved changes and
 * all) and landed through the notebook in an editor, or byte-faithfully on the `.ipynb`
 * text elsewhere; outputs, metadata and every other cell stay as they are.
 */
export async function changeByCell(ctx: ToolContext, access: Access, before: FileText, req: CellRequest): Promise<ToolResult> {
  const t = access.target;
  const state = stateOf(ctx, t, before);
  const { change, notes } = planCell(ctx, t, state, req, ctx.ledger.get(fileKey(ctx, t.real))?.version, access.guarded);
  if (change.op === 'source' && change.after === change.before) {
    return textResult(`Cell ${req.cell} of ${t.located.display} already reads that way: new_string gives the text it has now, so nothing was changed; version ${state.version}.`);
  }
  const after = cellsAfter(state.cells, change);
  // The review shows the notebook as the person has it: the file's text when that is what
  // the editor holds, else the editor's cells (the file lacks their unsaved changes).
  let shownBefore: FileText = before;
  let shownAfter: string;
  if (state.dirty) {
    shownBefore = { ...before, text: cellsJson(state.cells, state.language), version: state.version };
    shownAfter = cellsJson(after, state.language);
  } else {
    shownAfter = applyCellChange(before.text, change, t.located.display);
    if (state.open && !sameSources(notebookCells(before.text, t.located.display), state.cells)) {
      shownBefore = { ...before, text: cellsJson(state.cells, state.language), version: state.version };
      shownAfter = cellsJson(after, state.language);
    }
  }
  const version = ctx.ws.notebooksAsCells ? cellsVersion(after) : textVersion(shownAfter);
  const landed = await landChange(
    ctx,
    {
      tool: 'fs_edit',
      summary: `edit ${t.located.display} cell ${req.cell}`,
      files: [{ target: t, action: 'modify', before: shownBefore, after: shownAfter, notebook: { change, base: state.version, version, current: () => currentVersion(ctx, t) } }],
      notes,
    },
    [access],
  );
  return textResult(renderSingleChange(landed, { notes }));
}

function sameSources(a: readonly NotebookCell[], b: readonly NotebookCell[]): boolean {
  return a.length === b.length && a.every((c, i) => c.source === b[i].source && c.kind === b[i].kind);
}

/** The notebook's version now, as {@link stateOf} computes it: what a review must find unchanged. */
async function currentVersion(ctx: ToolContext, t: Target): Promise<string | undefined> {
  return (await loadFileText(ctx, t).catch(() => undefined))?.version;
}
