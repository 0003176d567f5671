import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import Module from 'node:module';
import * as path from 'node:path';
import type * as Vm from 'node:vm';
import { nodeOs } from './lazyModules';

/**
 * The CLI's tool bundles loaded with V8's code cache, so a call does not compile half a
 * megabyte of JavaScript again every time it starts (most of its start-up CPU).
 *
 * The cache lives in a folder of the OS temp folder that only this user may open
 * (`agent-file-tools-compile-cache-UID`, mode 0700, checked before each use: cached code runs
 * as it is, so a folder another user made or could write is never used, and neither is
 * Node's default, a shared `node-compile-cache` anyone could make first). Node 22.1 and later
 * keep the cache themselves (`module.enableCompileCache(dir)`). Node 20 compiles the bundle
 * here, from cached data kept per bundle (`vm.Script`); code compiled so has no `import()`
 * (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING, whatever loader is named for it), so a bundle
 * that holds one is required as usual: the CLI's build turns the tools' import() into
 * require (esbuild.mjs). Whatever fails here only means compiling as usual.
 */

type NodeModuleStatics = typeof Module & {
  enableCompileCache?: (dir: string) => unknown;
  _cache: Record<string, NodeModule | undefined>;
  _nodeModulePaths(dir: string): string[];
  wrap(source: string): string;
  wrapper: readonly [string, string];
};

/** The CLI's cache folder, made if missing; undefined unless it is a real folder of this user that no one else may open. */
export function cacheFolder(): string | undefined {
  const uid = process.getuid?.();
  return uid === undefined ? undefined : ownFolder(path.join(nodeOs().tmpdir(), `agent-file-tools-compile-cache-${uid}`));
}

/**
 * `dir`, made if missing (its missing parents too, each only this user may open); undefined
 * unless it is a real folder (not a link) of this user that no one else may open, or where
 * there is no owner to check (Windows).
 */
export function ownFolder(dir: string): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) {
    return undefined;
  }
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = fs.lstatSync(dir);
    return st.isDirectory() && st.uid === uid && (st.mode & 0o077) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Loads the CommonJS bundle `file` as `require` would, through Node's compile cache where
 * there is one. Undefined when there is no such file (the tests run the sources, not the bundles).
 */
export function loadBundle(file: string, parent: NodeModule): unknown {
  if (!fs.existsSync(file)) {
    return undefined;
  }
  const statics = Module as NodeModuleStatics;
  const enable = statics.enableCompileCache;
  let dir: string | undefined;
  try {
    dir = cacheFolder();
  } catch {
    dir = undefined;
  }
  if (typeof enable === 'function') {
    if (dir) {
      enable(dir);
    }
  } else if (dir && !statics._cache[file]) {
    const loaded = loadCompiledHere(file, parent, dir);
    if (loaded) {
      // the data is filed when the call has compiled the functions it ran
      if (loaded.keep) {
        process.once('exit', loaded.keep);
      }
      return loaded.module.exports;
    }
  }
  return createRequire(parent.filename)(file);
}

/**
 * For a process that lives on (the extension host): loads the CommonJS bundle `file` from V8's
 * cached data kept in `dir` (a folder `ownFolder` gave), never through Node's own cache, which
 * would take in every module loaded after it in that process (other extensions' too).
 * `keep` files fresh data, with every function compiled by then; it is there only when the
 * data was missing or refused. Without `dir`, or for a bundle that may use import(), the
 * bundle is required as usual.
 */
export function loadBundleInHost(file: string, parent: NodeModule, dir: string | undefined): { exports: unknown; keep?: () => void } {
  const statics = Module as NodeModuleStatics;
  const loaded = dir && !statics._cache[file] ? loadCompiledHere(file, parent, dir, true) : undefined;
  if (loaded) {
    return { exports: loaded.module.exports, ...(loaded.keep ? { keep: loaded.keep } : {}) };
  }
  return { exports: createRequire(parent.filename)(file) };
}

/** A bundle file's identity to the nanosecond: what its cached data is filed under, and what must not change while it is read. */
type Identity = Pick<fs.BigIntStats, 'dev' | 'ino' | 'size' | 'mtimeNs' | 'ctimeNs'>;

