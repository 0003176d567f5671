import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NEVER_CANCELLED } from '../../src/core/cancel';
import { NodeWorkspace } from '../../src/host/nodeWorkspace';
import { StaleError, type ApplyOptions, type ApplyReport, type Diagnostic, type FileChange, type OpenDocument } from '../../src/host/workspace';
import { applyTextEdits } from '../../src/core/diff';
import type { NotebookCell } from '../../src/core/read/notebook';
import { ReadLedger } from '../../src/services/ledger';
import { FileLocks } from '../../src/services/locks';
import { resultText, type ToolResult } from '../../src/services/result';
import { invokeTool, prepareTool } from '../../src/services/run';
import { acceptAsProposed, type Approver, type ChangeProposal, type Confirmation, type Review } from '../../src/services/approval';
import { cliApprover } from '../../src/services/cliApprover';
import { DEFAULT_SETTINGS, type Settings } from '../../src/services/settings';
import { findTool } from '../../src/tools/registry';
import { findRipgrep, RIPGREP_ENV } from '../../src/core/search/ripgrep';
import { NODE_PROCESSES } from '../../src/host/process';
import { SILENT_LOGGER, type ToolContext } from '../../src/services/types';

/** A temporary folder with the given files ("dir/a.txt": contents); removed by `cleanup`. */
export function tempTree(files: Record<string, string | Uint8Array> = {}): { root: string; cleanup(): void } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'aft-')));
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
  return { root, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/**
 * A Node workspace whose editor documents and diagnostics can be faked, for buffer-aware
 * code paths: a change to an open document lands in it (and on disk only when it was
 * clean and saving is on), as in VS Code.
 */
export class TestWorkspace extends NodeWorkspace {
  docs = new Map<string, OpenDocument>();
  problems = new Map<string, Diagnostic[]>();
  override diagnostics(p: string): Diagnostic[] {
    return this.problems.get(p) ?? [];
  }
  override async applyChanges(changes: readonly FileChange[], opts: ApplyOptions): Promise<ApplyReport> {
    const inDocs = changes.filter((c): c is Extract<FileChange, { kind: 'edit' }> => c.kind === 'edit' && this.docs.has(c.path));
    for (const c of inDocs) {
      if (this.docs.get(c.path)!.text !== c.base) {
        throw new StaleError(c.path);
      }
    }
    const onDisk = changes.filter((c) => !inDocs.includes(c as never));
    const report = await super.applyChanges(onDisk, opts);
    const unsaved = [...report.unsaved];
    for (const c of inDocs) {
      const doc = this.docs.get(c.path)!;
      const text = applyTextEdits(doc.text, c.edits);
      const dirty = doc.isDirty || !opts.saveIfClean;
      this.docs.set(c.path, { ...doc, text, isDirty: dirty, version: doc.version + 1 });
      if (dirty) {
        unsaved.push(c.path);
      } else {
        fs.writeFileSync(c.path, text);
      }
    }
    return { ...report, unsaved };
  }
  notebooks = new Map<string, { cells: NotebookCell[]; isDirty: boolean }>();
  override openDocument(p: string): OpenDocument | undefined {
    return this.docs.get(p);
  }
  override openNotebook(p: string): { cells: NotebookCell[]; isDirty: boolean } | undefined {
    return this.notebooks.get(p);
  }
  override dirtyDocuments(): { path: string; text: string }[] {
    return [...this.docs].filter(([, d]) => d.isDirty).map(([p, d]) => ({ path: p, text: d.text }));
  }
}

/**
 * A context whose approver answers yes to everything, as a person who approves would;
 * tests of the questions themselves pass another `approver`.
 */
export async function context(root: string | string[], settings: Partial<Settings> = {}, approver: Approver = cliApprover({ yes: true, allowProtected: true, allowOutside: true })): Promise<ToolContext & { ws: TestWorkspace }> {
  const ws = await TestWorkspace.create(Array.isArray(root) ? root : [root]);
  return { ws, approver, settings: { ...DEFAULT_SETTINGS, ...settings }, signal: NEVER_CANCELLED, ledger: new ReadLedger(), locks: new FileLocks(), log: SILENT_LOGGER };
}

export async function call(ctx: ToolContext, tool: string, input: unknown): Promise<ToolResult & { text: string }> {
  const spec = findTool(tool);
  if (!spec) {
    throw new Error(`no tool ${tool}`);
  }
  const r = await invokeTool(spec, input, ctx);
  return { ...r, text: resultText(r) };
}

export async function prepare(ctx: ToolContext, tool: string, input: unknown) {
  return prepareTool(findTool(tool)!, input, ctx);
}

/** Runs `fn` with the search engine forced: a ripgrep path, or "none" for the JavaScript search. */
export async function withEngine<T>(engine: string, fn: () => Promise<T>): Promise<T> {
  const prev = process.env[RIPGREP_ENV];
  process.env[RIPGREP_ENV] = engine;
  try {
    return await fn();
  } finally {
    if (prev === undefined) {
      delete process.env[RIPGREP_ENV];
    } else {
      process.env[RIPGREP_ENV] = prev;
    }
  }
}

/** The `rg` on PATH, which the search tests need. */
export function rgOnPath(): string {
  const found = findRipgrep(undefined, { ...NODE_PROCESSES, env: { ...process.env, [RIPGREP_ENV]: '' } });
  if (!found) {
    throw new Error('ripgrep (rg) must be on PATH for these tests: install it (Debian: apt-get install ripgrep)');
  }
  return found.path;
}

/**
 * Makes a file that nobody can change, root included (root writes through file modes, so
 * it gets the immutable attribute); returns the undo.
 */
export function makeReadOnly(file: string): () => void {
  if (process.getuid?.() === 0) {
    execFileSync('chattr', ['+i', file]);
    return () => execFileSync('chattr', ['-i', file]);
  }
  fs.chmodSync(file, 0o444);
  fs.chmodSync(path.dirname(file), 0o555);
  return () => {
    fs.chmodSync(path.dirname(file), 0o755);
    fs.chmodSync(file, 0o644);
  };
}

/** An approver whose answers a test scripts, recording every question and proposal. */
export function scriptedApprover(answer: (p: ChangeProposal) => Review | Promise<Review> = acceptAsProposed) {
  const reviews: ChangeProposal[] = [];
  const shown: ChangeProposal[] = [];
  const confirms: Confirmation[] = [];
  const approver: Approver = {
    async confirm(q) {
      confirms.push(q);
      return { allowed: true };
    },
    async review(p) {
      reviews.push(p);
      return answer(p);
    },
    showApplied(p) {
      shown.push(p);
    },
  };
  return { approver, reviews, shown, confirms };
}

/**
 * The input of the call a page continues with (`Continue with: <tool> {json}`), after
 * checking that the line is the last one and a complete call of `tool`; undefined when
 * the page does not continue.
 */
export function continuation(tool: string, text: string): Record<string, unknown> | undefined {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.startsWith('Continue with: '));
  if (at === -1) {
    return undefined;
  }
  assert.equal(at, lines.length - 1, 'the Continue line is the last line');
  const m = new RegExp(`^Continue with: ${tool} (\\{.*\\})$`).exec(lines[at]);
  assert.ok(m, `a complete ${tool} call: ${lines[at]}`);
  return JSON.parse(m[1]) as Record<string, unknown>;
}

/** Every setting the manifest declares, from all its sections (`contributes.configuration` is a list of titled sections). */
export function settingsOf(m: { contributes: { configuration: { properties: Record<string, unknown> }[] } }): Record<string, { default: unknown } & Record<string, unknown>> {
  return Object.assign({}, ...m.contributes.configuration.map((s) => s.properties)) as Record<string, { default: unknown } & Record<string, unknown>>;
}
