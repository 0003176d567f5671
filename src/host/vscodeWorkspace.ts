import { createReadStream, existsSync } from 'node:fs';
import * as nodePath from 'node:path';
import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import type { Root } from '../core/paths';
import { EXACT_NAMES, type NameComparison } from '../core/names';
import { documentKey, findNotebookDocument, findTextDocument } from './vscodeDocuments';
import { Volumes, WINDOWS_PATHS } from './volume';
import { neighboursEol } from './lineEndings';
import { STREAM_CHUNK_BYTES } from '../core/limits';
import { encodingFromEditorId } from '../core/text/encoding';
import { pickOutputItems, type NotebookCell, type NotebookOutputItem } from '../core/read/notebook';
import type { OpenedFile, OpenOptions } from '../core/file';
import { iterateLocalDirectory, localMtimes, readLocalDirectory, readLocalNames } from './localDirectory';
import { openLocalFile } from './localFile';
import { localStat } from './localStat';
import { NODE_PROCESSES } from './process';
import { realpathLenient, realpathNative } from './realpath';
import { applyInEditor } from './vscodeApply';
import { documentSymbolsOf } from './vscodeSymbols';
import type { OutlineSymbol } from '../core/outline/symbols';
import { GitDirectoryProbe, localEntryExists, localIsFile } from './gitDirectory';
import { askTypeScript, TS_EXTENSION, TS_LANGUAGES } from './typeScriptCheck';
import { CheckerWatch, tabUris } from './vscodeCheckers';
import type { GitDirectories } from '../core/gitDirectory';
import type { ApplyOptions, ApplyReport, CheckState, Diagnostic, DirEntry, EntryType, FileChange, FileStat, NamedEntries, OpenDocument, Workspace } from './workspace';
import { throwIfCancelled, type CancelSignal } from '../core/cancel';

function typeOf(t: vscode.FileType, own: boolean): EntryType {
  if (own && t & vscode.FileType.SymbolicLink) {
    return 'symlink';
  }
  return t & vscode.FileType.File ? 'file' : t & vscode.FileType.Directory ? 'directory' : t & vscode.FileType.SymbolicLink ? 'symlink' : 'other';
}

/**
 * The workspace as VS Code sees it: files through `workspace.fs` (so remote and virtual
 * folders work), and an open `TextDocument` as the truth for its file, dirty or not.
 * For `file:` folders the node:fs fast paths (realpath, streaming) give the same bytes.
 */
export class VscodeWorkspace implements Workspace, vscode.Disposable {
  private cachedRoots: Root[] | undefined;
  private ripgrep: { path: string | undefined } | undefined;
  private readonly sub: vscode.Disposable;
  readonly processes = NODE_PROCESSES;
  private readonly checkers = new CheckerWatch();
  /** Each folder's volume, asked once how it compares names. */
  private readonly volumes = new Volumes();

  /** Real paths of the editor's own folders (see `editorFolders` in core/writePolicy.ts). */
  private readonly ownFolders: readonly string[];

  constructor(editorFolders: readonly string[] = []) {
    this.sub = vscode.workspace.onDidChangeWorkspaceFolders(() => (this.cachedRoots = undefined));
    this.ownFolders = editorFolders.map((f) => {
      try {
        return realpathNative(f);
      } catch {
        return nodePath.normalize(f);
      }
    });
  }

  editorFolders(): readonly string[] {
    return this.ownFolders;
  }

  dispose(): void {
    this.sub.dispose();
    this.checkers.dispose();
  }

  roots(): readonly Root[] {
    if (!this.cachedRoots) {
      this.cachedRoots = (vscode.workspace.workspaceFolders ?? []).map((f) => {
        const path = this.rootPath(f.uri);
        return { name: f.name, path, names: f.uri.scheme === 'file' ? this.volumes.folder(path) : EXACT_NAMES };
      });
    }
    return this.cachedRoots;
  }

  private rootPath(uri: vscode.Uri): string {
    if (uri.scheme !== 'file') {
      return uri.path;
    }
    try {
      return realpathNative(uri.fsPath);
    } catch {
      return uri.fsPath;
    }
  }

