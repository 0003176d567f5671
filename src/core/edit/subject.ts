import { throwIfCancelled, type CancelSignal } from '../cancel';
import { EDIT_CANCEL_CHECK_STEPS } from '../limits';
import { countBreaks, eolFor, LfView, LineTable } from './lines';
import { indentWidth, TAB_COLUMNS } from './indent';
import { asciiTypography, isBlank, leadingWhitespace, substanceKey } from './normalize';

/** The file's lines with text, as substance keys (see {@link substanceKey}). */
export interface SubstanceIndex {
  /** Key of each line with text, in file order. */
  keys: string[];
  /** File line (0-based) of each entry of `keys`. */
  lines: Int32Array;
}

/** The file's lines with text as small integers for one old_string: its lines' keys get 0, 1, …; every other line -1. */
export interface Encoded {
  /** Per entry of {@link SubstanceIndex.keys}. */
  ids: Int32Array;
  /** Per line of old_string given: its id. */
  wanted: number[];
  /** Per id: whether the file has a line with that key. */
  present: boolean[];
}

/**
 * The file being edited and what the levels derive from it, each computed once and only
 * when a level needs it: an exact match never splits the file into lines.
 */
export class Subject {
  private table_?: LineTable;
  private lf_?: LfView;
  private typo_?: string;
  private index_?: SubstanceIndex;
  private tabs_?: boolean;
  private step_?: number;
  private eol_?: string;
  /** An offset just past a line break (or 0) and its 0-based line, for {@link lineOf}. */
  private lastLine_?: [number, number];

  constructor(
    readonly content: string,
    readonly signal?: CancelSignal,
  ) {}

  get table(): LineTable {
    return (this.table_ ??= new LineTable(this.content));
  }

  get lf(): LfView {
    return (this.lf_ ??= new LfView(this.content));
  }

  /** {@link lf}'s text with ASCII typography (same length, same offsets). */
  get lfTypography(): string {
    return (this.typo_ ??= asciiTypography(this.lf.text));
  }

  get index(): SubstanceIndex {
    if (!this.index_) {
      const table = this.table;
      const keys: string[] = [];
      const lines: number[] = [];
      for (let i = 0; i < table.count; i++) {
        if ((i & (EDIT_CANCEL_CHECK_STEPS - 1)) === 0) {
          throwIfCancelled(this.signal);
        }
        const key = substanceKey(table.text(i));
        if (key.length > 0) {
          keys.push(key);
          lines.push(i);
        }
      }
      this.index_ = { keys, lines: Int32Array.from(lines) };
    }
    return this.index_;
  }

  /**
   * The file's lines with text as ids for these lines of old_string (keys, not raw lines).
   * A small map of old_string's keys is all that is built, so the cost per file line is one
   * lookup, whatever the file's size.
   */
  encode(oldKeys: readonly string[]): Encoded {
    const idOf = new Map<string, number>();
    const wanted = oldKeys.map((k) => {
      let id = idOf.get(k);
      if (id === undefined) {
        id = idOf.size;
        idOf.set(k, id);
      }
      return id;
    });
    const { keys } = this.index;
    const ids = new Int32Array(keys.length);
    const present = new Array<boolean>(idOf.size).fill(false);
    for (let p = 0; p < keys.length; p++) {
      if ((p & (EDIT_CANCEL_CHECK_STEPS - 1)) === 0) {
        throwIfCancelled(this.signal);
      }
      const id = idOf.get(keys[p]) ?? -1;
      ids[p] = id;
      if (id >= 0) {
        present[id] = true;
      }
    }
    return { ids, wanted, present };
  }

  /** 0-based line of offset `off`, without splitting the file when no level has. */
  lineOf(off: number): number {
    if (this.table_) {
      return this.table_.lineOf(off);
    }
    // Count forward from the last offset asked about: places come in file order.
    let [from, line] = this.lastLine_ && this.lastLine_[0] <= off ? this.lastLine_ : [0, 0];
    for (let i = this.content.indexOf('\n', from); i !== -1 && i < off; i = this.content.indexOf('\n', i + 1)) {
      line++;
      from = i + 1;
    }
    this.lastLine_ = [from, line];
    return line;
  }

  /** The line ending of new text in content[start, end) (see {@link eolFor}). */
  eolFor(start: number, end: number): string {
    return eolFor(this.content, start, end, () => {
      if (this.eol_ === undefined) {
        const { crlf, lf } = this.table_ ?? countBreaks(this.content, 0, this.content.length);
        this.eol_ = crlf > lf ? '\r\n' : '\n';
      }
      return this.eol_;
    });
  }

  /** Whether the file indents with tabs (more lines start with a tab than with two spaces). */
  usesTabs(): boolean {
    if (this.tabs_ === undefined) {
      let tabs = 0;
      let spaces = 0;
      for (let i = 0; i < this.table.count; i++) {
        const t = this.table.text(i);
        if (t.charCodeAt(0) === 9) {
          tabs++;
        } else if (t.startsWith('  ')) {
          spaces++;
        }
      }
      this.tabs_ = tabs > spaces;
    }
    return this.tabs_;
  }

  /**
   * The file's indentation step in columns: the most common increase of indentation from a
   * line with text to the next (tabs of {@link indentWidth}'s width), {@link TAB_COLUMNS} when no line is deeper than the one before.
   */
  indentStep(): number {
    if (this.step_ === undefined) {
      const count = new Map<number, number>();
      let prev = -1;
      for (let i = 0; i < this.table.count; i++) {
        if ((i & (EDIT_CANCEL_CHECK_STEPS - 1)) === 0) {
          throwIfCancelled(this.signal);
        }
        const t = this.table.text(i);
        if (isBlank(t)) {
          continue;
        }
        const w = indentWidth(leadingWhitespace(t));
        if (prev >= 0 && w > prev) {
          count.set(w - prev, (count.get(w - prev) ?? 0) + 1);
        }
        prev = w;
      }
      let best = TAB_COLUMNS;
      let most = 0;
      for (const [d, n] of count) {
        if (n > most || (n === most && d < best)) {
          best = d;
          most = n;
        }
      }
      this.step_ = best;
    }
    return this.step_;
  }

  checkCancelled(): void {
    throwIfCancelled(this.signal);
  }
}
