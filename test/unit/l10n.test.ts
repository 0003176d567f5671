import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { locate } from '../../src/core/paths';
import { english, phrase, type Phrase } from '../../src/core/phrase';
import { decideRead, DEFAULT_SENSITIVE_GLOBS, globSet, outsideQuestion } from '../../src/core/policy';
import { GIT_INDEX_OUTSIDE, QUESTIONS, type QuestionVerb } from '../../src/core/questions';

const root = path.resolve(__dirname, '../../..');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** The one call to vscode.l10n.t whose message is not a literal: it shows the core's phrases, whose keys are literals. */
const SHOWS_PHRASES = 'src/vscode/phrase.ts: l10n.t(p.key, ...p.args)';

/**
 * Every message src/ passes to vscode.l10n.t, and every phrase('...') of the core (words for
 * the person that the VS Code side shows through vscode.l10n), read here independently of the
 * script that writes the bundle.
 */
function usedMessages(): { messages: Set<string>; dynamic: string[] } {
  const messages = new Set<string>();
  const dynamic: string[] = [];
  for (const file of sources(path.join(root, 'src'))) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:\bl10n\.t|(?<![\w.`]|function )phrase)\(\s*(.)/g)) {
      if (m[1] !== "'") {
        dynamic.push(`${path.relative(root, file)}: ${text.slice(m.index, m.index + 60).split(';')[0]}`);
      }
    }
    for (const m of text.matchAll(/(?:\bl10n\.t|(?<![\w.`])phrase)\(\s*'((?:[^'\\\n]|\\.)*)'/g)) {
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
    assert.deepEqual(dynamic, [SHOWS_PHRASES], 'every message is a literal the bundle can hold');
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

  it('the messages the person sees go through vscode.l10n: no plain string in a window message, quick pick, input box, progress title or question, the core\'s included', () => {
    const plain: string[] = [];
    // the core's questions are phrases the VS Code side translates: a title or message given as text is English only
    for (const file of sources(path.join(root, 'src'))) {
      const text = fs.readFileSync(file, 'utf8');
      for (const [i, line] of text.split('\n').entries()) {
        if (!/^\s*(\*|\/\/)/.test(line) && /show(?:Information|Warning|Error)Message\(\s*[`'"]|\b(?:title|placeHolder|prompt): [`'"]/.test(line)) {
          plain.push(`${path.relative(root, file)}:${i + 1}: ${line.trim()}`);
        }
      }
      for (const m of text.matchAll(/kind: 'confirm',[^}]*?\b(?:title|message): [`'"]/g)) {
        plain.push(`${path.relative(root, file)}: ${m[0].replace(/\s+/g, ' ')}`);
      }
    }
    assert.deepEqual(plain, []);
  });

  it("the read rule's questions are phrases of the bundle, for every verb and reason, and read in English as before", () => {
    const bundled = (p: Phrase, what: string) => assert.ok(p.key in bundle, `${what}: ${JSON.stringify(p.key)} is not in l10n/bundle.l10n.json`);
    let n = 0;
    for (const [verb, asked] of Object.entries(QUESTIONS)) {
      for (const [reason, words] of Object.entries(asked)) {
        bundled(words.title, `${verb} ${reason} title`);
        bundled(words.message('`t`', '`p`'), `${verb} ${reason} message`);
        n++;
      }
    }
    assert.equal(n, 21);
    bundled(GIT_INDEX_OUTSIDE.message('`t`', '`p`'), 'git index');
    // the decisions themselves, as the tools get them
    const none = globSet([], false);
    const ask = (real: string, verb: QuestionVerb) =>
      decideRead({ located: locate(real, [{ name: 'w', path: '/w' }]), real, openInEditor: false, allowOutside: none, sensitive: globSet(DEFAULT_SENSITIVE_GLOBS, true), toolName: `fs_${verb}`, verb });
    const cases: [ReturnType<typeof ask>, string, string][] = [
      [ask('/w/.env', 'read'), 'Allow Agent File Tools to read a sensitive file?', '`fs_read` wants to read `.env`, which may hold secrets (it matches the `agentFileTools.sensitiveFiles` setting).'],
      [ask('/elsewhere/a.txt', 'edit'), 'Allow Agent File Tools to edit outside the workspace?', '`fs_edit` wants to edit `/elsewhere/a.txt`, which is outside the workspace folders.'],
      [ask('/elsewhere/.env', 'write'), 'Allow Agent File Tools to write a sensitive file outside the workspace?', '`fs_write` wants to write `/elsewhere/.env`, which is outside the workspace folders and may hold secrets (it matches the `agentFileTools.sensitiveFiles` setting).'],
    ];
    for (const [d, title, message] of cases) {
      assert.equal(d.kind, 'confirm');
      if (d.kind === 'confirm') {
        bundled(d.title, title);
        bundled(d.message, message);
        assert.equal(english(d.title), title);
        assert.equal(english(d.message), message);
      }
    }
    assert.equal(english(outsideQuestion('fs_list', 'read', '/r/.git', GIT_INDEX_OUTSIDE).message), '`fs_list` wants to read the git index in `/r/.git`, which is outside the workspace folders.');
  });

  it('a phrase reads in English with its arguments in place, as vscode.l10n formats a message without a translation', () => {
    assert.equal(english(phrase('{0} wants to read {1}, which {0} may not.', '`a`', '`{1}`')), '`a` wants to read `{1}`, which `a` may not.');
    assert.equal(english(phrase('no arguments {2}')), 'no arguments {2}');
  });
});
