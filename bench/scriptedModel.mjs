// What the scripted-model scripts (roundtrips.mjs, friction.mjs) share: a tool call through
// the CLI, a tree in a temporary folder, and reading what an answer quotes.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** One tool call through the CLI at `cli` (changes approved): its text, and whether it failed. */
export function callTool(cli, root, tool, input) {
  try {
    const out = execFileSync(process.execPath, [cli, tool, '--root', root, '--yes', '--input', JSON.stringify(input)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return { ok: true, text: out };
  } catch (e) {
    return { ok: false, text: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

/** A temporary folder holding `files` (relative path -> text). */
export function tree(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'aft-scripted-'));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

/** Pairs of `old_string: "..."` / `file: "..."` quoted in an fs_edit answer. */
export function quotedPairs(text) {
  const pairs = [];
  const lines = text.split('\n');
  for (let i = 0; i + 1 < lines.length; i++) {
    const a = /^\s*old_string: (".*")$/.exec(lines[i]);
    const b = /^\s*file: +(".*")$/.exec(lines[i + 1]);
    if (a && b) {
      pairs.push([JSON.parse(a[1]), JSON.parse(b[1])]);
    }
  }
  return pairs;
}

/** `L{n}: text` lines of an answer (fs_read's page or a region in an error). */
export function numbered(text) {
  return text
    .split('\n')
    .map((l) => /^L(\d+): (.*)$/.exec(l))
    .filter(Boolean)
    .map((m) => [Number(m[1]), m[2]]);
}
