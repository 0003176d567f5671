import { callText, continueLine, END_OF_FILE, span } from '../contract';
import { formatBytes } from '../format';

/** The fs_read call for the page of `path` that starts at an offset (the default when a caller gives none). */
export function readPageCall(path: string): (offset: number) => string {
  return (offset) => callText('fs_read', { path, offset });
}

export interface FileEnvelope {
  /** Workspace-relative path with "/" (absolute outside the workspace). */
  displayPath: string;
  /** Rendered lines, `L{n}: ` prefixed. */
  rendered: readonly string[];
  first: number | undefined;
  last: number | undefined;
  /** Column the first line starts at, when not 1. */
  column?: number;
  totalLines: number | undefined;
  fileBytes: number;
  /** "utf-8", "utf-16le", ... */
  encoding: string;
  eol: string;
  version: string;
  dirty: boolean;
  /** The call that continues, set exactly when the page stopped before the end of what was asked. */
  continueCall: string | undefined;
  /** Indentation mode, or a symbol: what the block is, for the meta line; the page then ends with the block. */
  block?: string;
  /** The closing line when the page holds the block's end (`End of block.` unless said). */
  blockEnd?: string;
  /** One line before the closing line: how to ask for less, when the byte cap cut the page. */
  advice?: string;
}

/** "lines 1-120 of 120", or without a total when the file was too large to count. */
function rangeText(e: FileEnvelope): string {
  if (e.first === undefined) {
    return e.totalLines === 0 ? 'empty file' : 'no lines';
  }
  const one = e.first === e.last;
  const lines = `${one ? 'line' : 'lines'} ${span(e.first, e.last!)}`;
  const of = e.totalLines === undefined ? ` (total not counted: the file is ${formatBytes(e.fileBytes)})` : ` of ${e.totalLines}`;
  const from = e.column === undefined ? '' : one ? ` from column ${e.column}` : ` (line ${e.first} from column ${e.column})`;
  return `${lines}${of}${from}`;
}

/**
 * The text envelope of the spec: path, type, meta, content, then one closing line that
 * says whether the page reached the end (`End of file.`, or `End of block.` in indentation
 * mode) or, when it did not, the exact call that continues.
 */
export function renderFileEnvelope(e: FileEnvelope): string {
  const meta = [rangeText(e)];
  if (e.block) {
    meta.push(e.block);
  }
  meta.push(e.encoding);
  if (e.eol !== 'none') {
    meta.push(e.eol);
  }
  meta.push(`version ${e.version}`);
  if (e.dirty) {
    meta.push('unsaved changes in editor');
  }
  const out = [`<path>${e.displayPath}</path>`, '<type>file</type>', `<meta>${meta.join(', ')}</meta>`, '<content>', ...e.rendered, '</content>'];
  if (e.advice !== undefined) {
    out.push(e.advice);
  }
  out.push(e.continueCall !== undefined ? continueLine(e.continueCall) : e.block ? (e.blockEnd ?? 'End of block.') : END_OF_FILE);
  return out.join('\n');
}
