/**
 * Parses source files with tree-sitter, the parsers VS Code itself ships
 * (@vscode/tree-sitter-wasm: its runtime and grammars, built to match each other), for
 * outlines where no language server answers. The runtime and each grammar are loaded on
 * first use only; the bundles keep them in their own files (dist/tree-sitter/, see
 * esbuild.mjs), so activation and the CLI's start do not pay for them. The grammars are
 * the extension's own files, never the workspace's.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as TreeSitter from '@vscode/tree-sitter-wasm';
import type { CancelSignal } from '../core/cancel';
import { MAX_OUTLINE_PARSE_MS } from '../core/limits';
import { errorRanges, outlineFromSyntax, type SyntaxLanguage } from '../core/outline/syntax';
import type { OutlineSymbol } from '../core/outline/symbols';

/** Where the wasm files are: next to the bundle that runs, else in the installed package (tests, a build-free run). */
function wasmDir(): string {
  const bundled = path.join(__dirname, 'tree-sitter');
  if (fs.existsSync(path.join(bundled, 'tree-sitter.wasm'))) {
    return bundled;
  }
  return path.dirname(require.resolve('@vscode/tree-sitter-wasm'));
}

let runtime: Promise<{ ts: typeof TreeSitter; dir: string }> | undefined;
const languages = new Map<SyntaxLanguage, Promise<TreeSitter.Language>>();

/** The runtime, initialised once; a failed load is retried on the next call. */
function loadRuntime(): Promise<{ ts: typeof TreeSitter; dir: string }> {
  runtime ??= (async () => {
    const dir = wasmDir();
    // a CommonJS module: imported from ESM-style code its exports may arrive as `default`
    const mod = (await import('@vscode/tree-sitter-wasm')) as typeof TreeSitter & { default?: typeof TreeSitter };
    const ts = mod.Parser ? mod : mod.default!;
    await ts.Parser.init({ locateFile: (file: string) => path.join(dir, file) });
    return { ts, dir };
  })().catch((e: unknown) => {
    runtime = undefined;
    throw e;
  });
  return runtime;
}

function loadLanguage(language: SyntaxLanguage): Promise<TreeSitter.Language> {
  let loading = languages.get(language);
  if (!loading) {
    loading = loadRuntime().then(({ ts, dir }) => ts.Language.load(path.join(dir, `tree-sitter-${language}.wasm`)));
    loading.catch(() => languages.delete(language));
    languages.set(language, loading);
  }
  return loading;
}

export type SyntaxOutline = { kind: 'parsed'; symbols: OutlineSymbol[]; errors: { first: number; last: number }[] } | { kind: 'abandoned'; reason: string };

/**
 * The outline of `text` in `language`, or why there is none: the parse stops when it takes
 * longer than MAX_OUTLINE_PARSE_MS or the call is cancelled (a parse runs on this thread,
 * so the bound keeps the host responsive). The tree is freed before returning.
 */
export async function syntaxOutline(language: SyntaxLanguage, text: string, signal: CancelSignal): Promise<SyntaxOutline> {
  const [{ ts }, lang] = await Promise.all([loadRuntime(), loadLanguage(language)]);
  const parser = new ts.Parser();
  try {
    parser.setLanguage(lang);
    const deadline = Date.now() + MAX_OUTLINE_PARSE_MS;
    let stopped: string | undefined;
    const tree = parser.parse(text, null, {
      progressCallback: () => {
        if (signal.isCancellationRequested) {
          stopped = 'the call was cancelled';
        } else if (Date.now() > deadline) {
          stopped = `parsing took over ${MAX_OUTLINE_PARSE_MS} ms`;
        }
        // tree-sitter stops the parse when this returns true
        return stopped !== undefined;
      },
    } as TreeSitter.ParseOptions);
    if (!tree) {
      return { kind: 'abandoned', reason: stopped ?? 'the parser gave no tree' };
    }
    try {
      return { kind: 'parsed', symbols: outlineFromSyntax(tree.rootNode, language), errors: errorRanges(tree.rootNode) };
    } finally {
      tree.delete();
    }
  } finally {
    parser.delete();
  }
}
