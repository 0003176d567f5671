import { formatBytes, formatCount } from '../format';
import type { StopReason } from './page';

export interface FileEnvelope {
  /** Workspace-relative path with "/" (absolute outside the workspace). */
  displayPath: string;
  /** Rendered lines, `L{n}: ` prefixed. */
  rendered: readonly string[];
  first: number | undefined;
  last: number | undefined;
  totalLines: number | undefined;
  fileBytes: number;
  /** "utf-8", "utf-16le", ... */
  encoding: string;
  eol: string;
  version: string;
  dirty: boolean;
  nextOffset: number | undefined;
  stop: StopReason | undefined;
  /** Lines the caller asked for, to say why a page stopped. */
  limit: number;
  /** The call that continues, when not plain `offset=N` (indentation mode). */
  continueWith?: string;
  /** Extra summary fields, e.g. the indentation block. */
  summaryExtra?: string;
}

/** "Total: unknown (file is 1.00 GiB)" when the file was too large to count. */
function totalText(e: FileEnvelope): string {
  return e.totalLines === undefined ? `unknown (file is ${formatBytes(e.fileBytes)})` : `${formatCount(e.totalLines)} lines`;
}

function continuation(e: FileEnvelope): string {
  const why =
    e.stop === 'bytes'
      ? 'the page reached the 50 KiB output cap'
      : e.stop === 'limit'
        ? `the page reached the ${formatCount(e.limit)}-line limit`
        : e.stop === 'tokens'
          ? "the page was cut to fit this call's token budget"
          : 'more lines follow';
  const of = e.totalLines === undefined ? ` of a ${formatBytes(e.fileBytes)} file whose line count was not computed` : ` of ${formatCount(e.totalLines)}`;
  return `(Showing lines ${e.first}–${e.last}${of}; ${why}. ${e.continueWith ?? `Use offset=${e.nextOffset} to continue.`})`;
}

/** The text envelope of the spec: path, type, meta, content, summary. */
export function renderFileEnvelope(e: FileEnvelope): string {
  const meta: string[] = [];
  if (e.first === undefined) {
    meta.push(e.totalLines === 0 ? 'empty file' : 'no lines');
  } else {
    const of = e.totalLines === undefined ? `unknown (file is ${formatBytes(e.fileBytes)})` : formatCount(e.totalLines);
    meta.push(`lines ${e.first}-${e.last} of ${of}`);
  }
  meta.push(e.encoding);
  if (e.eol !== 'none') {
    meta.push(e.eol);
  }
  meta.push(`version ${e.version}`);
  if (e.dirty) {
    meta.push('unsaved changes in editor');
  }
  const out = [`<path>${e.displayPath}</path>`, '<type>file</type>', `<meta>${meta.join(' · ')}</meta>`, '<content>'];
  if (e.first === undefined) {
    out.push('(The file is empty.)');
  } else {
    out.push(...e.rendered);
  }
  if (e.nextOffset !== undefined) {
    out.push('', continuation(e));
  }
  out.push('</content>');
  const showing = e.first === undefined ? 'none' : `${e.first}–${e.last}`;
  out.push(`<summary>Total: ${totalText(e)} | Showing: ${showing} | Truncated: ${e.nextOffset !== undefined}${e.summaryExtra ? ` | ${e.summaryExtra}` : ''}</summary>`);
  return out.join('\n');
}