  names(p: string): NameComparison {
    return this.uriFor(p).scheme === 'file' ? this.volumes.of(p, this.roots()) : EXACT_NAMES;
  }

  isTrusted(): boolean {
    return vscode.workspace.isTrusted;
  }

  /** The URI a path stands for: under a virtual folder, that folder's scheme. */
  uriFor(path: string): vscode.Uri {
    for (const f of vscode.workspace.workspaceFolders ?? []) {
      if (f.uri.scheme !== 'file' && (path === f.uri.path || path.startsWith(f.uri.path.replace(/\/$/, '') + '/'))) {
        return f.uri.with({ path });
      }
    }
    return vscode.Uri.file(path);
  }

  async realpath(p: string): Promise<string> {
    const uri = this.uriFor(p);
    if (uri.scheme !== 'file') {
      return p;
    }
    return this.volumes.spellOnDisk(await realpathLenient(p, (x) => fs.realpath(x)), this.roots());
  }

  async stat(p: string): Promise<FileStat | undefined> {
    if (this.uriFor(p).scheme === 'file') {
      return localStat(p);
    }
    try {
      const s = await vscode.workspace.fs.stat(this.uriFor(p));
      return { type: typeOf(s.type, false), size: s.size, mtimeMs: s.mtime, isSymlink: (s.type & vscode.FileType.SymbolicLink) !== 0 };
    } catch {
      return undefined;
    }
  }

  /** On disk in bulk (see localMtimes); in a virtual folder one stat at a time through its provider. */
  async mtimes(paths: readonly string[], signal?: CancelSignal): Promise<number[]> {
    if (paths.every((p) => this.uriFor(p).scheme === 'file')) {
      return localMtimes(paths, signal);
    }
    const out: number[] = [];
    for (const p of paths) {
      throwIfCancelled(signal);
      out.push((await this.stat(p))?.mtimeMs ?? 0);
    }
    return out;
  }

  async readDirectory(p: string): Promise<DirEntry[]> {
    const uri = this.uriFor(p);
    if (uri.scheme === 'file') {
      return readLocalDirectory(p);
    }
    const entries = await vscode.workspace.fs.readDirectory(uri);
    return entries.map(([name, t]) => ({ name, type: typeOf(t, true) }));
  }

  async readDirectoryNames(p: string): Promise<DirEntry[] | NamedEntries> {
    return this.uriFor(p).scheme === 'file' ? readLocalNames(p) : this.readDirectory(p);
  }

  async *iterateDirectory(p: string): AsyncIterable<DirEntry> {
    const uri = this.uriFor(p);
    if (uri.scheme === 'file') {
      yield* iterateLocalDirectory(p);
      return;
    }
    yield* await this.readDirectory(p);
  }

  async readFile(p: string): Promise<Uint8Array> {
    return vscode.workspace.fs.readFile(this.uriFor(p));
  }

  /** On disk one lstat; in a virtual folder only its provider can say (undefined). */
  presentNow(p: string): boolean | undefined {
    return this.uriFor(p).scheme === 'file' ? localEntryExists(p) : undefined;
  }

  /**
   * On disk, the file itself through a descriptor (see localFile.ts). In a virtual
   * folder its provider gives the bytes whole; there is no descriptor to check, and the
   * path is taken as its own real path (the provider resolves no links we could refuse).
   */
  async openFile(p: string, opts?: OpenOptions): Promise<OpenedFile | undefined> {
    const uri = this.uriFor(p);
    if (uri.scheme === 'file') {
      return openLocalFile(p, opts);
    }
    const st = await this.stat(p);
    if (!st) {
      return undefined;
    }
    let bytes: Uint8Array | undefined;
    const all = async () => (bytes ??= st.type === 'file' ? await vscode.workspace.fs.readFile(uri) : new Uint8Array(0));
    return {
      type: st.type === 'symlink' ? 'other' : st.type,
      size: st.size,
      mtimeMs: st.mtimeMs,
      realPath: p,
      read: async (position, length) => (await all()).subarray(position, position + length),
      stream: async function* (start = 0) {
        const b = await all();
        for (let i = start; i < b.length; i += STREAM_CHUNK_BYTES) {
          yield b.subarray(i, i + STREAM_CHUNK_BYTES);
        }
      },
      close: async () => {
        bytes = undefined;
      },
    };
  }

