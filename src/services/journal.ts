import type { ProposedAction } from './approval';

/** Where a change was asked for: a chat request, a person's command (palette, a view), another extension's call outside a chat, or an MCP client. */
export type ChangeOrigin = 'chat' | 'command' | 'extension' | 'mcp';

/** One file of a change that landed, as the history keeps it. */
export interface JournalFile {
  /** Absolute path the change landed on (for a move: the destination). */
  path: string;
  /** As tools print it. */
  display: string;
  action: ProposedAction;
  /** For a move: where the file was. */
  from?: { path: string; display: string };
  /** For a move: `path` is another spelling of `from` (its case, its normalisation), one file renamed. */
  respell?: boolean;
  /**
   * The text before the change (for a move: the source's); undefined when the file did not
   * exist, or when the content is not kept (`kept` false).
   */
  before?: string;
  /** For a move onto an existing file: the text the change replaced at `path`. */
  replaced?: string;
  /** The text the change left (after formatting); undefined for a delete or when not kept. */
  after?: string;
  /** The encoding the file had (or got): a file brought back gets it again, BOM and all. */
  encoding: string;
  /** The encoding of the file `replaced` was. */
  replacedEncoding?: string;
  added: number;
  removed: number;
  /** The person edited the proposal before accepting it. */
  userEdited: boolean;
  /** False when the texts are not kept: a file that may hold secrets, or a change too large for the journal. */
  kept: boolean;
  /** Why the texts are not kept, in words for the person. */
  notKept?: string;
}

/** A change that landed, as the history keeps it. */
export interface JournalEntry {
  tool: string;
  summary: string;
  origin: ChangeOrigin;
  /** For an MCP client's change: the client, by the name it gave. */
  client?: string;
  /** When it landed, in milliseconds since the epoch. */
  at: number;
  files: JournalFile[];
}

/** Where landChange records what landed (VS Code keeps a journal; the CLI has none). */
export interface ChangeJournal {
  record(entry: JournalEntry): void;
}

/**
 * What one path must be restored to and what the change left there: the unit of a revert.
 * `wrote` undefined: the change left no file there (deleted, or moved away); `restore`
 * undefined: there was no file before (the revert deletes it).
 */
export interface PathState {
  path: string;
  display: string;
  restore: string | undefined;
  wrote: string | undefined;
  encoding: string;
  /**
   * A later change found something else there than an earlier one wrote: work of the
   * person's (or of another program) lies between them, and reverting would undo it too.
   */
  between?: boolean;
  /** The change gave the file at `path` another spelling of its name, this one: the revert gives it `path`'s again. */
  respelledAs?: { path: string; display: string };
}

/** Each path one file of a change touched, with what was there before and after (a move touches two). */
function statesOf(f: JournalFile): PathState[] {
  if (f.action === 'move' && f.from && f.respell) {
    // one file: its text, and its name spelled back
    return [{ path: f.from.path, display: f.from.display, restore: f.before, wrote: f.after, encoding: f.encoding, respelledAs: { path: f.path, display: f.display } }];
  }
  if (f.action === 'move' && f.from) {
    return [
      { path: f.from.path, display: f.from.display, restore: f.before, wrote: undefined, encoding: f.encoding },
      { path: f.path, display: f.display, restore: f.replaced, wrote: f.after, encoding: f.replacedEncoding ?? f.encoding },
    ];
  }
  return [{ path: f.path, display: f.display, restore: f.before, wrote: f.after, encoding: f.encoding }];
}

/**
 * What reverting `entries` (oldest first, consecutive in the history) does to each path:
 * restore what the oldest found there, over what the newest left. A path no change
 * touched in between keeps its own state, so reverting "everything since" is one change.
 */
export function revertStates(entries: readonly JournalEntry[]): PathState[] {
  const byPath = new Map<string, PathState>();
  for (const e of entries) {
    for (const s of e.files.flatMap(statesOf)) {
      const had = byPath.get(s.path);
      byPath.set(s.path, had ? { ...had, wrote: s.wrote, display: s.display, ...(had.between || had.wrote !== s.restore ? { between: true } : {}) } : s);
    }
  }
  return [...byPath.values()].filter((s) => s.restore !== s.wrote);
}

/** Whether every file of the entries kept its texts, so that they can be reverted. */
export function revertible(entries: readonly JournalEntry[]): boolean {
  return entries.every((e) => e.files.every((f) => f.kept));
}
