import { span } from '../contract';
import { docFirstLine, docFloor, type DocStyle, type FlatSymbol, type OutlineSymbol } from './symbols';
import type { OutlineView } from './view';

/**
 * The text an edit by symbol works on: the symbol's own characters, from where the source
 * says it starts to where it ends, never the rest of a line it shares with other code.
 * When the symbol starts its line (only indentation before it), the range starts at that
 * line's start, and takes in the documentation above it (comments, decorators, attributes
 * standing on lines of their own); when only whitespace follows its end, the range runs
 * to its line's end. Refused, naming why, where the range cannot be vouched for.
 */
export interface SymbolSpan {
  /** Character offsets in the text, `to` excluded. */
  from: number;
  to: number;
  /** 1-based lines the range touches: the documentation's first line (or the symbol's), and the symbol's last. */
  first: number;
  last: number;
  /** Where the symbol itself starts, after its documentation. */
  ownFrom: number;
  /** The range starts at a line's start (the symbol had only indentation before it). */
  lineStart: boolean;
  /** The range ends at a line's end (only whitespace followed the symbol). */
  lineEnd: boolean;
}

/** Character offsets of the start of each line of `text` (a final line break starts one more, empty). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    starts.push(i + 1);
  }
  return starts;
}

/** The text of line `n` (1-based) of `text`, without its line ending, read from `starts` (see lineStarts) without splitting the text. */
export function lineReader(text: string, starts: readonly number[]): (n: number) => string {
  return (n) => (n >= 1 && n <= starts.length ? text.slice(starts[n - 1], endOfLine(text, starts, n)) : '');
}

/** The offset where line `n` (1-based) ends, before its line ending. */
function endOfLine(text: string, starts: readonly number[], n: number): number {
  let end = n < starts.length ? starts[n] - 1 : text.length;
  if (end > starts[n - 1] && text[end - 1] === '\r') {
    end--;
  }
  return end;
}

/** Offsets of a symbol's own text: its columns on its first and last lines (the line's start and end where the source gives none). */
export function ownRange(text: string, starts: readonly number[], s: OutlineSymbol): { from: number; to: number } {
  const firstEnd = endOfLine(text, starts, s.first);
  const lastEnd = endOfLine(text, starts, s.last);
  const from = Math.min(starts[s.first - 1] + (s.startColumn ?? 0), firstEnd);
  const to = s.endColumn === undefined ? lastEnd : Math.min(starts[s.last - 1] + s.endColumn, lastEnd);
  return { from, to: Math.max(from, to) };
}

/** A piece of code as a refusal names it: short, on one line. */
function quoted(code: string): string {
  const one = code.trim().replace(/\s+/g, ' ');
  return JSON.stringify(one.length > 40 ? `${one.slice(0, 39)}…` : one);
}

/** What an edit by symbol may change, or why it is refused. */
export type SymbolSpanResult = { ok: true; span: SymbolSpan } | { ok: false; why: string };

/**
 * The range an edit of `target` changes (see {@link SymbolSpan}). Refused when the outline
 * was guessed from indentation, when the file does not parse cleanly around the symbol,
 * when another symbol (neither inside it nor around it) shares its characters (two
 * constants of one declaration), and when a language server's range shares a line with
 * other code and no parse of the file gives the same range (its columns cannot be checked).
 */
export function symbolSpan(text: string, v: OutlineView, target: FlatSymbol, style: DocStyle): SymbolSpanResult {
  const outline = v.outline;
  const s = target.symbol;
  if (outline.source === 'indentation') {
    return { ok: false, why: `its range was guessed from indentation (${outline.fallback ?? 'no language server or parser knows this file type'})` };
  }
  if (s.uncertain || outline.errors?.some((e) => e.first <= s.last + 1 && e.last >= s.first - 1)) {
    return { ok: false, why: 'the file does not parse cleanly around it' };
  }
  const starts = lineStarts(text);
  const own = ownRange(text, starts, s);
  const lineStart = text.slice(starts[s.first - 1], own.from).trim() === '';
  const lineEnd = text.slice(own.to, endOfLine(text, starts, s.last)).trim() === '';
  const at = v.at.get(s)!;
  for (let i = 0; i < v.flat.length; i++) {
    const o = v.flat[i].symbol;
    // the symbols inside it, and the ones that hold it, are not another's text
    if (i === at || (i > at && i <= at + v.inside[at]) || (i < at && i + v.inside[i] >= at)) {
      continue;
    }
    if (o.last < s.first || o.first > s.last) {
      continue;
    }
    const r = ownRange(text, starts, o);
    if (r.from < own.to && r.to > own.from) {
      return { ok: false, why: `its text is shared with ${o.kind} ${o.name} (L${span(o.first, o.last)})` };
    }
  }
  if (outline.source === 'language server' && !(lineStart && lineEnd) && !confirmed(outline.syntax, s)) {
    const before = text.slice(starts[s.first - 1], own.from);
    const after = text.slice(own.to, endOfLine(text, starts, s.last));
    const shared = before.trim() !== '' ? `line ${s.first} also holds ${quoted(before)} before it` : `line ${s.last} also holds ${quoted(after)} after it`;
    return { ok: false, why: `${shared}, and the language server's columns could not be checked against a parse of the file` };
  }
  let first = s.first;
  if (lineStart) {
    first = docFirstLine(lineReader(text, starts), s.first, style, docFloor(v.flat, s));
  }
  const from = lineStart ? starts[first - 1] : own.from;
  const to = lineEnd ? endOfLine(text, starts, s.last) : own.to;
  return { ok: true, span: { from, to, first, last: s.last, ownFrom: lineStart ? starts[s.first - 1] : own.from, lineStart, lineEnd } };
}

/** Whether the parser's outline holds a symbol of the same name at exactly these lines and columns. */
function confirmed(syntax: readonly OutlineSymbol[] | undefined, s: OutlineSymbol): boolean {
  const stack = [...(syntax ?? [])];
  while (stack.length > 0) {
    const o = stack.pop()!;
    if (o.first === s.first && o.last === s.last && o.startColumn === s.startColumn && o.endColumn === s.endColumn && o.name === s.name) {
      return true;
    }
    if (o.first <= s.first && o.last >= s.last) {
      stack.push(...o.children);
    }
  }
  return false;
}
