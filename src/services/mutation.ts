import { throwIfCancelled } from '../core/cancel';
import { lineStats, textEdits, unifiedDiff, type TextEdit } from '../core/diff';
import { CancelledError, ToolError } from '../core/errors';
import { asSentence } from '../core/format';
import { textVersion } from '../core/hash';
import { inOrder } from '../core/inOrder';
import { FULL_READ_MAX_BYTES, MAX_CHANGE_DIFF_BYTES, MAX_CHANGE_DIFF_LINES, MAX_DIAGNOSTICS_PER_FILE, MAX_OTHER_PROBLEM_FILES, PATH_CHECKS_IN_FLIGHT, DIAGNOSTICS_MAX_WAIT_MS } from '../core/limits';
import { locate } from '../core/paths';
import { nameKey } from '../core/names';
import { encodeText, type Encoding } from '../core/text/encoding';
import type { ChangeReason } from '../core/writePolicy';
import type { CellChange } from '../core/notebook/cells';
import { ApplyFailure, StaleError, type CheckState, type Diagnostic, type FileChange } from '../host/workspace';
import { Access } from './access';
import { ApprovalDenied, ChangeRejected, type ChangeProposal, type ProposedAction, type ProposedFile } from './approval';
import { loadFileText, type FileText } from './fileText';
import type { JournalFile } from './journal';
import { fileKey, type Target } from './target';
import type { ToolContext } from './types';

/** Where a diff in a result is cut: a model reads every byte of it. */
const RESULT_DIFF_BOUNDS = { maxLines: MAX_CHANGE_DIFF_LINES, maxBytes: MAX_CHANGE_DIFF_BYTES };

/** One file of a change, as a tool computed it. */
export interface PlannedFile {
  target: Target;
  action: ProposedAction;
  /** For a move: where the file is now. */
  from?: Target;
  /** The text the change was computed on (for a move: the source's); undefined for a new file. */
  before: FileText | undefined;
  /** The proposed text; undefined for a delete. */
  after: string | undefined;
  /** For a move onto an existing file: the text it replaces there. */
  replaces?: FileText;
  /** For a move: `target` is another spelling of `from` (its case, its normalisation) on a volume that folds names, one file renamed. */
  respell?: boolean;
  /** For a new file: its encoding (a file a revert brings back keeps its BOM); UTF-8 when absent. */
  encoding?: Encoding;
  /**
   * For an edit by cell: the change as cells, which an editor that holds the notebook applies
   * instead of the text (`before` and `after` are then what the review shows).
   */
  notebook?: {
    change: CellChange;
    /** The notebook's version the change was made on, and how to ask for it again. */
    base: string;
    current(): Promise<string | undefined>;
    /** Its version after the change, as a read will give it. */
    version: string;
  };
}

export interface ChangePlan {
  tool: string;
  /** One line: what the change does. */
  summary: string;
  files: PlannedFile[];
  /** See {@link ChangeProposal.notes}. */
  notes?: readonly string[];
}

/** What happened to one file, for the result. */
export interface LandedFile {
  planned: PlannedFile;
  /** The person's own changes to the proposal, as a unified diff; undefined when they made none. */
  userDiff: string | undefined;
  added: number;
  removed: number;
  /** Unified diff of the change that landed, cut to MAX_CHANGE_DIFF_LINES and MAX_CHANGE_DIFF_BYTES. */
  diff: string;
  version: string | undefined;
  /** Left with unsaved changes in its editor (it had some before, or saving is off). */
  unsaved: boolean;
  /** Was read-only before it was written (it keeps its permissions). */
  wasReadOnly: boolean;
  formatted: boolean;
  /** Errors that were not there before the change. */
  newErrors: Diagnostic[];
  /** Whether a checker reported on the file after the change. */
  check: CheckState;
}

export interface Landed {
  files: LandedFile[];
  /** Other files with errors after the change (fs_write), at most MAX_OTHER_PROBLEM_FILES. */
  otherProblems: { display: string; errors: number }[];
  /** Saved copies of previous content, as tools print paths, that could not be removed after the change landed. */
  savedCopiesLeft: string[];
}

