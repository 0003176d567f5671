// Writes l10n/bundle.l10n.json: every vscode.l10n.t('...') message in src/, and every
// phrase('...') of src/core (words for the person the VS Code side translates, see
// src/core/phrase.ts), keyed by itself (the English text), which translators copy to
// bundle.l10n.<locale>.json.
//   node scripts/l10n-bundle.mjs          write the bundle
//   node scripts/l10n-bundle.mjs --check  exit 1 when the bundle is not what src/ uses
// test/unit/l10n.test.ts checks the same, so the bundle cannot go stale.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CALL = /(?:\bl10n\.t|(?<![\w.`])phrase)\(\s*'((?:[^'\\\n]|\\.)*)'/g;
const ESCAPES = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"' };

function sources(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

export function messages() {
  const found = new Set();
  for (const file of sources(path.join(root, 'src'))) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(CALL)) {
      found.add(m[1].replace(/\\(.)/g, (_, c) => ESCAPES[c] ?? c));
    }
  }
  return Object.fromEntries([...found].sort().map((k) => [k, k]));
}

const target = path.join(root, 'l10n', 'bundle.l10n.json');
const text = `${JSON.stringify(messages(), null, 2)}\n`;
if (process.argv.includes('--check')) {
  const have = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
  if (have !== text) {
    console.error('l10n/bundle.l10n.json is not what src/ uses: run node scripts/l10n-bundle.mjs');
    process.exit(1);
  }
} else {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, text);
  console.log(`${Object.keys(messages()).length} messages in ${path.relative(root, target)}`);
}
