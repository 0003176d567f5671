import { throwIfCancelled, type CancelSignal } from '../core/cancel';
import { ToolError } from '../core/errors';
import { formatBytes } from '../core/format';
import { MAX_OUTLINE_PARSE_BYTES, MAX_OUTLINE_PROVIDER_MS } from '../core/limits';
import { headingsOf, indentationOf, linesOf } from '../core/outline/fallback';
import { paced } from '../core/pace';
import { docFirstLine, docFloor, symbolLineAt, symbolName, type DocStyle, type FlatSymbol, type Outline, type OutlineSymbol } from '../core/outline/symbols';
import { lineReader, lineStarts, ownRange } from '../core/outline/range';
import { searchSymbol, viewOf } from '../core/outline/view';
import { syntaxLanguageOf } from '../core/outline/syntax';
import { callText, shownInput, tryLine } from '../core/contract';
import { extensionOf } from '../core/text/binary';
import { syntaxOutline } from '../host/treeSitter';
import { readDecision } from '../services/access';
import { openDocumentFor, type Target } from '../services/target';
import type { ToolContext } from '../services/types';

const MARKDOWN = new Set(['md', 'markdown', 'mdx']);
const HASH_COMMENTS = new Set(['py', 'pyi', 'rb', 'sh', 'bash', 'pl', 'r', 'yaml', 'yml', 'toml']);

/** The comments that document a symbol in this file type. */
export function docStyleOf(path: string): DocStyle {
  const ext = extensionOf(path).toLowerCase();
  return MARKDOWN.has(ext) ? 'none' : HASH_COMMENTS.has(ext) ? 'hash' : 'slash';
}