/** Converts a text's line endings to CRLF (or back) when a file or the workspace says so. */
export function withEol(text: string, eol: 'LF' | 'CRLF'): string {
  const lf = text.replace(/\r\n/g, '\n');
  return eol === 'CRLF' ? lf.replace(/\n/g, '\r\n') : lf;
}

/** Why a change to the file asks whatever the policy, from the one decision. */
function asksOf(of: (t: Target) => Access, f: PlannedFile): ChangeReason[] {
  const reasons = new Set<ChangeReason>();
  for (const t of [f.target, ...(f.from ? [f.from] : [])]) {
    const d = of(t).change;
    for (const r of d.kind === 'ask' ? d.reasons : []) {
      reasons.add(r);
    }
  }
  return [...reasons];
}

function proposalOf(of: (t: Target) => Access, plan: ChangePlan): ChangeProposal {
  return {
    tool: plan.tool,
    summary: plan.summary,
    files: plan.files.map(
      (f): ProposedFile => ({
        path: f.target.real,
        display: f.target.located.display,
        action: f.action,
        from: f.from ? { path: f.from.real, display: f.from.located.display } : undefined,
        oldText: f.before?.text,
        newText: f.after,
        replaces: f.replaces?.text,
        outside: [f.from, f.target].filter((t): t is Target => t !== undefined && !t.located.root).map((t) => t.located.display),
        asks: asksOf(of, f),
        guarded: [f.target, ...(f.from ? [f.from] : [])].some((t) => of(t).guarded),
      }),
    ),
    ...(plan.notes?.length ? { notes: plan.notes } : {}),
  };
}

