import { drain } from '../pace';
import { outlineName, type OutlineSymbol } from './symbols';

/** Levels of blocks the indentation outline shows (top-level blocks and the ones directly inside). */
const INDENTATION_OUTLINE_LEVELS = 2;

/** Lines looked at between two points where the thread may be given back. */
const STEPS = 1024;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;

/**
 * A Markdown file's headings (ATX `#` and setext underlines), outside fenced code, each
 * spanning its section: up to the next heading of the same or a higher level.
 */
export function outlineFromHeadings(lines: readonly string[]): OutlineSymbol[] {
  return drain(headingsOf(lines));
}

/** {@link outlineFromHeadings}, yielding now and then (run it with `paced`). */
export function* headingsOf(lines: readonly string[]): Generator<void, OutlineSymbol[]> {
  const found: { level: number; name: string; line: number }[] = [];
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    if (i % STEPS === 0) {
      yield;
    }
    const line = lines[i];
    const f = FENCE.exec(line);
    if (fence !== undefined) {
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length && line.trim() === f[1]) {
        fence = undefined;
      }
      continue;
    }
    if (f) {
      fence = f[1];
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      found.push({ level: atx[1].length, name: outlineName(atx[2] ?? ''), line: i + 1 });
      continue;
    }
    const next = lines[i + 1];
    const prevBlank = i === 0 || lines[i - 1].trim() === '';
    if (next !== undefined && line.trim() !== '' && prevBlank && /^ {0,3}(=+|-+)[ \t]*$/.test(next) && !/^\s*([-*+>|]|\d+[.)])\s/.test(line)) {
      found.push({ level: next.trim()[0] === '=' ? 1 : 2, name: outlineName(line), line: i + 1 });
      i++;
    }
  }
  const roots: OutlineSymbol[] = [];
  const open: { level: number; symbol: OutlineSymbol }[] = [];
  for (let k = 0; k < found.length; k++) {
    const h = found[k];
    if (k % STEPS === 0) {
      yield;
    }
    let end = lines.length;
    for (let j = k + 1; j < found.length; j++) {
      if (found[j].level <= h.level) {
        end = found[j].line - 1;
        break;
      }
    }
    while (end > h.line && lines[end - 1].trim() === '') {
      end--;
    }
    const symbol: OutlineSymbol = { kind: `h${h.level}`, name: h.name, first: h.line, last: end, children: [] };
    while (open.length > 0 && open[open.length - 1].level >= h.level) {
      open.pop();
    }
    (open.length > 0 ? open[open.length - 1].symbol.children : roots).push(symbol);
    open.push({ level: h.level, symbol });
  }
  return roots;
}

function indentOf(line: string): number {
  let n = 0;
  for (const ch of line) {
    if (ch === ' ') {
      n++;
    } else if (ch === '\t') {
      n += 4;
    } else {
      break;
    }
  }
  return n;
}

/** A line that closes a block at its opener's depth (`}`, `end`, `</div>`, `)`), part of the block. */
const CLOSER = /^\s*([}\])]|end\b|<\/)/;
const COMMENT = /^\s*(\/\/|\/\*|\*|#|--|;)/;

/**
 * The outline when no parser knows the file type: every line that opens an indented block
 * (the next non-blank line is deeper), spanning the block and the line that closes it, two
 * levels deep. The ranges are guesses; they are read by, never edited by.
 */
export function outlineFromIndentation(lines: readonly string[]): OutlineSymbol[] {
  return drain(indentationOf(lines));
}

/** {@link outlineFromIndentation}, yielding now and then (run it with `paced`). */
export function* indentationOf(lines: readonly string[]): Generator<void, OutlineSymbol[]> {
  const depth = new Int32Array(lines.length);
  for (let i = 0; i < lines.length; i++) {
    depth[i] = lines[i].trim() === '' ? -1 : indentOf(lines[i]);
    if (i % STEPS === 0) {
      yield;
    }
  }
  const nextDeep = (i: number): number => {
    for (let j = i + 1; j < lines.length; j++) {
      if (depth[j] >= 0) {
        return depth[j];
      }
    }
    return -1;
  };
  let steps = 0;
  function* blocks(from: number, to: number, level: number): Generator<void, OutlineSymbol[]> {
    const out: OutlineSymbol[] = [];
    let base = -1;
    for (let i = from; i < to; i++) {
      if (++steps % STEPS === 0) {
        yield;
      }
      if (depth[i] < 0 || COMMENT.test(lines[i])) {
        continue;
      }
      if (base < 0) {
        base = depth[i];
      }
      if (depth[i] !== base || nextDeep(i) <= depth[i]) {
        continue;
      }
      let end = i + 1;
      while (end < to && (depth[end] < 0 || depth[end] > base)) {
        end++;
      }
      let last = end;
      if (end < to && depth[end] === base && CLOSER.test(lines[end])) {
        last = end + 1;
      }
      while (last > i + 1 && depth[last - 1] < 0) {
        last--;
      }
      const symbol: OutlineSymbol = { kind: 'block', name: outlineName(lines[i]), first: i + 1, last, children: [] };
      if (level + 1 < INDENTATION_OUTLINE_LEVELS) {
        symbol.children = yield* blocks(i + 1, last, level + 1);
      }
      out.push(symbol);
      i = last - 1;
    }
    return out;
  }
  return yield* blocks(0, lines.length, 0);
}

/** The lines of `text` as splitLines gives them (a final line break ends the last line, a CR before it dropped), yielding now and then. */
export function* linesOf(text: string): Generator<void, string[]> {
  const out: string[] = [];
  let at = 0;
  while (at < text.length) {
    let end = text.indexOf('\n', at);
    const next = end < 0 ? text.length : end + 1;
    if (end < 0) {
      end = text.length;
    }
    out.push(text.charCodeAt(end - 1) === 13 && end > at ? text.slice(at, end - 1) : text.slice(at, end));
    at = next;
    if (out.length % STEPS === 0) {
      yield;
    }
  }
  return out;
}
