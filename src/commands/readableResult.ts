/**
 * A tool's result as a person reads it in Run a Tool: the same text the model got, without
 * the tags that frame it for the model. A file's path and what the read says of it make the
 * first line; numbered lines (`L12: `) get a gutter; a diff stands alone between blank lines,
 * where the result editor's grammar colours it; notebook cells and instruction files are
 * headed by a rule. Everything else (prose, errors, the call that continues) is kept as it
 * is, and the editor wraps it. The model's text never changes: this is only what the result
 * editor shows, and its title bar shows the model's text on request.
 *
 * Only whole lines of the forms the tools write are read as tags: a file's own lines reach
 * the result numbered (`L3: <diff>`) or prefixed in a diff (` </diff>`), so they are never
 * taken for one.
 */

/** The tags whose lines only frame the text: dropped. */
const FRAME_LINES = new Set(['<content>', '</content>', '<entries>', '</entries>', '<outline>', '</outline>', '</cell>', '</outputs>', '</instructions>', '</system-reminder>']);

function attribute(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\b${name}="([^"]*)"`).exec(tag);
  return m?.[1].replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
}

/** `<cell index="2" kind="code" language="python" execution_count="3">` as a rule naming the cell. */
function cellRule(tag: string): string {
  const index = attribute(tag, 'index');
  const details = [attribute(tag, 'kind'), attribute(tag, 'language'), attribute(tag, 'execution_count') && `run ${attribute(tag, 'execution_count')}`].filter(Boolean);
  return `── cell ${index ?? '?'}${details.length ? ` (${details.join(', ')})` : ''} ──`;
}

export function readableResult(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let header: { path: string; meta?: string } | undefined;
  let inDiff = false;
  let gutter = 0;
  const flushHeader = () => {
    if (header) {
      out.push(header.meta ? `${header.path} · ${header.meta}` : header.path);
      out.push('');
      header = undefined;
    }
  };
  // a blank line before a block that stands alone, unless one is there already
  const blank = () => {
    if (out.length && out[out.length - 1] !== '') {
      out.push('');
    }
  };
  for (const [i, line] of lines.entries()) {
    if (inDiff) {
      if (line === '</diff>' || line === '</user-edits>') {
        inDiff = false;
        blank();
      } else {
        out.push(line);
      }
      continue;
    }
    const path = /^<path>(.*)<\/path>$/.exec(line);
    if (path && i === 0) {
      header = { path: path[1] };
      continue;
    }
    if (/^<type>[\w-]+<\/type>$/.test(line)) {
      continue;
    }
    const meta = /^<meta>(.*)<\/meta>$/.exec(line);
    if (meta && header) {
      header.meta = meta[1];
      continue;
    }
    flushHeader();
    if (line === '<content>') {
      // the gutter as wide as the page's last line number
      let widest = 0;
      for (let j = i + 1; j < lines.length && lines[j] !== '</content>'; j++) {
        widest = Math.max(widest, /^L(\d+): /.exec(lines[j])?.[1].length ?? 0);
      }
      gutter = widest;
      continue;
    }
    if (line === '</content>') {
      gutter = 0;
      blank();
      continue;
    }
    if (line === '<diff>' || line === '<user-edits>') {
      inDiff = true;
      blank();
      continue;
    }
    if (FRAME_LINES.has(line)) {
      continue;
    }
    if (line === '<outputs>') {
      out.push('outputs:');
      continue;
    }
    if (line === '<system-reminder>') {
      blank();
      out.push('── instructions from AGENTS.md and CLAUDE.md files, added for the model ──');
      continue;
    }
    const instructions = /^<instructions path="[^"]*">$/.exec(line);
    if (instructions) {
      out.push(`── ${attribute(line, 'path')} ──`);
      continue;
    }
    if (/^<cell( [\w-]+="[^"]*")*>$/.test(line)) {
      out.push(cellRule(line));
      continue;
    }
    const numbered = /^L(\d+): ?(.*)$/.exec(line);
    if (numbered && gutter > 0) {
      out.push(`${numbered[1].padStart(gutter)} │ ${numbered[2]}`);
      continue;
    }
    out.push(line);
  }
  flushHeader();
  while (out.length && out[out.length - 1] === '') {
    out.pop();
  }
  return out.join('\n');
}