/** The editor's symbols, when a provider answers within MAX_OUTLINE_PROVIDER_MS. */
async function providerSymbols(ctx: ToolContext, path: string): Promise<OutlineSymbol[] | undefined> {
  if (!ctx.ws.documentSymbols) {
    return undefined;
  }
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      ctx.log.info(`outline: no symbol provider answered for ${path} within ${MAX_OUTLINE_PROVIDER_MS} ms`);
      resolve(undefined);
    }, MAX_OUTLINE_PROVIDER_MS);
  });
  try {
    return await Promise.race([ctx.ws.documentSymbols(path, ctx.signal).catch((e: unknown) => {
      ctx.log.warn(`outline: the symbol provider failed for ${path}: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The parser's view of `text`: its symbols, or why it has none (`why`, for the words the
 * outline says it came from; undefined when no grammar knows the file type), the reason
 * logged. Never throws: it may run beside the language servers' answer, unawaited.
 * `signal` may also be tripped when that answer made the parse needless: nothing is logged then.
 */
async function parsed(ctx: ToolContext, t: Target, text: string, signal: CancelSignal = ctx.signal): Promise<Outline | { why: string | undefined }> {
  const language = syntaxLanguageOf(extensionOf(t.real));
  if (!language) {
    return { why: undefined };
  }
  if (Buffer.byteLength(text, 'utf8') > MAX_OUTLINE_PARSE_BYTES) {
    ctx.log.info(`outline: ${t.located.display} is over the ${MAX_OUTLINE_PARSE_BYTES} bytes parsed for an outline`);
    return { why: `the file is over the ${formatBytes(MAX_OUTLINE_PARSE_BYTES)} parsed for an outline` };
  }
  const r = await syntaxOutline(language, text, signal).catch((e: unknown) => ({ kind: 'abandoned' as const, reason: e instanceof Error ? e.message : String(e) }));
  if (r.kind === 'abandoned') {
    if (!signal.isCancellationRequested || ctx.signal.isCancellationRequested) {
      ctx.log.warn(`outline: tree-sitter gave no outline of ${t.located.display}: ${r.reason}`);
    }
    return { why: `the parser gave up: ${r.reason}` };
  }
  return { source: 'tree-sitter', symbols: r.symbols, errors: r.errors };
}

/**
 * The outline of a file whose whole text is `text` (the editor's buffer when it is open):
 * Markdown from its headings; other files from the language servers when one answers,
 * else the syntax tree, else indentation. For a change (`forChange`), an outline from a
 * language server also carries the parser's error lines when a grammar knows the file,
 * so a range the parser doubts is not replaced.
 */
export async function outlineOf(ctx: ToolContext, t: Target, text: string, forChange = false): Promise<Outline> {
  const started = Date.now();
  let outline: Outline | undefined;
  if (MARKDOWN.has(extensionOf(t.real).toLowerCase())) {
    outline = { source: 'headings', symbols: await paced(headingsOf(await paced(linesOf(text), ctx.signal)), ctx.signal) };
  } else {
    // The parse runs on its own thread, so it starts beside the language servers' answer: a
    // file none of them answers for waits for the slower of the two, not for both in turn.
    let needless = false;
    const parseSignal: CancelSignal = { get isCancellationRequested() { return needless || ctx.signal.isCancellationRequested; } };
    const tree = parsed(ctx, t, text, parseSignal);
    const symbols = mayAskProviders(ctx, t, text) ? await providerSymbols(ctx, t.abs) : undefined;
    if (symbols && symbols.length > 0) {
      outline = { source: 'language server', symbols };
      if (forChange) {
        // the parser's errors, and its ranges to check a language server's columns against
        const p = await tree;
        if ('source' in p) {
          outline.errors = p.errors;
          outline.syntax = p.symbols;
        }
      } else {
        // a parse still running stops (its thread ends) rather than hold up the next outline
        needless = true;
      }
    }
    throwIfCancelled(ctx.signal);
    if (!outline) {
      const p = await tree;
      // no parser's outline: the indentation's, in slices too (this thread may be the editor's)
      outline = 'source' in p ? p : { source: 'indentation', symbols: await paced(indentationOf(await paced(linesOf(text), ctx.signal)), ctx.signal), ...(p.why !== undefined ? { fallback: p.why } : {}) };
    }
    throwIfCancelled(ctx.signal);
  }
  ctx.log.info(`outline of ${t.located.display} from ${outline.source} in ${Date.now() - started} ms`);
  return outline;
}

/**
 * Asking the language servers opens the file as a document when no editor holds it: the
 * whole text goes to every extension that watches documents, and the file counts as open
 * in the editor from then on (which would drop the question an outside file asks). So they
 * are asked only about a file an editor already holds, or one inside the workspace that
 * reading asks nothing about. A lone CR splits a line for the editor but not for us, so
 * their line numbers would be off: the syntax tree answers there.
 */
function mayAskProviders(ctx: ToolContext, t: Target, text: string): boolean {
  if (/\r(?!\n)/.test(text)) {
    return false;
  }
  return openDocumentFor(ctx, t) !== undefined || (t.located.root !== undefined && readDecision(ctx, t, 'fs_read', 'read').kind === 'allow');
}

/** A symbol found, with the lines it is read and replaced by: its documentation first. */
export interface SymbolRange {
  found: FlatSymbol;
  /** 1-based: the first line of its documentation (or of the symbol). */
  first: number;
  last: number;
}

/**
 * The symbol `query` names, or the error that says which names there are: the candidates
 * when several fit (each with the call that reads it), the closest names when none does.
 * `guarded` files (secrets, outside the workspace) name none of their symbols. The lines
 * include the symbol's documentation when the symbol starts its line. `callPath`: the
 * file's path as the model gave it, for the call suggested.
 */
export async function symbolRange(ctx: ToolContext, outline: Outline, text: string, t: Target, query: string, tool: 'fs_read' | 'fs_edit', guarded: boolean, callPath: string): Promise<SymbolRange> {
  const lookup = await searchSymbol(outline, query, ctx.signal);
  if (lookup.kind === 'found') {
    const s = lookup.symbol.symbol;
    const starts = lineStarts(text);
    const startsLine = text.slice(starts[s.first - 1], ownRange(text, starts, s).from).trim() === '';
    const first = startsLine ? docFirstLine(lineReader(text, starts), s.first, docStyleOf(t.real), docFloor((await viewOf(outline, ctx.signal)).flat, s)) : s.first;
    return { found: lookup.symbol, first, last: s.last };
  }
  const outlineCall = tryLine(callText('fs_read', { path: callPath, mode: 'outline' }));
  const nothing = tool === 'fs_edit' ? ' Nothing was changed.' : '';
  if (guarded) {
    throw new ToolError('no-match', `${t.located.display} holds no single symbol named ${shownInput(query, true)}.${nothing} It may hold secrets or lies outside the workspace, so none of its names are shown here.\n${outlineCall}`);
  }
  if (lookup.kind === 'ambiguous') {
    const list = lookup.candidates.slice(0, 20).map((c) => `- ${symbolLineAt(c.symbol, 0)} (symbol ${JSON.stringify(`${symbolName(c)}${c.symbol.params ?? ''}`)})`);
    const more = lookup.candidates.length > 20 ? [`... and ${lookup.candidates.length - 20} more`] : [];
    const pick = tool === 'fs_read' ? 'Pass one of these names with its parameters, or read its lines with offset and limit.' : 'Pass one of these names with its parameters, or use old_string with enough context to fit one place.';
    throw new ToolError('no-match', [`${lookup.candidates.length} symbols of ${t.located.display} fit ${shownInput(query, true)} (outline ${sourceWords(outline)}):`, ...list, ...more, `${pick}${nothing}`].join('\n'));
  }
  const lines = [`${t.located.display} has no symbol ${shownInput(query, true)} (outline ${sourceWords(outline)}).${nothing}`];
  if (lookup.suggestions.length > 0) {
    lines.push('Did you mean one of these?', ...lookup.suggestions.map((c) => `- ${symbolLineAt(c.symbol, 0)} (symbol ${JSON.stringify(symbolName(c))})`));
  }
  lines.push(outlineCall);
  throw new ToolError('no-match', lines.join('\n'));
}

function sourceWords(outline: Outline): string {
  return outline.source === 'tree-sitter' ? 'from tree-sitter' : `from ${outline.source}`;
}
