import * as fs from 'node:fs';
import * as path from 'node:path';

/** The package's manifest (package.json) entries of `contributes.languageModelTools`. */
export interface ManifestToolEntry {
  name: string;
  displayName?: string;
  modelDescription?: string;
  inputSchema?: object;
}

/** Folders above a bundle looked in for the package's own package.json (dist/ is one below; the compiled tests three). */
const MAX_LEVELS_UP = 4;

/**
 * The tool entries of this package's package.json, found from `from` (the running bundle's
 * folder) upward: the CLI serves the descriptions and schemas the extension contributes,
 * read from the one file that holds them.
 */
export function readManifestTools(from: string, name = 'agent-file-tools'): ManifestToolEntry[] {
  let dir = from;
  for (let i = 0; i <= MAX_LEVELS_UP; i++) {
    const file = path.join(dir, 'package.json');
    try {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; contributes?: { languageModelTools?: ManifestToolEntry[] } };
      if (pkg.name === name && Array.isArray(pkg.contributes?.languageModelTools)) {
        return pkg.contributes.languageModelTools;
      }
    } catch {
      // none here, or not ours
    }
    const up = path.dirname(dir);
    if (up === dir) {
      break;
    }
    dir = up;
  }
  throw new Error(`the package.json of ${name} was not found above ${from}`);
}
