import * as vscode from 'vscode';
import { EXAMPLE_FILE_MAX_BYTES } from '../core/limits';

/**
 * The name of a tool's input document: `fs_read.input.json`, which the manifest's jsonValidation
 * matches with the tool's input schema (`dist/schemas/fs_read.json`, written by the build).
 */
const INPUT_NAME = /^(fs_[a-z_]+)\.input\.json$/;

export const EDITOR_COMMANDS = {
  open: 'agentFileTools.runToolInEditor',
  run: 'agentFileTools.runToolFromEditor',
} as const;

/** The tool whose input the document holds, from its name; undefined for any other document. */
export function toolOfInput(doc: vscode.TextDocument): string | undefined {
  return doc.uri.scheme === 'untitled' ? INPUT_NAME.exec(doc.uri.path.replace(/^.*\//, ''))?.[1] : undefined;
}

function rel(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, vscode.workspace.workspaceFolders !== undefined && vscode.workspace.workspaceFolders.length > 1);
}

function dirOf(p: string): string {
  const i = p.lastIndexOf('/');
  return i > 0 ? p.slice(0, i) : '.';
}

/** A file of the workspace to build an example on: the active editor's, else the first one found. */
async function exampleFile(): Promise<{ path: string; line: string } | undefined> {
  const editor = vscode.window.activeTextEditor;
  const doc = editor?.document;
  if (doc && (doc.uri.scheme === 'file' || doc.uri.scheme === 'vscode-remote') && vscode.workspace.getWorkspaceFolder(doc.uri)) {
    const at = editor.selection.active.line;
    const pick = [at, ...Array.from({ length: doc.lineCount }, (_, i) => i)].find((i) => doc.lineAt(i).text.trim() !== '');
    return { path: rel(doc.uri), line: pick === undefined ? '' : doc.lineAt(pick).text };
  }
  const [first] = await vscode.workspace.findFiles('**/*.{md,txt,ts,js,json,py}', undefined, 1);
  if (!first) {
    return undefined;
  }
  // only the first line is wanted: a file of any size costs its first few KiB
  const stat = await vscode.workspace.fs.stat(first);
  if (stat.size > EXAMPLE_FILE_MAX_BYTES) {
    return { path: rel(first), line: '' };
  }
  const text = Buffer.from(await vscode.workspace.fs.readFile(first)).toString('utf8');
  return { path: rel(first), line: text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '' };
}

/** A valid input for `tool` on a file that exists (the active editor's where it fits); the registry's example when there is none. */
export async function exampleInput(tool: string, fallback: string): Promise<string> {
  const f = await exampleFile();
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
    fs_edit: { path: f.path, old_string: f.line, new_string: f.line },
    fs_write: { path: `${dirOf(f.path) === '.' ? '' : `${dirOf(f.path)}/`}new-file.txt`, content: 'A new file.\n' },
    fs_apply_patch: { patch: ['*** Begin Patch', `*** Update File: ${f.path}`, '@@', `-${f.line}`, `+${f.line}`, '*** End Patch'].join('\n') },
  };
  return inputs[tool] ? `${JSON.stringify(inputs[tool], null, 2)}\n` : fallback;
}

/** Opens an untitled JSON document holding an example input for `tool`, validated against its schema as the person types. */
export async function openInputEditor(tool: string, example: string): Promise<vscode.TextEditor> {
  const uri = vscode.Uri.from({ scheme: 'untitled', path: `/${tool}.input.json` });
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) {
    return vscode.window.showTextDocument(open);
  }
  const doc = await vscode.workspace.openTextDocument(uri);
  const editor = await vscode.window.showTextDocument(doc);
  await editor.edit((e) => e.insert(new vscode.Position(0, 0), example));
  await vscode.languages.setTextDocumentLanguage(doc, 'json');
  return editor;
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
