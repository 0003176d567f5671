import { structuredPatch } from 'diff';

/** An `*** Update File` patch turning `oldText` into `newText`, from a unified diff (bare `@@` lines, no `\ No newline` lines). */
export function updatePatch(path: string, oldText: string, newText: string, context = 3): string {
  const diff = structuredPatch(path, path, oldText, newText, '', '', { context });
  const out = ['*** Begin Patch', `*** Update File: ${path}`];
  for (const h of diff.hunks) {
    out.push('@@');
    for (const l of h.lines) {
      if (!l.startsWith('\\')) {
        out.push(l);
      }
    }
  }
  out.push('*** End Patch');
  return `${out.join('\n')}\n`;
}
