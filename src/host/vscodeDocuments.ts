import * as vscode from 'vscode';
import { uriPathKey, type NameComparison } from '../core/names';

/**
 * The editor's document of a file, whatever the spelling it was opened under: a file
 * open as `App.ts` is the document a change to `app.ts` must read and edit (its unsaved
 * text is the truth), where the volume folds case or normalisation. VS Code keys its
 * documents by URI string, which keeps the spelling they were opened with.
 */
export function documentKey(uri: vscode.Uri, names: NameComparison): string {
  return `${uri.scheme}:${uri.authority}:${uriPathKey(names, uri.path)}`;
}

function find<T extends { uri: vscode.Uri; isClosed: boolean }>(all: readonly T[], uri: vscode.Uri, names: NameComparison): T | undefined {
  const exact = uri.toString();
  const open = all.filter((d) => !d.isClosed);
  const hit = open.find((d) => d.uri.toString() === exact);
  if (hit || (!names.foldsCase && !names.foldsNormalization)) {
    return hit;
  }
  const key = documentKey(uri, names);
  return open.find((d) => documentKey(d.uri, names) === key);
}

/** The open text document of the file at `uri`, under any spelling the volume takes for it. */
export function findTextDocument(uri: vscode.Uri, names: NameComparison): vscode.TextDocument | undefined {
  return find(vscode.workspace.textDocuments, uri, names);
}

/** The open notebook of the file at `uri`, under any spelling the volume takes for it. */
export function findNotebookDocument(uri: vscode.Uri, names: NameComparison): vscode.NotebookDocument | undefined {
  return find(vscode.workspace.notebookDocuments, uri, names);
}
