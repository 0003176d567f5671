import * as vscode from 'vscode';
import { DEFAULT_SENSITIVE_GLOBS } from '../core/policy';
import { DEFAULT_PROTECTED_GLOBS } from '../core/writePolicy';
import { readSettings, SECTION } from '../vscode/settings';

const PATTERNS_SCHEME = 'agent-file-tools-patterns';
export const SHOW_PATTERNS_COMMAND = 'agentFileTools.showBuiltInPatterns';

/** A list of globs as Markdown: several to a line, each as code, so 243 patterns take a page, not 243 rows. */
function globList(globs: readonly string[]): string {
  return globs.length ? globs.map((g) => `\`${g}\``).join(' · ') : vscode.l10n.t('(none)');
}

/**
 * The files that always ask, as a read-only Markdown page: the built-in patterns (which the
 * settings no longer list: they would fill the Settings editor with hundreds of rows), the
 * person's additions and exemptions, and the workspace's additions, as they apply now.
 */
function patternsPage(): string {
  const c = vscode.workspace.getConfiguration(SECTION);
  const layer = (key: string) => {
    const i = c.inspect<string[]>(key);
    return { user: Array.isArray(i?.globalValue) ? i.globalValue : [], workspace: Array.isArray(i?.workspaceValue) ? i.workspaceValue : [] };
  };
  const s = readSettings();
  const section = (title: string, what: string, key: string, builtIn: readonly string[], inForce: readonly string[]) => {
    const l = layer(key);
    return [
      `## ${title}`,
      '',
      what,
      '',
      `**${vscode.l10n.t('Built in ({0})', builtIn.length)}**: ${globList(builtIn)}`,
      '',
      `**${vscode.l10n.t('Added in your settings')}** (\`agentFileTools.${key}\`): ${globList(l.user)}`,
      '',
      `**${vscode.l10n.t('Added by this workspace')}**: ${globList(l.workspace.filter((g) => !g.trimStart().startsWith('!')))}`,
      '',
      vscode.l10n.t('{0} patterns apply now.', inForce.length),
      '',
    ];
  };
  return [
    `# ${vscode.l10n.t('Files that always ask')}`,
    '',
    vscode.l10n.t('Add a pattern in the setting to make more files ask; a pattern starting with `!` in your own settings exempts files, built-in ones too. A workspace can add patterns, never exempt one.'),
    '',
    ...section(vscode.l10n.t('Protected files'), vscode.l10n.t('A change to one always waits for your review, whatever the approval policy.'), 'protectedFiles', DEFAULT_PROTECTED_GLOBS, s.protectedFiles),
    ...section(vscode.l10n.t('Sensitive files'), vscode.l10n.t('Reading one asks first, and a change to one waits for your review.'), 'sensitiveFiles', DEFAULT_SENSITIVE_GLOBS, s.sensitiveFiles),
  ].join('\n');
}

class PatternsPage implements vscode.TextDocumentContentProvider {
  provideTextDocumentContent(): string {
    return patternsPage();
  }
}

export function registerPatternsCommand(): vscode.Disposable[] {
  return [
    vscode.workspace.registerTextDocumentContentProvider(PATTERNS_SCHEME, new PatternsPage()),
    vscode.commands.registerCommand(SHOW_PATTERNS_COMMAND, async () => {
      const uri = vscode.Uri.from({ scheme: PATTERNS_SCHEME, path: '/Files That Always Ask.md', query: String(Date.now()) });
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(await vscode.languages.setTextDocumentLanguage(doc, 'markdown'), { preview: true });
    }),
  ];
}
