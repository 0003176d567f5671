import type * as z from 'zod';
import type { editSchema } from './schemas';
import { schemas } from './lazySchemas';
import { editQuick } from './quick';
import { describeFailure, describeMatch, planEdits, type EditRequest, type FoundEdit } from '../core/edit';
import { shownInput } from '../core/contract';
import { ToolError } from '../core/errors';
import { AliasError, wholeNumber, type AliasTable } from '../services/aliases';
import { boundedJson } from '../services/input';
import { editBySymbol } from './editSymbol';
import { changeByCell, isNotebookPath } from './editCell';
import { renderSingleChange } from '../services/changeResult';
import { Access, invocationMessage, requireTrust } from '../services/access';
import type { FileText } from '../services/fileText';
import { landChange, withEol } from '../services/mutation';
import { textResult, type ToolResult } from '../services/result';
import { suggestPaths } from '../services/suggest';
import { fileKey, type Target } from '../services/target';
import type { ToolContext, QuickCheck, ToolSpec } from '../services/types';

const PATH_NAMES = ['path', 'file_path', 'filePath', 'absolute_path', 'target_file'];

/**
 * OpenCode's and Copilot's lists name the file in each item: one file throughout is this
 * call's `path`; several are refused, as this tool changes one file per call.
 */
function liftItemPaths(input: Record<string, unknown>): string[] {
  if (!Array.isArray(input.edits)) {
    return [];
  }
  const named = new Set<unknown>(input.path !== undefined ? [input.path] : []);
  const items = input.edits.map((item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      return item;
    }
    const rest: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(item)) {
      if (PATH_NAMES.includes(k)) {
        named.add(v);
      } else {
        rest[k] = v;
      }
    }
    return rest;
  });
  if (named.size > 1) {
    const list = [...named].slice(0, 3).map((v) => boundedJson(v, 80));
    return [`- \`edits\`: name ${named.size} files (${list.join(', ')}${named.size > 3 ? ', ...' : ''}), and fs_edit changes one file per call: call it once per file, or use fs_apply_patch`];
  }
  input.edits = items;
  if (input.path === undefined && named.size === 1) {
    input.path = [...named][0];
  }
  return [];
}

/** Gemini CLI's count of places to replace: 1 is the default; fs_edit checks no other count. */
function expectedReplacements(v: unknown): Record<string, unknown> {
  if (wholeNumber(v) === 1) {
    return {};
  }
  throw new AliasError('fs_edit checks no count: set "replace_all": true to change every place old_string matches, or drop expected_replacements to change exactly one');
}

/**
 * Claude Code: file_path, old_string, new_string, replace_all; OpenCode and Copilot: the camelCase
 * forms, and a file path in each item of a list; Copilot: replacements; Aider: search/replace;
 * Gemini CLI: expected_replacements.
 */
export const editAliases: AliasTable = {
  aliases: [
    { names: ['file_path', 'absolute_path', 'target_file'], field: 'path' },
    { names: ['old_str', 'old_text', 'search'], field: 'old_string' },
    { names: ['new_str', 'new_text', 'replace'], field: 'new_string' },
    { names: ['replacements'], field: 'edits' },
    { names: ['expected_replacements'], field: 'replace_all', expand: expectedReplacements },
  ],
  finish: liftItemPaths,
};

export type EditInput = z.output<typeof editSchema>;

function requests(input: EditInput): EditRequest[] {
  if ((input.symbol !== undefined || input.cell !== undefined) && input.old_string === undefined && !input.edits) {
    return [];
  }
  if (input.edits) {
    return input.edits.map((e) => ({ oldString: e.old_string, newString: e.new_string, replaceAll: e.replace_all ?? false }));
  }
  return [{ oldString: input.old_string!, newString: input.new_string!, replaceAll: input.replace_all ?? false }];
}

async function missing(ctx: ToolContext, t: Target): Promise<ToolError> {
  const suggestions = await suggestPaths(ctx, t).catch(() => []);
  const lines = [`File not found: ${t.located.display}`];
  if (suggestions.length) {
    lines.push('Did you mean one of these?', ...suggestions.map((s) => `- ${s}`));
  }
  lines.push('To create it, call fs_edit with an empty old_string, or fs_write.');
  return new ToolError('not-found', lines.join('\n'));
}

/** The model last read another version of the file: a match that needed tolerance may be against text it never saw. */
function staleMessage(t: Target, seen: string, now: FileText): string {
  return `${t.located.display} changed since you last read it (version ${seen}, now ${now.version}), and your old_string no longer matches it exactly. Nothing was changed. Read the file again, then redo the edit on its current text.`;
}

