import { diffLines, structuredPatch } from 'diff';

/** One replacement in a text: `text` takes the place of [start, end) (UTF-16 offsets). */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** Lines of context around each change in the unified diffs shown to the model and the CLI. */
const DIFF_CONTEXT_LINES = 3;
/** Past this many changed lines the line diff gives up and one replacement covers the span. */
const MAX_LINE_DIFF_EDITS = 5000;

/**
 * A unified diff in git's form (`--- a/path`, `+++ b/path`, `/dev/null` for a side that
 * does not exist), without the tool's headers or trailing tabs. Empty when nothing changed.
 */
export function unifiedDiff(oldPath: string | undefined, newPath: string | undefined, oldText: string | undefined, newText: string | undefined): string {
  if (oldText === newText) {
    return '';
  }
  const p = structuredPatch(oldPath ?? '', newPath ?? '', oldText ?? '', newText ?? '', '', '', { context: DIFF_CONTEXT_LINES });
  const out = [`--- ${oldText === undefined ? '/dev/null' : `a/${oldPath}`}`, `+++ ${newText === undefined ? '/dev/null' : `b/${newPath}`}`];
  for (const h of p.hunks) {
    // An empty side starts at the line before it, as git prints it.
    out.push(`@@ -${h.oldLines ? h.oldStart : h.oldStart - 1},${h.oldLines} +${h.newLines ? h.newStart : h.newStart - 1},${h.newLines} @@`);
    out.push(...h.lines);
  }
  return out.join('\n');
}

/** Lines added and removed between two texts (`+a -b`). */
export function lineStats(oldText: string, newText: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const part of diffLines(oldText, newText)) {
    const n = part.count ?? 0;
    if (part.added) {
      added += n;
    } else if (part.removed) {
      removed += n;
    }
  }
  return { added, removed };
}

/**
 * The smallest set of replacements that turns `base` into `next`, line by line, so an
 * editor keeps its cursor, folds and undo steps outside what changed. Adjacent changes
 * merge; a diff too large to compute falls back to one replacement of the changed span.
 */
export function textEdits(base: string, next: string): TextEdit[] {
  if (base === next) {
    return [];
  }
  let prefix = 0;
  const max = Math.min(base.length, next.length);
  while (prefix < max && base.charCodeAt(prefix) === next.charCodeAt(prefix)) {
    prefix++;
  }
  let suffix = 0;
  while (suffix < max - prefix && base.charCodeAt(base.length - 1 - suffix) === next.charCodeAt(next.length - 1 - suffix)) {
    suffix++;
  }
  // Work on whole lines of the changed span so the line diff cannot split a CRLF.
  const start = prefix === 0 ? 0 : base.lastIndexOf('\n', prefix - 1) + 1;
  const endOld = lineEnd(base, base.length - suffix);
  const endNew = next.length - (base.length - endOld);
  const a = base.slice(start, endOld);
  const b = next.slice(start, endNew);
  const parts = diffLines(a, b, { maxEditLength: MAX_LINE_DIFF_EDITS });
  if (!parts) {
    return [{ start: start, end: endOld, text: b }];
  }
  const edits: TextEdit[] = [];
  let pos = start;
  for (const part of parts) {
    if (part.removed) {
      const last = edits[edits.length - 1];
      if (last && last.end === pos) {
        last.end += part.value.length;
      } else {
        edits.push({ start: pos, end: pos + part.value.length, text: '' });
      }
      pos += part.value.length;
    } else if (part.added) {
      const last = edits[edits.length - 1];
      if (last && last.end === pos) {
        last.text += part.value;
      } else {
        edits.push({ start: pos, end: pos, text: part.value });
      }
    } else {
      pos += part.value.length;
    }
  }
  return edits;
}

/** The offset just past the line holding `offset` (after its "\n"), or the text's end. */
function lineEnd(text: string, offset: number): number {
  if (offset > 0 && text[offset - 1] === '\n') {
    return offset;
  }
  const nl = text.indexOf('\n', offset);
  return nl < 0 ? text.length : nl + 1;
}

/** Applies non-overlapping replacements, given in any order. */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((x, y) => x.start - y.start);
  let out = '';
  let pos = 0;
  for (const e of sorted) {
    if (e.start < pos || e.end < e.start || e.end > text.length) {
      throw new RangeError(`overlapping or out-of-range edit at ${e.start}-${e.end}`);
    }
    out += text.slice(pos, e.start) + e.text;
    pos = e.end;
  }
  return out + text.slice(pos);
}