  /** On disk one lstat per name; in a virtual folder through its provider. */
  gitDirectories(): GitDirectories {
    return new GitDirectoryProbe(
      // on disk answered at once, so a search's folders are decided without waiting
      (p) => (this.uriFor(p).scheme === 'file' ? localEntryExists(p) : this.stat(p).then((s) => s !== undefined)),
      (p) => this.uriFor(p).scheme === 'file' && localIsFile(p),
    );
  }

  readStream(p: string, start = 0): AsyncIterable<Uint8Array> {
    const uri = this.uriFor(p);
    if (uri.scheme === 'file') {
      return createReadStream(p, { start, highWaterMark: STREAM_CHUNK_BYTES });
    }
    return (async function* () {
      const all = await vscode.workspace.fs.readFile(uri);
      for (let i = start; i < all.length; i += STREAM_CHUNK_BYTES) {
        yield all.subarray(i, i + STREAM_CHUNK_BYTES);
      }
    })();
  }

  openDocument(p: string): OpenDocument | undefined {
    const doc = findTextDocument(this.uriFor(p), this.names(p));
    if (!doc) {
      return undefined;
    }
    return {
      text: doc.getText(),
      isDirty: doc.isDirty,
      encoding: encodingFromEditorId(doc.encoding),
      eol: doc.eol === vscode.EndOfLine.CRLF ? 'CRLF' : 'LF',
      version: doc.version,
      shown: tabUris().has(doc.uri.toString()),
    };
  }

  readonly notebooksAsCells = true;

  openNotebook(p: string): { cells: NotebookCell[]; isDirty: boolean } | undefined {
    const nb = findNotebookDocument(this.uriFor(p), this.names(p));
    if (!nb) {
      return undefined;
    }
    const decoder = new TextDecoder();
    const cells = nb.getCells().map((c): NotebookCell => ({
      kind: c.kind === vscode.NotebookCellKind.Markup ? 'markdown' : 'code',
      language: c.document.languageId,
      source: c.document.getText(),
      executionCount: c.executionSummary?.executionOrder,
      outputs: c.outputs.flatMap((o) =>
        pickOutputItems(
          o.items.map((item): NotebookOutputItem =>
            /^(text\/|application\/(json|javascript|vnd\.code\.notebook\.(stdout|stderr|error)))/.test(item.mime)
              ? { mime: item.mime, text: decoder.decode(item.data) }
              : { mime: item.mime, bytes: item.data.byteLength },
          ),
        ),
      ),
    }));
    return { cells, isDirty: nb.isDirty };
  }

  dirtyDocuments(): { path: string; text: string }[] {
    return vscode.workspace.textDocuments
      .filter((d) => d.isDirty && !d.isClosed && d.uri.scheme !== 'untitled')
      .map((d) => ({ path: d.uri.scheme === 'file' ? d.uri.fsPath : d.uri.path, text: d.getText() }));
  }

  excludeGlobs(purpose: 'files' | 'search', root: Root): readonly string[] {
    const folder = (vscode.workspace.workspaceFolders ?? []).find((f) => f.name === root.name);
    const globs: string[] = [];
    const add = (section: string) => {
      const map = vscode.workspace.getConfiguration(section, folder?.uri).get<Record<string, unknown>>('exclude') ?? {};
      for (const [glob, on] of Object.entries(map)) {
        // `{ when: ... }` entries depend on sibling files; they are taken as on, which hides more, never less.
        if (on === true || (typeof on === 'object' && on !== null)) {
          globs.push(glob);
        }
      }
    };
    add('files');
    if (purpose === 'search') {
      add('search');
    }
    return [...new Set(globs)].sort();
  }

  onDisk(path: string): boolean {
    return this.uriFor(path).scheme === 'file' && existsSync(path);
  }

