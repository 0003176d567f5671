import { ToolError } from '../errors';
import { textVersion } from '../hash';
import { parseNotebook, type CellKind, type NotebookCell } from '../read/notebook';

/**
 * Cell edits made on a notebook's `.ipynb` text, byte for byte: only the bytes of the
 * changed cell's `source` value (or of the inserted or deleted cell) differ, so the
 * file's indentation, key order, escaping, line endings, outputs and metadata stay as
 * they were, and a version-control diff shows the edit and nothing else.
 *
 * The same change is described as a {@link CellChange} for an editor that holds the
 * notebook as cells (VS Code's notebook API), where no JSON is written at all.
 */

/** One cell change, 0-based, with what the cell held before so that a host can refuse a stale one. */
export type CellChange =
  | { op: 'source'; index: number; cells: number; before: string; after: string }
  | { op: 'insert'; index: number; cells: number; kind: CellKind; language: string; source: string }
  | { op: 'delete'; index: number; cells: number; before: string };

/** Where one member of a JSON object lies: its key's opening quote, its value's span. */
interface Member {
  key: string;
  keyStart: number;
  valueStart: number;
  valueEnd: number;
}

/** Where one cell lies in the text: the object's span and its members in order. */
interface CellSpan {
  start: number;
  end: number;
  members: Member[];
}

interface Layout {
  /** Index of the cells array's `[` and `]`. */
  open: number;
  close: number;
  cells: CellSpan[];
}

/** How the file writes JSON, so that new text looks like the old. */
interface Style {
  eol: string;
  /** One level of indentation, or undefined for JSON on one line. */
  unit: string | undefined;
  escapeSlash: boolean;
  asciiOnly: boolean;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(s: string, i: number): number {
  while (i < s.length && isSpace(s.charCodeAt(i))) {
    i++;
  }
  return i;
}

/** The index just past the string that opens at `i`. */
function skipString(s: string, i: number): number {
  for (let j = i + 1; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === 0x5c) {
      j++;
    } else if (c === 0x22) {
      return j + 1;
    }
  }
  throw new Error('unterminated string');
}

/** The index just past the value that starts at `i` (the text is valid JSON: parseNotebook said so). */
function skipValue(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c === 0x22) {
    return skipString(s, i);
  }
  if (c === 0x5b || c === 0x7b) {
    let depth = 0;
    for (let j = i; j < s.length; j++) {
      const d = s.charCodeAt(j);
      if (d === 0x22) {
        j = skipString(s, j) - 1;
      } else if (d === 0x5b || d === 0x7b) {
        depth++;
      } else if (d === 0x5d || d === 0x7d) {
        if (--depth === 0) {
          return j + 1;
        }
      }
    }
    throw new Error('unterminated container');
  }
  let j = i;
  while (j < s.length && !/[\s,\]}]/.test(s[j])) {
    j++;
  }
  return j;
}

/** The members of the object that opens at `i`, and the index past its `}`. */
function members(s: string, i: number): { members: Member[]; end: number } {
  const out: Member[] = [];
  let j = skipSpace(s, i + 1);
  if (s[j] === '}') {
    return { members: out, end: j + 1 };
  }
  for (;;) {
    const keyStart = j;
    const keyEnd = skipString(s, j);
    const key = JSON.parse(s.slice(keyStart, keyEnd)) as string;
    j = skipSpace(s, keyEnd);
    j = skipSpace(s, j + 1); // past ':'
    const valueStart = j;
    const valueEnd = skipValue(s, j);
    out.push({ key, keyStart, valueStart, valueEnd });
    j = skipSpace(s, valueEnd);
    if (s[j] === '}') {
      return { members: out, end: j + 1 };
    }
    j = skipSpace(s, j + 1); // past ','
  }
}

/**
 * Thrown when an object the edit goes through names a key twice: JSON.parse keeps the
 * last, this layout the first, so an edit made on what the model saw would land in text
 * it never saw (a hidden first `cells` list, a hidden first `source`).
 */
class DuplicateKey extends Error {}

/** The members of an object on the edit's path, each key once. */
function uniqueMembers(s: string, i: number): { members: Member[]; end: number } {
  const m = members(s, i);
  const keys = new Set<string>();
  for (const x of m.members) {
    if (keys.has(x.key)) {
      throw new DuplicateKey();
    }
    keys.add(x.key);
  }
  return m;
}

/** A cell's source as parseNotebook reads it (see core/read/notebook.ts). */
function sourceAt(json: string, cell: CellSpan): string {
  const m = cell.members.find((x) => x.key === 'source');
  const v: unknown = m ? JSON.parse(json.slice(m.valueStart, m.valueEnd)) : undefined;
  if (typeof v === 'string') {
    return v;
  }
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').join('') : '';
}

