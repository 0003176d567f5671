import * as vscode from 'vscode';
import { ProposalFileSystem } from '../approval/proposalFileSystem';
import { EXAMPLE_FILE_MAX_BYTES } from '../core/limits';
import { anchorLine, exampleEdit, examplePatch, takesExampleLine } from './examples';

/**
 * The name of a tool's input document: `fs_read.input.json`, which the manifest's jsonValidation
 * matches with the tool's input schema (`dist/schemas/fs_read.json`, written by the build).
 */
const INPUT_NAME = /^(fs_[a-z_]+)\.input\.json$/;

export const EDITOR_COMMANDS = {
  open: 'agentFileTools.runToolInEditor',
  run: 'agentFileTools.runToolFromEditor',
} as const;

/** Where a tool's input document lives: in memory, as a scratch the person closes without a question. */
export const INPUT_SCHEME = 'agent-file-tools-input';
/** After the last keystroke in an input, how long until it is saved (in memory): a scratch is never left unsaved for Close to ask about. */
const INPUT_SAVE_MS = 200;

/** The tool whose input the document holds, from its name; undefined for any other document. */
export function toolOfInput(doc: vscode.TextDocument): string | undefined {
  return doc.uri.scheme === INPUT_SCHEME ? INPUT_NAME.exec(doc.uri.path.replace(/^.*\//, ''))?.[1] : undefined;
}

/**
 * The tools' input documents: JSON scratches held in memory. An untitled document would ask
 * "Save changes?" when closed; these are saved (to memory, never to disk) a moment after each
 * change, without the save participants (format on save, trimming whitespace) that would
 * change the text under the person's cursor, so closing one asks nothing.
 */
export class ToolInputs implements vscode.Disposable {
  private readonly files = new ProposalFileSystem();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private count = 0;
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.workspace.registerFileSystemProvider(INPUT_SCHEME, this.files, { isCaseSensitive: true }),
      this.files,
      vscode.workspace.onDidChangeTextDocument((e) => e.document.uri.scheme === INPUT_SCHEME && e.contentChanges.length > 0 && this.saveSoon(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => d.uri.scheme === INPUT_SCHEME && this.files.forget(d.uri)),
      // Editors restored from an earlier window show inputs this window no longer holds: close them.
      new vscode.Disposable(() => this.timers.forEach((t) => clearTimeout(t))),
    ];
    const stale = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === INPUT_SCHEME);
    void Promise.resolve(vscode.window.tabGroups.close(stale, true)).then(undefined, () => undefined);
  }

  private saveSoon(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        void this.save(doc);
      }, INPUT_SAVE_MS),
    );
  }

  private async save(doc: vscode.TextDocument): Promise<void> {
    if (doc.isClosed || !doc.isDirty) {
      return;
    }
    // the command saves the active editor without participants; an input in the background is saved as it is
    if (vscode.window.activeTextEditor?.document === doc) {
      await vscode.commands.executeCommand('workbench.action.files.saveWithoutFormatting');
    } else {
      await doc.save();
    }
  }

  /** Opens the tool's input: the one a tab shows as it is, else a fresh one holding `example`. */
  async open(tool: string, example: string): Promise<vscode.TextEditor> {
    const path = `/${tool}.input.json`;
    const shown = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === INPUT_SCHEME && t.input.uri.path === path);
    if (shown) {
      return vscode.window.showTextDocument((shown.input as vscode.TabInputText).uri);
    }
    // a fresh document each time (the query tells them apart): one loaded earlier keeps its old text
    const uri = vscode.Uri.from({ scheme: INPUT_SCHEME, path, query: String(++this.count) });
    this.files.set(uri, example, false);
    const doc = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(doc);
    if (doc.languageId !== 'json') {
      await vscode.languages.setTextDocumentLanguage(doc, 'json');
    }
    return editor;
  }

  dispose(): void {
    this.subscriptions.forEach((d) => d.dispose());
  }
}

function rel(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, vscode.workspace.workspaceFolders !== undefined && vscode.workspace.workspaceFolders.length > 1);
}

function dirOf(p: string): string {
  const i = p.lastIndexOf('/');
  return i > 0 ? p.slice(0, i) : '.';
}

