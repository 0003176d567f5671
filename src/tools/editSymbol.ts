import { describeFailure, describeMatch, planEdits, type EditRequest } from '../core/edit';
import { ToolError } from '../core/errors';
import { span } from '../core/contract';
import { symbolSpan } from '../core/outline/range';
import { isDocLine } from '../core/outline/symbols';
import { viewOf } from '../core/outline/view';
import type { FileText } from '../services/fileText';
import type { Target } from '../services/target';
import type { ToolContext } from '../services/types';
import { docStyleOf, outlineOf, symbolRange } from './outline';

/** The text of the file after a by-symbol edit, and what to tell the model of how it was made. */
export interface SymbolEdit {
  text: string;
  notes: string[];
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
 * fs_edit with `symbol`: the symbol's text (its documentation first, as fs_read `symbol`
 * shows it, when both stand on lines of their own) replaced by `newString`, or, with
 * `reqs`, those edits made inside that text only. Other code on the lines the symbol
 * shares is never part of it. Refused, with nothing changed, when the outline cannot
 * vouch for the range (see symbolSpan).
 */
export async function editBySymbol(ctx: ToolContext, t: Target, before: FileText, query: string, newString: string, reqs: readonly EditRequest[] | undefined, guarded: boolean, callPath: string): Promise<SymbolEdit> {
  const outline = await outlineOf(ctx, t, before.text, true);
  const r = await symbolRange(ctx, outline, before.text, t, query, 'fs_edit', guarded, callPath);
  const s = r.found.symbol;
  const name = `${s.kind} ${r.found.path.join('.')}`;
  const text = before.text;
  const found = symbolSpan(text, await viewOf(outline, ctx.signal), r.found, docStyleOf(t.real));
  if (!found.ok) {
    // the refusal names other symbols and code: nothing of a file the model may not read
    const why = guarded ? 'the outline cannot vouch for its range' : found.why;
    throw new ToolError('no-match', `Cannot edit ${name} of ${t.located.display} by symbol: ${why}. Nothing was changed. Use old_string with the exact text instead.`);
  }
  const sp = found.span;
  // A new_string that begins with the declaration itself replaces the symbol's own text:
  // its doc comment and decorators stay, as the writer did not mention them.
  const firstWritten = newString.split('\n').find((l) => l.trim() !== '') ?? '';
  const keepsDocs = reqs === undefined && sp.first < s.first && !isDocLine(firstWritten, docStyleOf(t.real));
  const from = keepsDocs ? sp.ownFrom : sp.from;
  const to = sp.to;
  const top = keepsDocs ? s.first : sp.first;
  const eol = before.eol === 'CRLF' ? '\r\n' : '\n';
  const where = top === sp.last ? `line ${top}` : `lines ${span(top, sp.last)}`;
  if (reqs) {
    // the symbol's text at its own line numbers: the lines before it stand as empty lines, so messages name file lines
    const pad = eol.repeat(lineOf(text, from) - 1);
    const plan = planEdits(pad + text.slice(from, to), reqs, ctx.signal);
    if (!plan.ok) {
      if (guarded && plan.failure.reason !== 'invalid') {
        throw new ToolError('no-match', `old_string does not fit ${name} of ${t.located.display} in exactly one place, and nothing was changed. ${t.located.display} may hold secrets or lies outside the workspace, so nothing of its content is shown here. Read it with fs_read (the user is asked first), then retry with the exact text.`);
      }
      throw new ToolError(plan.failure.reason === 'invalid' ? 'invalid-input' : 'no-match', `${describeFailure(plan.failure, { label: `${t.located.display} (inside ${name}, ${where})`, path: callPath })}`);
    }
    if (!plan.text.startsWith(pad)) {
      throw new ToolError('no-match', `old_string fits only the lines before ${name} in ${t.located.display}, not inside it. Nothing was changed.`);
    }
    return { text: text.slice(0, from) + plan.text.slice(pad.length) + text.slice(to), notes: plan.results.length === 1 ? describeMatch(plan.results[0]) : plan.results.flatMap((x, i) => describeMatch(x, i + 1)) };
  }
  // the range ends before a line ending, so a final one in new_string is the writer's, not the file's
  let written = newString.replace(/\r?\n$/, '');
  // text that starts a line takes the line's indentation when it was written without any
  const lineIndent = sp.lineStart ? indentOf(text.slice(from, text.indexOf('\n', from) < 0 ? text.length : text.indexOf('\n', from))) : '';
  const indented = reindent(written.replace(/\r\n/g, '\n'), lineIndent);
  written = indented.text.replace(/\n/g, eol);
  const notes = [`Replaced ${name} (${sp.lineStart && sp.lineEnd ? where : `${where}, its own text only: the code beside it on its lines was kept`}, outline from ${outline.source}).`];
  if (keepsDocs) {
    notes.push(`new_string begins with the declaration, so the ${s.first - sp.first === 1 ? 'line' : `${s.first - sp.first} lines`} of comments and decorators above it (from line ${sp.first}) were kept.`);
  }
  if (indented.changed) {
    notes.push("new_string had no indentation on its first line: each of its lines was given the symbol's own. Check the diff.");
  }
  return { text: text.slice(0, from) + written + text.slice(to), notes };
}

/** The 1-based line that offset `at` of `text` is on. */
function lineOf(text: string, at: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) {
    n++;
  }
  return n;
}