function sameIdentity(a: Identity, b: Identity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

/** A data file written aside longer ago than this was left by a write cut short. */
const ABANDONED_MS = 60_000;

/** A file changed less than this long ago may change again within its timestamps' resolution: its data is not kept. */
const SETTLED_NS = 2_000_000_000n;

/** Which copy of the CLI a bundle is (a short hash of its folder): each installed copy keeps and prunes its own data. */
function copyTag(file: string): string {
  let h = 0x811c9dc5;
  for (const ch of path.dirname(file)) {
    h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  }
  return h.toString(36);
}

/**
 * What a bundle's cached data is filed under: the copy of the CLI, the bundle file itself
 * (device, inode, size, change and modification times to the nanosecond: an update writes a
 * new file) and the Node that made it. V8 refuses data of another V8 or other flags itself;
 * it checks the source only by its length, hence the file's identity here.
 */
function cacheName(file: string, st: Identity): string {
  const id = [st.dev, st.ino, st.size, st.mtimeNs, st.ctimeNs].map((n) => n.toString(36)).join('-');
  return `${path.basename(file, '.js')}.${copyTag(file)}.${process.version}-${process.arch}.${id}.v8cache`;
}

/** The bundle's text, read through one descriptor whose identity did not change while it was read; undefined if it did. */
function readSettled(file: string): { source: string; st: Identity } | undefined {
  const fd = fs.openSync(file, 'r');
  try {
    const before = fs.fstatSync(fd, { bigint: true });
    const source = fs.readFileSync(fd, 'utf8');
    const after = fs.fstatSync(fd, { bigint: true });
    return sameIdentity(before, after) ? { source, st: after } : undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Cached data from the cache folder, only from a regular file of this user that no one
 * else may write or link to (cached code runs as it is); undefined otherwise.
 */
function readCachedData(target: string): Buffer | undefined {
  let fd: number;
  try {
    fd = fs.openSync(target, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const st = fs.fstatSync(fd);
    const mine = st.isFile() && st.uid === process.getuid?.() && st.nlink === 1 && (st.mode & 0o077) === 0;
    return mine ? fs.readFileSync(fd) : undefined;
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Node 20: the bundle compiled from its cached data, if any, and run as require would run
 * it (a module in require's cache). When there was no data or V8 refused it, fresh data is
 * written at exit, once the call has compiled the functions it ran, unless the bundle
 * changed moments ago. Undefined for a bundle that may use import() (any `import(` in its
 * text), or one that changed while it was read: require loads that one.
 */
function loadCompiledHere(file: string, parent: NodeModule, dir: string, ownStorage = false): { module: NodeModule; keep?: () => void } | undefined {
  const read = readSettled(file);
  if (!read || mayImport(read.source)) {
    return undefined;
  }
  const { source, st } = read;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- only this path needs vm
  const vm = require('node:vm') as typeof Vm;
  const statics = Module as NodeModuleStatics;
  const name = cacheName(file, st);
  const cachedData = readCachedData(path.join(dir, name));
  // the wrapper is on the first line: its columns are the bundle's own in stack traces
  const script = new vm.Script(statics.wrap(source), { filename: file, cachedData, columnOffset: -statics.wrapper[0].length });
  const m = new Module(file, parent);
  m.filename = file;
  m.paths = statics._nodeModulePaths(path.dirname(file));
  statics._cache[file] = m;
  try {
    (script.runInThisContext() as (...args: unknown[]) => void).call(m.exports, m.exports, createRequire(file), m, file, path.dirname(file));
  } catch (e) {
    delete statics._cache[file];
    throw e;
  }
  m.loaded = true;
  const settled = BigInt(Date.now()) * 1_000_000n - (st.ctimeNs > st.mtimeNs ? st.ctimeNs : st.mtimeNs) >= SETTLED_NS;
  if ((cachedData === undefined || script.cachedDataRejected) && settled) {
    return { module: m, keep: () => writeCachedData(dir, name, () => script.createCachedData(), ownStorage) };
  }
  return { module: m };
}

/**
 * Whether a text may call import(): the word `import` then "(", blanks between allowed. A
 * search for the word, not a regular expression, which took milliseconds over a bundle.
 */
export function mayImport(source: string): boolean {
  for (let i = source.indexOf('import'); i >= 0; i = source.indexOf('import', i + 6)) {
    let j = i + 6;
    while (j < source.length && /\s/.test(source[j])) {
      j++;
    }
    if (source[j] === '(' && (i === 0 || !/[\w$]/.test(source[i - 1]))) {
      return true;
    }
  }
  return false;
}

/**
 * Files the data whole (written aside, then renamed over), and drops the bundle's older data:
 * this copy's, or, in a folder of the extension's own storage (`ownStorage`), every other
 * data there (an update installs a new copy elsewhere) and what a write cut short left.
 */
function writeCachedData(dir: string, name: string, data: () => Buffer, ownStorage = false): void {
  const target = path.join(dir, name);
  const aside = `${target}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(aside, data(), { mode: 0o600, flag: 'wx' });
    fs.renameSync(aside, target);
    // this copy's older data of the bundle; another copy's is its own
    const bundle = name.split('.').slice(0, ownStorage ? 1 : 2).join('.') + '.';
    for (const f of fs.readdirSync(dir)) {
      if (f.startsWith(bundle) && f !== name && (f.endsWith('.v8cache') || (ownStorage && f.endsWith('.tmp') && Date.now() - fs.lstatSync(path.join(dir, f)).mtimeMs > ABANDONED_MS))) {
        fs.rmSync(path.join(dir, f), { force: true });
      }
    }
  } catch {
    fs.rmSync(aside, { force: true });
  }
}
