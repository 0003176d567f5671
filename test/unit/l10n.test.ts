import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** Every message src/ passes to vscode.l10n.t, read here independently of the script that writes the bundle. */
function usedMessages(): { messages: Set<string>; dynamic: string[] } {
  const messages = new Set<string>();
  const dynamic: string[] = [];
  for (const file of sources(path.join(root, 'src'))) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bl10n\.t\(\s*(.)/g)) {
      if (m[1] !== "'") {
        dynamic.push(`${path.relative(root, file)}: ${text.slice(m.index, m.index + 60)}`);
      }
    }
    for (const m of text.matchAll(/\bl10n\.t\(\s*'((?:[^'\\\n]|\\.)*)'/g)) {
      messages.add(m[1].replace(/\\(.)/g, (_, c: string) => ({ n: '\n', t: '\t', "'": "'", '\\': '\\' })[c] ?? c));
    }
  }
  return { messages, dynamic };
}

describe('localisation', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const bundle = JSON.parse(fs.readFileSync(path.join(root, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, string>;

  it('the manifest names the bundle folder, and every message src/ uses is in the bundle, with none left over', () => {
    assert.equal(manifest.l10n, './l10n');
    const { messages, dynamic } = usedMessages();
    assert.deepEqual(dynamic, [], 'every message is a literal the bundle can hold');
    assert.ok(messages.size >= 80, `the messages found: ${messages.size}`);
    assert.deepEqual([...messages].filter((m) => !(m in bundle)), [], 'missing from l10n/bundle.l10n.json: run node scripts/l10n-bundle.mjs');
    assert.deepEqual(Object.keys(bundle).filter((k) => !messages.has(k)), [], 'no longer used: run node scripts/l10n-bundle.mjs');
    for (const [k, v] of Object.entries(bundle)) {
      assert.equal(v, k, 'the English bundle maps each message to itself');
    }
  });

  it('the bundle script writes exactly the bundle in the tree', () => {
    execFileSync(process.execPath, [path.join(root, 'scripts', 'l10n-bundle.mjs'), '--check'], { cwd: root, stdio: 'pipe' });
  });

  it('the messages the person sees go through vscode.l10n: no plain string in a window message, quick pick, input box or progress title', () => {
    const plain: string[] = [];
    // src/core is pure and shared with the CLI: its texts are not the window's
    for (const file of sources(path.join(root, 'src')).filter((f) => !f.startsWith(path.join(root, 'src', 'core') + path.sep))) {
      for (const [i, line] of fs.readFileSync(file, 'utf8').split('\n').entries()) {
        if (!/^\s*(\*|\/\/)/.test(line) && /show(?:Information|Warning|Error)Message\(\s*[`'"]|\b(?:title|placeHolder|prompt): [`'"]/.test(line)) {
          plain.push(`${path.relative(root, file)}:${i + 1}: ${line.trim()}`);
        }
      }
    }
    assert.deepEqual(plain, []);
  });
});
