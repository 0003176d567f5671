import * as vscode from 'vscode';
import type { CancelSignal } from '../core/cancel';
import { english } from '../core/phrase';
import { type Approver, type ChangeProposal, type Confirmation, type ConfirmAnswer, type Review } from '../services/approval';
import { shown } from '../vscode/phrase';

/** How a review is shown. */
export interface ReviewOptions {
  /** The person asked for the change (a command), so its review takes the keyboard. */
  focus?: boolean;
  /**
   * Settles when the call that proposed the change has answered: an accepted review stays
   * open until then, so that closing its editors does not hold up the apply and the result
   * (the window does one after the other).
   */
  callEnded?: PromiseLike<unknown>;
  /**
   * Settles when an accepted change has been written, or the call has answered: the
   * controls that list waiting changes are updated then, not while the window writes it.
   */
  written?: PromiseLike<unknown>;
}

/** Shows a proposed change to the person and waits for their answer. */
export interface ReviewUi {
  review(proposal: ChangeProposal, signal: CancelSignal, opts?: ReviewOptions): Promise<Review>;
  /** Shows a change that landed without a question, without taking focus. */
  showApplied(change: ChangeProposal): void;
}

/** One call's approver, told when that call has answered. */
export interface CallApprover extends Approver {
  endCall(): void;
}

/** Confirmations the chat showed before invoke, as "tool, input, question" keys; the oldest are forgotten first. */
const MAX_REMEMBERED_CONFIRMATIONS = 256;

function confirmationKey(tool: string, input: unknown, q: Confirmation): string {
  return JSON.stringify([tool, input ?? {}, q.reasons, q.title, q.message]);
}

/**
 * Reads: the chat asks with a confirmation card from `prepareInvocation`, before
 * `invoke`. The question shown is remembered; inside `invoke` the tool decides again on
 * the path as it resolves then, and when that question is not the one the person
 * answered (the path changed in between), a modal dialog asks about the real file.
 */
export class VscodeApprover {
  private readonly shown = new Set<string>();

  constructor(private readonly reviews: ReviewUi) {}

  /** Called when prepareInvocation returns a confirmation for this call. */
  noteShown(tool: string, input: unknown, q: Confirmation): void {
    const key = confirmationKey(tool, input, q);
    this.shown.delete(key);
    this.shown.add(key);
    if (this.shown.size > MAX_REMEMBERED_CONFIRMATIONS) {
      this.shown.delete(this.shown.values().next().value as string);
    }
  }

  /**
   * The approver one call uses; `focus`: its reviews take the keyboard (the person started
   * the call); `client`: the MCP client that asked, named by the dialogs it asks in. Call
   * `endCall` once the call has answered.
   */
  forCall(tool: string, input: unknown, focus = false, client?: string): CallApprover {
    let endCall!: () => void;
    let markWritten!: () => void;
    const callEnded = new Promise<void>((resolve) => (endCall = resolve));
    const written = new Promise<void>((resolve) => (markWritten = resolve));
    void callEnded.then(markWritten);
    return {
      confirm: (q, signal) => this.confirm(tool, input, q, signal, client),
      review: (p, signal) => this.reviews.review(p, signal, { focus, callEnded, written }),
      showApplied: (p) => this.reviews.showApplied(p),
      written: markWritten,
      endCall,
    };
  }

  /**
   * A call of an MCP client had no card before it: the dialog is the only question, and it
   * names the client, as the client named itself.
   */
  private async confirm(tool: string, input: unknown, q: Confirmation, signal: CancelSignal, client?: string): Promise<ConfirmAnswer> {
    const key = confirmationKey(tool, input, q);
    if (this.shown.delete(key)) {
      return { allowed: true };
    }
    if (signal.isCancellationRequested) {
      return { allowed: false, result: { isError: true, parts: [{ kind: 'text', text: 'The call was cancelled; nothing was read.' }] } };
    }
    const allow = vscode.l10n.t('Allow');
    const detail = shown(q.message).replace(/`/g, '');
    const title = client === undefined ? shown(q.title) : vscode.l10n.t('{0} (an MCP client) asks: {1}', client, shown(q.title));
    const answer = await vscode.window.showWarningMessage(title, { modal: true, detail }, allow);
    if (answer === allow) {
      return { allowed: true };
    }
    // the model reads English, whatever language the person sees
    return { allowed: false, result: { isError: true, parts: [{ kind: 'text', text: `The user declined: ${english(q.message).replace(/`/g, '')} Do not retry this call unless the user asks for it.` }] } };
  }
}
