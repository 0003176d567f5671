import { realpathSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The platform's own real path of an existing path (on Windows each name as on disk),
 * else node's, which resolves links name by name: the platform's fails on some paths it
 * can open (Wine's, past 260 characters, with an unknown error), and a failure there must
 * not read as "missing".
 */
export function realpathNative(p: string): string {
  try {
    return realpathSync.native(p);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP' || code === 'EACCES' || code === 'EPERM') {
      throw e;
    }
    return realpathSync(p);
  }
}

/**
 * Real path of `p` even when it does not exist: the deepest existing ancestor is
 * resolved (symlinks and all) and the missing rest appended. Policy decisions use
 * this, so a link inside the workspace that points outside it is seen as outside.
 */
export async function realpathLenient(p: string, realpathExisting: (p: string) => Promise<string>): Promise<string> {
  const missing: string[] = [];
  let cur = path.normalize(p);
  for (;;) {
    try {
      const real = await realpathExisting(cur);
      return missing.length ? path.join(real, ...missing.reverse()) : real;
    } catch {
      const parent = path.dirname(cur);
      if (parent === cur) {
        return path.normalize(p);
      }
      missing.push(path.basename(cur));
      cur = parent;
    }
  }
}
