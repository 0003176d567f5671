import * as path from 'node:path';

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
