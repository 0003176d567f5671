import { unifiedDiff } from '../core/diff';
import { english } from '../core/phrase';
import { ToolError } from '../core/errors';
import { MAX_PREVIEW_DIFF_BYTES } from '../core/limits';
import { missingGrants, reasonWords, type ChangeReason } from '../core/writePolicy';
import { acceptAsProposed, type Approver, type ChangeProposal, type Confirmation } from './approval';

/** The CLI's answers come from its flags: nobody is there to ask. */
export interface CliFlags {
  /** `--yes`: approve reads the extension would ask about, and ordinary changes. */
  yes: boolean;
  /** `--allow-outside`: permit paths outside the roots. */
  allowOutside: boolean;
  /** `--allow-protected`: with `--yes`, changes to protected files and files that may hold secrets too. */
  allowProtected?: boolean;
  /** The flags are the MCP server's (`agent-file-tools mcp`): the model cannot run it again, the user can restart it. */
  serving?: boolean;
}

/** How to get what a missing flag grants, in the words of the one who reads it. */
function grantHint(flags: CliFlags, flag: string, what: string): string {
  return flags.serving ? `the MCP server was started without ${flag}; tell the user, who can restart it with ${flag} to ${what}` : `run again with ${flag} to ${what}`;
}

/**
 * The unified diff of every file of a proposal, in order, cut (and saying so) once the
 * files together reach MAX_PREVIEW_DIFF_BYTES: the preview is a result a model reads too.
 */
export function proposalDiff(p: ChangeProposal): string {
  let room = MAX_PREVIEW_DIFF_BYTES;
  const diff = (from: string, to: string, oldText: string | undefined, newText: string | undefined): string => {
    const d = unifiedDiff(from, to, oldText, newText, { maxLines: Infinity, maxBytes: Math.max(0, room) });
    room -= Buffer.byteLength(d, 'utf8') + 1;
    return d;
  };
  return p.files
    .map((f) => {
      const from = f.from?.display ?? f.display;
      // what always asks says so before its diff: the person approving with flags must know
      const why = reasonWords((f.asks ?? []).filter((r) => r !== 'outside'));
      const head = (why ? `${f.display} ${why}.\n` : '') + (f.action === 'move' ? `rename from ${from}\nrename to ${f.display}\n` : '');
      const d = head + diff(from, f.display, f.oldText, f.newText);
      if (f.action === 'move' && f.replaces !== undefined) {
        // the file already at the destination is lost: show what it held becoming the moved text
        return `${d}\n${f.display} exists and is replaced:\n${diff(f.display, f.display, f.replaces, f.newText)}`;
      }
      return d;
    })
    .filter((d) => d !== '')
    .join('\n');
}

export function cliApprover(flags: CliFlags): Approver {
  return {
    async confirm(q: Confirmation) {
      if (q.reasons.includes('outside') && !flags.allowOutside) {
        return { allowed: false, result: { isError: true, parts: [{ kind: 'text', text: `${english(q.message)} It needs the user's approval; ${grantHint(flags, '--allow-outside', 'permit paths outside --root')}.` }] } };
      }
      if (q.reasons.includes('sensitive') && !flags.yes) {
        return { allowed: false, result: { isError: true, needsApproval: true, parts: [{ kind: 'text', text: `${english(q.message)} It needs the user's approval; ${grantHint(flags, '--yes', 'allow it')}.` }] } };
      }
      return { allowed: true };
    },
    async review(p: ChangeProposal) {
      const outside = p.files.flatMap((f) => f.outside ?? []);
      if (outside.length && !flags.allowOutside) {
        throw new ToolError('denied', `${outside.join(', ')} ${outside.length === 1 ? 'is' : 'are'} outside the workspace folders; nothing was written. It needs the user's approval; ${grantHint(flags, '--allow-outside', 'permit paths outside --root')}.`);
      }
      const reasons = new Set<ChangeReason>(p.files.flatMap((f) => f.asks ?? []));
      const missing = missingGrants([...reasons], { ordinary: flags.yes, protectedFiles: flags.allowProtected === true, outside: flags.allowOutside });
      if (missing.length === 0) {
        // the flags answered at once: no time passed for anyone to change the files
        return { ...acceptAsProposed(p), atOnce: true };
      }
      const rerun = ['--yes', ...(reasons.has('protected') || reasons.has('sensitive') ? ['--allow-protected'] : [])].join(' ');
      // the notes the applied result would give come first, as there: a loose match is checked before it is approved
      const preview = [...(p.notes ?? []), proposalDiff(p)].join('\n');
      if (flags.serving) {
        return { kind: 'needs-approval', preview, rerun: `The MCP server was started without ${rerun}, so it shows changes and writes none: tell the user, who can apply it or restart the server with ${rerun}.` };
      }
      return { kind: 'needs-approval', preview, ...(rerun === '--yes' ? {} : { rerun: `Run again with ${rerun} to apply it.` }) };
    },
    // the result the CLI prints carries the diff
    showApplied() {},
  };
}