/** Errors in `after` that `before` did not have, matched by message (lines move when text changes). */
function newErrors(before: readonly Diagnostic[], after: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Map<string, number>();
  const key = (d: Diagnostic) => `${d.source ?? ''}\0${d.code ?? ''}\0${d.message}`;
  for (const d of before) {
    if (d.severity === 'error') {
      seen.set(key(d), (seen.get(key(d)) ?? 0) + 1);
    }
  }
  const out: Diagnostic[] = [];
  for (const d of after) {
    if (d.severity !== 'error') {
      continue;
    }
    const n = seen.get(key(d)) ?? 0;
    if (n > 0) {
      seen.set(key(d), n - 1);
    } else {
      out.push(d);
    }
  }
  return out.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** The file's current text must still be what the change was computed on; a newer text is never overwritten. */
async function reverify(ctx: ToolContext, f: PlannedFile): Promise<void> {
  if (f.replaces) {
    const there = await loadFileText(ctx, f.target).catch(() => undefined);
    if (there?.text !== f.replaces.text) {
      throw new ToolError('stale', `${f.target.located.display} changed while the change waited for approval. Nothing was written. Read it again, then redo the change.`);
    }
  } else if (f.action === 'move' && !f.respell && (await ctx.ws.stat(f.target.real)) !== undefined) {
    // a move onto a path that was free: a file made there meanwhile is someone else's
    throw new ToolError('stale', `${f.target.located.display} was created by someone else while the change waited for approval. Nothing was written. Read it, then decide whether to change it.`);
  }
  if (f.notebook) {
    // an open notebook's cells, not the file, are what the change was made on
    const version = await f.notebook.current();
    if (version !== f.notebook.base) {
      throw new ToolError('stale', `${f.target.located.display} changed while the change waited for approval (version ${f.notebook.base}, now ${version ?? 'gone'}). Nothing was written, so the newer text is kept. Read it again, then redo the change.`);
    }
    return;
  }
  const source = f.from ?? f.target;
  const now = await loadFileText(ctx, source).catch(() => undefined);
  const display = source.located.display;
  const was = f.before?.disk;
  if (was && now?.editor && !now.editor.dirty) {
    // a clean document (the review loads one) follows the disk only a moment later: the
    // disk says whether the file changed or went while the change waited
    const st = await ctx.ws.stat(source.real);
    if (st === undefined) {
      throw new ToolError('stale', `${display} was deleted while the change waited for approval. Nothing was written.`);
    }
    if (st.size !== was.size || Math.trunc(st.mtimeMs) !== Math.trunc(was.mtimeMs)) {
      throw new ToolError('stale', `${display} changed while the change waited for approval (on disk). Nothing was written, so the newer text is kept. Read it again, then redo the change.`);
    }
  }
  if (f.before === undefined) {
    if (now !== undefined || (await ctx.ws.stat(f.target.real)) !== undefined) {
      throw new ToolError('stale', `${display} was created by someone else while the change waited for approval. Nothing was written. Read it, then decide whether to change it.`);
    }
    return;
  }
  if (now === undefined) {
    throw new ToolError('stale', `${display} was deleted while the change waited for approval. Nothing was written.`);
  }
  if (now.text !== f.before.text) {
    throw new ToolError('stale', `${display} changed while the change waited for approval (version ${f.before.version}, now ${now.version}). Nothing was written, so the newer text is kept. Read it again, then redo the change.`);
  }
}

/**
 * Every path of the change must still resolve where the decision was made: a folder on
 * its path swapped for a link while the person looked (to outside the workspace, to a
 * secret, into `.git`) would send the write there. Checked once the review is answered,
 * and again just before the first write (after the apply read every file). From there
 * the CLI's apply on Linux holds the folders it writes in open and writes through them
 * (see applyOnDisk), so a swap then changes nothing; elsewhere, and in the editor's apply
 * (a WorkspaceEdit, written by VS Code's file service by path), what is left is the moment
 * between this second check and each write (SECURITY.md states it per platform).
 */
async function checkResolved(ctx: ToolContext, plan: ChangePlan): Promise<void> {
  await inOrder(plan.files.flatMap((f) => [f.target, ...(f.from ? [f.from] : [])]), PATH_CHECKS_IN_FLIGHT, async (t) => {
    const now = await ctx.ws.realpath(t.abs);
    // (a rename to another spelling of a file names that file: one entry, as the volume compares names)
    if (now !== t.real && nameKey(ctx.ws.names(now), now) !== nameKey(ctx.ws.names(t.real), t.real)) {
      throw new ToolError(
        'changed',
        `${t.located.display} changed while the change waited (it, or a folder on its path, became a link or stopped being one), so nothing was written. Read it again, then redo the change.`,
      );
    }
  });
}

/**
 * Every path of the change must still lie outside git's data: a git directory that
 * appeared while the person looked (`git init --bare` of the target's folder, or HEAD,
 * objects and refs appearing in a folder above it) is refused as it is when the change
 * is made, with the same words. A fresh finder asks the disk again; the files the change
 * creates count as present, as when the change was made.
 */
async function recheckGitDirectories(ctx: ToolContext, plan: ChangePlan): Promise<void> {
  const dirs = ctx.ws.gitDirectories();
  const targets = plan.files.flatMap((f) => [f.target, ...(f.from ? [f.from] : [])]);
  dirs.plan(plan.files.map((f) => f.target.real));
  await inOrder(targets, PATH_CHECKS_IN_FLIGHT, async (t) => {
    const gitDir = await dirs.enclosing(t.real);
    if (gitDir !== undefined) {
      Access.of(ctx, { ...t, gitDir }, plan.tool, 'change').refuseForbidden();
    }
  });
}

/**
 * An edit of `base` into `next`. Its line-aligned edits are computed when first read:
 * an editor applies them (so it keeps its cursor and folds), the disk writes `next`
 * whole, and for a patch of 200 files the line diffs were most of the tool's time.
 */
function editChange(path: string, base: string, next: string, notebook?: CellChange): Extract<FileChange, { kind: 'edit' }> {
  let edits: TextEdit[] | undefined;
  return {
    kind: 'edit',
    path,
    base,
    text: next,
    ...(notebook ? { notebook } : {}),
    get edits() {
      return (edits ??= textEdits(base, next));
    },
  };
}

/**
 * Whether the workspace's apply refuses this file's change by itself once the file is not
 * what the plan read (see toChanges): a new file that must not exist, or an edit whose base
 * must still be the file's text. A delete, a move and a write where nothing was have no base.
 */
function applyChecksBase(f: PlannedFile): boolean {
  return f.action === 'create' || ((f.action === 'modify' || f.action === 'overwrite') && f.before !== undefined && !f.notebook && !f.replaces);
}

function toChanges(f: PlannedFile, text: string | undefined): FileChange[] {
  // a moved file keeps its encoding; a new one is UTF-8 unless the plan names one
  const encoding: Encoding = f.before && isOurEncoding(f.before.encoding) ? f.before.encoding : (f.encoding ?? 'utf-8');
  const newFile = (t: string): Uint8Array => encodeText(t, encoding);
  switch (f.action) {
    case 'create':
      return [{ kind: 'create', path: f.target.real, bytes: newFile(text ?? ''), overwrite: false }];
    case 'modify':
    case 'overwrite':
      if (f.before === undefined) {
        return [{ kind: 'create', path: f.target.real, bytes: newFile(text ?? ''), overwrite: true }];
      }
      return [editChange(f.target.real, f.before.text, text ?? '', f.notebook?.change)];
    case 'delete':
      return [{ kind: 'delete', path: f.target.real }];
    case 'move':
      if (f.respell) {
        // one file: its text changed where it is, then its name (a new file there would be the file itself)
        const edit = f.before && text !== undefined && text !== f.before.text ? [editChange(f.from!.real, f.before.text, text)] : [];
        return [...edit, { kind: 'rename', from: f.from!.real, to: f.target.real, overwrite: false, respell: true }];
      }
      return [
        { kind: 'create', path: f.target.real, bytes: newFile(text ?? ''), overwrite: true },
        { kind: 'delete', path: f.from!.real },
      ];
  }
}

/**
 * A change that failed part-way and could not be wholly put back: what each file holds
 * now and where its previous content is, so that the person can restore it by hand.
 */
function applyFailureMessage(e: ApplyFailure): string {
  return [
    `The change could not be applied (${e.reason}), and putting the files back failed too, so these are not as they were:`,
    ...e.files.map((f) => `- ${f.path} ${f.now}${f.savedAt ? `; its previous content is saved at ${f.savedAt}` : ''}.`),
    'Every other file of the change is as it was. Tell the user; a saved copy moved back over its file restores it. Do not redo the change until the files are put back.',
  ].join('\n');
}

/** A message of the file system with the workspace folders' paths written as tools print paths (relative inside them). */
function inWorkspaceTerms(ctx: ToolContext, message: string): string {
  const roots = [...ctx.ws.roots()].sort((a, b) => b.path.length - a.path.length);
  let out = message;
  for (const r of roots) {
    const prefix = roots.length > 1 ? `${r.name}/` : '';
    for (const sep of ['/', '\\']) {
      out = out.split(r.path.endsWith(sep) ? r.path : r.path + sep).join(prefix);
    }
  }
  return out;
}

/** Lines of a text as the line model counts them: a final line break ends the last line. */
function lineCount(text: string | undefined): number {
  if (!text) {
    return 0;
  }
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    n++;
  }
  return text.endsWith('\n') ? n : n + 1;
}