  /**
   * ripgrep as VS Code ships it: desktop has `@vscode/ripgrep` (unpacked from the asar
   * archive), code-server and the web server `@vscode/ripgrep-universal` per platform.
   */
  bundledRipgrep(): string | undefined {
    if (!this.ripgrep) {
      const exe = process.platform === 'win32' ? 'rg.exe' : 'rg';
      const app = vscode.env.appRoot;
      const candidates = [
        nodePath.join(app, 'node_modules.asar.unpacked', '@vscode', 'ripgrep', 'bin', exe),
        nodePath.join(app, 'node_modules', '@vscode', 'ripgrep', 'bin', exe),
        nodePath.join(app, 'node_modules', '@vscode', 'ripgrep-universal', 'bin', `${process.platform}-${process.arch}`, exe),
        nodePath.join(app, 'node_modules.asar.unpacked', '@vscode', 'ripgrep-universal', 'bin', `${process.platform}-${process.arch}`, exe),
      ];
      this.ripgrep = { path: candidates.find((c) => existsSync(c)) };
    }
    return this.ripgrep.path;
  }

  /** workspace.fs has no readlink; a link is only read on disk (`file:` folders). */
  async readLink(p: string): Promise<string | undefined> {
    if (this.uriFor(p).scheme !== 'file') {
      return undefined;
    }
    try {
      return await fs.readlink(p);
    } catch {
      return undefined;
    }
  }

  applyChanges(changes: readonly FileChange[], opts: ApplyOptions): Promise<ApplyReport> {
    return applyInEditor(changes, opts, (p) => this.uriFor(p), (p) => this.names(p));
  }

  /**
   * `files.eol` where the person set it (`auto`: CRLF on Windows, LF elsewhere, as VS Code
   * reads it); else the line ending most files near it use (see neighboursEol); else `auto`.
   */
  newFileEol(path: string): 'LF' | 'CRLF' {
    const uri = this.uriFor(path);
    const seen = vscode.workspace.getConfiguration('files', uri).inspect<string>('eol');
    const set = seen?.workspaceFolderLanguageValue ?? seen?.workspaceFolderValue ?? seen?.workspaceLanguageValue ?? seen?.workspaceValue ?? seen?.globalLanguageValue ?? seen?.globalValue;
    const auto = WINDOWS_PATHS ? 'CRLF' : 'LF';
    if (set === '\r\n' || set === '\n' || set === 'auto') {
      return set === '\r\n' ? 'CRLF' : set === '\n' ? 'LF' : auto;
    }
    const root = this.roots().find((r) => path.startsWith(r.path));
    return (uri.scheme === 'file' ? neighboursEol(path, root?.path) : undefined) ?? auto;
  }

  async format(path: string, signal: CancelSignal): Promise<boolean> {
    const uri = this.uriFor(path);
    const doc = await vscode.workspace.openTextDocument(uri);
    const wasClean = !doc.isDirty;
    const editor = vscode.window.visibleTextEditors.find((e) => e.document === doc);
    const options = { tabSize: Number(editor?.options.tabSize ?? 4), insertSpaces: editor?.options.insertSpaces !== false };
    const edits = await vscode.commands.executeCommand<vscode.TextEdit[] | undefined>('vscode.executeFormatDocumentProvider', uri, options);
    if (!edits?.length || signal.isCancellationRequested) {
      return false;
    }
    const we = new vscode.WorkspaceEdit();
    we.set(uri, edits);
    if (!(await vscode.workspace.applyEdit(we))) {
      return false;
    }
    if (wasClean) {
      await doc.save();
    }
    return true;
  }

  documentSymbols(path: string, signal: CancelSignal): Promise<OutlineSymbol[] | undefined> {
    return documentSymbolsOf(this.uriFor(path), signal);
  }

  diagnostics(path: string): Diagnostic[] {
    return this.diagnosticsOf(path)
      .filter((d) => d.severity === vscode.DiagnosticSeverity.Error || d.severity === vscode.DiagnosticSeverity.Warning)
      .map((d) => ({
        severity: d.severity === vscode.DiagnosticSeverity.Error ? 'error' : 'warning',
        line: d.range.start.line + 1,
        column: d.range.start.character + 1,
        message: d.message,
        source: d.source,
        code: typeof d.code === 'object' ? String(d.code.value) : d.code === undefined ? undefined : String(d.code),
      }));
  }

