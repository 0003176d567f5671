import * as vscode from 'vscode';

/** VS Code's built-in TypeScript extension, whose server checks TypeScript and JavaScript. */
export const TS_EXTENSION = 'vscode.typescript-language-features';

/** The languages TypeScript's server checks, which it can be asked about directly. */
export const TS_LANGUAGES = new Set(['typescript', 'typescriptreact', 'javascript', 'javascriptreact']);

/** The sources TypeScript's extension gives its diagnostics (its server's own, and its plugins'). */
export function isTypeScriptSource(source: string | undefined): boolean {
  return source === 'ts' || source === 'ts-plugin';
}

/** A diagnostic's place and text, as both the server's answer and VS Code's list give them. */
function keyOf(line: number, column: number, text: string): string {
  return `${line}:${column}:${text}`;
}

/** What TypeScript's server said of a file against its list (see {@link askTypeScript}). */
export type TypeScriptAnswer = 'agrees' | 'differs' | 'unknown';

interface ServerDiagnostic {
  start?: { line?: number; offset?: number };
  text?: string;
  category?: string;
}

/**
 * Asks TypeScript's server, through the built-in extension's request command (it takes the
 * editor's latest text first), whether it finds the errors the Problems list already shows
 * for the document, no more and no fewer (`agrees`): then the list is current. Its extension
 * publishes after a delay of its own (about half a second here), and
 * not at all when a file without errors still has none; the direct answer takes 50-100 ms.
 * An error the extension shows as a warning (its style checks) counts as shown.
 * `differs`: an event will follow; `unknown`: the server cannot be asked (no server, the
 * command refused).
 */
export async function askTypeScript(uri: vscode.Uri): Promise<TypeScriptAnswer> {
  let answers: ({ body?: unknown } | undefined)[];
  try {
    // its request command exists once the extension has started (the first TypeScript file opened starts it)
    await vscode.extensions.getExtension(TS_EXTENSION)?.activate();
    answers = await Promise.all(
      ['syntacticDiagnosticsSync', 'semanticDiagnosticsSync'].map((request) => vscode.commands.executeCommand<{ body?: unknown } | undefined>('typescript.tsserverRequest', request, { file: uri })),
    );
  } catch {
    return 'unknown';
  }
  if (!answers.every((a) => Array.isArray(a?.body))) {
    return 'unknown';
  }
  const errors: string[] = [];
  for (const a of answers) {
    for (const d of a!.body as ServerDiagnostic[]) {
      if (d.category === 'error') {
        if (typeof d.start?.line !== 'number' || typeof d.start.offset !== 'number' || typeof d.text !== 'string') {
          return 'unknown';
        }
        errors.push(keyOf(d.start.line, d.start.offset, d.text));
      }
    }
  }
  const shownErrors: string[] = [];
  const shownWarnings = new Set<string>();
  for (const d of vscode.languages.getDiagnostics(uri)) {
    if (!isTypeScriptSource(d.source)) {
      continue;
    }
    const key = keyOf(d.range.start.line + 1, d.range.start.character + 1, d.message);
    if (d.severity === vscode.DiagnosticSeverity.Error) {
      shownErrors.push(key);
    } else if (d.severity === vscode.DiagnosticSeverity.Warning) {
      shownWarnings.add(key);
    }
  }
  const asErrors = errors.filter((k) => !shownWarnings.has(k)).sort();
  shownErrors.sort();
  return asErrors.length === shownErrors.length && asErrors.every((k, i) => k === shownErrors[i]) ? 'agrees' : 'differs';
}
