import { accessSync, constants as fsConstants } from 'node:fs';
import * as vscode from 'vscode';
import { throwIfCancelled } from '../core/cancel';
import { CancelledError } from '../core/errors';
import { StaleError, type ApplyOptions, type ApplyReport, type FileChange } from './workspace';

/** Bytes on disk before the change, or nothing; restored when a later step fails. */
type DiskSnapshot = { uri: vscode.Uri; bytes: Uint8Array | undefined };

interface EditedDoc {
  doc: vscode.TextDocument;
  wasDirty: boolean;
  before: string;
}

function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((d) => !d.isClosed && d.uri.toString() === key);
}

async function readIfExists(uri: vscode.Uri): Promise<Uint8Array | undefined> {
  try {
    return await vscode.workspace.fs.readFile(uri);
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
      throw new Error(`${uri.fsPath} cannot be written (${code ?? 'no permission'})`);
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
export async function applyInEditor(changes: readonly FileChange[], opts: ApplyOptions, uriFor: (path: string) => vscode.Uri): Promise<ApplyReport> {
  throwIfCancelled(opts.signal);
  const edited = new Map<string, EditedDoc>();
  const disk = new Map<string, DiskSnapshot>();
  const remember = async (p: string) => {
    if (!disk.has(p)) {
      const uri = uriFor(p);
      disk.set(p, { uri, bytes: await readIfExists(uri) });
    }
  };
  for (const c of changes) {
    if (c.kind === 'edit') {
      const uri = uriFor(c.path);
      assertWritable(uri);
      const doc = openDocument(uri) ?? (await vscode.workspace.openTextDocument(uri));
      if (doc.getText() !== c.base) {
        throw new StaleError(c.path);
      }
      edited.set(c.path, { doc, wasDirty: doc.isDirty, before: c.base });
      await remember(c.path);
    } else if (c.kind === 'rename') {
      await remember(c.from);
      await remember(c.to);
    } else {
      if (c.kind === 'create') {
        assertWritable(uriFor(c.path));
      }
      await remember(c.path);
    }
  }
  throwIfCancelled(opts.signal);

  const we = new vscode.WorkspaceEdit();
  const meta: vscode.WorkspaceEditEntryMetadata = { label: opts.label, needsConfirmation: false };
  for (const c of changes) {
    switch (c.kind) {
      case 'edit': {
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
        we.renameFile(uriFor(c.from), uriFor(c.to), { overwrite: c.overwrite }, meta);
        break;
    }
  }

  const unsaved: string[] = [];
  try {
    if (!(await vscode.workspace.applyEdit(we))) {
      throw new Error('the editor refused the change (a file it touches may have changed or be locked)');
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
  } catch (err) {
    await rollback(edited, disk);
    throw err;
  }
  return { unsaved };
}

/**
 * Puts documents and files back as they were. A document that was clean gets its disk
 * bytes back and is reverted to them, so it is clean again; one with unsaved changes
 * gets its previous text back and stays unsaved. Best effort: one failure does not stop
 * the rest.
 */
async function rollback(edited: ReadonlyMap<string, EditedDoc>, disk: ReadonlyMap<string, DiskSnapshot>): Promise<void> {
  for (const s of disk.values()) {
    try {
      const now = await readIfExists(s.uri);
      if (s.bytes === undefined) {
        if (now !== undefined) {
          await vscode.workspace.fs.delete(s.uri, { useTrash: false });
        }
      } else if (now === undefined || Buffer.compare(Buffer.from(now), Buffer.from(s.bytes)) !== 0) {
        await vscode.workspace.fs.writeFile(s.uri, s.bytes);
      }
    } catch {
      // keep restoring the others
    }
  }
  for (const e of edited.values()) {
    try {
      if (e.doc.isClosed || e.doc.getText() === e.before) {
        continue;
      }
      const back = new vscode.WorkspaceEdit();
      back.replace(e.doc.uri, wholeRange(e.doc), e.before);
      await vscode.workspace.applyEdit(back);
      if (!e.wasDirty) {
        // Same text as on disk: saving leaves the file's bytes as they were and the document clean.
        await e.doc.save();
      }
    } catch {
      // keep restoring the others
    }
  }
}
