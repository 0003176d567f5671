/**
 * Parses source files with tree-sitter, the parsers VS Code itself ships
 * (@vscode/tree-sitter-wasm: its runtime and grammars, built to match each other), for
 * outlines where no language server answers. A parse runs on a thread of its own
 * (treeSitterWorker.ts), started on the first outline that needs it and kept for later
 * ones: a slow parse never holds up the extension host, and a parse over its time or a
 * cancelled call ends with the thread terminated, which stops it even inside the WASM
 * parser. The runtime and each grammar are loaded on first use only; the bundles keep
 * them in their own files (dist/tree-sitter/, see esbuild.mjs), so activation and the
 * CLI's start do not pay for them. The grammars are the extension's own files, never the
 * workspace's.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { nodeWorkerThreads } from './lazyModules';
import type * as TreeSitter from '@vscode/tree-sitter-wasm';
import type { CancelSignal } from '../core/cancel';
import { CANCEL_POLL_MS, MAX_OUTLINE_PARSE_MS, MAX_OUTLINE_WORKER_HEAP_BYTES, OUTLINE_WORKER_IDLE_MS } from '../core/limits';
import { errorRanges, outlineFromSyntax, type SyntaxLanguage } from '../core/outline/syntax';
import { pack, unpack, type PackedOutline } from '../core/outline/packed';
import type { OutlineSymbol } from '../core/outline/symbols';
import { paced } from '../core/pace';

/** Where the wasm files are: next to the bundle that runs, else in the installed package (tests, a build-free run). */
function wasmDir(): string {
  const bundled = path.join(__dirname, 'tree-sitter');
  if (fs.existsSync(path.join(bundled, 'tree-sitter.wasm'))) {
    return bundled;
  }
  return path.dirname(require.resolve('@vscode/tree-sitter-wasm'));
}

let runtime: Promise<{ ts: typeof TreeSitter; dir: string }> | undefined;
const languages = new Map<SyntaxLanguage, Promise<TreeSitter.Language>>();

/** The runtime, initialised once; a failed load is retried on the next call. */
function loadRuntime(): Promise<{ ts: typeof TreeSitter; dir: string }> {
  runtime ??= (async () => {
    const dir = wasmDir();
    // a CommonJS module: imported from ESM-style code its exports may arrive as `default`
    const mod = (await import('@vscode/tree-sitter-wasm')) as typeof TreeSitter & { default?: typeof TreeSitter };
    const ts = mod.Parser ? mod : mod.default!;
    await ts.Parser.init({ locateFile: (file: string) => path.join(dir, file) });
    return { ts, dir };
  })().catch((e: unknown) => {
    runtime = undefined;
    throw e;
  });
  return runtime;
}

function loadLanguage(language: SyntaxLanguage): Promise<TreeSitter.Language> {
  let loading = languages.get(language);
  if (!loading) {
    loading = loadRuntime().then(({ ts, dir }) => ts.Language.load(path.join(dir, `tree-sitter-${language}.wasm`)));
    loading.catch(() => languages.delete(language));
    languages.set(language, loading);
  }
  return loading;
}

export type SyntaxOutline = { kind: 'parsed'; symbols: OutlineSymbol[]; errors: { first: number; last: number }[] } | { kind: 'abandoned'; reason: string };

/** What the parse thread answers: the outline packed (see core/outline/packed.ts). */
type PackedSyntaxOutline = { kind: 'parsed'; packed: PackedOutline; errors: { first: number; last: number }[] } | { kind: 'abandoned'; reason: string };

/** The outline of `text`, parsed on the calling thread and packed: what the parse thread runs. The tree is freed before returning. */
export async function parseHere(language: SyntaxLanguage, text: string): Promise<PackedSyntaxOutline> {
  const [{ ts }, lang] = await Promise.all([loadRuntime(), loadLanguage(language)]);
  const parser = new ts.Parser();
  try {
    parser.setLanguage(lang);
    const tree = parser.parse(text);
    if (!tree) {
      return { kind: 'abandoned', reason: 'the parser gave no tree' };
    }
    try {
      return { kind: 'parsed', packed: pack(outlineFromSyntax(tree.rootNode, language)), errors: errorRanges(tree.rootNode) };
    } finally {
      tree.delete();
    }
  } finally {
    parser.delete();
  }
}

/** The parse thread's script: next to this module, bundled (dist/treeSitterWorker.js) or compiled (out/src/host/treeSitterWorker.js). */
const WORKER_SCRIPT = path.join(__dirname, 'treeSitterWorker.js');

type Reply = { id: number; ok: true; result: PackedSyntaxOutline } | { id: number; ok: false; error: string };

interface Job {
  id: number;
  language: SyntaxLanguage;
  text: string;
  signal: CancelSignal & { onCancellationRequested?: (f: () => void) => { dispose(): void } };
  boundMs: number;
  settle(r: PackedSyntaxOutline): void;
}

/**
 * The one parse thread and its queue. Parses run one at a time (a parse is synchronous
 * inside the thread), so a queued call's time bound starts when its parse does; a call
 * cancelled while queued leaves the queue without touching the thread.
 */