  /** A file's diagnostics, under whatever spelling a language server reported them (a document opened as `app.ts` is `App.ts`'s where the volume folds). */
  private diagnosticsOf(path: string): readonly vscode.Diagnostic[] {
    const uri = this.uriFor(path);
    const exact = vscode.languages.getDiagnostics(uri);
    const names = this.names(path);
    if (exact.length > 0 || (!names.foldsCase && !names.foldsNormalization)) {
      return exact;
    }
    const key = documentKey(uri, names);
    return vscode.languages.getDiagnostics().find(([u]) => documentKey(u, names) === key)?.[1] ?? exact;
  }

  filesWithErrors(): { path: string; errors: number }[] {
    const out: { path: string; errors: number }[] = [];
    for (const [uri, diags] of vscode.languages.getDiagnostics()) {
      const errors = diags.filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length;
      if (errors > 0 && (uri.scheme === 'file' || uri.scheme === vscode.workspace.workspaceFolders?.[0]?.uri.scheme)) {
        out.push({ path: uri.scheme === 'file' ? uri.fsPath : uri.path, errors });
      }
    }
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /**
   * Language servers answer a change with a diagnostics event; this waits for the files'
   * first event and then for a short quiet spell, or gives up when none comes (no server,
   * or nothing to say), never longer than `maxMs`.
   */
  settleDiagnostics(paths: readonly string[], maxMs: number, signal: CancelSignal, filesChanged = false): Promise<Map<string, CheckState>> {
    // Language servers only look at documents the editor has open, and none serves plain
    // text: nothing to wait for otherwise (a first event that never comes cost 1.5 s a change).
    const open = new Map(vscode.workspace.textDocuments.filter((d) => !d.isClosed).map((d) => [d.uri.toString(), d.languageId] as const));
    const uriOf = new Map(paths.map((p) => [p, this.uriFor(p)] as const));
    const keyOf = new Map([...uriOf].map(([p, u]) => [p, u.toString()] as const));
    // Nor in a language no checker has reported on in this window, nor, in a language whose
    // checker reported only on what the tabs show, in a file no tab shows: no event would come.
    // A file whose problems are listed has a checker, though: its answer is waited for.
    const reported = new Set([...uriOf.values()].filter((u) => vscode.languages.getDiagnostics(u).length > 0).map((u) => u.toString()));
    const tabbed = tabUris();
    // A file a tab shows in a language TypeScript's server checks, while that server runs: it is
    // asked directly below, even before it has reported anything in this window (the first
    // edit of a language, while the server may still be loading the project).
    const asksTypeScript = (k: string) => !filesChanged && tabbed.has(k) && TS_LANGUAGES.has(open.get(k) ?? '') && typeScriptRuns();
    const waits = (k: string) => {
      const lang = open.get(k);
      return lang !== undefined && lang !== 'plaintext' && (reported.has(k) || (this.checkers.checks(lang) && (tabbed.has(k) || this.checkers.checksUntabbed(lang))) || asksTypeScript(k));
    };
    const keys = new Set([...keyOf.values()].filter(waits));
    // a server that has not reported yet may be starting: its answer is waited for within the whole bound
    const starting = [...keys].some((k) => asksTypeScript(k) && !this.checkers.checks(open.get(k)!));
    const heard = new Set<string>();
    // Files whose TypeScript answer differed from their list: TypeScript's event is still to
    // come, so a quiet spell after another checker's event does not end the wait before it
    // (the first-event window still does: a file TypeScript does not publish for).
    const tsPending = new Map<string, vscode.Uri>();
    const states = () =>
      new Map(
        paths.map((p): [string, CheckState] => {
          const k = keyOf.get(p)!;
          const lang = open.get(k);
          if (tsPending.has(k)) {
            return [p, { checked: false, reason: 'TypeScript had not reported on it in time' }];
          }
          if (heard.has(k)) {
            return [p, { checked: true }];
          }
          if (lang === undefined) {
            return [p, { checked: false, reason: 'it is not open in the editor, where language servers check files' }];
          }
          if (lang === 'plaintext') {
            return [p, { checked: false, reason: 'no language support for plain text' }];
          }
          if (keys.has(k)) {
            return [p, { checked: false, reason: 'no checker reported on it in time' }];
          }
          if (!this.checkers.checks(lang)) {
            return [p, { checked: false, reason: `no checker has reported on ${lang} files in this window` }];
          }
          return [p, { checked: false, reason: `no editor tab shows it, and the ${lang} checker has reported only on files a tab shows` }];
        }),
      );
    if (keys.size === 0) {
      return Promise.resolve(states());
    }
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let finished = false;
      const done = () => {
        if (finished) {
          return;
        }
        finished = true;
        sub.dispose();
        cancelSub?.dispose();
        clearTimeout(timer);
        clearTimeout(overall);
        resolve(states());
      };
      const started = Date.now();
      const firstWindow = starting ? maxMs : Math.min(DIAGNOSTICS_FIRST_EVENT_MS, maxMs);
      const settle = () => {
        const left = started + firstWindow - Date.now();
        if (tsPending.size > 0 && left > 0) {
          timer = setTimeout(settle, left);
        } else {
          done();
        }
      };
      const wait = (ms: number) => {
        clearTimeout(timer);
        timer = setTimeout(settle, ms);
      };
      const sub = vscode.languages.onDidChangeDiagnostics((e) => {
        const mine = e.uris.map((u) => u.toString()).filter((k) => keys.has(k));
        if (mine.length) {
          mine.forEach((k) => heard.add(k));
          wait(DIAGNOSTICS_QUIET_MS);
          for (const k of mine) {
            const u = tsPending.get(k);
            if (u) {
              void askTypeScript(u).then((answer) => {
                if (answer !== 'differs' && !finished && tsPending.delete(k)) {
                  wait(DIAGNOSTICS_QUIET_MS);
                }
              });
            }
          }
        }
      });
      const token = signal as Partial<vscode.CancellationToken>;
      const cancelSub = typeof token.onCancellationRequested === 'function' ? token.onCancellationRequested(done) : undefined;
      const overall = setTimeout(done, maxMs);
      wait(firstWindow);
      // TypeScript's event comes half a second after a change, and none comes when a file
      // without errors still has none: its server is asked directly, and an answer that
      // matches the list is its report. Once every file is answered so, in languages no other
      // checker has listed a problem in, nothing is left to wait for. Not after a change that
      // created, deleted or moved a file: the server learns of those from its file watcher,
      // later, and may answer from before them.
      const agreed = new Set<string>();
      for (const [p, u] of filesChanged ? [] : uriOf) {
        const k = keyOf.get(p)!;
        if (keys.has(k) && TS_LANGUAGES.has(open.get(k) ?? '')) {
          // pending from the question on: a slow answer (a long file) may come after another checker's quiet spell
          tsPending.set(k, u);
          void askTypeScript(u).then((answer) => {
            if (answer !== 'differs') {
              tsPending.delete(k);
            }
            if (answer !== 'agrees' || finished || heard.has(k)) {
              return;
            }
            heard.add(k);
            agreed.add(k);
            if (![...keys].every((key) => heard.has(key))) {
              // another file's report is still to come: its first-event wait stands
              return;
            }
            if ([...keys].every((key) => agreed.has(key) && !this.checkers.checksBesideTypeScript(open.get(key) ?? ''))) {
              done();
            } else {
              wait(DIAGNOSTICS_QUIET_MS);
            }
          });
        }
      }
    });
  }
}

/**
 * Whether TypeScript's extension is in this window (and enabled): its server checks the
 * TypeScript and JavaScript files the tabs show. It starts with the first such file opened,
 * and may still be starting: askTypeScript waits for it.
 */
function typeScriptRuns(): boolean {
  return vscode.extensions.getExtension(TS_EXTENSION) !== undefined;
}

/** After a file's diagnostics change, how long they must stay unchanged to count as settled. */
const DIAGNOSTICS_QUIET_MS = 300;

/** How long to wait for a first diagnostics event before taking silence as the answer. */
const DIAGNOSTICS_FIRST_EVENT_MS = 1500;
