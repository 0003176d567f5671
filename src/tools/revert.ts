import { Access } from '../services/access';
import type { PathState } from '../services/journal';
import { landChange, type Landed, type PlannedFile } from '../services/mutation';
import type { FileText } from '../services/fileText';
import type { ToolContext } from '../services/types';
import type { Encoding } from '../core/text/encoding';
import { fileKey, respelled } from '../services/target';

/** A path that no longer holds what the change left there: newer work a revert would replace. */
export interface RevertConflict {
  path: string;
  display: string;
  /** What the path holds now (the editor's buffer when open); undefined: no file. */
  now: string | undefined;
  /** What the revert would put there; undefined: it would delete the file. */
  restore: string | undefined;
}

export type RevertOutcome = { kind: 'conflicts'; conflicts: RevertConflict[] } | { kind: 'landed'; landed: Landed };

function encodingOf(e: string): Encoding {
  return e === 'utf-8-bom' || e === 'utf-16le' || e === 'utf-16be' ? e : 'utf-8';
}

function plannedOf(ctx: ToolContext, access: Access, s: PathState, now: FileText | undefined): PlannedFile | undefined {
  const target = access.target;
  // a rename of the name's spelling: the file, found under its new spelling, gets the old one back
  const back = s.respelledAs && now && s.restore !== undefined ? respelled(ctx, target) : undefined;
  if (back) {
    return { target: back, from: target, action: 'move', respell: true, before: now, after: s.restore };
  }
  if (s.restore === undefined) {
    return now ? { target, action: 'delete', before: now, after: undefined } : undefined;
  }
  if (!now) {
    return { target, action: 'create', before: undefined, after: s.restore, encoding: encodingOf(s.encoding) };
  }
  return now.text === s.restore ? undefined : { target, action: 'modify', before: now, after: s.restore };
}

/**
 * Puts each path back to what it held before a change (see revertStates), as a change of its
 * own that the person reviews whatever the approval policy, and that lands undoably like any
 * other. A path that no longer holds what the change left, or was changed by someone else
 * between two of the changes reverted, holds newer work: nothing is written,
 * and the conflicts are returned for the person to look at, unless `over` names, for every
 * such path, the text they saw there (null: no file); the review then shows the revert
 * over that text, and a text that changed again since refuses it as a stale change does.
 */
export async function revertPaths(ctx: ToolContext, summary: string, states: readonly PathState[], over?: ReadonlyMap<string, string | null>): Promise<RevertOutcome> {
  const access = await Promise.all(states.map((s) => Access.resolve(ctx, s.path, 'revert', 'revert')));
  access.forEach((a) => a.refuseForbidden());
  return ctx.locks.withLocks(
    access.map((a) => fileKey(ctx, a.target.real)),
    async (): Promise<RevertOutcome> => {
      const conflicts: RevertConflict[] = [];
      const files: PlannedFile[] = [];
      for (const [i, s] of states.entries()) {
        const now = await access[i].load();
        const seen = over?.get(s.path);
        const expected = seen === undefined ? s.wrote : seen === null ? undefined : seen;
        // work between two of the changes reverted is newer work too, though the file holds what the last one left
        if (now?.text !== expected || (s.between && seen === undefined)) {
          conflicts.push({ path: s.path, display: access[i].target.located.display, now: now?.text, restore: s.restore });
          continue;
        }
        const planned = plannedOf(ctx, access[i], s, now);
        if (planned) {
          files.push(planned);
        }
      }
      if (conflicts.length) {
        return { kind: 'conflicts', conflicts };
      }
      if (files.length === 0) {
        // every path already holds what it held before: nothing to review
        return { kind: 'landed', landed: { files: [], otherProblems: [], savedCopiesLeft: [] } };
      }
      const used = access.filter((a) => files.some((f) => fileKey(ctx, f.target.real) === fileKey(ctx, a.target.real)));
      return { kind: 'landed', landed: await landChange(ctx, { tool: 'revert', summary, files }, used, { review: true }) };
    },
    ctx.signal,
  );
}
