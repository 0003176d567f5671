import * as vscode from 'vscode';
import { MERGE_EDITOR_OPEN_MS } from '../core/limits';

export const MERGE_SCHEME = 'agent-file-tools-merge';

/**
 * The documents a merge editor resolves into. The merge editor saves its result through the
 * text file service, so the result must live in a file system (an untitled document would
 * ask where to save); it lives here, in memory, and never on the real file: what the person
 * resolves goes on to the revert's review, and only the review writes the file.
 */
export class MergeResults implements vscode.FileSystemProvider {
  private readonly files = new Map<string, { data: Uint8Array; mtime: number; ctime: number }>();
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  private readonly wrote = new vscode.EventEmitter<vscode.Uri>();
  private count = 0;
  readonly onDidChangeFile = this.changed.event;
  /** A result was saved (the merge editor's Complete Merge, or the person's Save). */
  readonly onDidWrite = this.wrote.event;

  /** A new result named like the file at `path` (so it gets the file's language), holding `text`. */
  create(path: vscode.Uri, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: MERGE_SCHEME, path: `/${++this.count}${path.path}` });
    const now = Date.now();
    this.files.set(uri.toString(), { data: new TextEncoder().encode(text), mtime: now, ctime: now });
    return uri;
  }

  text(uri: vscode.Uri): string | undefined {
    const f = this.files.get(uri.toString());
    // the text file service writes UTF-8 (with a BOM only if the document had one): the real file's encoding is the review's to keep
    return f && new TextDecoder('utf-8', { ignoreBOM: false }).decode(f.data);
  }

  forget(uri: vscode.Uri): void {
    this.files.delete(uri.toString());
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const f = this.files.get(uri.toString());
    if (f) {
      return { type: vscode.FileType.File, ctime: f.ctime, mtime: f.mtime, size: f.data.byteLength };
    }
    if (uri.path === '/' || [...this.files.keys()].some((k) => k.startsWith(`${uri.toString()}/`))) {
      return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    }
    throw vscode.FileSystemError.FileNotFound(uri);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const f = this.files.get(uri.toString());
    if (!f) {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    return f.data;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const f = this.files.get(uri.toString());
    // only the results this revert created: nothing else can be written in this scheme
    if (!f) {
      throw vscode.FileSystemError.NoPermissions(uri);
    }
    f.data = content.slice();
    f.mtime = Math.max(Date.now(), f.mtime + 1);
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
    this.wrote.fire(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  dispose(): void {
    this.changed.dispose();
    this.wrote.dispose();
    this.files.clear();
  }
}

export interface MergeSides {
  /** What the change wrote: the base both sides start from. */
  base: vscode.Uri;
  /** What the file holds now: the newer work (left). */
  now: { uri: vscode.Uri; title: string; description: string };
  /** What the revert would put back (right). */
  revert: { uri: vscode.Uri; title: string; description: string };
  /** Where the result starts: the newer work, so that nothing of it goes unless the person takes the revert's side. */
  result: vscode.Uri;
}

export type MergeOutcome = { kind: 'merged'; text: string } | { kind: 'closed' } | { kind: 'unavailable'; why: string };

/**
 * A merge editor tab's sides. The host builds its input as `vscode.TabInputTextMerge`, a class
 * the stable typings do not declare yet, so it is recognised by its fields.
 */
export function mergeInputOf(tab: vscode.Tab): { base: vscode.Uri; input1: vscode.Uri; input2: vscode.Uri; result: vscode.Uri } | undefined {
  const i = tab.input as Record<string, unknown> | undefined;
  return i && typeof i === 'object' && ['base', 'input1', 'input2', 'result'].every((k) => i[k] instanceof vscode.Uri)
    ? (i as { base: vscode.Uri; input1: vscode.Uri; input2: vscode.Uri; result: vscode.Uri })
    : undefined;
}

function mergeTabOf(result: vscode.Uri): vscode.Tab | undefined {
  const key = result.toString();
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => mergeInputOf(t)?.result.toString() === key);
}

/**
 * Opens VS Code's merge editor (`_open.mergeEditor`, the command the git extension uses)
 * over the sides, and waits until its tab closes: saved by then (Complete Merge saves the
 * result) is the person's answer; closed unsaved changes nothing. `unavailable`: the host
 * has no merge editor, or it did not appear.
 */
export async function mergeInEditor(results: MergeResults, sides: MergeSides): Promise<MergeOutcome> {
  const initial = results.text(sides.result);
  let saved: string | undefined;
  let writes = 0;
  const disposables: vscode.Disposable[] = [];
  try {
    disposables.push(
      results.onDidWrite((uri) => {
        const text = uri.toString() === sides.result.toString() ? results.text(uri) : undefined;
        if (text === undefined) {
          return;
        }
        // the merge editor saves the result once as it opens, unchanged: that is not an answer;
        // any other save is, even of the text it started with (the person kept the newer work)
        writes++;
        if (text !== initial || writes > 1) {
          saved = text;
        }
      }),
    );
    try {
      await vscode.commands.executeCommand('_open.mergeEditor', {
        base: sides.base,
        input1: { uri: sides.now.uri, title: sides.now.title, description: sides.now.description, detail: undefined },
        input2: { uri: sides.revert.uri, title: sides.revert.title, description: sides.revert.description, detail: undefined },
        output: sides.result,
      });
    } catch (err) {
      return { kind: 'unavailable', why: err instanceof Error ? err.message : String(err) };
    }
    const t0 = Date.now();
    while (!mergeTabOf(sides.result)) {
      if (Date.now() - t0 > MERGE_EDITOR_OPEN_MS) {
        return { kind: 'unavailable', why: `the merge editor did not open in ${MERGE_EDITOR_OPEN_MS} ms` };
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    // no await between finding the tab and listening: it cannot close unseen
    await new Promise<void>((resolve) => {
      const check = () => mergeTabOf(sides.result) === undefined && resolve();
      disposables.push(vscode.window.tabGroups.onDidChangeTabs(check), vscode.window.tabGroups.onDidChangeTabGroups(check));
    });
    return saved !== undefined ? { kind: 'merged', text: saved } : { kind: 'closed' };
  } finally {
    disposables.forEach((d) => d.dispose());
    results.forget(sides.result);
  }
}
