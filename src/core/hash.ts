import { createHash } from 'node:crypto';
import { VERSION_HEX_CHARS } from './limits';

/** Short content hash of text as the model saw it: the version that edits compare against. */
export function textVersion(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, VERSION_HEX_CHARS);
}
