import type * as z from 'zod';
import type { applyPatchSchema } from './schemas';
import { schemas } from './lazySchemas';
import { applyPatchQuick } from './quick';
import { describeVerifyError, describeVerifyFailures, describeWithoutContent, failurePath, formatPatchError, parsePatch, planPatch, PatchSyntaxError, PatchVerifyError, type FileProbe, type PatchVerifyDetail, type PlannedChange } from '../core/patch';
import { ToolError } from '../core/errors';
import { nameKey } from '../core/names';
import type { AliasTable } from '../services/aliases';
import { inOrder } from '../core/inOrder';
import { MAX_PATCH_FAILED_FILES_SHOWN, MAX_PATCH_LOOSE_CHUNKS_SHOWN, PATH_CHECKS_IN_FLIGHT } from '../core/limits';
import { suggestPaths } from '../services/suggest';
import { renderPatchResult } from '../services/changeResult';
import { Access, firstQuestion, invocationMessage, requireTrust } from '../services/access';
import type { FileText } from '../services/fileText';
import { landChange, withEol, type PlannedFile } from '../services/mutation';
import { textResult, type ToolResult } from '../services/result';
import { fileKey, resolveGitDirectories, resolveTarget, respelled, type Target } from '../services/target';
import type { ToolContext, QuickCheck, ToolSpec } from '../services/types';

export type ApplyPatchInput = z.output<typeof applyPatchSchema>;

/** Codex's apply_patch takes `input`; OpenCode's takes `patchText`. */
export const applyPatchAliases: AliasTable = {
  aliases: [{ names: ['input', 'patch_text', 'diff'], field: 'patch' }],
};

function parse(text: string) {
  try {
    return parsePatch(text);
  } catch (e) {
    if (e instanceof PatchSyntaxError) {
      throw new ToolError('invalid-input', formatPatchError(e));
    }
    throw e;
  }
}

/** Every path the patch names, in order, once. */
function namedPaths(patch: ReturnType<typeof parsePatch>): string[] {
  const out: string[] = [];
  for (const h of patch.hunks) {
    out.push(h.path);
    if (h.kind === 'update' && h.movePath !== undefined) {
      out.push(h.movePath);
    }
  }
  return [...new Set(out)];
}

/** The line ending an added file gets: the one of the file it replaces, else the workspace's. */
function addedEol(ctx: ToolContext, t: Target, replaced: FileText | undefined): 'LF' | 'CRLF' {
  return replaced && (replaced.eol === 'LF' || replaced.eol === 'CRLF') ? replaced.eol : ctx.ws.newFileEol(t.real);
}

function plannedFile(ctx: ToolContext, c: PlannedChange, targets: ReadonlyMap<string, Target>, loaded: ReadonlyMap<string, FileText | undefined>): PlannedFile | undefined {
  const target = targets.get(c.kind === 'update' && c.movePath !== undefined ? c.movePath : c.path)!;
  const source = targets.get(c.path)!;
  switch (c.kind) {
    case 'add': {
      const replaced = loaded.get(target.real);
      return { target, action: c.overwrites ? 'overwrite' : 'create', before: c.overwrites ? replaced : undefined, after: withEol(c.newText, addedEol(ctx, target, replaced)) };
    }
    case 'delete':
      return { target, action: 'delete', before: loaded.get(target.real), after: undefined };
    case 'update':
      if (c.movePath !== undefined && target.real !== source.real) {
        return { target, from: source, action: 'move', before: loaded.get(source.real), after: c.newText, replaces: c.moveOverwrites ? loaded.get(target.real) : undefined };
      }
      if (c.movePath !== undefined) {
        // the same entry under another spelling (a change of case on a volume that folds it): a rename of its name
        const to = respelled(ctx, target);
        if (to) {
          return { target: to, from: source, action: 'move', respell: true, before: loaded.get(source.real), after: c.newText };
        }
      }
      return c.newText === c.oldText ? undefined : { target, action: 'modify', before: loaded.get(source.real), after: c.newText };
  }
}

/**
 * A delete or a move removes the file at its path. When that path is a symbolic link,
 * the change would land on the file the link points to (possibly elsewhere) and leave
 * the link dangling: refused, naming the file it points to.
 */
