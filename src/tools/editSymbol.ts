import { describeFailure, describeMatch, planEdits, type EditRequest } from '../core/edit';
import { ToolError } from '../core/errors';
import { span } from '../core/contract';
import { isDocLine, replaceRefusal } from '../core/outline/symbols';
import { splitLines } from '../core/text/lines';
import type { FileText } from '../services/fileText';
import type { Target } from '../services/target';
import type { ToolContext } from '../services/types';
import { docStyleOf, outlineOf, symbolRange } from './outline';

/** The text of the file after a by-symbol edit, and what to tell the model of how it was made. */
export interface SymbolEdit {
  text: string;
  notes: string[];
}

/** Character offsets in `text` of the start of each line, and one past the text's end. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    starts.push(i + 1);
  }
  if (starts[starts.length - 1] !== text.length) {
    starts.push(text.length);
  }
  return starts;
}

/** The end of line `n` (1-based) in `text`, before its line ending. */
function lineEnd(text: string, starts: readonly number[], n: number): number {
  let end = n < starts.length ? starts[n] : text.length;
  if (end > starts[n - 1] && text[end - 1] === '\n') {
    end--;
    if (end > starts[n - 1] && text[end - 1] === '\r') {
      end--;
    }
  }
  return end;
}

/** The leading whitespace of a line. */
function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

/**
 * A whole symbol written with its body's indentation but not its own (`def save(self):`
 * sent flush left for a method): each non-blank line is given the symbol's first line's
 * indentation, which is all the written text lacked. Text that has any indentation of
 * its own on its first line is taken as written.
 */
function reindent(newText: string, indent: string): { text: string; changed: boolean } {
  const lines = newText.split('\n');
  const firstReal = lines.find((l) => l.trim() !== '');
  if (indent === '' || firstReal === undefined || indentOf(firstReal) !== '') {
    return { text: newText, changed: false };
  }
  return { text: lines.map((l) => (l.trim() === '' ? l : indent + l)).join('\n'), changed: true };
}

/**
 * fs_edit with `symbol`: the symbol's lines (its documentation first, as fs_read `symbol`
 * shows them) replaced by `newString`, or, with `reqs`, those edits made inside the symbol
 * only. Refused, with nothing changed, when the outline cannot vouch for the lines (a
 * guessed range, a parse error around it, a line shared with another symbol).
 */
export async function editBySymbol(ctx: ToolContext, t: Target, before: FileText, query: string, newString: string, reqs: readonly EditRequest[] | undefined, guarded: boolean): Promise<SymbolEdit> {
  const outline = await outlineOf(ctx, t, before.text, true);
  const r = symbolRange(outline, before.text, t, query, 'fs_edit', guarded);
  const s = r.found.symbol;
  const name = `${s.kind} ${r.found.path.join('.')}`;
  const refusal = replaceRefusal(outline, r.found, r.first);
  if (refusal) {
    // the refusal names other symbols and lines: nothing of a file the model may not read
    const why = guarded ? 'the outline cannot vouch for its lines' : refusal;
    throw new ToolError('no-match', `Cannot edit ${name} of ${t.located.display} by symbol: ${why}. Nothing was changed. Use old_string with the exact text instead.`);
  }
  const text = before.text;
  const starts = lineStarts(text);
  // A new_string that begins with the declaration itself replaces the symbol's own lines:
  // its doc comment and decorators stay, as the writer did not mention them.
  const firstWritten = newString.split('\n').find((l) => l.trim() !== '') ?? '';
  const keepsDocs = reqs === undefined && r.first < s.first && !isDocLine(firstWritten, docStyleOf(t.real));
  const top = keepsDocs ? s.first : r.first;
  const from = starts[top - 1];
  const to = lineEnd(text, starts, r.last);
  const eol = before.eol === 'CRLF' ? '\r\n' : '\n';
  const where = `lines ${span(top, r.last)}`;
  if (reqs) {
    // the symbol's text at its own line numbers: the lines before it stand as empty lines, so messages name file lines
    const pad = eol.repeat(r.first - 1);
    const plan = planEdits(pad + text.slice(from, to), reqs, ctx.signal);
    if (!plan.ok) {
      if (guarded && plan.failure.reason !== 'invalid') {
        throw new ToolError('no-match', `old_string does not fit ${name} of ${t.located.display} in exactly one place, and nothing was changed. ${t.located.display} may hold secrets or lies outside the workspace, so nothing of its content is shown here. Read it with fs_read (the user is asked first), then retry with the exact text.`);
      }
      throw new ToolError(plan.failure.reason === 'invalid' ? 'invalid-input' : 'no-match', `${describeFailure(plan.failure, `${t.located.display} (inside ${name}, ${where})`)}`);
    }
    if (!plan.text.startsWith(pad)) {
      throw new ToolError('no-match', `old_string fits only the lines before ${name} in ${t.located.display}, not inside it. Nothing was changed.`);
    }
    return { text: text.slice(0, from) + plan.text.slice(pad.length) + text.slice(to), notes: plan.results.length === 1 ? describeMatch(plan.results[0]) : plan.results.flatMap((x, i) => describeMatch(x, i + 1)) };
  }
  // the symbol's lines end before their line ending, so a final one in new_string is the writer's, not the file's
  let written = newString.replace(/\r?\n$/, '');
  const indented = reindent(written.replace(/\r\n/g, '\n'), indentOf(splitLines(text.slice(from, to))[0] ?? ''));
  written = indented.text.replace(/\n/g, eol);
  const notes = [`Replaced ${name} (${where}, outline from ${outline.source}).`];
  if (keepsDocs) {
    notes.push(`new_string begins with the declaration, so the ${s.first - r.first === 1 ? 'line' : `${s.first - r.first} lines`} of comments and decorators above it (from line ${r.first}) were kept.`);
  }
  if (indented.changed) {
    notes.push("new_string had no indentation on its first line: each of its lines was given the symbol's own. Check the diff.");
  }
  return { text: text.slice(0, from) + written + text.slice(to), notes };
}
