import * as vscode from 'vscode';

interface Entry {
  data: Uint8Array;
  readonly: boolean;
  ctime: number;
  mtime: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

/**
 * In-memory documents of the review: the proposal side of each diff (editable: typing,
 * edits and Save stay here, never reach the real file) and the current side (read-only).
 * Each lives at a URI with the real file's path, so the diff is not shown as a rename, and
 * a query naming its proposal and side. Nothing can be renamed or deleted through the
 * editor, and nothing created but by saving (an unsaved review document restored from an
 * earlier window is saved here so that it can be closed without a question).
 */
export class ProposalFileSystem implements vscode.FileSystemProvider {
  private readonly entries = new Map<string, Entry>();
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;

  set(uri: vscode.Uri, text: string, readonly: boolean): void {
    const now = Date.now();
    this.entries.set(uri.toString(), { data: encoder.encode(text), readonly, ctime: now, mtime: now });
  }

  /** The text last stored (by the review, or by Save in the editor). */
  text(uri: vscode.Uri): string | undefined {
    const e = this.entries.get(uri.toString());
    return e ? decoder.decode(e.data) : undefined;
  }

  forget(uri: vscode.Uri): void {
    if (this.entries.delete(uri.toString())) {
      this.changed.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
    }
  }

  private entry(uri: vscode.Uri): Entry {
    const e = this.entries.get(uri.toString());
    if (!e) {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    return e;
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => {});
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const e = this.entry(uri);
    return {
      type: vscode.FileType.File,
      ctime: e.ctime,
      mtime: e.mtime,
      size: e.data.byteLength,
      permissions: e.readonly ? vscode.FilePermission.Readonly : undefined,
    };
  }

  readFile(uri: vscode.Uri): Uint8Array {
    return this.entry(uri).data;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array, options: { create: boolean }): void {
    const known = this.entries.get(uri.toString());
    if (!known && options.create) {
      // an unsaved document restored from an earlier window, saved so that it can be closed
      this.set(uri, '', false);
    }
    const e = this.entry(uri);
    if (e.readonly) {
      throw vscode.FileSystemError.NoPermissions(
        uri.query.endsWith('-proposed')
          ? vscode.l10n.t('This proposal can only be accepted or rejected: a notebook is reviewed as cells, which cannot be edited here.')
          : vscode.l10n.t('This side of the review shows the file as it was; edit the proposal side.'),
      );
    }
    e.data = content;
    e.mtime = Math.max(Date.now(), e.mtime + 1);
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  dispose(): void {
    this.entries.clear();
    this.changed.dispose();
  }
}
