import * as z from 'zod';
import { ToolError } from '../core/errors';
import type { AliasTable } from './aliases';
import { changedFilePathField, contentField } from './input';
import { MAX_EDIT_TEXT_CHARS, MAX_PATH_INPUT_CHARS } from '../core/limits';
import { renderSingleChange } from './changeResult';
import { loadFileText } from './fileText';
import { invocationMessage, landChange, refuseForbidden, requireTrust, withEol } from './mutation';
import { textResult, type ToolResult } from './result';
import { resolveTarget } from './target';
import type { ToolContext, ToolSpec } from './types';

export const writeSchema = z.strictObject({
  path: changedFilePathField(MAX_PATH_INPUT_CHARS),
  content: contentField(MAX_EDIT_TEXT_CHARS, 'the whole new content of the file'),
});

export type WriteInput = z.output<typeof writeSchema>;

/** Claude Code, Gemini CLI: file_path; OpenCode, Copilot: filePath; Cursor: target_file, contents; Anthropic's text editor: file_text. */
export const writeAliases: AliasTable = {
  aliases: [
    { names: ['file_path', 'absolute_path', 'target_file'], field: 'path' },
    { names: ['contents', 'file_text'], field: 'content' },
  ],
};

export const writeTool: ToolSpec<typeof writeSchema> = {
  name: 'fs_write',
  mutates: true,
  schema: writeSchema,
  aliases: writeAliases,
  example: '{"path": "src/new.ts", "content": "export const x = 1;\\n"}',

  async prepare(input, ctx) {
    const t = await resolveTarget(ctx, input.path);
    const exists = (await ctx.ws.stat(t.real)) !== undefined;
    return { invocationMessage: invocationMessage(ctx, [t], `${exists ? 'Writing' : 'Creating'} ${t.located.display}`) };
  },

  async invoke(input: WriteInput, ctx: ToolContext): Promise<ToolResult> {
    requireTrust(ctx, 'fs_write');
    const t = await resolveTarget(ctx, input.path);
    refuseForbidden(ctx, [t]);
    return ctx.locks.withLocks([t.real], async () => {
      const before = await loadFileText(ctx, t);
      if (before) {
        const seen = ctx.ledger.get(t.real);
        if (seen && seen.version !== before.version) {
          throw new ToolError(
            'stale',
            `${t.located.display} changed since you last read it (version ${seen.version}, now ${before.version}). Nothing was written: overwriting it would lose that change. Read it again, then write.`,
          );
        }
      }
      // The file's own line endings win over the model's: an LF-only text written to a CRLF file stays CRLF.
      const eol = before ? (before.eol === 'CRLF' ? 'CRLF' : before.eol === 'LF' ? 'LF' : undefined) : ctx.ws.newFileEol(t.real);
      // A byte order mark is the encoding's, kept (or not) as the file has it: one sent in the content would be written twice.
      const content = before && input.content.startsWith('\uFEFF') ? input.content.slice(1) : input.content;
      const text = eol && !(before?.eol === 'mixed') ? withEol(content, eol) : content;
      if (before && before.text === text) {
        return textResult(`${t.located.display} already has exactly this content; nothing was written; version ${before.version}.`);
      }
      const landed = await landChange(
        ctx,
        { tool: 'fs_write', summary: `${before ? 'overwrite' : 'create'} ${t.located.display}`, files: [{ target: t, action: before ? 'overwrite' : 'create', before, after: text }] },
        { otherProblems: true },
      );
      return textResult(renderSingleChange(landed));
    }, ctx.signal);
  },
};
