import { unifiedDiff } from '../core/diff';
import { ToolError } from '../core/errors';
import { acceptAsProposed, type Approver, type ChangeProposal, type Confirmation } from './approval';

/** The CLI's answers come from its flags: nobody is there to ask. */
export interface CliFlags {
  /** `--yes`: approve what the extension would ask the person about. */
  yes: boolean;
  /** `--allow-outside`: permit paths outside the roots. */
  allowOutside: boolean;
}

/** The unified diff of every file of a proposal, in order. */
export function proposalDiff(p: ChangeProposal): string {
  return p.files
    .map((f) => {
      const from = f.from?.display ?? f.display;
      const head = f.action === 'move' ? `rename from ${from}\nrename to ${f.display}\n` : '';
      const diff = head + unifiedDiff(from, f.display, f.oldText, f.newText);
      if (f.action === 'move' && f.replaces !== undefined) {
        // the file already at the destination is lost: show what it held becoming the moved text
        return `${diff}\n${f.display} exists and is replaced:\n${unifiedDiff(f.display, f.display, f.replaces, f.newText)}`;
      }
      return diff;
    })
    .filter((d) => d !== '')
    .join('\n');
}

export function cliApprover(flags: CliFlags): Approver {
  return {
    async confirm(q: Confirmation) {
      if (q.reasons.includes('outside') && !flags.allowOutside) {
        return { allowed: false, result: { isError: true, parts: [{ kind: 'text', text: `${q.message} It needs the user's approval; run again with --allow-outside to permit paths outside --root.` }] } };
      }
      if (q.reasons.includes('sensitive') && !flags.yes) {
        return { allowed: false, result: { isError: true, needsApproval: true, parts: [{ kind: 'text', text: `${q.message} It needs the user's approval; run again with --yes to allow it.` }] } };
      }
      return { allowed: true };
    },
    async review(p: ChangeProposal) {
      const outside = p.files.flatMap((f) => f.outside ?? []);
      if (outside.length && !flags.allowOutside) {
        throw new ToolError('denied', `${outside.join(', ')} ${outside.length === 1 ? 'is' : 'are'} outside the workspace folders; nothing was written. It needs the user's approval; run again with --allow-outside to permit paths outside --root.`);
      }
      return flags.yes ? acceptAsProposed(p) : { kind: 'needs-approval', preview: proposalDiff(p) };
    },
    // the result the CLI prints carries the diff
    showApplied() {},
  };
}
