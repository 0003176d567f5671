import * as vscode from 'vscode';
import { TOOLS } from '../tools/registry';
import type { CommandCalls } from '../vscode/lmTools';
import { registerCustomAgentCommand } from './customAgent';

export const RESULT_SCHEME = 'agent-file-tools-result';

/** Read-only documents that show a tool's output exactly as the model receives it. */
class ResultDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private count = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  async show(tool: string, label: string, result: vscode.LanguageModelToolResult): Promise<void> {
    const text = result.content
      .map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : p instanceof vscode.LanguageModelDataPart ? `[data: ${p.mimeType}, ${p.data.byteLength} bytes]` : '[unknown part]'))
      .join('\n');
    const safe = label.replace(/[\\/:*?"<>|]+/g, '_').slice(0, 80) || 'result';
    const uri = vscode.Uri.from({ scheme: RESULT_SCHEME, path: `/${safe} (${tool})`, query: String(++this.count) });
    this.texts.set(uri.toString(), text);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: true });
  }
}

function activeFilePath(): string | undefined {
  const doc = vscode.window.activeTextEditor?.document;
  if (!doc || doc.uri.scheme === RESULT_SCHEME) {
    return undefined;
  }
  return doc.uri.scheme === 'file' ? doc.uri.fsPath : doc.uri.path;
}

async function run(results: ResultDocuments, calls: CommandCalls, tool: string, input: object, label: string): Promise<void> {
  const cts = new vscode.CancellationTokenSource();
  // the person asked for this call: its review takes the keyboard
  const mark = calls.mark(tool, input);
  try {
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: `Agent File Tools: ${tool}`, cancellable: false },
      () => vscode.lm.invokeTool(tool, { input, toolInvocationToken: undefined }, cts.token),
    );
    await results.show(tool, label, result);
  } catch (e) {
    void vscode.window.showErrorMessage(`${tool} failed: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    mark.dispose();
    cts.dispose();
  }
}

/** The command-palette entries: the same tools, run by a person, output shown as the model sees it. */
export function registerCommands(log: vscode.LogOutputChannel, calls: CommandCalls): vscode.Disposable[] {
  const results = new ResultDocuments();
  return [
    vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, results),
    vscode.commands.registerCommand('agentFileTools.showLog', () => log.show()),
    registerCustomAgentCommand(),
    vscode.commands.registerCommand('agentFileTools.readActiveFile', async () => {
      const path = activeFilePath();
      if (!path) {
        void vscode.window.showInformationMessage('Open a file first: this command reads the active editor\'s file as a model would.');
        return;
      }
      await run(results, calls, 'fs_read', { path }, vscode.workspace.asRelativePath(path));
    }),
    vscode.commands.registerCommand('agentFileTools.runTool', async () => {
      const pick = await vscode.window.showQuickPick(
        TOOLS.map((t) => ({ label: t.name, description: t.mutates ? 'changes files' : 'read-only', example: t.example })),
        { title: 'Agent File Tools: run a tool', placeHolder: 'Which tool?' },
      );
      if (!pick) {
        return;
      }
      const active = activeFilePath();
      const value = active && pick.label === 'fs_read' ? JSON.stringify({ path: vscode.workspace.asRelativePath(active) }) : pick.example;
      const text = await vscode.window.showInputBox({
        title: `${pick.label}: input (JSON)`,
        value,
        validateInput: (v) => {
          try {
            const o = JSON.parse(v);
            return o && typeof o === 'object' && !Array.isArray(o) ? undefined : 'Enter a JSON object';
          } catch (e) {
            return `Not valid JSON: ${(e as Error).message}`;
          }
        },
      });
      if (text === undefined) {
        return;
      }
      const input = JSON.parse(text) as Record<string, unknown>;
      const label = [input.path, input.pattern].find((v): v is string => typeof v === 'string') ?? 'result';
      await run(results, calls, pick.label, input, label);
    }),
    vscode.commands.registerCommand('agentFileTools.applyPatchFromClipboard', async () => {
      await applyPatchText(results, calls, await vscode.env.clipboard.readText(), 'the clipboard');
    }),
    vscode.commands.registerCommand('agentFileTools.applyPatchFromEditor', async () => {
      const editor = vscode.window.activeTextEditor;
      const selection = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection) : editor?.document.getText();
      await applyPatchText(results, calls, selection ?? '', 'the active editor');
    }),
  ];
}

/**
 * A patch someone has from elsewhere (a review, a chat, a mail), applied through the same
 * flow as the model's: verified whole, reviewed in the multi-diff editor, applied at once.
 */
async function applyPatchText(results: ResultDocuments, calls: CommandCalls, text: string, from: string): Promise<void> {
  // A person copies a whole message: the patch is the part from its first marker to its last.
  const m = /^[ \t]*\*\*\*[ \t]*Begin Patch[ \t]*$[^]*^[ \t]*\*\*\*[ \t]*End Patch[ \t]*$/m.exec(text);
  if (!m) {
    void vscode.window.showWarningMessage(`No patch in ${from}: a patch starts with a "*** Begin Patch" line and ends with an "*** End Patch" line.`);
    return;
  }
  await run(results, calls, 'fs_apply_patch', { patch: m[0] }, 'patch');
}
