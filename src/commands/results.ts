import * as vscode from 'vscode';
import type { HistoryJournal } from '../history/journal';
import { readableResult } from './readableResult';

export const RESULT_SCHEME = 'agent-file-tools-result';
/** The result editor's language: its grammar colours diffs and dims tags; the manifest turns word wrap on for it. */
export const RESULT_LANGUAGE = 'agent-file-tools-result';
/** The query suffix of the document that shows the model's own text. */
const MODEL_FORM = '-model';
/** Results kept for their editors; the oldest are forgotten first. */
const MAX_RESULTS_KEPT = 100;

export const RESULT_COMMANDS = {
  showModelText: 'agentFileTools.showModelText',
  showReadable: 'agentFileTools.showReadableResult',
} as const;

interface Shown {
  tool: string;
  label: string;
  /** The text parts joined, exactly as the model got them. */
  model: string;
  /** The history entries the call recorded: when one is reverted, the result says so. */
  entries: readonly string[];
  revertedAt?: number;
}

/**
 * Read-only documents that show a tool's result to the person who ran it: readable by
 * default (see readableResult.ts: no tags, a coloured diff, wrapped lines), and, from the
 * editor's title bar, exactly as the model received it. A result whose change was reverted
 * since says so at its top, so it does not pass for what the files hold now.
 */
export class ResultDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly results = new Map<string, Shown>();
  private count = 0;
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly journal?: HistoryJournal) {
    if (journal) {
      this.subscriptions.push(journal.onDidChange(() => this.noteReverts()));
    }
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const r = this.results.get(idOf(uri));
    if (!r) {
      return '';
    }
    if (uri.query.endsWith(MODEL_FORM)) {
      return r.model;
    }
    const reverted = r.revertedAt === undefined ? '' : `${vscode.l10n.t('Reverted at {0} from the History of Changes: the files no longer hold this change.', timeOf(r.revertedAt))}\n\n`;
    return reverted + readableResult(r.model);
  }

  /** The text parts of a result joined, data parts as a line each: what the model got. */
  static modelText(result: vscode.LanguageModelToolResult): string {
    return result.content
      .map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : p instanceof vscode.LanguageModelDataPart ? `[data: ${p.mimeType}, ${p.data.byteLength} bytes]` : '[unknown part]'))
      .join('\n');
  }

  async show(tool: string, label: string, result: vscode.LanguageModelToolResult, opts: { modelForm?: boolean; entries?: readonly string[] } = {}): Promise<void> {
    const id = String(++this.count);
    this.results.set(id, { tool, label, model: ResultDocuments.modelText(result), entries: opts.entries ?? [] });
    for (const old of [...this.results.keys()].slice(0, Math.max(0, this.results.size - MAX_RESULTS_KEPT))) {
      this.results.delete(old);
    }
    this.noteReverts();
    await this.open(this.uriOf(id, opts.modelForm === true));
  }

  /** Shows the other form of the result in the active editor. */
  async toggle(uri: vscode.Uri | undefined, modelForm: boolean): Promise<void> {
    const current = uri ?? vscode.window.activeTextEditor?.document.uri;
    if (current?.scheme !== RESULT_SCHEME || !this.results.has(idOf(current))) {
      return;
    }
    await this.open(this.uriOf(idOf(current), modelForm));
  }

  private uriOf(id: string, modelForm: boolean): vscode.Uri {
    const r = this.results.get(id)!;
    const safe = r.label.replace(/[\\/:*?"<>|]+/g, '_').slice(0, 80) || 'result';
    const title = modelForm ? `/${safe} (${r.tool}, as the model got it)` : `/${safe} (${r.tool})`;
    return vscode.Uri.from({ scheme: RESULT_SCHEME, path: title, query: modelForm ? `${id}${MODEL_FORM}` : id });
  }

  private async open(uri: vscode.Uri): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, RESULT_LANGUAGE);
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  /** Marks the results whose change was reverted since, and refreshes their editors. */
  private noteReverts(): void {
    if (!this.journal) {
      return;
    }
    for (const [id, r] of this.results) {
      if (r.revertedAt !== undefined || r.entries.length === 0) {
        continue;
      }
      const at = r.entries.map((e) => this.journal!.get(e)?.revertedAt).find((x) => x !== undefined);
      if (at !== undefined) {
        r.revertedAt = at;
        this.changed.fire(this.uriOf(id, false));
      }
    }
  }

  dispose(): void {
    this.changed.dispose();
    this.subscriptions.forEach((s) => s.dispose());
  }
}

function idOf(uri: vscode.Uri): string {
  return uri.query.endsWith(MODEL_FORM) ? uri.query.slice(0, -MODEL_FORM.length) : uri.query;
}

function timeOf(at: number): string {
  return new Date(at).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}
