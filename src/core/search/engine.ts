import * as nodePath from 'node:path';
import type { CancelSignal } from '../cancel';
import { ToolError } from '../errors';
import { Pacer } from '../pace';
import { MAX_RG_PATH_ARG_CHARS } from '../limits';
import { jsCount, jsDetails, jsFiles, recordFinder, textDetails, type JsHost } from './jsEngine';
import { compileQuery, RegexTranslationError, type CompiledQuery, type Query } from './regex';
import type { ProcessHost } from '../process';
import { findRipgrep, rgCount, rgDetails, rgFiles, rgMultilineCount, rgTextDetails, type RipgrepFound, type RgScope } from './ripgrep';
import type { Scope } from './scope';
import { GitDirectoryFolders, OutsideGitDirectories, type GitDirectories } from '../gitDirectory';
import { FolderGate, type QuickPath } from '../folderGate';
import { looksBinary, type FileHits } from './textSearch';

/**
 * The two ways to walk and search, behind one interface so the tools cannot tell them
 * apart: ripgrep, or the JavaScript emulation of it when no ripgrep is found. Paths in
 * and out are relative to the scope's root.
 */
export interface SearchEngine {
  readonly kind: 'ripgrep' | 'javascript';
  /** For the footer: which engine ran. */
  readonly label: string;
  /**
   * Files a walk keeps (`rg --files`), each given to `onFile` once, in no particular order:
   * a walk of a million files is a stream, never a list. `boundary` gets what ignore rules
   * left out, when `keeps` is empty. With `ask`, each folder's files wait for its answer
   * (asked once, with the engine's own question of the folder): false leaves them out,
   * anything else comes with each of them, and `cut` is where the file's folder ends. With
   * `quick`, a path whose folder's answer is at hand may be decided from that and its name's
   * bytes alone: it then never comes to `onFile`.
   */
  files<A extends object | true = true>(scope: Scope, keeps: readonly string[], trailingKeeps: readonly string[], onFile: (rel: string, answer: A, cut: number) => void, boundary?: string[], ask?: FolderAsk<A>, quick?: QuickPath<A>): Promise<void>;
  /** Match records per file, each file with a match given to `onCount` once, in no particular order. */
  count(scope: Scope, q: Query, keeps: readonly string[], onCount: (rel: string, n: number) => void, boundary?: string[]): Promise<void>;
  /** Records (the first `maxCount`) and lines around them, of chosen files. */
  details(scope: Scope, q: Query, files: readonly string[], maxCount: number, context: number): Promise<Map<string, FileHits>>;
  /** The same for a text (an unsaved buffer); undefined when it would be skipped as binary. */
  textDetails(scope: Scope, q: Query, text: string, context: number): Promise<FileHits | undefined>;
}

/** A question about each folder of a walk ("" for the root's own files): see {@link SearchEngine.files}. */
export type FolderAsk<A> = (folder: string) => A | false | Promise<A | false>;

/** Both answers about a folder, the engine's first: at once where both are. */
function askBoth<A>(first: boolean | Promise<boolean>, then: FolderAsk<A>, folder: string): A | false | Promise<A | false> {
  if (first === false) {
    return false;
  }
  return first === true ? then(folder) : first.then((ok) => (ok ? then(folder) : false));
}

const passAll = (): true => true;

function rgScope(found: RipgrepFound, proc: ProcessHost, scope: Scope, signal?: CancelSignal): RgScope {
  return { rg: found.path, proc, cwd: scope.rootPath, target: scope.isFile || scope.baseRel ? scope.baseRel : undefined, policy: scope.policy, signal };
}

/**
 * ripgrep leaves out only folders named `.git`: what it returns from git directories
 * under other names (`repo.git/config`) is dropped here, a few stats per folder, as it
 * comes.
 */
function withoutGitDirectories<T>(scope: Scope, dirs: GitDirectories, keep: (rel: string, value: T) => void, signal: CancelSignal | undefined): OutsideGitDirectories<T> {
  return new OutsideGitDirectories<T>(scope.baseRel, walkedPath(scope), dirs, keep, signal);
}

/**
 * A folder a walk met (root-relative, "/"-separated, no "." or ".." segment) as an absolute
 * path: joined without normalizing, since the root is normal (asked of every folder).
 */
function walkedPath(scope: Scope): (rel: string) => string {
  const sep = nodePath.sep;
  const root = scope.rootPath.endsWith(sep) ? scope.rootPath : scope.rootPath + sep;
  return sep === '/' ? (rel) => root + rel : (rel) => root + rel.replaceAll('/', sep);
}

