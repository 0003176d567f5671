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
  // where the line is: at the top, inside a page's content, a diff, or an instruction file's own text
  let inside: 'top' | 'content' | 'diff' | 'instructions' = 'top';
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
    if (inside === 'instructions') {
      if (line === '</instructions>') {
        inside = 'top';
      } else {
        out.push(line);
      }
      continue;
    }
    if (inside === 'diff') {
      if (line === '</diff>' || line === '</user-edits>') {
        inside = 'top';
        blank();
      } else {
        out.push(line);
      }
      continue;
    }
    if (inside === 'content') {
      // a page's lines: numbered, or a notebook's cells and outputs
      const numbered = /^L(\d+): ?(.*)$/.exec(line);
      if (line === '</content>') {
        inside = 'top';
        blank();
      } else if (numbered && gutter > 0) {
        out.push(`${numbered[1].padStart(gutter)} │ ${numbered[2]}`);
      } else if (/^<cell( [\w-]+="[^"]*")*>$/.test(line)) {
        out.push(cellRule(line));
      } else if (line === '<outputs>') {
        out.push('outputs:');
      } else if (!FRAME_LINES.has(line)) {
        out.push(line);
      }
      continue;
    }
    const path = /^<path>(.*)<\/path>$/.exec(line);
    if (path) {
      flushHeader();
      blank();
      header = { path: path[1] };
      continue;
    }
    if (header && /^<type>[\w-]+<\/type>$/.test(line)) {
      continue;
    }
    const meta = /^<meta>(.*)<\/meta>$/.exec(line);
    if (meta && header) {
      header.meta = meta[1];
      continue;
    }
    flushHeader();
    if (line === '<content>') {
      inside = 'content';
      // the gutter as wide as the page's widest line number
      gutter = 0;
      for (let j = i + 1; j < lines.length && lines[j] !== '</content>'; j++) {
        gutter = Math.max(gutter, /^L(\d+): /.exec(lines[j])?.[1].length ?? 0);
      }
      continue;
    }
    if (line === '<diff>' || line === '<user-edits>') {
      inside = 'diff';
      blank();
      continue;
    }
    if (line === '<system-reminder>') {
      blank();
      out.push('── instructions from AGENTS.md and CLAUDE.md files, added for the model ──');
      continue;
    }
    if (/^<instructions path="[^"]*">$/.test(line)) {
      out.push(`── ${attribute(line, 'path')} ──`);
      inside = 'instructions';
      continue;
    }
    if (!FRAME_LINES.has(line)) {
      out.push(line);
    }
  }
  flushHeader();
  while (out.length && out[out.length - 1] === '') {
    out.pop();
  }
  return out.join('\n');
}
