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
};

/** The cache folder, made if missing; undefined unless it is a real folder of this user that no one else may open. */
export function cacheFolder(): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) {
    return undefined;
  }
  const dir = path.join(nodeOs().tmpdir(), `agent-file-tools-compile-cache-${uid}`);
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
      return loaded.exports;
    }
  }
  return createRequire(parent.filename)(file);
}

/**
 * What a bundle's cached data is filed under: the bundle file itself (device, inode, size,
 * change and modification times to the nanosecond: an update writes a new file) and the
 * Node that made it. V8 refuses data of another V8 or other flags itself; it checks the
 * source only by its length, hence the file's identity here.
 */
function cacheName(file: string): string {
  const st = fs.statSync(file, { bigint: true });
  const id = [st.dev, st.ino, st.size, st.mtimeNs, st.ctimeNs].map((n) => n.toString(36)).join('-');
  return `${path.basename(file, '.js')}.${process.version}-${process.arch}.${id}.v8cache`;
}

/**
 * Node 20: the bundle compiled from its cached data, if any, and run as require would run
 * it (a module in require's cache). When there was no data or V8 refused it, fresh data is
 * written at exit, once the call has compiled the functions it ran. Undefined for a bundle
 * that may use import() (any `import(` in its text): require loads that one.
 */
function loadCompiledHere(file: string, parent: NodeModule, dir: string): NodeModule | undefined {
  const source = fs.readFileSync(file, 'utf8');
  if (mayImport(source)) {
    return undefined;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- only this path needs vm
  const vm = require('node:vm') as typeof Vm;
  const statics = Module as NodeModuleStatics;
  const name = cacheName(file);
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(path.join(dir, name));
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(statics.wrap(source), { filename: file, cachedData });
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
  if (cachedData === undefined || script.cachedDataRejected) {
    process.once('exit', () => writeCachedData(dir, name, () => script.createCachedData()));
  }
  return m;
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

/** Files the data whole (written aside, then renamed over), and drops the bundle's older data. */
function writeCachedData(dir: string, name: string, data: () => Buffer): void {
  const target = path.join(dir, name);
  const aside = `${target}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(aside, data(), { mode: 0o600, flag: 'wx' });
    fs.renameSync(aside, target);
    const bundle = name.slice(0, name.indexOf('.') + 1);
    for (const f of fs.readdirSync(dir)) {
      if (f.startsWith(bundle) && f !== name && f.endsWith('.v8cache')) {
        fs.rmSync(path.join(dir, f), { force: true });
      }
    }
  } catch {
    fs.rmSync(aside, { force: true });
  }
}
