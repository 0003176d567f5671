import * as vscode from 'vscode';
import { HISTORY_MAX_INDEX_BYTES } from '../core/limits';
import type { ChangeJournal, JournalEntry, JournalFile } from '../services/journal';
import type { Logger } from '../services/types';

/** The texts of one file of an entry: kept in a file of their own, read only to show or revert it. */
interface FileTexts {
  before?: string;
  after?: string;
  replaced?: string;
}

/** What the index holds of a file: everything but its texts. */
export type HistoryFile = Omit<JournalFile, 'before' | 'after' | 'replaced'>;

/** A change of the history, as the view lists it. */
export interface HistoryEntry extends Omit<JournalEntry, 'files'> {
  id: string;
  files: HistoryFile[];
  /** Bytes of text kept for it. */
  bytes: number;
  /** When a revert of it landed (milliseconds since the epoch). */
  revertedAt?: number;
}

export interface HistoryLimits {
  maxEntries: number;
  maxBytes: number;
}

interface Index {
  format: 1;
  next: number;
  entries: HistoryEntry[];
}

const INDEX = 'index.json';

function textsOf(f: JournalFile): FileTexts {
  return { before: f.before, after: f.after, replaced: f.replaced };
}

function bytesOf(texts: readonly FileTexts[]): number {
  return texts.reduce((n, t) => n + Buffer.byteLength(t.before ?? '') + Buffer.byteLength(t.after ?? '') + Buffer.byteLength(t.replaced ?? ''), 0);
}

function metaOf(f: JournalFile): HistoryFile {
  const meta: HistoryFile & Partial<FileTexts> = { ...f };
  delete meta.before;
  delete meta.after;
  delete meta.replaced;
  return meta;
}

function isEntry(v: unknown): v is HistoryEntry {
  const e = v as HistoryEntry;
  return !!e && typeof e.id === 'string' && /^\d+$/.test(e.id) && typeof e.tool === 'string' && typeof e.summary === 'string' && typeof e.at === 'number' && typeof e.bytes === 'number' && Array.isArray(e.files) && (e.revertedAt === undefined || typeof e.revertedAt === 'number');
}

/**
 * The history of changes that landed, kept in the workspace's storage so that it survives a
 * reload: an index (what each change did, no file text) and one file of texts per change.
 * Bounded in changes and in bytes of text (the oldest go first); a change larger than the
 * whole budget is listed without its texts, and cannot be reverted. Without a storage
 * folder (no workspace open) it lives in memory, under the same bounds. Writes are queued
 * one after another, so the index on disk is always one the journal wrote whole.
 */
