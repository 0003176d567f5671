import type { PatchSyntaxError, PatchVerifyError } from './errors';

/**
 * The text the model reads for a rejected patch: that nothing was applied (a model used
 * to Codex expects the hunks before a failure to have been applied), what is wrong and
 * where, and what to send next.
 */
export function formatPatchError(e: PatchSyntaxError | PatchVerifyError, message = e.message): string {
  if (e.name === 'PatchSyntaxError') {
    return `The patch was not applied (no file was changed): it is malformed. ${message}\nFix it and send the whole patch again.`;
  }
  const several = 'failures' in e && e.failures.length > 1;
  return `The patch was not applied (no file was changed, not even by the hunks that fit). ${message}\nFix ${several ? 'them' : 'it'} and send the whole patch again, every hunk included.`;
}
