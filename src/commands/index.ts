import * as vscode from 'vscode';
import type { HistoryJournal } from '../history/journal';
import { TOOLS } from '../tools/registry';
import type { CommandCalls } from '../vscode/lmTools';
import { WALKTHROUGH_DONE, walkthroughDone } from '../vscode/walkthrough';
import { registerCustomAgentCommand } from './customAgent';
import { registerPatternsCommand } from './patterns';
import { RESULT_COMMANDS, RESULT_SCHEME, ResultDocuments } from './results';
import { EDITOR_COMMANDS, exampleInput, INPUT_SCHEME, parseInput, ToolInputs, toolOfInput } from './toolEditor';

function activeFilePath(): string | undefined {
  const doc = vscode.window.activeTextEditor?.document;
  if (!doc || doc.uri.scheme === RESULT_SCHEME || doc.uri.scheme === INPUT_SCHEME) {
    return undefined;
  }
  return doc.uri.scheme === 'file' ? doc.uri.fsPath : doc.uri.path;
}

interface Runner {
  results: ResultDocuments;
  calls: CommandCalls;
  journal?: HistoryJournal;
}

async function run(r: Runner, tool: string, input: object, label: string, opts: { modelForm?: boolean } = {}): Promise<void> {
  const cts = new vscode.CancellationTokenSource();
  // the person asked for this call: its review takes the keyboard
  const mark = r.calls.mark(tool, input);
  const before = new Set(r.journal?.entries().map((e) => e.id));
  try {
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Agent File Tools: {0}', tool), cancellable: false },
      () => vscode.lm.invokeTool(tool, { input, toolInvocationToken: undefined }, cts.token),
    );
    // the changes this call landed: its result says so once one is reverted
    await r.journal?.flush();
    const entries = r.journal?.entries().filter((e) => !before.has(e.id) && e.tool === tool && e.origin === 'command').map((e) => e.id);
    await r.results.show(tool, label, result, { ...opts, entries });
    walkthroughDone(WALKTHROUGH_DONE.ranTool);
    if (tool === 'fs_read') {
      walkthroughDone(WALKTHROUGH_DONE.readFile);
    }
  } catch (e) {
    void vscode.window.showErrorMessage(vscode.l10n.t('{0} failed: {1}', tool, e instanceof Error ? e.message : String(e)));
  } finally {
    mark.dispose();
    cts.dispose();
  }
}

/** A tool as the manifest contributes it: what VS Code's tools picker shows of it. */
export interface ManifestTool {
  name: string;
  displayName?: string;
  userDescription?: string;
}