export class HistoryJournal implements ChangeJournal, vscode.Disposable {
  private index: Index = { format: 1, next: 1, entries: [] };
  /** Texts not yet written (or, without storage, every entry's). */
  private readonly texts = new Map<string, FileTexts[]>();
  private queue: Promise<void>;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when an entry is added or removed. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly dir: vscode.Uri | undefined,
    private readonly limits: () => HistoryLimits,
    readonly log?: Logger,
  ) {
    this.queue = this.load();
  }

  /** Resolves once everything recorded so far is on disk. */
  flush(): Promise<void> {
    return this.queue;
  }

  /** Every change kept, newest first. */
  entries(): HistoryEntry[] {
    return [...this.index.entries].reverse();
  }

  get(id: string): HistoryEntry | undefined {
    return this.index.entries.find((e) => e.id === id);
  }

  /** The entries from `id` to the newest, oldest first: what "revert everything since" reverts. */
  since(id: string): HistoryEntry[] {
    const i = this.index.entries.findIndex((e) => e.id === id);
    return i < 0 ? [] : this.index.entries.slice(i);
  }

  /** An entry with its texts, read from storage; undefined when it is gone or its texts cannot be read. */
  async full(id: string): Promise<JournalEntry | undefined> {
    await this.queue;
    const e = this.get(id);
    if (!e) {
      return undefined;
    }
    let texts = this.texts.get(id);
    if (!texts && this.dir) {
      try {
        texts = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(this.fileOf(id))).toString('utf8')) as FileTexts[];
      } catch (err) {
        this.log?.warn(`history: the texts of change ${id} could not be read: ${err instanceof Error ? err.message : String(err)}`);
        return undefined;
      }
    }
    if (!Array.isArray(texts) || texts.length !== e.files.length) {
      return undefined;
    }
    return { tool: e.tool, summary: e.summary, origin: e.origin, ...(e.client !== undefined ? { client: e.client } : {}), at: e.at, files: e.files.map((f, i) => ({ ...f, ...(f.kept ? texts[i] : {}) })) };
  }

  record(entry: JournalEntry): void {
    const { maxBytes } = this.limits();
    let texts = entry.files.map(textsOf);
    let bytes = bytesOf(texts);
    let files = entry.files.map(metaOf);
    if (bytes > maxBytes) {
      const mib = (maxBytes / 1024 / 1024).toFixed(0);
      files = files.map((f) => (f.kept ? { ...f, kept: false, notKept: `the change is larger than the history keeps (agentFileTools.history.maxStorageMiB: ${mib})` } : f));
      texts = texts.map(() => ({}));
      bytes = 0;
    }
    this.queue = this.queue.then(async () => {
      const id = String(this.index.next++);
      this.index.entries.push({ tool: entry.tool, summary: entry.summary, origin: entry.origin, ...(entry.client !== undefined ? { client: entry.client } : {}), at: entry.at, id, files, bytes });
      this.texts.set(id, texts);
      const dropped = this.trim();
      this.changed.fire();
      await this.persist(id, dropped);
    });
  }

  /** Marks the changes as reverted (a revert of them landed at `at`). */
  markReverted(ids: readonly string[], at: number): Promise<void> {
    this.queue = this.queue.then(async () => {
      const marked = this.index.entries.filter((e) => ids.includes(e.id));
      for (const e of marked) {
        e.revertedAt = at;
      }
      if (marked.length) {
        this.changed.fire();
        await this.persist(undefined, []);
      }
    });
    return this.queue;
  }

  /** Forgets every change. */
  clear(): Promise<void> {
    this.queue = this.queue.then(async () => {
      const dropped = this.index.entries.map((e) => e.id);
      this.index.entries = [];
      this.changed.fire();
      await this.persist(undefined, dropped);
    });
    return this.queue;
  }

  /** Drops the oldest entries beyond the bounds; returns their ids. */
  private trim(): string[] {
    const { maxEntries, maxBytes } = this.limits();
    const dropped: string[] = [];
    let total = this.index.entries.reduce((n, e) => n + e.bytes, 0);
    while (this.index.entries.length > 0 && (this.index.entries.length > maxEntries || total > maxBytes)) {
      const e = this.index.entries.shift()!;
      total -= e.bytes;
      dropped.push(e.id);
    }
    return dropped;
  }

  private fileOf(id: string): vscode.Uri {
    return vscode.Uri.joinPath(this.dir!, `${id}.json`);
  }

  private async persist(added: string | undefined, dropped: readonly string[]): Promise<void> {
    for (const id of dropped) {
      this.texts.delete(id);
    }
    if (!this.dir) {
      return;
    }
    try {
      await vscode.workspace.fs.createDirectory(this.dir);
      if (added !== undefined && this.get(added)) {
        await vscode.workspace.fs.writeFile(this.fileOf(added), Buffer.from(JSON.stringify(this.texts.get(added) ?? []), 'utf8'));
        this.texts.delete(added);
      }
      const tmp = vscode.Uri.joinPath(this.dir, `${INDEX}.tmp`);
      await vscode.workspace.fs.writeFile(tmp, Buffer.from(JSON.stringify(this.index), 'utf8'));
      await vscode.workspace.fs.rename(tmp, vscode.Uri.joinPath(this.dir, INDEX), { overwrite: true });
      for (const id of dropped) {
        await vscode.workspace.fs.delete(this.fileOf(id)).then(undefined, () => undefined);
      }
    } catch (err) {
      this.log?.warn(`history: could not be saved: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private async load(): Promise<void> {
    if (!this.dir) {
      return;
    }
    try {
      const uri = vscode.Uri.joinPath(this.dir, INDEX);
      const st = await vscode.workspace.fs.stat(uri);
      if (st.size > HISTORY_MAX_INDEX_BYTES) {
        throw new Error(`the index is ${st.size} bytes`);
      }
      const parsed = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8')) as Partial<Index>;
      if (parsed.format !== 1 || !Array.isArray(parsed.entries) || typeof parsed.next !== 'number') {
        throw new Error('the index is not one this version wrote');
      }
      this.index = { format: 1, next: parsed.next, entries: parsed.entries.filter(isEntry) };
      const dropped = this.trim();
      if (dropped.length) {
        await this.persist(undefined, dropped);
      }
      this.changed.fire();
    } catch (err) {
      if (!(err instanceof vscode.FileSystemError && err.code === 'FileNotFound')) {
        this.log?.warn(`history: starting afresh, the saved one could not be read: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}
