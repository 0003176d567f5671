import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vm from 'node:vm';

/**
 * The CLI's tool bundles loaded with V8's code cache, so a call does not compile half a
 * megabyte of JavaScript again every time it starts (most of its start-up CPU).
 *
 * On Node 22.1 and later, Node's own compile cache does it (`module.enableCompileCache()`,
 * kept in the OS temp folder's `node-compile-cache`). On Node 20 the bundle is compiled here
 * with `vm.Script` and its cached data, kept in a folder of the OS temp folder that only
 * this user may open (`agent-file-tools-compile-cache-UID`, mode 0700, checked before each
 * use: a folder another user made or could write is never read from). The cache of a
 * bundle is named by its path, size and modification time and Node's version, so a rebuilt
 * bundle or another Node never meets another's cache; V8 itself rejects cached data made
 * with other flags, and the bundle is then compiled as without a cache. Whatever fails
 * here (no temp folder, a full disk) only means compiling as usual.
 */

export interface LoadedBundle {
  exports: unknown;
  /** Whether V8 took its compiled code from the cache. */
  fromCache: boolean;
  /** Writes the code cache when there was none (after the call ran: it then holds what the call compiled lazily too). */
  save(): void;
}

type NodeModuleStatics = typeof Module & {
  enableCompileCache?: () => unknown;
  wrap(source: string): string;
  _nodeModulePaths(dir: string): string[];
  _cache: Record<string, NodeModule>;
};

/** A 32-bit FNV-1a of `s`, in hex: part of a cache file's name. */
function fnv(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The cache folder, made if missing; undefined unless it is a real folder of this user that no one else may open. */
export function cacheFolder(): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) {
    return undefined;
  }
  const dir = path.join(os.tmpdir(), `agent-file-tools-compile-cache-${uid}`);
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
      return undefined;
    }
  }
  const st = fs.lstatSync(dir);
  return st.isDirectory() && st.uid === uid && (st.mode & 0o077) === 0 ? dir : undefined;
}

/**
 * Loads the CommonJS bundle `file` as `require` would, through the code cache. Undefined
 * when there is no such file (the tests run the sources, not the bundles).
 */
export function loadBundle(file: string, parent: NodeModule): LoadedBundle | undefined {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    return undefined;
  }
  const statics = Module as NodeModuleStatics;
  const known = statics._cache[file];
  if (known) {
    return { exports: known.exports, fromCache: false, save: () => undefined };
  }
  if (typeof statics.enableCompileCache === 'function') {
    statics.enableCompileCache();
    return { exports: createRequire(parent.filename)(file), fromCache: false, save: () => undefined };
  }
  let dir: string | undefined;
  try {
    dir = cacheFolder();
  } catch {
    dir = undefined;
  }
  const prefix = `${path.basename(file)}.${fnv(path.dirname(file))}.`;
  const name = `${prefix}${st.size}.${Math.round(st.mtimeMs)}.${process.version}.${process.arch}.v8cache`;
  let cached: Buffer | undefined;
  if (dir) {
    try {
      cached = fs.readFileSync(path.join(dir, name));
    } catch {
      cached = undefined;
    }
  }
  const script = new vm.Script(statics.wrap(fs.readFileSync(file, 'utf8')), { filename: file, cachedData: cached });
  const m = new Module(file, parent);
  m.filename = file;
  m.paths = statics._nodeModulePaths(path.dirname(file));
  // in require's cache, as require would put it: a second load is this module
  statics._cache[file] = m;
  (script.runInThisContext() as (...args: unknown[]) => void).call(m.exports, m.exports, createRequire(file), m, file, path.dirname(file));
  m.loaded = true;
  return {
    exports: m.exports,
    fromCache: cached !== undefined && !script.cachedDataRejected,
    save: () => {
      if (!dir || (cached && !script.cachedDataRejected)) {
        return;
      }
      try {
        // written beside and renamed, so another call never reads half of it; older caches of the bundle go
        const tmp = path.join(dir, `.${name}.${process.pid}`);
        fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        fs.renameSync(tmp, path.join(dir, name));
        for (const other of fs.readdirSync(dir)) {
          if (other.startsWith(prefix) && other !== name) {
            fs.rmSync(path.join(dir, other), { force: true });
          }
        }
      } catch {
        // no cache this time: the next call compiles again
      }
    },
  };
}
