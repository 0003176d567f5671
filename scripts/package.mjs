// `npm run package`: a production build, then agent-file-tools.vsix made with vsce from a
// staging folder holding only what .vscodeignore allows. vsce itself walks the whole folder
// it packages; here that folder is small whatever the work tree holds (benchmark data,
// test hosts, run folders).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { root } from './host.mjs';

execFileSync(process.execPath, [path.join(root, 'esbuild.mjs'), '--production'], { cwd: root, stdio: 'inherit' });

// The allow-list: the "!path" lines of .vscodeignore (a trailing /** takes a folder).
const allowed = fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l.startsWith('!')).map((l) => l.slice(1));
const stage = path.join(root, '.vscode-test-runs', 'package-stage');
fs.rmSync(stage, { recursive: true, force: true });
fs.mkdirSync(stage, { recursive: true });
for (const entry of allowed) {
  const rel = entry.replace(/\/\*\*$/, '');
  const from = path.join(root, rel);
  if (!fs.existsSync(from)) throw new Error(`.vscodeignore allows ${entry}, which does not exist: build first`);
  fs.cpSync(from, path.join(stage, rel), { recursive: true });
}
fs.writeFileSync(path.join(stage, '.vscodeignore'), fs.readFileSync(path.join(root, '.vscodeignore')));
// The README's screenshots (media/readme) stay out of the package: vsce refuses relative image
// links without a repository URL, and the text says the same without them.
const readme = path.join(stage, 'README.md');
// Links to the project's other files (SECURITY.md, test/platform/README.md) are refused the same
// way: in the package they become their text, which names the file.
fs.writeFileSync(
  readme,
  fs
    .readFileSync(readme, 'utf8')
    .replace(/\n[ \t]*!\[[^\]]*\]\(media\/readme\/[^)]+\)[ \t]*\n/g, '\n')
    .replace(/(?<!!)\[([^\]]+)\]\((?![a-z][a-z0-9+.-]*:|#)[^)\s]+\)/gi, '$1'),
);
const out = path.join(root, 'agent-file-tools.vsix');
const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out], { cwd: stage, stdio: 'inherit' });
fs.rmSync(stage, { recursive: true, force: true });