/** Reads a file of the workspace to build an example on: none when it is missing or too large to take a line from. */
async function readExampleFile(uri: vscode.Uri): Promise<string | undefined> {
  try {
    // only a line is wanted: a file of any size would cost its whole text
    if ((await vscode.workspace.fs.stat(uri)).size > EXAMPLE_FILE_MAX_BYTES) {
      return undefined;
    }
    return Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * A file of the workspace to build an example on, with a line of it that occurs once: the one
 * named (`preferred`, workspace-relative: the walkthrough names one of the demo's), else the
 * active editor's (from the cursor's line on), else the first text file found. For a tool that
 * changes files, only a file whose language has a line comment or that is text (see examples.ts).
 */
async function exampleFile(changes: boolean, preferred?: string): Promise<{ path: string; line: string } | undefined> {
  const fits = (p: string) => !changes || takesExampleLine(p);
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (preferred && folder && fits(preferred)) {
    const text = await readExampleFile(vscode.Uri.joinPath(folder.uri, preferred));
    const line = text === undefined ? undefined : anchorLine(text);
    if (line !== undefined) {
      return { path: preferred, line };
    }
  }
  const editor = vscode.window.activeTextEditor;
  const doc = editor?.document;
  if (doc && (doc.uri.scheme === 'file' || doc.uri.scheme === 'vscode-remote') && vscode.workspace.getWorkspaceFolder(doc.uri) && fits(rel(doc.uri))) {
    const line = anchorLine(doc.getText(), editor.selection.active.line);
    if (line !== undefined || !changes) {
      return { path: rel(doc.uri), line: line ?? '' };
    }
  }
  // the shortest paths first: a project's README and top files before what lies deep in it
  const found = (await vscode.workspace.findFiles(changes ? '**/*.{md,txt,ts,js,py}' : '**/*.{md,txt,ts,js,json,py}', undefined, 20)).sort((a, b) => a.path.length - b.path.length || (a.path < b.path ? -1 : 1));
  for (const uri of found) {
    const text = await readExampleFile(uri);
    const line = text === undefined ? undefined : anchorLine(text);
    if (line !== undefined || (!changes && text !== undefined)) {
      return { path: rel(uri), line: line ?? '' };
    }
  }
  return undefined;
}

/**
 * A valid input for `tool` on a file that exists (`preferred`, else the active editor's where it
 * fits); for a tool that changes files, a real change of it (see examples.ts). The registry's
 * example when there is no such file.
 */
export async function exampleInput(tool: string, fallback: string, preferred?: string): Promise<string> {
  const changes = tool === 'fs_edit' || tool === 'fs_apply_patch';
  const f = await exampleFile(changes, preferred);
  if (!f) {
    return fallback;
  }
  const word = /[A-Za-z_][A-Za-z0-9_]{2,}/.exec(f.line)?.[0] ?? 'TODO';
  const ext = /\.([A-Za-z0-9]+)$/.exec(f.path)?.[1];
  const inputs: Record<string, object> = {
    fs_read: { path: f.path, offset: 1, limit: 50 },
    fs_list: { path: dirOf(f.path), depth: 2 },
    fs_glob: { pattern: ext ? `**/*.${ext}` : '**/*', path: dirOf(f.path) },
    fs_grep: { pattern: word, path: dirOf(f.path), context: 1 },
    fs_edit: exampleEdit(f.path, f.line),
    fs_write: { path: `${dirOf(f.path) === '.' ? '' : `${dirOf(f.path)}/`}new-file.txt`, content: 'A new file, written by fs_write from Run a Tool.\n' },
    fs_apply_patch: examplePatch(f.path, f.line),
  };
  return inputs[tool] ? `${JSON.stringify(inputs[tool], null, 2)}\n` : fallback;
}

/** The input the document holds, or a message saying what is wrong with it. */
export function parseInput(text: string): { input: Record<string, unknown> } | { error: string } {
  try {
    const o = JSON.parse(text) as unknown;
    return o && typeof o === 'object' && !Array.isArray(o) ? { input: o as Record<string, unknown> } : { error: vscode.l10n.t('The input must be one JSON object.') };
  } catch (e) {
    return { error: vscode.l10n.t('The input is not valid JSON: {0}', (e as Error).message) };
  }
}
