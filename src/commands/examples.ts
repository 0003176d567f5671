/**
 * The example inputs Run a Tool in an Editor fills in for the tools that change files: each a
 * real, visible change of a file of the workspace that the person can review, accept and then
 * revert from the History of Changes (a change that changes nothing shows an empty diff and
 * teaches nothing). The change adds a line that says where it came from, as a comment in the
 * file's language, right after a line that occurs once in the file (so `old_string` and the
 * patch's context match one place). Pure, so it is unit-tested in plain Node.
 */

/** How a line comment is written, by file extension; text formats (Markdown, plain text) take the words as they are. */
const COMMENTS: Record<string, (text: string) => string> = {};
for (const ext of ['ts', 'tsx', 'js', 'jsx', 'mjs', 'cjs', 'mts', 'cts', 'java', 'c', 'h', 'cc', 'cpp', 'hpp', 'cs', 'go', 'rs', 'swift', 'kt', 'kts', 'scala', 'dart', 'php', 'groovy', 'jsonc']) {
  COMMENTS[ext] = (t) => `// ${t}`;
}
for (const ext of ['py', 'sh', 'bash', 'zsh', 'rb', 'yaml', 'yml', 'toml', 'pl', 'r', 'ps1', 'conf', 'ini', 'cfg', 'mk', 'cmake', 'dockerfile', 'nix', 'tf']) {
  COMMENTS[ext] = (t) => `# ${t}`;
}
for (const ext of ['sql', 'lua', 'hs', 'elm', 'ada']) {
  COMMENTS[ext] = (t) => `-- ${t}`;
}
for (const ext of ['css', 'scss', 'less']) {
  COMMENTS[ext] = (t) => `/* ${t} */`;
}
for (const ext of ['html', 'htm', 'xml', 'svg', 'vue', 'svelte']) {
  COMMENTS[ext] = (t) => `<!-- ${t} -->`;
}
for (const ext of ['md', 'markdown', 'txt', 'text', 'rst', 'adoc']) {
  COMMENTS[ext] = (t) => t;
}

function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  return name === 'dockerfile' || name === 'makefile' ? (name === 'makefile' ? 'mk' : 'dockerfile') : (/\.([a-z0-9]+)$/.exec(name)?.[1] ?? '');
}

/** Whether an example can add a line to the file: its language has a line comment, or it is text (JSON has neither). */
export function takesExampleLine(path: string): boolean {
  return extensionOf(path) in COMMENTS;
}

/** The line the example adds after `line`, indented as it is. */
export function exampleLine(path: string, line: string, tool: string): string {
  const comment = COMMENTS[extensionOf(path)] ?? ((t: string) => t);
  const indent = /^\s*/.exec(line)![0];
  return `${indent}${comment(`Added by ${tool} from Run a Tool: accept it, then revert it from the History of Changes.`)}`;
}

/**
 * The line of `text` to build an example on: the first non-blank line from `from` on (then
 * from the top) that occurs once in the file, so that an edit of it matches one place; none
 * when every line repeats.
 */
export function anchorLine(text: string, from = 0): string | undefined {
  const lines = text.split(/\r?\n/);
  const count = new Map<string, number>();
  for (const l of lines) {
    count.set(l, (count.get(l) ?? 0) + 1);
  }
  const order = [...lines.slice(from), ...lines.slice(0, from)];
  return order.find((l) => l.trim() !== '' && count.get(l) === 1);
}

/** An fs_edit that adds a line after `line`. */
export function exampleEdit(path: string, line: string): { path: string; old_string: string; new_string: string } {
  return { path, old_string: line, new_string: `${line}\n${exampleLine(path, line, 'fs_edit')}` };
}

/** A patch of two files: adds a line after `line` in `path`, and adds a small Markdown file beside it. */
export function examplePatch(path: string, line: string): { patch: string } {
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
  return {
    patch: [
      '*** Begin Patch',
      `*** Update File: ${path}`,
      '@@',
      ` ${line}`,
      `+${exampleLine(path, line, 'fs_apply_patch')}`,
      `*** Add File: ${dir}added-by-fs_apply_patch.md`,
      '+# Added by fs_apply_patch',
      '+',
      '+This file came with the patch. Revert the patch from the History of Changes to remove it again.',
      '*** End Patch',
    ].join('\n'),
  };
}
