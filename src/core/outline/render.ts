import { continueLine, span } from '../contract';
import { MAX_READ_BYTES } from '../limits';
import { flatten, symbolLine, type Outline } from './symbols';

export interface OutlinePage {
  displayPath: string;
  outline: Outline;
  /** Lines of the file the outline is of. */
  totalLines: number;
  encoding: string;
  eol: string;
  version: string;
  dirty: boolean;
  /** 1-based: the first symbol to show. */
  offset: number;
  /** Symbols shown at most. */
  limit: number;
  /** The fs_read call for the outline from symbol `offset` on. */
  nextCall(offset: number): string;
}

/** What the meta line says the outline came from. */
const SOURCE_WORDS: Readonly<Record<Outline['source'], string>> = {
  'language server': 'from the language server',
  'tree-sitter': 'from the syntax tree (tree-sitter)',
  headings: 'from the headings',
  indentation: 'from indentation (no parser for this file type; ranges are guesses)',
};

export class OutlineOffsetPastEnd extends Error {
  constructor(readonly offset: number, readonly count: number) {
    super(`offset ${offset} is past the outline's ${count} symbols`);
  }
}

/**
 * A page of the outline in fs_read's envelope: one line per symbol, nested by two spaces,
 * each with the lines it spans, then `End of outline.` or the call that continues. The
 * page stops at `limit` symbols or the byte cap of any page, whichever comes first.
 */
export function renderOutline(p: OutlinePage): { text: string; shown: number } {
  const flat = flatten(p.outline.symbols);
  const count = flat.length;
  if (count > 0 && p.offset > count) {
    throw new OutlineOffsetPastEnd(p.offset, count);
  }
  const first = Math.min(p.offset, Math.max(count, 1));
  const rendered: string[] = [];
  let bytes = 0;
  for (let i = first - 1; i < count && rendered.length < p.limit; i++) {
    const line = symbolLine(flat[i]);
    const b = Buffer.byteLength(line, 'utf8') + 1;
    if (rendered.length > 0 && bytes + b > MAX_READ_BYTES) {
      break;
    }
    rendered.push(line);
    bytes += b;
  }
  const last = first + rendered.length - 1;
  const symbols = count === 0 ? 'no symbols' : `symbols ${span(first, last)} of ${count}`;
  const meta = [symbols, SOURCE_WORDS[p.outline.source], `${p.totalLines} lines`, p.encoding];
  if (p.eol !== 'none') {
    meta.push(p.eol);
  }
  meta.push(`version ${p.version}`);
  if (p.dirty) {
    meta.push('unsaved changes in editor');
  }
  const more = last < count;
  const out = [`<path>${p.displayPath}</path>`, '<type>outline</type>', `<meta>${meta.join(', ')}</meta>`, '<outline>', ...rendered, '</outline>'];
  out.push(more ? continueLine(p.nextCall(last + 1)) : 'End of outline.');
  return { text: out.join('\n'), shown: rendered.length };
}