export function ripgrepEngine(found: RipgrepFound, proc: ProcessHost, gitDirs: GitDirectories, signal?: CancelSignal): SearchEngine {
  const origin = found.origin === 'editor' ? 'bundled with the editor' : found.origin === 'PATH' ? 'rg on PATH' : `set by ${found.origin}`;
  return {
    kind: 'ripgrep',
    label: `ripgrep (${origin})`,
    files: async <A extends object | true>(scope: Scope, keeps: readonly string[], trailing: readonly string[], onFile: (rel: string, answer: A, cut: number) => void, boundary?: string[], ask?: FolderAsk<A>, quick?: QuickPath<A>) => {
      // one gate for both questions: a path's folder is looked up once
      const git = new GitDirectoryFolders(scope.baseRel, walkedPath(scope), gitDirs);
      const then = ask ?? (passAll as unknown as FolderAsk<A>);
      const gate = new FolderGate<undefined, A>((folder) => askBoth(git.outside(folder), then, folder), (rel, _v, answer, cut) => onFile(rel, answer, cut), signal);
      await rgFiles(rgScope(found, proc, scope, signal), keeps, trailing, (buf, start, end, text) => gate.pushBytes(buf, start, end, undefined, text, quick), boundary);
      await gate.done();
    },
    count: async (scope, q, keeps, onCount, boundary) => {
      const kept = withoutGitDirectories<number>(scope, gitDirs, onCount, signal);
      const each = (rel: string, n: number) => kept.push(rel, n);
      await (q.multiline ? rgMultilineCount(rgScope(found, proc, scope, signal), q, keeps, each, boundary) : rgCount(rgScope(found, proc, scope, signal), q, keeps, each, boundary));
      await kept.done();
    },
    // In multiline mode `--max-count` counts matches, and several can make one record.
    details: (scope, q, files, maxCount, context) => rgDetails(rgScope(found, proc, scope, signal), q, files, q.multiline ? 1_000_000_000 : maxCount, context, MAX_RG_PATH_ARG_CHARS),
    textDetails: async (scope, q, text, context) => (looksBinary(text) ? undefined : rgTextDetails(rgScope(found, proc, scope, signal), q, text, undefined, context)),
  };
}

/** Compiles for the JavaScript search, turning a pattern it cannot take into a model-readable error. */
export function compileForJs(q: Query): CompiledQuery {
  try {
    return compileQuery(q);
  } catch (e) {
    if (e instanceof RegexTranslationError) {
      throw new ToolError('invalid-input', `Invalid pattern for the built-in search: ${e.message}. Rewrite the pattern without it, or set "fixed_strings": true to search for the text literally.`);
    }
    const why = e instanceof Error ? e.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '') : String(e);
    throw new ToolError('invalid-input', `Invalid pattern: ${why}\nFix the regular expression, or set "fixed_strings": true to search for the text literally.`);
  }
}

export function javascriptEngine(host: JsHost, proc: Pick<ProcessHost, 'startTask'>, signal?: CancelSignal): SearchEngine {
  const find = recordFinder(proc, signal);
  const compiled = new Map<string, CompiledQuery>();
  const compile = (q: Query) => {
    const key = JSON.stringify(q);
    let c = compiled.get(key);
    if (!c) {
      c = compileForJs(q);
      compiled.set(key, c);
    }
    return c;
  };
  const js = (scope: Scope) => ({ host, find, rootPath: scope.rootPath, policy: scope.policy, file: scope.isFile ? scope.baseRel : undefined, signal });
  return {
    kind: 'javascript',
    label: 'the built-in JavaScript search (no ripgrep was found)',
    files: async <A extends object | true>(scope: Scope, keeps: readonly string[], trailing: readonly string[], onFile: (rel: string, answer: A, cut: number) => void, boundary?: string[], ask?: FolderAsk<A>) => {
      const pacer = new Pacer(signal);
      const gate = ask ? new FolderGate<undefined, A>(ask, (rel, _v, answer, cut) => onFile(rel, answer, cut), signal) : undefined;
      for (const rel of await jsFiles(js(scope), keeps, trailing, boundary)) {
        await pacer.tick();
        if (gate) {
          gate.push(rel, undefined);
        } else {
          onFile(rel, true as A, rel.lastIndexOf('/'));
        }
      }
      await gate?.done();
    },
    count: async (scope, q, keeps, onCount, boundary) => {
      const pacer = new Pacer(signal);
      for (const [rel, n] of await jsCount(js(scope), compile(q), keeps, boundary)) {
        await pacer.tick();
        onCount(rel, n);
      }
    },
    details: (scope, q, files, maxCount, context) => jsDetails(js(scope), compile(q), files, maxCount, context),
    textDetails: async (_scope, q, text, context) => (looksBinary(text) ? undefined : textDetails(find, text, compile(q), undefined, context)),
  };
}

const announced = new Set<string>();

/**
 * The editor's ripgrep, else `rg` on PATH, else the JavaScript search; the choice is
 * logged once per process and engine, so the log tells which binary served the tools.
 * `onDisk` false (folders not on the local disk) always takes the JavaScript search.
 */
export function pickEngine(bundled: string | undefined, host: JsHost, proc: ProcessHost, gitDirs: GitDirectories, signal: CancelSignal | undefined, log: (message: string) => void, onDisk = true): SearchEngine {
  // ripgrep reads the disk; a virtual workspace (another URI scheme) is searched through the host
  const found = onDisk ? findRipgrep(bundled, proc) : undefined;
  const key = found ? `${found.origin}\0${found.path}` : 'javascript';
  if (!announced.has(key)) {
    announced.add(key);
    log(found ? `Searching with ripgrep at ${found.path} (${found.origin === 'editor' ? 'bundled with the editor' : found.origin === 'PATH' ? 'found on PATH' : `set by ${found.origin}`})` : 'No ripgrep found (neither bundled with the editor nor on PATH): searching with the built-in JavaScript search');
  }
  return found ? ripgrepEngine(found, proc, gitDirs, signal) : javascriptEngine(host, proc, signal);
}