/** Lines added and removed, from the line-aligned edits already computed for the apply. */
function statsOf(f: PlannedFile, changes: readonly FileChange[], text: string | undefined): { added: number; removed: number } {
  const edit = changes.find((c): c is Extract<FileChange, { kind: 'edit' }> => c.kind === 'edit');
  if (edit) {
    let added = 0;
    let removed = 0;
    for (const e of edit.edits) {
      removed += lineCount(edit.base.slice(e.start, e.end));
      added += lineCount(e.text);
    }
    return { added, removed };
  }
  if (f.action === 'move' && f.before) {
    return lineStats(f.before.text, text ?? '');
  }
  return { added: lineCount(text), removed: lineCount(f.before?.text) };
}

function isOurEncoding(e: string): e is Encoding {
  return e === 'utf-8' || e === 'utf-8-bom' || e === 'utf-16le' || e === 'utf-16be';
}

/** Whether a file of the change may hold secrets: the history then keeps none of its text. */
function mayHoldSecrets(of: (t: Target) => Access, f: PlannedFile): boolean {
  return [f.target, ...(f.from ? [f.from] : [])].some((t) => {
    const a = of(t);
    return (a.change.kind === 'ask' && a.change.reasons.includes('sensitive')) || (a.read.kind === 'confirm' && a.read.reasons.includes('sensitive'));
  });
}