class ParseThread {
  private worker: Worker | undefined;
  private readonly queue: Job[] = [];
  private running: { job: Job; timer: ReturnType<typeof setTimeout>; poll: ReturnType<typeof setInterval>; sub?: { dispose(): void } } | undefined;
  private idle: ReturnType<typeof setTimeout> | undefined;
  private nextId = 1;

  parse(language: SyntaxLanguage, text: string, signal: Job['signal'], boundMs: number): Promise<PackedSyntaxOutline> {
    return new Promise((settle) => {
      const job: Job = { id: this.nextId++, language, text, signal, boundMs, settle };
      this.queue.push(job);
      this.pump();
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) {
      return this.worker;
    }
    const w = new (nodeWorkerThreads().Worker)(WORKER_SCRIPT, { resourceLimits: { maxOldGenerationSizeMb: Math.round(MAX_OUTLINE_WORKER_HEAP_BYTES / (1024 * 1024)) } });
    w.on('message', (m: Reply) => {
      if (this.running?.job.id === m.id) {
        this.finish(m.ok ? m.result : { kind: 'abandoned', reason: m.error });
      }
    });
    // a crash (or the heap limit) answers the running parse; the next starts a fresh thread
    w.on('error', (e: Error) => this.stop(w, `the parser thread failed: ${e.message}`));
    w.on('exit', (code) => this.stop(w, `the parser thread ended (exit code ${code})`));
    w.unref();
    this.worker = w;
    return w;
  }

  /** Ends the thread `w` (when it is still the current one) and answers the parse it ran. */
  private stop(w: Worker, reason: string): void {
    if (this.worker !== w) {
      return;
    }
    this.worker = undefined;
    void w.terminate();
    if (this.running) {
      this.finish({ kind: 'abandoned', reason });
    }
  }

  private pump(): void {
    while (!this.running && this.queue.length > 0) {
      const job = this.queue.shift()!;
      if (job.signal.isCancellationRequested) {
        job.settle({ kind: 'abandoned', reason: 'the call was cancelled' });
        continue;
      }
      if (this.idle) {
        clearTimeout(this.idle);
        this.idle = undefined;
      }
      const w = this.ensureWorker();
      const cancel = () => {
        if (this.running?.job === job) {
          this.stop(w, 'the call was cancelled');
        }
      };
      const timer = setTimeout(() => {
        if (this.running?.job === job) {
          this.stop(w, `parsing took over ${job.boundMs} ms`);
        }
      }, job.boundMs);
      // VS Code's token says at once; the CLI's signal is polled
      const sub = typeof job.signal.onCancellationRequested === 'function' ? job.signal.onCancellationRequested(cancel) : undefined;
      const poll = setInterval(() => {
        if (job.signal.isCancellationRequested) {
          cancel();
        }
      }, CANCEL_POLL_MS);
      this.running = { job, timer, poll, sub };
      // the thread keeps the process alive only while it parses
      w.ref();
      w.postMessage({ id: job.id, language: job.language, text: job.text });
    }
  }

  private finish(r: PackedSyntaxOutline): void {
    const run = this.running;
    if (!run) {
      return;
    }
    this.running = undefined;
    clearTimeout(run.timer);
    clearInterval(run.poll);
    run.sub?.dispose();
    this.worker?.unref();
    run.job.settle(r);
    this.pump();
    if (!this.running && this.worker) {
      // kept warm for the next outline, and let go after a while without one
      const w = this.worker;
      this.idle = setTimeout(() => this.worker === w && !this.running && this.stop(w, 'idle'), OUTLINE_WORKER_IDLE_MS);
      this.idle.unref();
    }
  }

  /** Whether a parse thread is running now (tests: the one a timeout or cancellation ended is gone). */
  get alive(): boolean {
    return this.worker !== undefined;
  }
}

const thread = new ParseThread();

/**
 * The outline of `text` in `language`, or why there is none: the parse runs on the parse
 * thread and is stopped, the thread terminated, when it takes longer than `boundMs`
 * (MAX_OUTLINE_PARSE_MS; tests pass less) or the call is cancelled.
 */
export async function syntaxOutline(language: SyntaxLanguage, text: string, signal: CancelSignal, boundMs = MAX_OUTLINE_PARSE_MS): Promise<SyntaxOutline> {
  if (signal.isCancellationRequested) {
    return { kind: 'abandoned', reason: 'the call was cancelled' };
  }
  const r = await thread.parse(language, text, signal as Job['signal'], boundMs);
  if (r.kind === 'abandoned') {
    return r;
  }
  // unpacked in slices that give this thread back (it is the extension host's)
  const symbols = await paced(unpack(r.packed), signal).catch(() => undefined);
  return symbols ? { kind: 'parsed', symbols, errors: r.errors } : { kind: 'abandoned', reason: 'the call was cancelled' };
}

/** Whether the parse thread is running (for tests). */
export function parseThreadAlive(): boolean {
  return thread.alive;
}