function layoutOf(json: string): Layout {
  const top = skipSpace(json, json.charCodeAt(0) === 0xfeff ? 1 : 0);
  const cellsMember = uniqueMembers(json, top).members.find((m) => m.key === 'cells');
  if (!cellsMember || json[cellsMember.valueStart] !== '[') {
    throw new Error('no cells list');
  }
  const cells: CellSpan[] = [];
  let j = skipSpace(json, cellsMember.valueStart + 1);
  while (json[j] !== ']') {
    const m = uniqueMembers(json, j);
    cells.push({ start: j, end: m.end, members: m.members });
    j = skipSpace(json, m.end);
    if (json[j] === ',') {
      j = skipSpace(json, j + 1);
    }
  }
  return { open: cellsMember.valueStart, close: j, cells };
}

/** The whitespace that opens the line `i` lies on, when only whitespace comes before `i` on it; else undefined. */
function lineIndentBefore(s: string, i: number): string | undefined {
  const nl = s.lastIndexOf('\n', i - 1);
  if (nl < 0) {
    return undefined;
  }
  const lead = s.slice(nl + 1, i);
  return /^[ \t]*$/.test(lead) ? lead : undefined;
}

function styleOf(json: string): Style {
  const top = skipSpace(json, json.charCodeAt(0) === 0xfeff ? 1 : 0);
  const first = members(json, top).members[0];
  const unit = first ? lineIndentBefore(json, first.keyStart) : undefined;
  // eslint-disable-next-line no-control-regex -- any character past ASCII written as itself
  const raw = /[^\u0000-\u007f]/.test(json);
  const escaped = /\\u(00[89a-fA-F][0-9a-fA-F]|0[1-9a-fA-F][0-9a-fA-F]{2}|[1-9a-fA-F][0-9a-fA-F]{3})/.test(json);
  return { eol: json.includes('\r\n') ? '\r\n' : '\n', unit: unit === '' ? undefined : unit, escapeSlash: json.includes('\\/'), asciiOnly: escaped && !raw };
}

