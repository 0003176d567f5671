import type { Root } from '../core/paths';
import type { NameComparison } from '../core/names';
import type { CancelSignal } from '../core/cancel';
import type { TextEdit } from '../core/diff';
import type { OpenedFile, OpenOptions } from '../core/file';
import type { GitDirectories } from '../core/gitDirectory';
import type { ProcessHost } from '../core/process';
import type { NotebookCell } from '../core/read/notebook';
import type { CellChange } from '../core/notebook/cells';
import type { OutlineSymbol } from '../core/outline/symbols';

export type EntryType = 'file' | 'directory' | 'symlink' | 'other';

export interface FileStat {
  /** The target's type when the path is a symlink ("symlink" only when the link is dangling). */
  type: EntryType;
  size: number;
  mtimeMs: number;
  isSymlink: boolean;
}

export interface DirEntry {
  name: string;
  /** The entry's own type: a symlink is "symlink", not followed. */
  type: EntryType;
}

/** A large folder's entries as its names alone: `type(i)` looks up the type of `names[i]` when asked (never following a link), the same answer each time. */
export interface NamedEntries {
  readonly names: readonly string[];
  type(index: number): EntryType;
}

/** An editor's view of a file: the truth for its path while it is open. */
export interface OpenDocument {
  text: string;
  isDirty: boolean;
  /** Editor encoding id mapped to ours ("utf-8", "utf-8-bom", ...). */
  encoding: string;
  /** "LF" or "CRLF": an editor buffer has one line ending. */
  eol: 'LF' | 'CRLF';
  /** The editor's version number of the document: it grows with every change. */
  version: number;
  /** Whether an editor tab shows it (false for a document only loaded, by this extension or another); absent: taken as shown. */
  shown?: boolean;
}

/**
 * One step of a set of changes that lands whole or not at all. Text edits apply to the
 * file's current text (the editor's buffer when it is open), which must still be `base`;
 * `text`, when given, is what they make of `base`, for a workspace that writes the whole file anyway.
 */
export type FileChange =
  | { kind: 'edit'; path: string; base: string; edits: readonly TextEdit[]; text?: string; /** The same edit as cells, for a host that holds notebooks as cells. */ notebook?: CellChange }
  | { kind: 'create'; path: string; bytes: Uint8Array; overwrite: boolean }
  | { kind: 'delete'; path: string }
  /**
   * `respell`: `to` is another spelling of `from` on a volume that folds names (`App.ts` to
   * `app.ts`), one entry: renamed through a temporary name, as a volume that folds may
   * take a rename onto itself as nothing to do.
   */
  | { kind: 'rename'; from: string; to: string; overwrite: boolean; respell?: boolean };

export interface ApplyOptions {
  signal: CancelSignal;
  /** Save an edited document that had no unsaved changes before; a document with unsaved changes is never saved. */
  saveIfClean: boolean;
  /** Names the change in the editor's undo history. */
  label: string;
  /**
   * Runs once every path was read and just before the first write: a last check of what
   * the disk looks like now (a refusal thrown here changes nothing).
   */
  beforeWrite?: () => Promise<void>;
}

export interface ApplyReport {
  /** Edited files left with unsaved changes in their editor (they had some before, or saving is off). */
  unsaved: string[];
  /** Files that were read-only before and were written anyway (they keep their permissions). */
  readOnly: string[];
  /** Saved copies of previous content that could not be removed after the change landed. */
  savedCopiesLeft: string[];
}

export type DiagnosticSeverity = 'error' | 'warning';

export interface Diagnostic {
  severity: DiagnosticSeverity;
  /** 1-based line and column. */
  line: number;
  column: number;
  message: string;
  source?: string;
  code?: string;
}

/**
 * The seam between the tools and the world. Paths are absolute, in the platform's form.
 * Two implementations: VS Code (workspace.fs + open documents) and Node (node:fs), so
 * every tool runs the same in the extension, the CLI, unit tests and benchmarks.
 */
