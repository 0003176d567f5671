/**
 * Words for the person, kept as a key and its arguments so that they can be shown in the
 * person's language: the key is the English text with `{0}`, `{1}` where the arguments go, the
 * form `vscode.l10n.t` takes. The core stays free of vscode: the VS Code side translates a
 * phrase (src/vscode/phrase.ts), the CLI and the model read its English ({@link english}).
 * Every key is written as a literal `phrase('...')`, so that scripts/l10n-bundle.mjs puts it in
 * the bundle translators copy (test/unit/l10n.test.ts checks both).
 */
export interface Phrase {
  readonly key: string;
  readonly args: readonly string[];
}

export function phrase(key: string, ...args: string[]): Phrase {
  return { key, args };
}

/** The phrase in English, its arguments in place, as vscode.l10n gives it without a translation. */
export function english(p: Phrase): string {
  return p.key.replace(/\{(\d+)\}/g, (whole, i: string) => p.args[Number(i)] ?? whole);
}
