import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import Module from 'node:module';
import * as path from 'node:path';
import { nodeOs } from './lazyModules';

/**
 * The CLI's tool bundles loaded with V8's code cache, so a call does not compile half a
 * megabyte of JavaScript again every time it starts (most of its start-up CPU).
 *
 * Node 22.1 and later keep that cache themselves (`module.enableCompileCache(dir)`), here in
 * a folder of the OS temp folder that only this user may open
 * (`agent-file-tools-compile-cache-UID`, mode 0700, checked before each use: cached code runs
 * as it is, so a folder another user made or could write is never used, and neither is
 * Node's default, a shared `node-compile-cache` anyone could make first). Older Node gets no
 * cache: Node 20 can compile from cached data (`vm.Script`), but code compiled so loses its
 * `import()` (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING), which the bundles use for file-type,
 * PDF.js and tree-sitter. Whatever fails here only means compiling as usual.
 */

type NodeModuleStatics = typeof Module & { enableCompileCache?: (dir: string) => unknown };

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
  const enable = (Module as NodeModuleStatics).enableCompileCache;
  if (typeof enable === 'function') {
    let dir: string | undefined;
    try {
      dir = cacheFolder();
    } catch {
      dir = undefined;
    }
    if (dir) {
      enable(dir);
    }
  }
  return createRequire(parent.filename)(file);
}
