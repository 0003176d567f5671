import { ToolError } from '../errors';
import { textDigestBase64url } from '../hash';

/**
 * A cursor names the last entry a page showed, not a position: the next page starts
 * right after that path in the global order, so files added or removed earlier in the
 * tree between two calls neither repeat nor skip entries, and the walk skips every
 * folder that lies wholly before it instead of reading it again.
 */
export interface ListCursor {
  /** Path of the last entry shown, relative to the listed folder. */
  after: string;
  /** Entries shown up to and including it, so the next page can number its entries. */
  shown: number;
  /** Fingerprint of the call's other options; a cursor only continues the listing it came from. */
  call: string;
}

/** A short digest of what a listing depends on besides its position. */
export function callFingerprint(parts: unknown): string {
  return textDigestBase64url(JSON.stringify(parts)).slice(0, 10);
}

export function encodeCursor(c: ListCursor): string {
  return Buffer.from(JSON.stringify([1, c.after, c.shown, c.call]), 'utf8').toString('base64url');
}

/** undefined when the text is not a cursor of this format. */
export function decodeCursor(text: string): ListCursor | undefined {
  try {
    const v: unknown = JSON.parse(Buffer.from(text.trim(), 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 4 && v[0] === 1 && typeof v[1] === 'string' && v[1] !== '' && Number.isInteger(v[2]) && v[2] >= 0 && typeof v[3] === 'string') {
      return { after: v[1], shown: v[2], call: v[3] };
    }
  } catch {
    // not base64 or not JSON: reported as an invalid cursor
  }
  return undefined;
}

/**
 * The cursor a call gives, checked: one `tool` printed, for a call with the same options
 * (`fingerprint`); else the error that says which, naming what the tool pages (`what`) and
 * the options a cursor is bound to.
 */
export function givenCursor(text: string, fingerprint: string, tool: string, what: string, options: string): ListCursor {
  const c = decodeCursor(text);
  if (!c) {
    throw new ToolError('invalid-input', `cursor is not one ${tool} gave: copy it exactly from the "Continue with" line of the previous page, or page with offset instead.`);
  }
  if (c.call !== fingerprint) {
    throw new ToolError('invalid-input', `This cursor belongs to a different ${what} (${options} differ). Repeat the exact call the previous page gave, or start again without a cursor.`);
  }
  return c;
}
