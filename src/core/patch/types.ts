/** A patch read by `parsePatch`: its file operations in the order written. */
export interface ParsedPatch {
  hunks: Hunk[];
  /** Sections with no lines under them (an `*** Update File:` or a `@@` line), left out of `hunks`: said in the answer, never an error. */
  empty?: EmptySection[];
}

/** A section header with no lines under it. */
export interface EmptySection {
  path: string;
  /** 1-based line of the header in the patch text. */
  patchLine: number;
  /** `@@` when a chunk's `@@` line had no lines under it; else the whole `*** Update File:` had none. */
  kind: 'update' | 'chunk';
}

/**
 * One file operation. `path` and `movePath` are the strings the patch wrote, trimmed;
 * resolving and policing them is the caller's job. `patchLine` is the 1-based line of
 * the `*** ... File:` header in the text given to `parsePatch`.
 */
export type Hunk =
  | { kind: 'add'; path: string; contents: string; patchLine: number }
  | { kind: 'delete'; path: string; patchLine: number }
  | { kind: 'update'; path: string; movePath?: string; chunks: Chunk[]; patchLine: number };

/** One line of a chunk: ` ` kept, `-` removed, `+` added. */
export interface ChunkLine {
  op: ' ' | '-' | '+';
  text: string;
  /** A kept line written without its leading space (the whole line is its text). */
  bare?: true;
}

export interface Chunk {
  /** The `@@` text nearest the change (the last of `contexts`). */
  context?: string;
  /** Every `@@` text of the chunk, outermost first (`@@ class A` then `@@ def f():`); empty when none. */
  contexts: string[];
  /** The ` ` and `-` lines, in order: what the file must contain. */
  oldLines: string[];
  /** The ` ` and `+` lines, in order: what replaces `oldLines`. */
  newLines: string[];
  /** Every line in patch order; tells which new line is a kept line (written as the file has it). */
  body: ChunkLine[];
  /** The chunk ended with `*** End of File`: its lines are the end of the file. */
  isEndOfFile: boolean;
  /** 1-based line in the patch text where the chunk starts (its first `@@` line or first line). */
  patchLine: number;
  /** Blank lines that end the chunk right before the next `@@`, header or `*** End Patch`: kept lines or separators (see chunks.ts `fitChunk`). */
  separators?: number;
  /**
   * What `\ No newline at end of file` lines said of the chunk's last lines, when it had
   * any: `old` the file's last line has no line break, `new` the result's has none.
   */
  noNewline?: { old: boolean; new: boolean };
}

/**
 * What the engine needs to know of a path named in the patch (paths exactly as written).
 * `key`, when given, is the path's identity as the caller resolved it (for instance its
 * absolute real path): two spellings with the same key are one file. Without it the
 * path string is the identity.
 */
export type FileProbe =
  | { kind: 'file'; text: string; key?: string }
  | { kind: 'directory'; key?: string }
  | { kind: 'missing'; key?: string };

/** How a chunk's lines were found: each pass forgives more than the one before. */
export type SeekPass = 'exact' | 'trim-end' | 'trim' | 'unicode';

/** Where one chunk of an update landed. */
export interface ChunkMatch {
  /** 1-based index of the hunk in the patch. */
  hunk: number;
  /** 1-based index of the chunk in its hunk. */
  chunk: number;
  /** 1-based first line of the replaced lines, in the file as that hunk saw it (the insertion line for a chunk without old lines). */
  line: number;
  pass: SeekPass;
  /** A loose match: how many lines of the file it took from `line`. */
  lines?: number;
  /** A loose match: its old lines as the patch wrote them where they differ from the file's (the first few). */
  differing?: { line: number; written: string; file: string }[];
  /** How its added lines were moved to the file's indentation, when they were. */
  indent?: string;
}

/**
 * The net effect of the patch on one file (several hunks on one path are merged).
 * `oldText` is the text the probe gave; `newText` uses the file's own line endings for
 * updates and `\n` for added files.
 */
export type PlannedChange =
  | { kind: 'add'; path: string; newText: string; overwrites: boolean; oldText?: string; hunks: number[] }
  | { kind: 'delete'; path: string; oldText: string; hunks: number[] }
  | {
      kind: 'update';
      path: string;
      movePath?: string;
      oldText: string;
      newText: string;
      /** The move replaces an existing file at `movePath`. */
      moveOverwrites?: boolean;
      /** The text of the file `movePath` replaces, when `moveOverwrites`. */
      overwrittenText?: string;
      matches: ChunkMatch[];
      hunks: number[];
    };

export interface PatchPlan {
  changes: PlannedChange[];
}

/**
 * Result of `seekSequence`: the one place the pattern matches (and the pass that found
 * it), every place when it matches more than once at the first pass that matches at
 * all, or none.
 */
export type SeekResult =
  | { kind: 'found'; index: number; pass: SeekPass }
  | { kind: 'ambiguous'; indices: number[]; pass: SeekPass }
  | { kind: 'none' };
