import * as vscode from 'vscode';

/**
 * What the walkthrough's steps wait for: each a context key set once the person has done
 * that step's own thing (the manifest's `completionEvents` name them as `onContext:`). A step
 * completed by running a command would tick as the command starts, before the picker it opens
 * is answered (and three steps ticked on one command). What closed Run a Tool's picker over the
 * walkthrough is another thing: see the reopening in commands/index.ts.
 */
export const WALKTHROUGH_DONE = {
  /** A tool ran from Run a Tool (or another command of the palette) and its result opened. */
  ranTool: 'agentFileTools.walkthrough.ranTool',
  /** An fs_read ran from a command and its result opened. */
  readFile: 'agentFileTools.walkthrough.readFile',
  /** An fs_edit's review was answered, Accept or Reject. */
  reviewedEdit: 'agentFileTools.walkthrough.reviewedEdit',
  /** An fs_apply_patch's review was answered. */
  reviewedPatch: 'agentFileTools.walkthrough.reviewedPatch',
  /** A revert from the History of Changes landed. */
  reverted: 'agentFileTools.walkthrough.reverted',
  /** The log was shown. */
  sawLog: 'agentFileTools.walkthrough.sawLog',
} as const;

const done = new Set<string>();

/** Marks a step's thing as done in this window (once: the walkthrough keeps the tick). */
export function walkthroughDone(key: (typeof WALKTHROUGH_DONE)[keyof typeof WALKTHROUGH_DONE]): void {
  if (!done.has(key)) {
    done.add(key);
    void vscode.commands.executeCommand('setContext', key, true);
  }
}