/** The command-palette entries: the same tools, run by a person, their results shown for the person to read (and, on request, as the model got them). */
export function registerCommands(log: vscode.LogOutputChannel, calls: CommandCalls, manifestTools: () => readonly ManifestTool[], journal?: HistoryJournal): vscode.Disposable[] {
  const results = new ResultDocuments(journal);
  const inputs = new ToolInputs();
  const runner: Runner = { results, calls, journal };
  const pickTool = async (arg: unknown, title: string) => {
    const given = TOOLS.find((t) => t.name === arg);
    if (given) {
      return given;
    }
    // each tool in plain words, as VS Code's own tools picker shows it (the manifest's names and descriptions)
    const described = new Map(manifestTools().map((t) => [t.name, t] as const));
    const pick = await pickHoldingFocus(
      TOOLS.map((t) => ({
        label: t.name,
        description: [described.get(t.name)?.displayName, t.mutates ? vscode.l10n.t('changes files, after your review') : vscode.l10n.t('read-only')].filter(Boolean).join(' · '),
        detail: described.get(t.name)?.userDescription,
        tool: t,
      })),
      { title, placeholder: vscode.l10n.t('Which tool?') },
    );
    return pick?.tool;
  };
  const labelOf = (input: Record<string, unknown>) => [input.path, input.pattern].find((v): v is string => typeof v === 'string') ?? 'result';
  return [
    // `file`: a workspace-relative file to build the example on (the walkthrough names the demo's)
    vscode.commands.registerCommand(EDITOR_COMMANDS.open, async (arg?: unknown, file?: unknown) => {
      const tool = await pickTool(arg, vscode.l10n.t('Agent File Tools: run a tool in an editor'));
      if (tool) {
        await inputs.open(tool.name, await exampleInput(tool.name, tool.example, typeof file === 'string' ? file : undefined));
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
      await run(runner, tool, parsed.input, labelOf(parsed.input));
    }),
    vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, results),
    results,
    inputs,
    vscode.commands.registerCommand(RESULT_COMMANDS.showModelText, (uri?: vscode.Uri) => results.toggle(uri, true)),
    vscode.commands.registerCommand(RESULT_COMMANDS.showReadable, (uri?: vscode.Uri) => results.toggle(uri, false)),
    vscode.commands.registerCommand('agentFileTools.showLog', () => {
      log.show();
      walkthroughDone(WALKTHROUGH_DONE.sawLog);
    }),
    registerCustomAgentCommand(),
    ...registerPatternsCommand(),
    vscode.commands.registerCommand('agentFileTools.readActiveFile', async () => {
      const path = activeFilePath();
      if (!path) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Open a file first: this command reads the active editor\'s file as a model would.'));
        return;
      }
      // this command promises the model's view: the text exactly as the model gets it
      await run(runner, 'fs_read', { path }, vscode.workspace.asRelativePath(path), { modelForm: true });
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
          void inputs.open(tool.name, `${JSON.stringify('input' in typed ? typed.input : JSON.parse(example), null, 2)}\n`);
        });
        box.onDidHide(() => resolve(undefined));
        box.show();
      });
      box.dispose();
      if (text === undefined) {
        return;
      }
      const input = JSON.parse(text) as Record<string, unknown>;
      await run(runner, tool.name, input, labelOf(input));
    }),
    vscode.commands.registerCommand('agentFileTools.applyPatchFromClipboard', async () => {
      await applyPatchText(runner, await vscode.env.clipboard.readText(), vscode.l10n.t('the clipboard'));
    }),
    vscode.commands.registerCommand('agentFileTools.applyPatchFromEditor', async () => {
      const editor = vscode.window.activeTextEditor;
      const selection = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection) : editor?.document.getText();
      await applyPatchText(runner, selection ?? '', vscode.l10n.t('the active editor'));
    }),
  ];
}

/**
 * A patch someone has from elsewhere (a review, a chat, a mail), applied through the same
 * flow as the model's: verified whole, reviewed in the multi-diff editor, applied at once.
 */
async function applyPatchText(runner: Runner, text: string, from: string): Promise<void> {
  // A person copies a whole message: the patch is the part from its first marker to its last.
  const m = /^[ \t]*\*\*\*[ \t]*Begin Patch[ \t]*$[^]*^[ \t]*\*\*\*[ \t]*End Patch[ \t]*$/m.exec(text);
  if (!m) {
    void vscode.window.showWarningMessage(vscode.l10n.t('No patch in {0}: a patch starts with a "*** Begin Patch" line and ends with an "*** End Patch" line.', from));
    return;
  }
  await run(runner, 'fs_apply_patch', { patch: m[0] }, 'patch');
}

/**
 * How long after a picker opens focus may still be taken from it by what the key that ran the
 * command does on its release: the Enter that ran a command from the palette is released on
 * the element the palette gives the focus back to, and on a walkthrough's step that selects
 * the step, which takes the focus 250 ms later (closing a picker that lets focus go).
 */
const PICKER_FOCUS_SETTLE_MS = 600;

/**
 * A quick pick that survives losing the focus in the moment after it opens: closed then without
 * an answer, it opens again once, with the keyboard. Closed later, or a second time, it is closed.
 */
async function pickHoldingFocus<T extends vscode.QuickPickItem>(items: readonly T[], opts: { title: string; placeholder: string }): Promise<T | undefined> {
  const options = { title: opts.title, placeHolder: opts.placeholder, matchOnDescription: true, matchOnDetail: true };
  const shownAt = Date.now();
  const pick = await vscode.window.showQuickPick(items, options);
  return pick !== undefined || Date.now() - shownAt >= PICKER_FOCUS_SETTLE_MS ? pick : vscode.window.showQuickPick(items, options);
}
