import * as vscode from 'vscode';
import { isTypeScriptSource, TS_LANGUAGES } from './typeScriptCheck';

/**
 * What the window has learned of its checkers (language servers): which languages some checker
 * reports on, and which of those it reports on in files no editor tab shows. Many check only
 * what the tabs show (TypeScript's, JSON's), and for those a change to a file no tab shows gets
 * no answer to wait for.
 */
export class CheckerWatch implements vscode.Disposable {
  /** The languages of the documents some checker has reported on in this window (a set of language ids: a few dozen at most). */
  private readonly checkedLanguages = new Set<string>();
  /** Those whose checker reported on a document no editor tab shows. */
  private readonly untabbedLanguages = new Set<string>();
  /** TypeScript's languages whose open documents some checker other than TypeScript's has listed a problem in. */
  private readonly otherCheckedLanguages = new Set<string>();
  /**
   * The documents the tabs showed at the last tab event, and, for each open document whose
   * last tab has closed, its version then: until it changes, a checker's report on it
   * answers a change the tab showed (TypeScript's comes 0.3-1 s after the change, or later on
   * a busy server), not one to a file no tab shows.
   */
  private shown = tabUris();
  private readonly closedAtVersion = new Map<string, number>();
  private readonly subs: vscode.Disposable;

  constructor() {
    this.noteCheckedLanguages(vscode.languages.getDiagnostics().map(([uri]) => uri));
    // a rebuilt tab model (a group added or removed) is told only as a change of the groups
    this.subs = vscode.Disposable.from(
      vscode.window.tabGroups.onDidChangeTabs(() => this.noteTabs()),
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.noteTabs()),
      vscode.workspace.onDidCloseTextDocument((d) => this.closedAtVersion.delete(d.uri.toString())),
      vscode.languages.onDidChangeDiagnostics((e) => this.noteCheckedLanguages(e.uris)),
    );
  }

  dispose(): void {
    this.subs.dispose();
  }

  /** Some checker has reported on a document of this language in this window. */
  checks(lang: string): boolean {
    return this.checkedLanguages.has(lang);
  }

  /** This language's checker has reported on a document no tab showed. */
  checksUntabbed(lang: string): boolean {
    return this.untabbedLanguages.has(lang);
  }

  /** A checker other than TypeScript's has listed a problem in a document of this language. */
  checksBesideTypeScript(lang: string): boolean {
    return this.otherCheckedLanguages.has(lang);
  }

  /** Notes the documents no tab shows any more, at their version then (see `closedAtVersion`). */
  private noteTabs(): void {
    const shown = tabUris();
    let versions: Map<string, number> | undefined;
    for (const k of this.shown) {
      if (!shown.has(k)) {
        versions ??= new Map(vscode.workspace.textDocuments.filter((d) => !d.isClosed).map((d) => [d.uri.toString(), d.version] as const));
        const v = versions.get(k);
        if (v !== undefined) {
          this.closedAtVersion.set(k, v);
        }
      }
    }
    for (const k of shown) {
      this.closedAtVersion.delete(k);
    }
    this.shown = shown;
  }

  /** Notes the languages of the open documents among `uris`: a checker claims those languages. */
  private noteCheckedLanguages(uris: readonly vscode.Uri[]): void {
    if (uris.length === 0) {
      return;
    }
    const byUri = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d] as const));
    let tabbed: Set<string> | undefined;
    for (const u of uris) {
      const key = u.toString();
      const doc = byUri.get(key);
      if (doc === undefined) {
        continue;
      }
      const lang = doc.languageId;
      this.checkedLanguages.add(lang);
      if (this.untabbedLanguages.has(lang) && (!TS_LANGUAGES.has(lang) || this.otherCheckedLanguages.has(lang))) {
        continue;
      }
      // an event that clears a file's problems (its tab closed) says nothing of files no tab
      // shows, nor does a report on a file unchanged since its tab closed (taken for the
      // answer to a change the tab showed)
      const listed = vscode.languages.getDiagnostics(u);
      if (listed.length > 0 && !(tabbed ??= tabUris()).has(key) && this.closedAtVersion.get(key) !== doc.version) {
        this.untabbedLanguages.add(lang);
      }
      if (TS_LANGUAGES.has(lang) && listed.some((d) => !isTypeScriptSource(d.source))) {
        this.otherCheckedLanguages.add(lang);
      }
    }
  }
}

/** The documents the editor tabs show (both sides of a diff; a notebook's file and its cells, as TypeScript counts them). */
export function tabUris(): Set<string> {
  const out = new Set<string>();
  let notebooks: Map<string, vscode.NotebookDocument> | undefined;
  for (const t of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
    if (t.input instanceof vscode.TabInputText) {
      out.add(t.input.uri.toString());
    } else if (t.input instanceof vscode.TabInputTextDiff) {
      out.add(t.input.original.toString());
      out.add(t.input.modified.toString());
    } else if (t.input instanceof vscode.TabInputNotebook) {
      const key = t.input.uri.toString();
      out.add(key);
      notebooks ??= new Map(vscode.workspace.notebookDocuments.map((d) => [d.uri.toString(), d] as const));
      for (const c of notebooks.get(key)?.getCells() ?? []) {
        out.add(c.document.uri.toString());
      }
    }
  }
  return out;
}
