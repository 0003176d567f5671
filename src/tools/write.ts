import type * as z from 'zod';
import type { writeSchema } from './schemas';
import { schemas } from './lazySchemas';
import { writeQuick } from './quick';
import { ToolError } from '../core/errors';
import type { AliasTable } from '../services/aliases';
import { callText, tryLine } from '../core/contract';
import { plural } from '../core/format';
import { renderSingleChange } from '../services/changeResult';
import { Access, invocationMessage, requireTrust } from '../services/access';
import { landChange, withEol } from '../services/mutation';
import { textResult, type ToolResult } from '../services/result';
import type { FileText } from '../services/fileText';
import type { ToolContext, QuickCheck, ToolSpec } from '../services/types';
import { fileKey } from '../services/target';

export type WriteInput = z.output<typeof writeSchema>;

/** Claude Code, Gemini CLI: file_path; OpenCode, Copilot: filePath; Cursor: target_file, contents; Anthropic's text editor: file_text. */
export const writeAliases: AliasTable = {
  aliases: [
    { names: ['file_path', 'absolute_path', 'target_file'], field: 'path' },
    { names: ['contents', 'file_text'], field: 'content' },
  ],
};

/**
 * An existing file is overwritten only over what the model knew of it: the version it last
 * read (or passed) must be the file's. A file it never read would be replaced unseen, with
 * whatever it held lost, so that asks for a read (or the version a read gave, as in the CLI,
 * where the ledger does not outlive a call). The refusal never prints the file's version:
 * echoed back, it would make the read-first rule a detour.
 */
function refuseBlindOverwrite(ctx: ToolContext, input: WriteInput, display: string, real: string, before: FileText): void {
  const known = input.version ?? ctx.ledger.get(fileKey(ctx, real))?.version;
  if (known === before.version) {
    return;
  }
  if (known === undefined) {
    const lines = before.text === '' ? 0 : before.text.split('\n').length - (before.text.endsWith('\n') ? 1 : 0);
    throw new ToolError(
      'stale',
      `${display} already exists (${plural(lines, 'line')}) and you have not read it, so nothing was written: overwriting it would lose what it holds. Read it first, or pass the "version" an fs_read of it gave.\n${tryLine(callText('fs_read', { path: input.path }))}`,
    );
  }
  throw new ToolError(
    'stale',
    `${display} changed since ${input.version !== undefined ? 'the version you gave' : 'you last read it'} (version ${known}). Nothing was written: overwriting it would lose that change. Read it again, then write.`,
  );
}

export const writeTool: ToolSpec<typeof writeSchema> = {
  name: 'fs_write',
  mutates: true,
  get schema() {
    return schemas().writeSchema;
  },
  quick: writeQuick as QuickCheck<WriteInput>,
  aliases: writeAliases,
  example: '{"path": "src/new.ts", "content": "export const x = 1;\\n"}',

  async prepare(input, ctx) {
    const access = await Access.resolve(ctx, input.path, 'fs_write', 'write');
    const t = access.target;
    const exists = (await ctx.ws.stat(t.real)) !== undefined;
    const confirmation = await access.question(exists);
    return { invocationMessage: invocationMessage([access], `${exists ? 'Writing' : 'Creating'} ${t.located.display}`), ...(confirmation ? { confirmation } : {}) };
  },

  async invoke(input: WriteInput, ctx: ToolContext): Promise<ToolResult> {
    requireTrust(ctx, 'fs_write');
    const access = await Access.resolve(ctx, input.path, 'fs_write', 'write');
    const t = access.target;
    access.refuseForbidden();
    return ctx.locks.withLocks([fileKey(ctx, t.real)], async () => {
      // The read question first: the old text is in the preview and the diff, and "already
      // has exactly this content" would answer a guess at it.
      const before = await access.load();
      // The file's own line endings win over the model's: an LF-only text written to a CRLF file stays CRLF.
      const eol = before ? (before.eol === 'CRLF' ? 'CRLF' : before.eol === 'LF' ? 'LF' : undefined) : ctx.ws.newFileEol(t.real);
      // A byte order mark is the encoding's, kept (or not) as the file has it: one sent in the content would be written twice.
      const content = before && input.content.startsWith('\uFEFF') ? input.content.slice(1) : input.content;
      const text = eol && !(before?.eol === 'mixed') ? withEol(content, eol) : content;
      if (before && before.text === text) {
        return textResult(`${t.located.display} already has exactly this content; nothing was written; version ${before.version}.`);
      }
      if (before) {
        refuseBlindOverwrite(ctx, input, t.located.display, t.real, before);
      }
      const landed = await landChange(
        ctx,
        { tool: 'fs_write', summary: `${before ? 'overwrite' : 'create'} ${t.located.display}`, files: [{ target: t, action: before ? 'overwrite' : 'create', before, after: text }] },
        [access],
        { otherProblems: true },
      );
      return textResult(renderSingleChange(landed));
    }, ctx.signal);
  },
};
