/**
 * A failure the model should read: `message` says what happened, why, and what to do
 * next. `code` tells distinct failures apart for tests and logs.
 */
export class ToolError extends Error {
  constructor(
    readonly code: ToolErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

export type ToolErrorCode =
  | 'invalid-input'
  | 'not-found'
  | 'offset-past-end'
  | 'binary'
  | 'not-a-file'
  | 'cancelled'
  | 'too-large'
  | 'no-match'
  | 'untrusted'
  | 'stale'
  | 'rejected'
  /** The policy never allows it (`.git` internals). */
  | 'denied'
  /** The path led to another file between the decision and the read. */
  | 'changed'
  | 'io';

export class CancelledError extends ToolError {
  constructor() {
    super('cancelled', 'The call was cancelled; nothing was changed.');
  }
}