/** One landed file as the history keeps it: its texts, unless it may hold secrets. */
function journalFile(of: (t: Target) => Access, f: PlannedFile, text: string | undefined, stats: { added: number; removed: number }, userEdited: boolean): JournalFile {
  const secret = mayHoldSecrets(of, f);
  const encoding = f.before?.encoding ?? f.encoding ?? 'utf-8';
  return {
    path: f.target.real,
    display: f.target.located.display,
    action: f.action,
    ...(f.from ? { from: { path: f.from.real, display: f.from.located.display } } : {}),
    ...(f.respell ? { respell: true } : {}),
    ...(secret ? {} : { before: f.before?.text, after: text, replaced: f.replaces?.text }),
    encoding,
    ...(f.replaces ? { replacedEncoding: f.replaces.encoding } : {}),
    added: stats.added,
    removed: stats.removed,
    userEdited,
    kept: !secret,
    ...(secret ? { notKept: 'it may hold secrets, so its text is not kept' } : {}),
  };
}

/**
 * Each path's {@link Access} by its real path, as the volume compares names (a rename to
 * another spelling of a file is decided as that file): the decisions the call made are
 * the ones the landing keeps.
 */
function accessOf(ctx: ToolContext, access: readonly Access[]): (t: Target) => Access {
  const key = (real: string) => nameKey(ctx.ws.names(real), real);
  const byReal = new Map(access.map((a) => [key(a.target.real), a] as const));
  return (t) => {
    const a = byReal.get(key(t.real));
    if (!a) {
      // a path nobody decided on is never written
      throw new Error(`no access decided for ${t.located.display}`);
    }
    return a;
  };
}

/**
 * A whole-file change (fs_write, fs_apply_patch) to a notebook an editor holds with unsaved
 * changes would overwrite them behind it: refused before anyone is asked, pointing to the
 * edit by cell, which lands in the editor and keeps them.
 */
function refuseBehindNotebooks(ctx: ToolContext, plan: ChangePlan): void {
  for (const f of plan.files.filter((x) => !x.notebook)) {
    for (const t of [f.target, ...(f.from ? [f.from] : [])]) {
      const open = ctx.ws.openNotebook(t.abs) ?? (t.real !== t.abs ? ctx.ws.openNotebook(t.real) : undefined);
      if (open?.isDirty) {
        throw new ToolError(
          'stale',
          `${t.located.display} is open in a notebook editor with unsaved changes, which changing the whole file would overwrite. Nothing was written. Edit its cells with fs_edit and \`cell\` (the index fs_read shows), which keeps them, or ask the user to save the notebook first.`,
        );
      }
    }
  }
}

/**
 * Lands a change: the person reviews it when a path's decision says so, and what they
 * edited in the proposal is what lands; checks that no file changed in the meantime,
 * applies everything at once through the workspace (all or nothing), then waits for the
 * language servers and collects the errors the change introduced. `access` holds the
 * decisions the call made for every path of the plan; the result shows no old text of a
 * file the model may not see (see Access.mayShowContent).
 * Call it holding the files' locks.
 */