/** A string as the file writes strings: `\/` when it escapes slashes, `\u00e9` when it keeps to ASCII. */
function jsonString(text: string, style: Style): string {
  let out = JSON.stringify(text);
  if (style.escapeSlash) {
    out = out.replace(/\//g, '\\/');
  }
  if (style.asciiOnly) {
    // eslint-disable-next-line no-control-regex -- every character past ASCII
    out = out.replace(/[^\u0000-\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  return out;
}

/** nbformat's multiline string: the lines, each ending in "\n" but the last. */
export function sourceLines(source: string): string[] {
  return source.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/**
 * A `source` value written as the file writes arrays: each line on a line of its own at
 * `itemIndent`, the `]` at `closeIndent`; on one line when the file is written on one line.
 */
function sourceValue(source: string, style: Style, itemIndent: string | undefined, closeIndent: string | undefined, inlineSep: string): string {
  const items = sourceLines(source).map((l) => jsonString(l, style));
  if (items.length === 0) {
    return '[]';
  }
  if (itemIndent === undefined || closeIndent === undefined) {
    return `[${items.join(inlineSep)}]`;
  }
  return `[${style.eol}${items.map((x) => itemIndent + x).join(`,${style.eol}`)}${style.eol}${closeIndent}]`;
}

/** How an array value at `m` lays out its items, or what its key's line implies when it has none on lines of their own. */
function arrayIndents(json: string, m: Member, style: Style): { item: string | undefined; close: string | undefined; sep: string } {
  const inner = skipSpace(json, m.valueStart + 1);
  const keyIndent = lineIndentBefore(json, m.keyStart);
  if (json[m.valueStart] === '[' && json[inner] !== ']') {
    const item = lineIndentBefore(json, inner);
    const close = lineIndentBefore(json, m.valueEnd - 1);
    if (item !== undefined && close !== undefined) {
      return { item, close, sep: ', ' };
    }
    // items on the key's line: keep the file's separator
    const next = skipValue(json, inner);
    const after = skipSpace(json, next);
    const sep = json[after] === ',' ? json.slice(next, skipSpace(json, after + 1)) : style.unit === undefined ? ',' : ', ';
    return { item: undefined, close: undefined, sep };
  }
  if (keyIndent === undefined || style.unit === undefined) {
    return { item: undefined, close: undefined, sep: ',' };
  }
  return { item: keyIndent + style.unit, close: keyIndent, sep: ', ' };
}

function parse(json: string, display: string): { cells: NotebookCell[]; layout: Layout; style: Style } {
  const nb = parseNotebook(json, display);
  let layout: Layout;
  try {
    layout = layoutOf(json);
  } catch (e) {
    if (e instanceof DuplicateKey) {
      throw new ToolError('io', `Cannot edit ${display} by cell: its JSON has duplicate keys, so where the edit would land is not what reading shows. Nothing was changed.`);
    }
    throw new ToolError('io', `Cannot edit ${display} by cell: its JSON could not be followed (${(e as Error).message}). Nothing was changed.`);
  }
  // what is edited must be what the model was shown, cell by cell
  if (layout.cells.length !== nb.cells.length || layout.cells.some((c, i) => sourceAt(json, c) !== nb.cells[i].source)) {
    throw new ToolError('io', `Cannot edit ${display} by cell: its cells list could not be followed. Nothing was changed.`);
  }
  return { cells: nb.cells, layout, style: styleOf(json) };
}

/** The cells of a notebook's text, as fs_read shows them. */
export function notebookCells(json: string, display: string): NotebookCell[] {
  return parseNotebook(json, display).cells;
}

/**
 * The notebook's text with cell `index`'s source replaced by `source`, written as nbformat
 * writes sources (a list of lines) in the file's own style; every other byte as it was.
 */
export function replaceCellSource(json: string, index: number, source: string, display = 'the notebook'): string {
  const { layout, style } = parse(json, display);
  const cell = layout.cells[index];
  const m = cell.members.find((x) => x.key === 'source');
  if (!m) {
    // a cell without a source: the member is added after the last one, in the cell's layout
    const last = cell.members[cell.members.length - 1];
    const between = betweenMembers(json, cell);
    const keyIndent = last ? lineIndentBefore(json, last.keyStart) : undefined;
    const ind = keyIndent !== undefined && style.unit !== undefined ? { item: keyIndent + style.unit, close: keyIndent } : { item: undefined, close: undefined };
    const value = sourceValue(source, style, ind.item, ind.close, ', ');
    const text = `${jsonString('source', style)}${keySep(json, cell)}${value}`;
    return last ? json.slice(0, last.valueEnd) + between + text + json.slice(last.valueEnd) : json.slice(0, cell.start + 1) + text + json.slice(cell.start + 1);
  }
  const value: unknown = JSON.parse(json.slice(m.valueStart, m.valueEnd));
  const items: unknown[] = Array.isArray(value) ? value : [];
  const odd = items.findIndex((x) => typeof x !== 'string');
  if (odd >= 0) {
    // reading shows the text items only; writing the list anew would drop the others without a word
    throw new ToolError(
      'io',
      `Cannot edit cell ${index + 1} of ${display}: its "source" list holds an item that is not text (item ${odd + 1} is ${boundedItem(items[odd])}), which reading does not show and an edit would drop. Nothing was changed. Ask the user to repair the cell's source in the file.`,
    );
  }
  const ind = arrayIndents(json, m, style);
  return json.slice(0, m.valueStart) + sourceValue(source, style, ind.item, ind.close, ind.sep) + json.slice(m.valueEnd);
}

/** A JSON value as a message names it: its kind and, when short, itself. */
function boundedItem(v: unknown): string {
  const kind = v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
  const text = JSON.stringify(v);
  return text.length <= 20 && v !== null ? `${kind}, ${text}` : kind;
}

/** The text between one member's value and the next key (`,\n   `), from a cell with two members, else `, `. */
function betweenMembers(json: string, cell: CellSpan): string {
  const [a, b] = cell.members;
  return a && b ? json.slice(a.valueEnd, b.keyStart) : ', ';
}

/** The text between a key and its value (`: `). */
function keySep(json: string, cell: CellSpan): string {
  const m = cell.members[0];
  return m ? json.slice(skipString(json, m.keyStart), m.valueStart) : ': ';
}

/** The keys a new cell of `kind` has, in nbformat's order. */
function keysOf(kind: CellKind, withId: boolean): string[] {
  const keys = kind === 'code' ? ['cell_type', 'execution_count', 'id', 'metadata', 'outputs', 'source'] : ['cell_type', 'id', 'metadata', 'source'];
  return withId ? keys : keys.filter((k) => k !== 'id');
}

/** A cell id nbformat 4.5 accepts, unused in the notebook. */
function freshId(json: string, index: number, source: string): string {
  for (let n = 0; ; n++) {
    const id = textVersion(`${index}\0${n}\0${source}\0${json.length}`);
    if (!json.includes(`"${id}"`)) {
      return id;
    }
  }
}

/**
 * The notebook's text with a new cell of `kind` inserted before cell `index` (at the end
 * when `index` is the cell count), written in the layout of a neighbouring cell; no other
 * byte changes. A code cell has no outputs and no execution count.
 */
export function insertCell(json: string, index: number, kind: CellKind, source: string, display = 'the notebook'): string {
  const { layout, style } = parse(json, display);
  const cells = layout.cells;
  const model = cells[index] ?? cells[index - 1];
  const value = (key: string, cell: CellSpan | undefined): string => {
    switch (key) {
      case 'cell_type':
        return jsonString(kind, style);
      case 'execution_count':
        return 'null';
      case 'id':
        return jsonString(freshId(json, index, source), style);
      case 'metadata':
        return '{}';
      case 'outputs':
        return '[]';
      default: {
        const m = cell?.members.find((x) => x.key === 'source');
        const ind = cell && m ? arrayIndents(json, m, style) : { item: undefined, close: undefined, sep: ', ' };
        return sourceValue(source, style, ind.item, ind.close, ind.sep);
      }
    }
  };
  let objectText: string;
  if (model && model.members.length > 0) {
    const open = json.slice(model.start + 1, model.members[0].keyStart);
    const last = model.members[model.members.length - 1];
    const close = json.slice(last.valueEnd, model.end - 1);
    const between = betweenMembers(json, model);
    const sep = keySep(json, model);
    const keys = keysOf(kind, model.members.some((m) => m.key === 'id'));
    objectText = `{${open}${keys.map((k) => `${jsonString(k, style)}${sep}${value(k, model)}`).join(between)}${close}}`;
  } else {
    // no cell to copy: the layout the top-level object's indentation implies
    const cellIndent = lineIndentBefore(json, layout.open);
    const u = style.unit;
    const keys = keysOf(kind, false);
    if (u === undefined || cellIndent === undefined) {
      objectText = `{${keys.map((k) => `${jsonString(k, style)}:${value(k, undefined)}`).join(',')}}`;
    } else {
      const ki = cellIndent + u + u;
      objectText = `{${style.eol}${keys.map((k) => `${ki}${jsonString(k, style)}: ${k === 'source' ? sourceValue(source, style, ki + u, ki, ', ') : value(k, undefined)}`).join(`,${style.eol}`)}${style.eol}${cellIndent + u}}`;
    }
  }
  if (cells.length === 0) {
    const cellIndent = lineIndentBefore(json, layout.open);
    if (style.unit === undefined || cellIndent === undefined) {
      return json.slice(0, layout.open + 1) + objectText + json.slice(layout.close);
    }
    return json.slice(0, layout.open + 1) + style.eol + cellIndent + style.unit + objectText + style.eol + cellIndent + json.slice(layout.close);
  }
  // the separator between two cells, or what the list's opening implies when it has one
  const sep = cells.length > 1 ? json.slice(cells[0].end, cells[1].start) : `,${json.slice(layout.open + 1, cells[0].start)}`;
  if (index < cells.length) {
    return json.slice(0, cells[index].start) + objectText + sep + json.slice(cells[index].start);
  }
  return json.slice(0, cells[index - 1].end) + sep + objectText + json.slice(cells[index - 1].end);
}

/** The notebook's text without cell `index` (and the separator before it); no other byte changes. */
export function deleteCell(json: string, index: number, display = 'the notebook'): string {
  const { layout } = parse(json, display);
  const cells = layout.cells;
  if (cells.length === 1) {
    return json.slice(0, layout.open + 1) + json.slice(layout.close);
  }
  if (index > 0) {
    return json.slice(0, cells[index - 1].end) + json.slice(cells[index].end);
  }
  return json.slice(0, cells[0].start) + json.slice(cells[1].start);
}

/** The notebook's text with `change` made (see {@link CellChange}). */
export function applyCellChange(json: string, change: CellChange, display = 'the notebook'): string {
  switch (change.op) {
    case 'source':
      return replaceCellSource(json, change.index, change.after, display);
    case 'insert':
      return insertCell(json, change.index, change.kind, change.source, display);
    case 'delete':
      return deleteCell(json, change.index, display);
  }
}

/**
 * The version of a notebook an editor holds as cells (the same as fs_read's for it): its
 * cells' kinds, languages and sources, which is what an edit by cell depends on.
 */
export function cellsVersion(cells: readonly Pick<NotebookCell, 'kind' | 'language' | 'source'>[]): string {
  return textVersion(JSON.stringify(cells.map((c) => [c.kind, c.language, c.source])));
}

/**
 * A notebook's text for a review of cells an editor holds with unsaved changes (the disk's
 * text is not what the change was made on): its cells' kinds, languages and sources.
 */
export function cellsJson(cells: readonly Pick<NotebookCell, 'kind' | 'language' | 'source'>[], language: string | undefined): string {
  const doc = {
    cells: cells.map((c) => ({
      cell_type: c.kind,
      metadata: c.kind === 'code' && c.language !== language ? { vscode: { languageId: c.language } } : {},
      source: sourceLines(c.source),
      ...(c.kind === 'code' ? { execution_count: null, outputs: [] } : {}),
    })),
    metadata: language ? { language_info: { name: language } } : {},
    nbformat: 4,
    nbformat_minor: 5,
  };
  return `${JSON.stringify(doc, null, 1)}\n`;
}
