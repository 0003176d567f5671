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
  | 'io';

export class CancelledError extends ToolError {
  constructor() {
    super('cancelled', 'The call was cancelled; nothing was changed.');
  }
}
