import { accessSync, constants as fsConstants, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { throwIfCancelled } from '../core/cancel';
import { textEdits } from '../core/diff';
import { CancelledError } from '../core/errors';
import type { CellChange } from '../core/notebook/cells';
import { localEntryExists } from './gitDirectory';
import { EXACT_NAMES, type NameComparison } from '../core/names';
import { findNotebookDocument, findTextDocument } from './vscodeDocuments';
import { WINDOWS_PATHS } from './volume';
import { ApplyFailure, StaleError, type ApplyOptions, type ApplyReport, type FileChange, type FileState } from './workspace';

/**
 * Bytes on disk before the change, or nothing; restored when a later step fails. They are
 * held in memory (as VS Code's own undo of a deleted file holds them) and written aside
 * to the machine's temporary folder when they cannot be put back.
 */
type DiskSnapshot = { uri: vscode.Uri; bytes: Uint8Array | undefined; readOnly: Promise<boolean> };

interface EditedDoc {
  doc: vscode.TextDocument;
  wasDirty: boolean;
  before: string;
}

/** A notebook an edit by cell lands in, as it was before. */
interface EditedNotebook {
  nb: vscode.NotebookDocument;
  wasDirty: boolean;
  change: CellChange;
  /** For a delete: the cell as it was, to put back. */
  removed?: vscode.NotebookCellData;
}

let respellCount = 0;

/** How the volume of a path compares names: a document open under another spelling of the file is its document. */
type NamesOf = (path: string) => NameComparison;

/** The notebook's cells must still be those the change was made on: the count, and the changed cell's source. */
function notebookStill(nb: vscode.NotebookDocument, change: CellChange): boolean {
  if (nb.cellCount !== change.cells) {
    return false;
  }
  return change.op === 'insert' || nb.cellAt(change.index).document.getText() === change.before;
}

function cellData(cell: vscode.NotebookCell): vscode.NotebookCellData {
  const data = new vscode.NotebookCellData(cell.kind, cell.document.getText(), cell.document.languageId);
  data.outputs = [...cell.outputs];
  data.metadata = cell.metadata;
  if (cell.executionSummary) {
    data.executionSummary = cell.executionSummary;
  }
  return data;
}

/**
 * The change as notebook edits: a source change as text edits of the cell's document (so
 * the editor keeps the cursor, and one undo takes it back), a new or removed cell as a
 * notebook edit. Outputs, metadata and every other cell are not touched.
 */
function addNotebookEdit(we: vscode.WorkspaceEdit, e: EditedNotebook, meta: vscode.WorkspaceEditEntryMetadata): void {
  const c = e.change;
  switch (c.op) {
    case 'source': {
      const doc = e.nb.cellAt(c.index).document;
      for (const t of textEdits(c.before, c.after)) {
        we.replace(doc.uri, new vscode.Range(doc.positionAt(t.start), doc.positionAt(t.end)), t.text, meta);
      }
      break;
    }
    case 'insert': {
      // VS Code holds a raw cell as a code cell of the language "raw"
      const kind = c.kind === 'markdown' ? vscode.NotebookCellKind.Markup : vscode.NotebookCellKind.Code;
      const cell = new vscode.NotebookCellData(kind, c.source, c.kind === 'raw' ? 'raw' : c.language);
      we.set(e.nb.uri, [[vscode.NotebookEdit.insertCells(c.index, [cell]), meta]]);
      break;
    }
    case 'delete':
      we.set(e.nb.uri, [[vscode.NotebookEdit.deleteCells(new vscode.NotebookRange(c.index, c.index + 1)), meta]]);
      break;
  }
}

/** Takes an edit by cell back: the cell's source, the inserted cell removed, the deleted one put back with its outputs. */
async function undoNotebookEdit(e: EditedNotebook): Promise<void> {
  const c = e.change;
  const back = new vscode.WorkspaceEdit();
  if (c.op === 'source') {
    const doc = e.nb.cellAt(c.index).document;
    if (doc.getText() === c.before) {
      return;
    }
    back.replace(doc.uri, new vscode.Range(new vscode.Position(0, 0), doc.lineAt(doc.lineCount - 1).range.end), c.before);
  } else if (c.op === 'insert') {
    if (e.nb.cellCount !== c.cells + 1) {
      return;
    }
    back.set(e.nb.uri, [vscode.NotebookEdit.deleteCells(new vscode.NotebookRange(c.index, c.index + 1))]);
  } else {
    if (e.nb.cellCount !== c.cells - 1 || !e.removed) {
      return;
    }
    back.set(e.nb.uri, [vscode.NotebookEdit.insertCells(c.index, [e.removed])]);
  }
  if (!(await vscode.workspace.applyEdit(back))) {
    throw new Error('refused');
  }
}

/**
 * A notebook editor holding unsaved changes to the file: writing the file's text would
 * overwrite them behind it (the caller refuses this earlier, in words for the model).
 */
function refuseBehindNotebook(uri: vscode.Uri, p: string, names: NameComparison): void {
  if (findNotebookDocument(uri, names)?.isDirty) {
    throw new Error(`${p} is open in a notebook editor with unsaved changes, which writing the file would overwrite`);
  }
}

/** A file's bytes, or undefined when it cannot be read; a local one straight from the disk, not through the window. */
async function readIfExists(uri: vscode.Uri): Promise<Uint8Array | undefined> {
  try {
    return uri.scheme === 'file' ? await readFile(uri.fsPath) : await vscode.workspace.fs.readFile(uri);
  } catch {
    return undefined;
  }
}

/** Whether anything is at the path (a dangling link counts, and so does one that cannot be looked at). */
async function exists(uri: vscode.Uri): Promise<boolean> {
  if (uri.scheme === 'file') {
    return localEntryExists(uri.fsPath);
  }
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

async function isReadOnly(uri: vscode.Uri): Promise<boolean> {
  try {
    return ((await vscode.workspace.fs.stat(uri)).permissions ?? 0) & vscode.FilePermission.Readonly ? true : false;
  } catch {
    return false;
  }
}

/** Runs `step` once more when it fails: a transient error should not leave a file changed. */
async function twice<T>(step: () => Thenable<T>): Promise<T> {
  try {
    return await step();
  } catch {
    return await step();
  }
}

/**
 * The previous bytes of a file that could not be put back, written where the person can
 * open them (the machine's temporary folder); undefined when even that fails.
 */
function saveAside(p: string, bytes: Uint8Array): string | undefined {
  try {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-file-tools-saved-'));
    const file = path.join(dir, path.basename(p) || 'file');
    writeFileSync(file, bytes, { flag: 'wx', mode: 0o600 });
    return file;
  } catch {
    return undefined;
  }
}

/** A read-only file fails here, before anything changed, rather than at save time. */
function assertWritable(uri: vscode.Uri): void {
  if (uri.scheme !== 'file') {
    return;
  }
  try {
    accessSync(uri.fsPath, fsConstants.W_OK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') {
      // the real reason, where it is the file's own: its read-only attribute (Windows) or its mode
      const mode = statSync(uri.fsPath, { throwIfNoEntry: false })?.mode ?? 0o200;
      const why = (mode & 0o222) === 0 ? (WINDOWS_PATHS ? 'it is read-only (its read-only attribute is set)' : 'it is read-only (its mode gives no one write permission)') : code ?? 'no permission';
      throw new Error(`${uri.fsPath} cannot be written: ${why}`);
    }
  }
}

function wholeRange(doc: vscode.TextDocument): vscode.Range {
  return new vscode.Range(new vscode.Position(0, 0), doc.lineAt(doc.lineCount - 1).range.end);
}

/**
 * Changes through one `WorkspaceEdit`: text edits land on the document (the editor's
 * buffer, unsaved work and all), so one undo in that editor restores the previous text;
 * files are created, deleted and renamed as workspace file operations. Documents that had
 * no unsaved changes are saved afterwards (when asked); the others stay unsaved. When a
 * step fails or the call is cancelled, documents get their text back and files their
 * bytes, and the error is rethrown.
 */
export async function applyInEditor(changes: readonly FileChange[], opts: ApplyOptions, uriFor: (path: string) => vscode.Uri, names: NamesOf = () => EXACT_NAMES): Promise<ApplyReport> {
  throwIfCancelled(opts.signal);
  const edited = new Map<string, EditedDoc>();
  const notebooks = new Map<string, EditedNotebook>();
  const disk = new Map<string, DiskSnapshot>();
  const remember = async (p: string) => {
    if (!disk.has(p)) {
      const uri = uriFor(p);
      const bytes = await readIfExists(uri);
      // asked of the file system now, answered while the change lands: only the report needs it
      const readOnly = bytes === undefined ? Promise.resolve(false) : isReadOnly(uri);
      disk.set(p, { uri, bytes, readOnly });
    }
  };
  // the folders a create or move will make, deepest first: removed again when the change is undone
  const newFolders: string[] = [];
  const noteFolders = async (p: string) => {
    for (let d = path.dirname(p); d !== path.dirname(d) && !newFolders.includes(d); d = path.dirname(d)) {
      if (await exists(uriFor(d))) {
        break;
      }
      newFolders.push(d);
    }
  };
  for (const c of changes) {
    if (c.kind === 'create' || c.kind === 'rename') {
      await noteFolders(c.kind === 'create' ? c.path : c.to);
    }
    if (c.kind === 'edit' && c.notebook) {
      // through the notebook, never as a rewrite of its file behind an editor that holds it
      const uri = uriFor(c.path);
      assertWritable(uri);
      const nb = findNotebookDocument(uri, names(c.path)) ?? (await vscode.workspace.openNotebookDocument(uri));
      if (!notebookStill(nb, c.notebook)) {
        throw new StaleError(c.path);
      }
      const removed = c.notebook.op === 'delete' ? cellData(nb.cellAt(c.notebook.index)) : undefined;
      notebooks.set(c.path, { nb, wasDirty: nb.isDirty, change: c.notebook, ...(removed ? { removed } : {}) });
      await remember(c.path);
    } else if (c.kind === 'edit') {
      const uri = uriFor(c.path);
      assertWritable(uri);
      refuseBehindNotebook(uri, c.path, names(c.path));
      const doc = findTextDocument(uri, names(c.path)) ?? (await vscode.workspace.openTextDocument(uri));
      if (doc.getText() !== c.base) {
        throw new StaleError(c.path);
      }
      edited.set(c.path, { doc, wasDirty: doc.isDirty, before: c.base });
      await remember(c.path);
    } else if (c.kind === 'rename') {
      refuseBehindNotebook(uriFor(c.from), c.from, names(c.from));
      refuseBehindNotebook(uriFor(c.to), c.to, names(c.to));
      await remember(c.from);
      await remember(c.to);
    } else {
      if (c.kind === 'create') {
        assertWritable(uriFor(c.path));
      }
      refuseBehindNotebook(uriFor(c.path), c.path, names(c.path));
      await remember(c.path);
    }
  }
  throwIfCancelled(opts.signal);
  await opts.beforeWrite?.();
  throwIfCancelled(opts.signal);

  const we = new vscode.WorkspaceEdit();
  const meta: vscode.WorkspaceEditEntryMetadata = { label: opts.label, needsConfirmation: false };
  for (const c of changes) {
    switch (c.kind) {
      case 'edit': {
        const nb = notebooks.get(c.path);
        if (nb) {
          addNotebookEdit(we, nb, meta);
          break;
        }
        const { doc } = edited.get(c.path)!;
        for (const e of c.edits) {
          we.replace(doc.uri, new vscode.Range(doc.positionAt(e.start), doc.positionAt(e.end)), e.text, meta);
        }
        break;
      }
      case 'create':
        we.createFile(uriFor(c.path), { overwrite: c.overwrite, contents: c.bytes }, meta);
        break;
      case 'delete':
        we.deleteFile(uriFor(c.path), { recursive: false, ignoreIfNotExists: false }, meta);
        break;
      case 'rename':
        if (c.respell) {
          // another spelling of the same file: through a name of its own, as a volume that
          // folds names may take a rename onto itself as nothing to do (its open document follows)
          const tmp = uriFor(path.join(path.dirname(c.to), `.${path.basename(c.to)}.${process.pid.toString(36)}-${(++respellCount).toString(36)}.tmp`));
          we.renameFile(uriFor(c.from), tmp, { overwrite: false }, meta);
          we.renameFile(tmp, uriFor(c.to), { overwrite: false }, meta);
        } else {
          we.renameFile(uriFor(c.from), uriFor(c.to), { overwrite: c.overwrite }, meta);
        }
        break;
    }
  }

  const unsaved: string[] = [];
  try {
    if (!(await vscode.workspace.applyEdit(we))) {
      // applyEdit answers false and keeps the file system's error to itself: a full disk
      // and a missing permission read the same as a file changed behind it
      throw new Error('the editor refused the change: a file it touches may have changed, be locked, or not be writable (a full disk, no permission)');
    }
    if (opts.signal.isCancellationRequested) {
      throw new CancelledError();
    }
    for (const [p, e] of edited) {
      if (e.wasDirty || !opts.saveIfClean) {
        unsaved.push(p);
        continue;
      }
      if (!(await e.doc.save())) {
        throw new Error(`${p} could not be saved`);
      }
    }
    for (const [p, e] of notebooks) {
      if (e.wasDirty || !opts.saveIfClean) {
        unsaved.push(p);
      } else if (!(await e.nb.save())) {
        throw new Error(`${p} could not be saved`);
      }
    }
  } catch (err) {
    const left = await rollback(edited, disk, newFolders, uriFor, notebooks);
    if (left.length) {
      throw new ApplyFailure(err instanceof Error ? err.message : String(err), left);
    }
    throw err;
  }
  const written = new Set(changes.flatMap((c) => (c.kind === 'edit' || c.kind === 'create' ? [c.path] : [])));
  const readOnly: string[] = [];
  for (const [p, s] of disk) {
    if (written.has(p) && (await s.readOnly)) {
      readOnly.push(p);
    }
  }
  return { unsaved, readOnly, savedCopiesLeft: [] };
}

/**
 * Puts documents and files back as they were, judged by what each path holds now (a
 * `WorkspaceEdit` that failed part-way does not say which of its steps ran): first what
 * the change created is removed, last change first, so that its space is free before what
 * it replaced or deleted is written back. A document that was clean gets its disk bytes
 * back and is reverted to them, so it is clean again; one with unsaved changes gets its
 * previous text back and stays unsaved. One failure does not stop the rest; what could
 * not be put back is returned, with where its previous bytes were saved.
 */
async function rollback(
  edited: ReadonlyMap<string, EditedDoc>,
  disk: ReadonlyMap<string, DiskSnapshot>,
  newFolders: readonly string[],
  uriFor: (path: string) => vscode.Uri,
  notebooks: ReadonlyMap<string, EditedNotebook> = new Map(),
): Promise<FileState[]> {
  const left: FileState[] = [];
  // a notebook first: its cells get their text back, then its file its bytes below
  for (const [p, e] of notebooks) {
    try {
      if (!e.nb.isClosed) {
        await undoNotebookEdit(e);
        if (!e.wasDirty && e.nb.isDirty) {
          await e.nb.save();
        }
      }
    } catch {
      left.push({ path: p, now: 'has the new cells in its notebook editor (not saved)' });
    }
  }
  const last = [...disk].reverse();
  for (const [p, s] of last.filter(([, s]) => s.bytes === undefined)) {
    try {
      if ((await readIfExists(s.uri)) !== undefined) {
        await twice(() => vscode.workspace.fs.delete(s.uri, { useTrash: false }));
      }
    } catch {
      left.push({ path: p, now: 'was created by the change and holds its new content (it did not exist before)' });
    }
  }
  for (const d of [...newFolders].sort((a, b) => b.length - a.length)) {
    const uri = uriFor(d);
    try {
      if ((await exists(uri)) && (await vscode.workspace.fs.readDirectory(uri)).length === 0) {
        await twice(() => vscode.workspace.fs.delete(uri, { recursive: false, useTrash: false }));
      }
    } catch {
      left.push({ path: d, now: 'is a folder the change created (it did not exist before)' });
    }
  }
  for (const [p, s] of last) {
    const before = s.bytes;
    if (before === undefined) {
      continue;
    }
    const now = await readIfExists(s.uri);
    if (now !== undefined && Buffer.compare(Buffer.from(now), Buffer.from(before)) === 0) {
      continue;
    }
    try {
      await twice(() => vscode.workspace.fs.writeFile(s.uri, before));
    } catch {
      const savedAt = saveAside(p, before);
      left.push({ path: p, now: now === undefined ? 'is deleted' : 'holds the new content', ...(savedAt ? { savedAt } : {}) });
    }
  }
  for (const [p, e] of edited) {
    try {
      if (e.doc.isClosed || e.doc.getText() === e.before) {
        continue;
      }
      const back = new vscode.WorkspaceEdit();
      back.replace(e.doc.uri, wholeRange(e.doc), e.before);
      if (!(await vscode.workspace.applyEdit(back))) {
        throw new Error('refused');
      }
      if (!e.wasDirty) {
        // Same text as on disk: saving leaves the file's bytes as they were and the document clean.
        await e.doc.save();
      }
    } catch {
      if (!left.some((l) => l.path === p)) {
        left.push({ path: p, now: 'has the new text in its editor (not saved)' });
      }
    }
  }
  return left;
}
