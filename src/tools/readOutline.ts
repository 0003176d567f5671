import { callText } from '../core/contract';
import { ToolError } from '../core/errors';
import { MAX_OUTLINE_SYMBOLS } from '../core/limits';
import { OutlineOffsetPastEnd, planOutline, renderOutline } from '../core/outline/render';
import { detectEol } from '../core/text/lines';
import { fitToBudget } from '../services/budget';
import { fileKey, type Target } from '../services/target';
import type { ToolContext } from '../services/types';
import { symbolName } from '../core/outline/symbols';
import { outlineOf, symbolRange } from './outline';
import { readText, type TextRequest } from './readText';

/** A file's whole text, as fs_read decoded it (the editor's buffer when it is open). */
export interface WholeText {
  text: string;
  encoding: string;
  dirty: boolean;
  version: string;
}

/** fs_read mode "outline": a page of the file's symbols, sized to the token budget. */
export async function readOutline(ctx: ToolContext, t: Target, src: WholeText, input: { path: string; offset?: number; limit?: number; symbol?: string }): Promise<string> {
  const outline = await outlineOf(ctx, t, src.text);
  const limit = Math.min(input.limit ?? MAX_OUTLINE_SYMBOLS, MAX_OUTLINE_SYMBOLS);
  // `symbol` with mode "outline": the outline inside that symbol, found as a symbol read finds it
  const within = input.symbol !== undefined ? (await symbolRange(ctx, outline, src.text, t, input.symbol, 'fs_read', false, input.path)).found : undefined;
  const plan = await planOutline(outline, within, ctx.signal);
  const base = {
    displayPath: t.located.display,
    totalLines: lineCount(src.text),
    encoding: src.encoding,
    eol: detectEol(src.text),
    version: src.version,
    dirty: src.dirty,
    offset: input.offset ?? 1,
    limitGiven: input.limit !== undefined,
    nextCall: (offset: number) => callText('fs_read', { path: input.path, mode: 'outline', ...(input.symbol !== undefined ? { symbol: input.symbol } : {}), offset, ...(input.limit !== undefined ? { limit } : {}) }),
    insideCall: (symbol: string) => callText('fs_read', { path: input.path, mode: 'outline', symbol }),
  };
  let first;
  try {
    first = renderOutline({ ...base, limit }, plan);
  } catch (e) {
    if (e instanceof OutlineOffsetPastEnd) {
      const of = within ? `the outline inside ${symbolName(within)} in ${t.located.display}` : `the outline of ${t.located.display}`;
      throw new ToolError('offset-past-end', `offset=${e.offset} is past the end of ${of}: it has ${e.count} symbols. Use an offset from 1 to ${e.count}.`);
    }
    throw e;
  }
  const fitted = await fitToBudget(ctx, Math.max(first.shown, 1), (k) => renderOutline({ ...base, limit: Math.min(k, limit) }, plan).text);
  ctx.ledger.record(fileKey(ctx, t.real), { version: src.version });
  return fitted.text;
}

/** Lines of a text as splitLines counts them (a final line break ends the last line), without splitting it. */
function lineCount(text: string): number {
  let n = text.length === 0 || text.endsWith('\n') ? 0 : 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    n++;
  }
  return n;
}

/** fs_read with `symbol`: the symbol's lines with its documentation, as a slice of them. */
export async function readSymbol(ctx: ToolContext, t: Target, src: WholeText, query: string, req: TextRequest, callPath: string): Promise<string> {
  const outline = await outlineOf(ctx, t, src.text);
  const r = await symbolRange(ctx, outline, src.text, t, query, 'fs_read', false, callPath);
  const s = r.found.symbol;
  const what = `${s.kind} ${r.found.path.join('.')}${r.first < s.first ? ` (documentation from line ${r.first})` : ''}, outline from ${outline.source}`;
  return readText(ctx, t, { kind: 'text', ...src }, { ...req, offset: r.first, limit: r.last - r.first + 1, column: undefined, range: { first: r.first, last: r.last, describe: what } });
}
