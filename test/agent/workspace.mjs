// The Agent-mode suite's workspace: test/agent/workspace copied into the run folder, plus the
// large files generated here (so the repository stays small). Each is sized so that the first
// page of a tool's answer is larger than Copilot Chat's 8 KiB large-result threshold.
import fs from 'node:fs';
import path from 'node:path';

export const BIG = {
  /** 3000 lines of 64 characters: fs_read's first page is cut at 50 KiB. */
  file: 'big/big.txt',
  /** 400 matching lines of about 110 characters: fs_grep's first page (100 matches) is about 12 KB. */
  matches: 'big/matches.txt',
  /** 150 files with names of 104 characters: the first pages of fs_list and fs_glob are about 11 KB. */
  folder: 'gen',
};

export function makeWorkspace(fixture, workspace) {
  fs.cpSync(fixture, workspace, { recursive: true });
  const big = path.join(workspace, 'big');
  fs.mkdirSync(big, { recursive: true });
  const lines = Array.from({ length: 3000 }, (_, i) => `line ${String(i + 1).padStart(4, '0')} of the big file, padded to about sixty-four chars.`);
  fs.writeFileSync(path.join(workspace, BIG.file), lines.join('\n') + '\n');
  const matches = Array.from({ length: 400 }, (_, i) => `${String(i + 1).padStart(3, '0')}: the needle sits in a line long enough that a page of one hundred of them passes 8 KiB`);
  fs.writeFileSync(path.join(workspace, BIG.matches), matches.join('\n') + '\n');
  const gen = path.join(workspace, BIG.folder);
  fs.mkdirSync(gen, { recursive: true });
  for (let i = 1; i <= 150; i++) {
    fs.writeFileSync(path.join(gen, `generated-file-${String(i).padStart(3, '0')}-with-a-name-long-enough-that-one-page-of-a-hundred-paths-is-larger-than-eight-kib.txt`), `file ${i}\n`);
  }
}
