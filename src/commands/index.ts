import * as vscode from 'vscode';
import { TOOLS } from '../tools/registry';
import type { CommandCalls } from '../vscode/lmTools';
import { registerCustomAgentCommand } from './customAgent';
import { EDITOR_COMMANDS, exampleInput, openInputEditor, parseInput, toolOfInput } from './toolEditor';

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
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Agent File Tools: {0}', tool), cancellable: false },
      () => vscode.lm.invokeTool(tool, { input, toolInvocationToken: undefined }, cts.token),
    );
    await results.show(tool, label, result);
  } catch (e) {
    void vscode.window.showErrorMessage(vscode.l10n.t('{0} failed: {1}', tool, e instanceof Error ? e.message : String(e)));
  } finally {
    mark.dispose();
    cts.dispose();
  }
}

/** The command-palette entries: the same tools, run by a person, output shown as the model sees it. */
export function registerCommands(log: vscode.LogOutputChannel, calls: CommandCalls): vscode.Disposable[] {
  const results = new ResultDocuments();
  const pickTool = async (arg: unknown, title: string) => {
    const given = TOOLS.find((t) => t.name === arg);
    if (given) {
      return given;
    }
    const pick = await vscode.window.showQuickPick(
      TOOLS.map((t) => ({ label: t.name, description: t.mutates ? vscode.l10n.t('changes files') : vscode.l10n.t('read-only'), tool: t })),
      { title, placeHolder: vscode.l10n.t('Which tool?') },
    );
    return pick?.tool;
  };
  const labelOf = (input: Record<string, unknown>) => [input.path, input.pattern].find((v): v is string => typeof v === 'string') ?? 'result';
  return [
    vscode.commands.registerCommand(EDITOR_COMMANDS.open, async (arg?: unknown) => {
      const tool = await pickTool(arg, vscode.l10n.t('Agent File Tools: run a tool in an editor'));
      if (tool) {
        await openInputEditor(tool.name, await exampleInput(tool.name, tool.example));
      }
    }),
    vscode.commands.registerCommand(EDITOR_COMMANDS.run, async (arg?: unknown) => {
      const doc = arg instanceof vscode.Uri ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === arg.toString()) : vscode.window.activeTextEditor?.document;
      const tool = doc && toolOfInput(doc);
      if (!doc || !tool) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Open a tool input first: Agent File Tools: Run a Tool in an Editor.'));
        return;
      }
      const parsed = parseInput(doc.getText());
      if ('error' in parsed) {
        void vscode.window.showWarningMessage(parsed.error);
        return;
      }
      await run(results, calls, tool, parsed.input, labelOf(parsed.input));
    }),
    vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, results),
    vscode.commands.registerCommand('agentFileTools.showLog', () => log.show()),
    registerCustomAgentCommand(),
    vscode.commands.registerCommand('agentFileTools.readActiveFile', async () => {
      const path = activeFilePath();
      if (!path) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Open a file first: this command reads the active editor\'s file as a model would.'));
        return;
      }
      await run(results, calls, 'fs_read', { path }, vscode.workspace.asRelativePath(path));
    }),
    // The quick path: one line of JSON, for short inputs (a patch or several lines take the editor).
    vscode.commands.registerCommand('agentFileTools.runTool', async (arg?: unknown) => {
      const tool = await pickTool(arg, vscode.l10n.t('Agent File Tools: run a tool'));
      if (!tool) {
        return;
      }
      const example = await exampleInput(tool.name, tool.example);
      const inEditor = vscode.l10n.t('Open in an editor');
      const box = vscode.window.createInputBox();
      box.title = vscode.l10n.t('{0}: input (JSON)', tool.name);
      box.value = JSON.stringify(JSON.parse(example));
      box.prompt = vscode.l10n.t('One line of JSON; the button opens the input in an editor, for a patch or several lines.');
      box.buttons = [{ iconPath: new vscode.ThemeIcon('go-to-file'), tooltip: inEditor }];
      const text = await new Promise<string | undefined>((resolve) => {
        box.onDidChangeValue((v) => (box.validationMessage = 'error' in parseInput(v) ? (parseInput(v) as { error: string }).error : undefined));
        box.onDidAccept(() => !('error' in parseInput(box.value)) && resolve(box.value));
        box.onDidTriggerButton(() => {
          resolve(undefined);
          // what the person typed, when it is an input; else the example
          const typed = parseInput(box.value);
          void openInputEditor(tool.name, `${JSON.stringify('input' in typed ? typed.input : JSON.parse(example), null, 2)}\n`);
        });
        box.onDidHide(() => resolve(undefined));
        box.show();
      });
      box.dispose();
      if (text === undefined) {
        return;
      }
      const input = JSON.parse(text) as Record<string, unknown>;
      await run(results, calls, tool.name, input, labelOf(input));
    }),
    vscode.commands.registerCommand('agentFileTools.applyPatchFromClipboard', async () => {
      await applyPatchText(results, calls, await vscode.env.clipboard.readText(), vscode.l10n.t('the clipboard'));
    }),
    vscode.commands.registerCommand('agentFileTools.applyPatchFromEditor', async () => {
      const editor = vscode.window.activeTextEditor;
      const selection = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection) : editor?.document.getText();
      await applyPatchText(results, calls, selection ?? '', vscode.l10n.t('the active editor'));
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
    void vscode.window.showWarningMessage(vscode.l10n.t('No patch in {0}: a patch starts with a "*** Begin Patch" line and ends with an "*** End Patch" line.', from));
    return;
  }
  await run(results, calls, 'fs_apply_patch', { patch: m[0] }, 'patch');
}
