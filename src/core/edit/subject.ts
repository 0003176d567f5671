import { throwIfCancelled, type CancelSignal } from '../cancel';
import { EDIT_CANCEL_CHECK_STEPS } from '../limits';
import { LfView, LineTable } from './lines';
import { asciiTypography, isBlank, substanceKey } from './normalize';
import { Interner } from './search';

/** The file's lines with text, as interned substance keys (see {@link substanceKey}). */
export interface SubstanceIndex {
  interner: Interner;
  /** Key id of each line with text, in file order. */
  ids: Int32Array;
  /** File line (0-based) of each entry of `ids`. */
  lines: Int32Array;
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
  private occ_?: { offsets: Int32Array; positions: Int32Array };
  private tabs_?: boolean;

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
      const interner = new Interner();
      const texts = this.table.texts;
      const ids: number[] = [];
      const lines: number[] = [];
      for (let i = 0; i < texts.length; i++) {
        if ((i & (EDIT_CANCEL_CHECK_STEPS - 1)) === 0) {
          throwIfCancelled(this.signal);
        }
        if (!isBlank(texts[i])) {
          ids.push(interner.id(substanceKey(texts[i])));
          lines.push(i);
        }
      }
      this.index_ = { interner, ids: Int32Array.from(ids), lines: Int32Array.from(lines) };
    }
    return this.index_;
  }

  /** Positions in {@link index} of the lines with key id `id`, ascending. */
  positionsOf(id: number): Int32Array {
    if (!this.occ_) {
      const { ids } = this.index;
      let max = -1;
      for (const id of ids) {
        max = Math.max(max, id);
      }
      const offsets = new Int32Array(max + 2);
      for (const id of ids) {
        offsets[id + 1]++;
      }
      for (let i = 1; i < offsets.length; i++) {
        offsets[i] += offsets[i - 1];
      }
      const fill = offsets.slice(0, -1);
      const positions = new Int32Array(ids.length);
      for (let p = 0; p < ids.length; p++) {
        positions[fill[ids[p]]++] = p;
      }
      this.occ_ = { offsets, positions };
    }
    const { offsets, positions } = this.occ_;
    return id + 1 < offsets.length ? positions.subarray(offsets[id], offsets[id + 1]) : new Int32Array(0);
  }

  /** Whether the file indents with tabs (more lines start with a tab than with two spaces). */
  usesTabs(): boolean {
    if (this.tabs_ === undefined) {
      let tabs = 0;
      let spaces = 0;
      for (const t of this.table.texts) {
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

  checkCancelled(): void {
    throwIfCancelled(this.signal);
  }
}
