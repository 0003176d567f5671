import { LINE_INDEX_MIN_STEP_LINES, MAX_LINE_INDEX_CHECKPOINTS, MAX_LINE_INDEX_FILES } from '../limits';

/** A line of a file and the byte it starts at. */
export interface Checkpoint {
  /** 1-based line number. */
  line: number;
  /** Byte offset in the file (after any BOM for line 1). */
  byte: number;
}

/**
 * Where lines start in one version of one file: checkpoints, sorted by line, at most
 * `maxCheckpoints` of them (when full, every other one is dropped, so they keep covering
 * the whole file at twice the spacing), and the line total once a scan reached the end.
 * Every scan of the file adds to it, so the next page starts from the nearest checkpoint
 * instead of from byte 0.
 */
export class LineIndex {
  private lines: number[] = [];
  private bytes: number[] = [];
  /** Lines in the file, once a scan reached its end. */
  total: number | undefined;

  constructor(
    readonly version: string,
    readonly maxCheckpoints = MAX_LINE_INDEX_CHECKPOINTS,
    readonly minStepLines = LINE_INDEX_MIN_STEP_LINES,
  ) {}

  get size(): number {
    return this.lines.length;
  }

  /** The checkpoint with the largest line at or before `line`, if any. */
  nearest(line: number): Checkpoint | undefined {
    let lo = 0;
    let hi = this.lines.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.lines[mid] <= line) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found === -1 ? undefined : { line: this.lines[found], byte: this.bytes[found] };
  }

  /** Records that `line` starts at `byte`. */
  add(line: number, byte: number): void {
    let lo = 0;
    let hi = this.lines.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.lines[mid] < line) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (this.lines[lo] === line) {
      return;
    }
    this.lines.splice(lo, 0, line);
    this.bytes.splice(lo, 0, byte);
    if (this.lines.length > this.maxCheckpoints) {
      this.lines = this.lines.filter((_, i) => i % 2 === 0);
      this.bytes = this.bytes.filter((_, i) => i % 2 === 0);
    }
  }

  /** Records a checkpoint a scan passed, unless one lies within `minStepLines` before it. */
  pass(line: number, byte: number): void {
    const before = this.nearest(line);
    if (!before || line - before.line >= this.minStepLines) {
      this.add(line, byte);
    }
  }

  /** Forgets every checkpoint (one proved wrong: the file changed under the same version). */
  clear(): void {
    this.lines = [];
    this.bytes = [];
    this.total = undefined;
  }
}

/**
 * The line indexes of the files read lately, least recently read dropped first, at most
 * `maxFiles`. An index belongs to one version of its file (size, modification time and
 * both ends, or the editor's document version): asking with another version drops it.
 */
export class LineIndexCache {
  private readonly files = new Map<string, LineIndex>();

  constructor(
    readonly maxFiles = MAX_LINE_INDEX_FILES,
    private readonly make: (version: string) => LineIndex = (v) => new LineIndex(v),
  ) {}

  get size(): number {
    return this.files.size;
  }

  /** The index of `path` at `version`: the one kept when it is of that version, else a new empty one. */
  get(path: string, version: string): LineIndex {
    let index = this.files.get(path);
    this.files.delete(path);
    if (!index || index.version !== version) {
      index = this.make(version);
    }
    this.files.set(path, index);
    while (this.files.size > this.maxFiles) {
      this.files.delete(this.files.keys().next().value!);
    }
    return index;
  }

  /** The index kept for `path`, without touching its place in the order (tests). */
  peek(path: string): LineIndex | undefined {
    return this.files.get(path);
  }
}
