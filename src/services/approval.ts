import { ToolError } from '../core/errors';
import type { CancelSignal } from '../core/cancel';
import type { Phrase } from '../core/phrase';
import type { ReadReason } from '../core/policy';
import type { ChangeReason } from '../core/writePolicy';
import type { ToolResult } from './result';

/**
 * The one way a tool asks the person. Two implementations: VS Code (the chat's
 * confirmation card for reads, diff editors with Accept/Reject for changes) and the
 * CLI (its flags answer; without them it prints what would happen and exits 3). Tools
 * never look at which one they have, and no adapter interprets a question's reason.
 */
export interface Approver {
  /**
   * A read-only call that touches a path the policy asks about. In VS Code the chat
   * showed this question before `invoke` (from `prepare`); asking again here is how a
   * path that changed in between is caught.
   */
  confirm(question: Confirmation, signal: CancelSignal): Promise<ConfirmAnswer>;
  /** A change, shown to the person before it lands; the answer says what to apply. */
  review(proposal: ChangeProposal, signal: CancelSignal): Promise<Review>;
  /**
   * A change that landed without a question (the policy did not need one), shown so the
   * person sees it, without taking focus from what they are doing. Returns at once.
   */
  showApplied(change: ChangeProposal): void;
  /**
   * Told once an accepted change has been written (before its errors are waited for), so
   * that what the review's answer updates on screen does not compete with the write.
   */
  written?(): void;
}

/** Why a call needs a yes: a path outside the workspace folders, a file that may hold secrets. */
export type ConfirmReason = ReadReason;

export interface Confirmation {
  /** Every reason that applies: an outside secret needs both answered. */
  reasons: readonly ConfirmReason[];
  /** One line, plain text: it is shown as Markdown in chat cards and as plain text in dialogs; in the person's language. */
  title: Phrase;
  /** What will be read and why it asks, in Markdown; in the person's language. */
  message: Phrase;
}

export type ConfirmAnswer = { allowed: true } | { allowed: false; result: ToolResult };

export type ProposedAction = 'create' | 'modify' | 'overwrite' | 'delete' | 'move';

export interface ProposedFile {
  /** Absolute path the change lands on (for a move: the destination). */
  path: string;
  /** As tools print it: workspace-relative with "/", absolute outside. */
  display: string;
  action: ProposedAction;
  /** For a move: where the file was. */
  from?: { path: string; display: string };
  /** Current text (the editor's buffer when open); undefined for a file that does not exist. */
  oldText: string | undefined;
  /** Proposed text; undefined for a delete. */
  newText: string | undefined;
  /** For a move onto an existing file (or an add over one): the text there that the change replaces. */
  replaces?: string;
  /** Paths of this change outside the workspace folders, as printed (a move has two). */
  outside?: readonly string[];
  /** Why this file's change asks whatever the approval policy (see decideChange); empty or absent when only the policy asks. */
  asks?: readonly ChangeReason[];
  /** Reading the file (or where it moves from) would ask or is refused: a secret, a file outside the workspace. */
  guarded?: boolean;
}

export interface ChangeProposal {
  /** The tool proposing it (`fs_edit`). */
  tool: string;
  /** One line saying what the change does, for titles and lists. */
  summary: string;
  files: ProposedFile[];
  /** What the model is told with the change whether it lands or is only shown (how loosely its text matched): a preview says it too. */
  notes?: readonly string[];
}

export type Review =
  /**
   * `texts` holds the text to write per `ProposedFile.path`: the person may have edited the
   * proposal. `atOnce`: answered by standing flags (the CLI's --yes), no person took time.
   */
  | { kind: 'accepted'; texts: ReadonlyMap<string, string>; edited: readonly string[]; atOnce?: true }
  | { kind: 'rejected'; reason?: string }
  | { kind: 'cancelled' }
  /** Nobody can answer here (the CLI without --yes): `preview` is what would change, `rerun` how to approve it. */
  | { kind: 'needs-approval'; preview: string; rerun?: string };

/** Accepting a proposal as it stands, for approvers and policies that do not ask. */
export function acceptAsProposed(p: ChangeProposal): Extract<Review, { kind: 'accepted' }> {
  const texts = new Map<string, string>();
  for (const f of p.files) {
    if (f.newText !== undefined) {
      texts.set(f.path, f.newText);
    }
  }
  return { kind: 'accepted', texts, edited: [] };
}

/** What the CLI's exit code says about a result: the one place that decides it. */
export function exitCodeOf(r: ToolResult): 0 | 1 | 3 {
  return r.needsApproval ? 3 : r.isError ? 1 : 0;
}

/** Thrown inside a tool when the person said no (or could not be asked): its result is the answer. */
export class ApprovalDenied extends Error {
  constructor(readonly result: ToolResult) {
    super('approval denied');
  }
}

/** The person rejected a change: the model is told `message`; `reason` is what they typed, if anything. */
export class ChangeRejected extends ToolError {
  constructor(
    readonly reason: string | undefined,
    message: string,
  ) {
    super('rejected', message);
  }
}

/**
 * The same approver, counting how long the person took to answer its questions and reviews:
 * that time is theirs, and a call's log says it apart from the call's own.
 */
export function timedApprover(a: Approver): { approver: Approver; waitedMs(): number } {
  let waited = 0;
  const timed = async <T>(p: Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await p;
    } finally {
      waited += performance.now() - t0;
    }
  };
  const approver: Approver = {
    confirm: (q, signal) => timed(a.confirm(q, signal)),
    review: (p, signal) => timed(a.review(p, signal)),
    showApplied: (p) => a.showApplied(p),
    ...(a.written ? { written: () => a.written!() } : {}),
  };
  return { approver, waitedMs: () => waited };
}
