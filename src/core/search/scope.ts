import * as nodePath from 'node:path';
import type { CancelSignal } from '../cancel';
import { oneLine, printable } from '../contract';
import { ToolError } from '../errors';
import { IgnorePolicy, relPosix, type RuleReader } from '../ignore/policy';
import type { Located, Root } from '../paths';
import { rankSimilar } from '../suggest';
import type { NameComparison } from '../names';

/** The part of the workspace seam a discovery tool needs to place its walk. */
export interface ScopeHost extends RuleReader {
  roots(): readonly Root[];
  stat(path: string): Promise<{ type: 'file' | 'directory' | 'symlink' | 'other'; isSymlink: boolean } | undefined>;
  readDirectory(path: string): Promise<{ name: string; type: string }[]>;
  excludeGlobs(purpose: 'files' | 'search', root: Root): readonly string[];
  /** How the volume holding a path compares names (see core/names.ts). */
  names(path: string): NameComparison;
}

/** Where a walk runs and how its paths are shown. */
export interface Scope {
  /** The workspace folder holding the base; undefined outside the workspace. */
  root: Root | undefined;
  /** Real path rules and relative paths are anchored at: the workspace folder, else the base. */
  rootPath: string;
  /** Real path of the folder (or file) walked. */
  base: string;
  /** `base` relative to `rootPath` ("" when equal). */
  baseRel: string;
  isFile: boolean;
  policy: IgnorePolicy;
  /** How the walked folder's volume compares names: globs and ignore rules match as it does. */
  names: NameComparison;
  /** How a path relative to `rootPath` is printed: workspace-relative, or absolute outside, escaped as names are (see printable). */
  display(rel: string): string;
  /** The same path as a call takes it (not escaped): for the calls a result suggests. */
  callPath(rel: string): string;
}

export interface ScopeOptions {
  purpose: 'files' | 'search';
  respectIgnore: boolean;
  settingGlobs: readonly string[];
  callGlobs?: readonly string[];
  /** What the tool can walk: a folder only, or a single file too. */
  accept: 'folder' | 'folder-or-file';
  toolName: string;
  signal?: CancelSignal;
}

/**
 * How a path found in one of several searched folders sorts: as printed, then by the
 * folder's place among them, since two workspace folders may share a name and so print
 * the same path. A printed path holds no NUL (see printable): the parts cannot mix.
 */
export function sortKey(printed: string, scopeIndex: number): string {
  return `${printed}\0${scopeIndex}`;
}

/** The printed path a {@link sortKey} (or any text a cursor gave) names, to stand inside a line. */
export function printedKey(key: string): string {
  const z = key.indexOf('\0');
  return oneLine(z >= 0 ? key.slice(0, z) : key);
}

/** How a path relative to `rootPath` is printed (see Scope.display). */
export function displayPath(root: Root | undefined, rootPath: string, rel: string, multiRoot: boolean): string {
  return printable(callPathOf(root, rootPath, rel, multiRoot));
}

function callPathOf(root: Root | undefined, rootPath: string, rel: string, multiRoot: boolean): string {
  if (!root) {
    return rel ? `${rootPath.replace(/[\\/]+$/, '')}/${rel}` : rootPath;
  }
  if (multiRoot) {
    return rel ? `${root.name}/${rel}` : root.name;
  }
  return rel || '.';
}

/** Resolves a tool's target into a scope, with an error a model can act on when it is not there. */
export async function openScope(host: ScopeHost, t: { real: string; located: Located }, o: ScopeOptions): Promise<Scope> {
  const st = await host.stat(t.real);
  if (!st || st.type === 'symlink') {
    throw await notFound(host, t, o.toolName);
  }
  if (st.type !== 'directory' && !(o.accept === 'folder-or-file' && st.type === 'file')) {
    throw new ToolError(
      'not-a-file',
      st.type === 'file'
        ? `${t.located.display} is a file, not a folder. ${o.toolName} walks folders: give its folder as path, or read the file with fs_read.`
        : `${t.located.display} is not a folder or a regular file, so ${o.toolName} cannot walk it.`,
    );
  }
  const root = t.located.root;
  const rootPath = root ? root.path : st.type === 'file' ? nodePath.dirname(t.real) : t.real;
  const multiRoot = host.roots().length > 1;
  const names = root?.names ?? host.names(t.real);
  const policy = await IgnorePolicy.load(
    {
      root: rootPath,
      base: st.type === 'file' ? nodePath.dirname(t.real) : t.real,
      respectIgnore: o.respectIgnore,
      editorExcludes: root ? host.excludeGlobs(o.purpose, root) : [],
      settingGlobs: o.settingGlobs,
      callGlobs: o.callGlobs ?? [],
      foldCase: names.foldsCase,
    },
    host,
    o.signal,
  );
  return {
    root,
    rootPath,
    base: t.real,
    baseRel: relPosix(rootPath, t.real),
    isFile: st.type === 'file',
    policy,
    names,
    display: (rel) => displayPath(root, rootPath, rel, multiRoot),
    callPath: (rel) => callPathOf(root, rootPath, rel, multiRoot),
  };
}

async function notFound(host: ScopeHost, t: { real: string; located: Located }, toolName: string): Promise<ToolError> {
  const dir = nodePath.dirname(t.real);
  let suggestions: string[] = [];
  try {
    const entries = await host.readDirectory(dir);
    const roots = host.roots();
    suggestions = rankSimilar(
      nodePath.basename(t.real),
      entries.filter((e) => e.type === 'directory').map((e) => e.name),
    ).map((name) => {
      const abs = nodePath.join(dir, name);
      const inRoot = t.located.root;
      return inRoot ? displayPath(inRoot, inRoot.path, relPosix(inRoot.path, abs), roots.length > 1) : abs;
    });
  } catch {
    // the parent is missing too: nothing to suggest from it
  }
  const lines = [`Folder not found: ${t.located.display}`];
  if (suggestions.length) {
    lines.push('Did you mean one of these?', ...suggestions.map((s) => `- ${s}`));
  } else {
    lines.push(`Call fs_list without a path to see the workspace's top folders, or fs_glob with the name to find it; then call ${toolName} again with the right path.`);
  }
  return new ToolError('not-found', lines.join('\n'));
}
