import { LineIndexCache } from '../core/read/lineIndex';

/**
 * The line indexes of this process (the extension host, or one CLI run). They outlive a
 * call, so the page after a page starts where that one ended instead of at byte 0; each
 * belongs to one version of its file and is dropped when the file changes.
 */
export const lineIndexes = new LineIndexCache();