export interface Workspace {
  /** The workspace folders, real paths, each with how its volume compares names. */
  roots(): readonly Root[];
  isTrusted(): boolean;
  /**
   * Resolves symlinks and ".."; for a missing path, of its deepest existing ancestor. Each
   * name that exists is spelled as it is on disk (on a volume that folds case or
   * normalisation, `src/app.ts` gives `Src/App.ts`); the missing rest as given.
   */
  realpath(path: string): Promise<string>;
  /** How the volume holding `path` compares names: its workspace folder's, else its own volume's (see host/volume.ts). */
  names(path: string): NameComparison;
  /** The editor's own folders, real paths, where a change always asks (see `editorFolders` in core/writePolicy.ts); none in the CLI. */
  editorFolders?(): readonly string[];
  /** Follows symlinks; undefined when nothing is there. */
  stat(path: string): Promise<FileStat | undefined>;
  /** Modification times of many files at once (0 for one that is gone), checking `signal` between batches. */
  mtimes(paths: readonly string[], signal?: CancelSignal): Promise<number[]>;
  readDirectory(path: string): Promise<DirEntry[]>;
  /** The entries as a walk that looks at a few of them reads them: a large local folder by name alone (see {@link NamedEntries}). */
  readDirectoryNames?(path: string): Promise<DirEntry[] | NamedEntries>;
  /** The entries one by one, as the file system gives them: stopping early reads no more. */
  iterateDirectory(path: string): AsyncIterable<DirEntry>;
  readFile(path: string): Promise<Uint8Array>;
  /**
   * Opens a file (or folder) for reading, following links, never waiting on a FIFO;
   * undefined when nothing is there. Tools that decided on a path read through this,
   * checking `realPath` against the path they decided on.
   */
  openFile(path: string, opts?: OpenOptions): Promise<OpenedFile | undefined>;
  /** The file's bytes from `start`, in chunks; stopping the iteration closes the file. */
  readStream(path: string, start?: number): AsyncIterable<Uint8Array>;
  /** The open editor document for the path, if any (dirty or not). */
  openDocument(path: string): OpenDocument | undefined;
  /** The open notebook for the path, if any: its cells as the editor holds them. */
  openNotebook(path: string): { cells: NotebookCell[]; isDirty: boolean } | undefined;
  /**
   * Whether notebook edits land as cells through the editor (which then holds the notebook
   * open), rather than as the file's text: a read then gives the cells' version.
   */
  readonly notebooksAsCells: boolean;
  /** Bytes per read of a scan for a deep line, where the default (LINE_SCAN_CHUNK_BYTES) is not the best. */
  readonly lineScanChunkBytes?: number;
  /** Absolute paths and texts of every open document with unsaved changes. */
  dirtyDocuments(): { path: string; text: string }[];
  /**
   * Globs the editor's settings hide under a folder, relative to it: `files.exclude`,
   * plus `search.exclude` when `purpose` is "search". Empty outside VS Code.
   */
  excludeGlobs(purpose: 'files' | 'search', root: Root): readonly string[];
  /** Runs programs (ripgrep, git) on the machine the files are on. */
  readonly processes: ProcessHost;
  /** Whether the path is on this machine's disk, where programs can read it (not a virtual folder). */
  onDisk(path: string): boolean;
  /** The ripgrep executable shipped with the editor, if there is one. */
  bundledRipgrep(): string | undefined;
  /** Where a symlink points, as stored in the link; undefined when it cannot be read. */
  readLink(path: string): Promise<string | undefined>;
  /** A fresh finder of git directories whatever their name (see core/gitDirectory.ts), for one call: it remembers what it asked. */
  gitDirectories(): GitDirectories;

  /**
   * Applies the changes in order, all or nothing: when one fails (or the call is
   * cancelled) part-way, what was done is put back as it was and the error is thrown.
   * Throws `StaleError` when a file's text is no longer the `base` an edit was made on.
   */
  applyChanges(changes: readonly FileChange[], opts: ApplyOptions): Promise<ApplyReport>;
  /** The line ending a new file gets (VS Code's `files.eol`; LF elsewhere). */
  newFileEol(path: string): 'LF' | 'CRLF';
  /**
   * Formats a file with the formatter its language has (VS Code only), saving it again when
   * it was saved clean before; false when nothing formatted it.
   */
  format(path: string, signal: CancelSignal): Promise<boolean>;
  /**
   * The symbols the editor's providers (language servers) give for a file, as they see its
   * text now; undefined when none answers. Absent outside VS Code.
   */
  documentSymbols?(path: string, signal: CancelSignal): Promise<OutlineSymbol[] | undefined>;
  /** What the language servers report for a file now (none outside VS Code). */
  diagnostics(path: string): Diagnostic[];
  /** Files with errors now, with their count (none outside VS Code). */
  filesWithErrors(): { path: string; errors: number }[];
  /**
   * Resolves once the language servers have had their say about files just changed: when
   * their diagnostics stop changing, or after `maxMs`. Says for each path whether a checker
   * reported on it, and when none did, why, as far as the host can tell. `filesChanged`:
   * the change created, deleted or moved a file, which a server learns of later than an edit.
   */
  settleDiagnostics(paths: readonly string[], maxMs: number, signal: CancelSignal, filesChanged?: boolean): Promise<Map<string, CheckState>>;
}

/**
 * Whether a checker (a language server's diagnostics) looked at a file after a change;
 * `reason` is a few words on why none did. `said`: the reason holds for the whole host and
 * was said already (once per workspace, or in the CLI's --help), so it is not repeated.
 */
export type CheckState = { checked: true } | { checked: false; reason: string; said?: true };

/** What one path of a failed change holds after putting the change back failed there. */
export interface FileState {
  /** Absolute path, as the change named it. */
  path: string;
  /** What the path holds now, in a few words ("holds the new text", "is deleted"). */
  now: string;
  /** Where the path's previous content is kept (absolute), when it is not at `path`. */
  savedAt?: string;
}

/**
 * A change failed part-way (`reason`) and putting it back failed too: what every path that
 * is not as it was holds now. Every path not listed is as it was before the change.
 */
export class ApplyFailure extends Error {
  constructor(
    readonly reason: string,
    readonly files: readonly FileState[],
  ) {
    super(`${reason}; putting the change back failed for ${files.map((f) => f.path).join(', ')}`);
    this.name = 'ApplyFailure';
  }
}

/** A file changed since the text a change was computed on was read. */
export class StaleError extends Error {
  constructor(readonly path: string) {
    super(`${path} changed while the change was prepared`);
    this.name = 'StaleError';
  }
}