async function refuseLinksRemoved(ctx: ToolContext, patch: ReturnType<typeof parsePatch>, targets: ReadonlyMap<string, Target>): Promise<void> {
  for (const h of patch.hunks) {
    const removes = h.kind === 'delete' || (h.kind === 'update' && h.movePath !== undefined && targets.get(h.movePath)!.real !== targets.get(h.path)!.real);
    const t = targets.get(h.path)!;
    if (removes && (await ctx.ws.stat(t.abs))?.isSymlink) {
      const how = h.kind === 'delete' ? 'delete' : 'move';
      throw new ToolError(
        'invalid-input',
        `The patch was not applied (no file was changed): ${h.path} is a symbolic link to ${t.located.display}, and a patch deletes and moves files, not links; this ${how} would land on ${t.located.display} and leave the link behind. ` +
          `To ${how} the file the link points to, name it (\`*** ${h.kind === 'delete' ? 'Delete' : 'Update'} File: ${t.located.display}\`); to remove the link itself, ask the user.`,
      );
    }
  }
}

export const applyPatchTool: ToolSpec<typeof applyPatchSchema> = {
  name: 'fs_apply_patch',
  mutates: true,
  get schema() {
    return schemas().applyPatchSchema;
  },
  quick: applyPatchQuick as QuickCheck<ApplyPatchInput>,
  aliases: applyPatchAliases,
  example: '{"patch": "*** Begin Patch\\n*** Update File: src/app.ts\\n@@ function greet\\n-  return 1;\\n+  return 2;\\n*** End Patch"}',

  async prepare(input, ctx) {
    let paths: string[];
    try {
      paths = namedPaths(parsePatch(input.patch));
    } catch {
      return { invocationMessage: 'Applying a patch' };
    }
    const access = await Promise.all(paths.map((p) => Access.resolve(ctx, p, 'fs_apply_patch', 'change')));
    const names = access.map((a) => a.target.located.display);
    const what = names.length === 1 ? names[0] : `${names.length} files`;
    const confirmation = await firstQuestion(access);
    return { invocationMessage: invocationMessage(access, `Patching ${what}`), ...(confirmation ? { confirmation } : {}) };
  },

  async invoke(input: ApplyPatchInput, ctx: ToolContext): Promise<ToolResult> {
    requireTrust(ctx, 'fs_apply_patch');
    const patch = parse(input.patch);
    const paths = namedPaths(patch);
    const resolved = new Map((await inOrder(paths, PATH_CHECKS_IN_FLIGHT, (p) => resolveTarget(ctx, p))).map((t, i) => [paths[i], t] as const));
    // the files the patch creates count as present: added files that make a git directory together are inside one
    await resolveGitDirectories(ctx, [...resolved.values()]);
    const access = new Map([...resolved].map(([p, t]) => [p, Access.of(ctx, t, 'fs_apply_patch', 'change')] as const));
    access.forEach((a) => a.refuseForbidden());
    const targets = new Map([...access].map(([p, a]) => [p, a.target] as const));
    return ctx.locks.withLocks(
      [...targets.values()].map((t) => fileKey(ctx, t.real)),
      async () => {
        // one question at a time, before any file's content is loaded or matched
        for (const a of access.values()) {
          await a.askFirst();
        }
        // what a path is (a link, and to where) is an answer about it too
        await refuseLinksRemoved(ctx, patch, targets);
        const loaded = new Map<string, FileText | undefined>();
        const probe = async (p: string): Promise<FileProbe> => {
          // the patch's paths are the ones decided on above
          const a = access.get(p)!;
          const t = a.target;
          // two spellings of one file (on a volume that folds names) are one file of the plan
          const key = nameKey(ctx.ws.names(t.real), t.real);
          if (!loaded.has(t.real)) {
            const st = await ctx.ws.stat(t.real);
            if (st?.type === 'directory') {
              return { kind: 'directory', key };
            }
            loaded.set(t.real, await a.load());
          }
          const f = loaded.get(t.real);
          return f ? { kind: 'file', text: f.text, key } : { kind: 'missing', key };
        };
        let plan;
        try {
          plan = await planPatch(patch, probe, ctx.signal);
        } catch (e) {
          if (e instanceof PatchVerifyError) {
            await suggestMissing(ctx, e.failures, targets);
            // where a chunk does not fit says what the file holds: not for a file the model may not read unasked, whichever failure it is
            const hidden = (d: PatchVerifyDetail): boolean => {
              const p = failurePath(d);
              const a = p === undefined ? undefined : access.get(p);
              return a !== undefined && a.guarded;
            };
            throw new ToolError('no-match', formatPatchError(e, describeVerifyFailures(e.failures, (d) => (hidden(d) && describeWithoutContent(d)) || describeVerifyError(d))));
          }
          throw e;
        }
        const files = plan.changes.map((c) => plannedFile(ctx, c, targets, loaded)).filter((f): f is PlannedFile => f !== undefined);
        if (files.length === 0) {
          return textResult('The patch changes nothing: every file already reads as it would after the patch. No file was written.');
        }
        const summary = files.length === 1 ? `patch ${files[0].target.located.display}` : `patch ${files.length} files`;
        const notes = matchNotes(plan.changes, targets);
        const shown = files.flatMap((f) => {
          const note = notes.get(f.target.real);
          return note ? [`${f.target.located.display}: ${note[0]}`, ...note.slice(1)] : [];
        });
        const landed = await landChange(ctx, { tool: 'fs_apply_patch', summary, files, notes: shown }, [...access.values()]);
        return textResult(renderPatchResult(landed, notes, skippedLines(patch)));
      },
      ctx.signal,
    );
  },
};