export async function landChange(
  ctx: ToolContext,
  plan: ChangePlan,
  access: readonly Access[],
  opts: { otherProblems?: boolean; diffs?: boolean; /** Reviewed whatever the policy (a revert is checked before it lands). */ review?: boolean } = {},
): Promise<Landed> {
  const of = accessOf(ctx, access);
  const decided = plan.files.flatMap((f) => [f.target, ...(f.from ? [f.from] : [])]).map(of);
  decided.forEach((a) => a.refuseForbidden());
  refuseBehindNotebooks(ctx, plan);
  const ask = opts.review === true || decided.some((a) => a.reviewed);
  // decided now: landing records each file in the ledger, which then allows its content
  const showsOld = new Set(plan.files.filter((f) => of(f.from ?? f.target).mayShowContent));
  const proposal = proposalOf(of, plan);
  let texts = new Map(plan.files.filter((f) => f.after !== undefined).map((f) => [f.target.real, f.after!] as const));
  let edited: readonly string[] = [];
  // whether standing flags answered the review at once (no time passed for a person to look)
  let atOnce = false;
  throwIfCancelled(ctx.signal);
  if (ask) {
    const review = await ctx.approver.review(proposal, ctx.signal);
    switch (review.kind) {
      case 'rejected':
        throw new ChangeRejected(review.reason, `The user rejected this change; nothing was written.${review.reason ? ` Their reason: ${asSentence(review.reason)}` : ''} Do not retry it as it was; adjust it to what the user said, or ask them.`);
      case 'cancelled':
        throw new CancelledError();
      case 'needs-approval':
        throw new ApprovalDenied({ isError: true, needsApproval: true, parts: [{ kind: 'text', text: `${review.preview}\n\nThis change needs the user's approval; nothing was written. ${review.rerun ?? 'Run again with --yes to apply it.'}` }] });
      case 'accepted':
        texts = new Map(review.texts);
        edited = review.edited;
        atOnce = review.atOnce === true;
        break;
    }
  }
  // First where the paths lead: the texts are read again only from where the decision was made.
  await checkResolved(ctx, plan);
  // Time passed while the person looked: every file is read again. Without a question the
  // lock was held throughout; with one the flags answered at once, only what the workspace's
  // apply does not check itself (a base text that is no longer the file's) is read again.
  const again = !ask ? [] : atOnce ? plan.files.filter((f) => !applyChecksBase(f)) : plan.files;
  await inOrder(again, PATH_CHECKS_IN_FLIGHT, (f) => reverify(ctx, f));
  throwIfCancelled(ctx.signal);

  const written = plan.files.map((f) => f.target.real);
  const before = new Map(written.map((p) => [p, ctx.ws.diagnostics(p)] as const));
  const othersBefore = opts.otherProblems ? ctx.ws.filesWithErrors() : undefined;
  const landing = new Map(plan.files.map((f) => [f, f.after === undefined ? undefined : (texts.get(f.target.real) ?? f.after)] as const));
  const perFile = new Map(plan.files.map((f) => [f, toChanges(f, landing.get(f))] as const));
  const changes = [...perFile.values()].flat();
  let report;
  try {
    report = await ctx.ws.applyChanges(changes, {
      signal: ctx.signal,
      saveIfClean: ctx.settings.saveAfterChange,
      label: `${plan.tool}: ${plan.summary}`,
      beforeWrite: async () => {
        await checkResolved(ctx, plan);
        await recheckGitDirectories(ctx, plan);
      },
    });
  } catch (e) {
    if (e instanceof StaleError) {
      throw new ToolError('stale', `${plan.files.find((f) => f.target.real === e.path)?.target.located.display ?? e.path} changed just before the change was applied. Nothing was written. Read it again, then redo the change.`);
    }
    if (e instanceof ApplyFailure) {
      throw new ToolError('io', inWorkspaceTerms(ctx, applyFailureMessage(e)));
    }
    if (e instanceof ToolError) {
      throw e;
    }
    throw new ToolError('io', `The change could not be applied, and nothing was written: ${inWorkspaceTerms(ctx, e instanceof Error ? e.message : String(e))}.`);
  }
  if (ask) {
    ctx.approver.written?.();
  }
  if (!ask && ctx.settings.approvalPolicy === 'sensitiveOnly') {
    ctx.approver.showApplied(proposal);
  }
  const formatted = new Set<string>();
  if (ctx.settings.formatAfterChange) {
    for (const f of plan.files) {
      if (f.action !== 'delete' && (await ctx.ws.format(f.target.real, ctx.signal).catch(() => false))) {
        formatted.add(f.target.real);
      }
    }
  }
  const live = plan.files.filter((f) => f.action !== 'delete').map((f) => f.target.real);
  const checks = live.length
    ? await ctx.ws.settleDiagnostics(
        live,
        Math.min(ctx.settings.diagnosticsWaitMs, DIAGNOSTICS_MAX_WAIT_MS),
        ctx.signal,
        plan.files.some((f) => f.action === 'create' || f.action === 'delete' || f.action === 'move'),
      )
    : new Map<string, CheckState>();

  const files: LandedFile[] = [];
  const journal: JournalFile[] = [];
  for (const f of plan.files) {
    const proposed = f.after;
    // What landed is what was applied, unless a formatter changed it since; a large file's version comes from the disk.
    const reread = f.action !== 'delete' && (formatted.has(f.target.real) || (landing.get(f)?.length ?? 0) * 3 > FULL_READ_MAX_BYTES);
    const now = reread ? await loadFileText(ctx, f.target).catch(() => undefined) : undefined;
    const text = f.action === 'delete' ? undefined : (now?.text ?? landing.get(f));
    // a notebook an editor holds: the version fs_read will give, which may be its cells' or
    // the text its editor saved, asked for now rather than predicted
    const held = f.action !== 'delete' && !now && (ctx.ws.openNotebook(f.target.abs) ?? ctx.ws.openNotebook(f.target.real)) !== undefined;
    const heldVersion = held ? (await loadFileText(ctx, f.target).catch(() => undefined))?.version : undefined;
    const version = now?.version ?? heldVersion ?? (f.notebook && text === f.after ? f.notebook.version : text !== undefined ? textVersion(text) : undefined);
    // counted when read, once: a patch's result does not print them, and counting is a line diff
    let counted: { added: number; removed: number } | undefined;
    let diff: string | undefined;
    const stats = () => (counted ??= formatted.has(f.target.real) ? lineStats(f.before?.text ?? '', text ?? '') : statsOf(f, perFile.get(f)!, text));
    const fromDisplay = (f.from ?? f.target).located.display;
    const userEdited = edited.includes(f.target.real) && proposed !== undefined && text !== undefined;
    if (version) {
      ctx.ledger.record(fileKey(ctx, f.target.real), { version });
    }
    const after = f.action === 'delete' ? [] : ctx.ws.diagnostics(f.target.real);
    files.push({
      planned: f,
      userDiff: userEdited ? unifiedDiff(f.target.located.display, f.target.located.display, proposed, texts.get(f.target.real), RESULT_DIFF_BOUNDS) : undefined,
      get added() {
        return stats().added;
      },
      get removed() {
        return stats().removed;
      },
      // computed when read: a patch's result shows the diffs of its first files only
      get diff() {
        return (diff ??= opts.diffs === false || !showsOld.has(f) ? '' : unifiedDiff(fromDisplay, f.target.located.display, f.before?.text, text, RESULT_DIFF_BOUNDS));
      },
      version,
      unsaved: report.unsaved.includes(f.target.real),
      wasReadOnly: report.readOnly.includes(f.target.real),
      formatted: formatted.has(f.target.real),
      newErrors: f.action === 'delete' ? [] : newErrors(before.get(f.target.real) ?? [], after).slice(0, MAX_DIAGNOSTICS_PER_FILE),
      // A file with problems before or after has a checker reporting on it, whether or not it spoke just now.
      check:
        f.action === 'delete'
          ? { checked: false, reason: 'it is deleted' }
          : (before.get(f.target.real) ?? []).length > 0 || after.length > 0
            ? { checked: true }
            : (checks.get(f.target.real) ?? { checked: false, reason: 'no checker reported on it' }),
    });
    if (ctx.journal) {
      journal.push(journalFile(of, f, text, stats(), userEdited));
    }
  }
  ctx.journal?.record({ tool: plan.tool, summary: plan.summary, origin: ctx.origin ?? (ctx.requestKey !== undefined ? 'chat' : 'extension'), ...(ctx.client !== undefined ? { client: ctx.client } : {}), at: Date.now(), files: journal });
  const otherProblems: Landed['otherProblems'] = [];
  if (othersBefore) {
    // as the volume compares names: a language server may report a file under another spelling
    const mine = new Set(written.map((p) => fileKey(ctx, p)));
    const had = new Map(othersBefore.map((b) => [fileKey(ctx, b.path), b.errors] as const));
    for (const o of ctx.ws.filesWithErrors()) {
      if (!mine.has(fileKey(ctx, o.path)) && (had.get(fileKey(ctx, o.path)) ?? 0) < o.errors && otherProblems.length < MAX_OTHER_PROBLEM_FILES) {
        otherProblems.push({ display: locate(o.path, ctx.ws.roots()).display, errors: o.errors });
      }
    }
  }
  return { files, otherProblems, savedCopiesLeft: report.savedCopiesLeft.map((p) => locate(p, ctx.ws.roots()).display) };
}
