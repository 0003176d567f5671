/** The part of a cancellation token the core needs; VS Code's token and the CLI's both fit. */
export interface CancelSignal {
  readonly isCancellationRequested: boolean;
}

export const NEVER_CANCELLED: CancelSignal = { isCancellationRequested: false };

import { CancelledError } from './errors';

export function throwIfCancelled(signal: CancelSignal | undefined): void {
  if (signal?.isCancellationRequested) {
    throw new CancelledError();
  }
}