/**
 * "Did you mean" for paths the patch updates or deletes that do not exist (not those an
 * earlier hunk removed), as fs_read gives it: only names from folders the model may list.
 * For the first few such paths: each is a search of the workspace.
 */
async function suggestMissing(ctx: ToolContext, failures: readonly PatchVerifyDetail[], targets: ReadonlyMap<string, Target>): Promise<void> {
  let left = MAX_PATCH_FAILED_FILES_SHOWN;
  for (const d of failures) {
    const t = d.code === 'missing' && !d.earlier ? targets.get(d.path) : undefined;
    if (d.code === 'missing' && t && left-- > 0) {
      const found = await suggestPaths(ctx, t).catch(() => []);
      if (found.length > 0) {
        d.suggestions = found;
      }
    }
  }
}

const PASS_WORDS = { exact: 'exactly', 'trim-end': 'ignoring trailing whitespace', trim: 'ignoring whitespace at both ends', unicode: 'treating typographic quotes, dashes and spaces as ASCII' } as const;

/**
 * For each updated file whose chunks needed tolerance to be found: every such chunk, where
 * it landed, what was forgiven, how its added lines were placed, and its lines as the patch
 * wrote them beside the file's (the first few), so the model checks them against the diff.
 */
function matchNotes(changes: readonly PlannedChange[], targets: ReadonlyMap<string, Target>): Map<string, string[]> {
  const notes = new Map<string, string[]>();
  let listed = 0;
  let unlisted = 0;
  for (const c of changes) {
    if (c.kind !== 'update') {
      continue;
    }
    const loose = c.matches.filter((m) => m.pass !== 'exact');
    if (loose.length === 0) {
      continue;
    }
    const out: string[] = [];
    for (const m of loose) {
      if (listed >= MAX_PATCH_LOOSE_CHUNKS_SHOWN) {
        unlisted++;
        continue;
      }
      listed++;
      const span = m.lines !== undefined && m.lines > 1 ? `lines ${m.line}-${m.line + m.lines - 1}` : `line ${m.line}`;
      const how = m.indent ? ` (${m.indent})` : '';
      const diff = m.differing ?? [];
      out.push(`chunk ${m.chunk} at ${span} matched ${PASS_WORDS[m.pass]}${how}${diff.length ? '; as written, then as in the file:' : '.'}`);
      for (const d of diff) {
        const at = `  line ${d.line}: `;
        out.push(`${at}${JSON.stringify(d.written)}`, `${' '.repeat(at.length)}${JSON.stringify(d.file)}`);
      }
    }
    if (out.length > 0) {
      notes.set(targets.get(c.movePath ?? c.path)!.real, out);
    }
  }
  if (unlisted > 0) {
    const last = [...notes.values()].pop();
    last?.push(`and ${unlisted} more chunk${unlisted === 1 ? '' : 's'} matched loosely.`);
  }
  return notes;
}

/** Sections of the patch with no lines under them: left out, and said, so a forgotten change is not mistaken for a done one. */
function skippedLines(patch: ReturnType<typeof parsePatch>): string[] {
  return (patch.empty ?? []).map((e) => (e.kind === 'update' ? `Skipped \`*** Update File: ${e.path}\` (patch line ${e.patchLine}): no lines under it.` : `Skipped a \`@@\` line of ${e.path} (patch line ${e.patchLine}): no lines under it.`));
}