export const editTool: ToolSpec<typeof editSchema> = {
  name: 'fs_edit',
  mutates: true,
  get schema() {
    return schemas().editSchema;
  },
  quick: editQuick as QuickCheck<EditInput>,
  aliases: editAliases,
  example: '{"path": "src/app.ts", "old_string": "return a;", "new_string": "return a + b;"}',

  async prepare(input, ctx) {
    const access = await Access.resolve(ctx, input.path, 'fs_edit', 'edit');
    const confirmation = await access.question();
    return { invocationMessage: invocationMessage([access], `Editing ${access.target.located.display}`), ...(confirmation ? { confirmation } : {}) };
  },

  async invoke(input: EditInput, ctx: ToolContext): Promise<ToolResult> {
    requireTrust(ctx, 'fs_edit');
    const access = await Access.resolve(ctx, input.path, 'fs_edit', 'edit');
    const t = access.target;
    access.refuseForbidden();
    if (input.cell !== undefined && !isNotebookPath(t.real)) {
      throw new ToolError('invalid-input', `Invalid input for fs_edit:\n- \`cell\`: ${t.located.display} is not a notebook (.ipynb); cells are a notebook's. Drop cell and match old_string in the file's text.`);
    }
    const reqs = requests(input);
    return ctx.locks.withLocks([fileKey(ctx, t.real)], async () => {
      // the read question, when reading would ask, comes before anything is said of the file
      const before = await access.load();
      if (!before) {
        if (reqs.length === 1 && reqs[0].oldString === '' && input.symbol === undefined && input.cell === undefined) {
          const text = withEol(reqs[0].newString, ctx.ws.newFileEol(t.real));
          const landed = await landChange(ctx, { tool: 'fs_edit', summary: `create ${t.located.display}`, files: [{ target: t, action: 'create', before: undefined, after: text }] }, [access]);
          return textResult(renderSingleChange(landed));
        }
        throw await missing(ctx, t);
      }
      if (input.cell !== undefined) {
        return changeByCell(ctx, access, before, { cell: input.cell, insert: input.insert_cell, delete: input.delete_cell, newString: input.new_string, edits: input.insert_cell ? [] : reqs, path: input.path });
      }
      if (input.symbol !== undefined) {
        return changeBySymbol(ctx, access, input, input.symbol, before, reqs);
      }
      if (reqs.some((r) => r.oldString === '')) {
        throw new ToolError(
          'invalid-input',
          `${t.located.display} already exists, and an empty old_string only creates a missing file. To replace its whole content use fs_write; to insert text, give the line next to the insertion point as old_string and that line plus the new text as new_string.`,
        );
      }
      const seen = ctx.ledger.get(fileKey(ctx, t.real))?.version;
      const stale = seen !== undefined && seen !== before.version;
      const plan = planEdits(before.text, reqs, ctx.signal);
      if (!plan.ok) {
        if (stale) {
          throw new ToolError('stale', staleMessage(t, seen, before));
        }
        const where = reqs.length > 1 ? { index: plan.index, count: reqs.length } : undefined;
        if (plan.failure.reason !== 'invalid' && access.guarded) {
          // where old_string is not, or is more than once, says what the file holds
          const head = where ? `Edit ${where.index + 1} of ${where.count}: ` : '';
          throw new ToolError(
            'no-match',
            `${head}old_string does not fit ${t.located.display} in exactly one place, and nothing was changed. ${t.located.display} may hold secrets or lies outside the workspace, so nothing of its content is shown here. Read it with fs_read (the user is asked first), then retry with the exact text.`,
          );
        }
        throw new ToolError(plan.failure.reason === 'invalid' ? 'invalid-input' : 'no-match', describeFailure(plan.failure, { label: t.located.display, path: input.path }, where));
      }
      if (stale && plan.results.some((r) => !r.exact)) {
        throw new ToolError('stale', staleMessage(t, seen, before));
      }
      if (plan.text === before.text) {
        return textResult(`${t.located.display} already reads that way: new_string gives the text it has now, so nothing was changed; version ${before.version}.`);
      }
      const notes = matchNotes(plan.results);
      const landed = await landChange(ctx, { tool: 'fs_edit', summary: `edit ${t.located.display}`, files: [{ target: t, action: 'modify', before, after: plan.text }], notes }, [access]);
      return textResult(renderSingleChange(landed, { notes }));
    }, ctx.signal);
  },
};

/**
 * An edit by symbol: the symbol's lines replaced, or old_string matched inside them. The
 * model has not seen the symbol's current text when the file changed since its read, so
 * then the change is refused whatever matches.
 */
async function changeBySymbol(ctx: ToolContext, access: Access, input: EditInput, symbol: string, before: FileText, reqs: readonly EditRequest[]): Promise<ToolResult> {
  const t = access.target;
  const seen = ctx.ledger.get(fileKey(ctx, t.real))?.version;
  if (seen !== undefined && seen !== before.version) {
    throw new ToolError('stale', `${t.located.display} changed since you last read it (version ${seen}, now ${before.version}), so its symbol ${shownInput(symbol, true)} may not be the text you mean. Nothing was changed. Read the symbol again, then redo the edit.`);
  }
  const edit = await editBySymbol(ctx, t, before, symbol, input.new_string ?? '', reqs.length > 0 ? reqs : undefined, access.guarded, input.path);
  if (edit.text === before.text) {
    return textResult(`${t.located.display} already reads that way: the symbol's new text is the text it has now, so nothing was changed; version ${before.version}.`);
  }
  const landed = await landChange(ctx, { tool: 'fs_edit', summary: `edit ${t.located.display}`, files: [{ target: t, action: 'modify', before, after: edit.text }] }, [access]);
  return textResult(renderSingleChange(landed, { notes: edit.notes }));
}

/** How the edits matched, a line for each that needed tolerance (so the model checks the diff) or warns. */
function matchNotes(results: readonly FoundEdit[]): string[] {
  return results.length === 1 ? describeMatch(results[0]) : results.flatMap((r, i) => describeMatch(r, i + 1));
}
