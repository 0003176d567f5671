import { globSet, inGitDirectory, isGitInternal, isSensitive, type GlobSet } from './policy';
import type { Located } from './paths';

/**
 * Files whose change can make something run code or steer an agent: a change to one of
 * them always asks, whatever the approval policy, so a model steered by a hostile file
 * cannot plant a task, hook, install script, MCP server or instruction unseen. It holds at
 * least what VS Code itself never auto-approves for chat edits.
 * @default see below; the `agentFileTools.protectedFiles` setting replaces it.
 */
export const DEFAULT_PROTECTED_GLOBS: readonly string[] = [
  // editor and workspace configuration: tasks, launch configurations, settings
  '**/.vscode/*.json',
  '**/*.code-workspace',
  '**/.devcontainer/**',
  // package manifests and lockfiles: install scripts and dependency sources
  '**/package.json',
  '**/*.lock',
  '**/*-lock.json',
  '**/*-lock.yaml',
  '**/.npmrc',
  '**/.yarnrc',
  '**/.yarnrc.*',
  '**/.pnpmfile.*',
  '**/pnpm-workspace.yaml',
  '**/Cargo.toml',
  '**/build.rs',
  '**/setup.py',
  '**/pyproject.toml',
  '**/Gemfile',
  '**/*.gemspec',
  '**/composer.json',
  '**/pom.xml',
  '**/*.gradle',
  '**/*.gradle.kts',
  '**/gradle.properties',
  '**/gradle-wrapper.properties',
  '**/*.csproj',
  '**/*.vbproj',
  '**/*.fsproj',
  '**/*.sln',
  '**/Directory.Build.props',
  '**/Directory.Build.targets',
  '**/server.xml',
  '**/web.config',
  // repository behaviour: attributes, hooks, CI
  '**/.gitattributes',
  '**/.gitmodules',
  '**/.husky/**',
  '**/.pre-commit-config.yaml',
  '**/.github/workflows/**',
  '**/.envrc',
  // agents: instructions, prompts, tools, hooks
  '**/.mcp.json',
  '**/.vscode/mcp.json',
  '**/AGENTS.md',
  '**/CLAUDE.md',
  '**/.github/copilot-instructions.md',
  '**/.github/instructions/**',
  '**/.github/prompts/**',
  '**/.github/agents/**',
  '**/.github/hooks/**',
  '**/.claude/**',
  '**/.codex/**',
  '**/.cursor/**',
  '**/.cursorrules',
  '**/.clinerules',
];

/**
 * When a change waits for the person: `always` (every change); `sensitiveOnly` (outside,
 * sensitive and protected paths wait, the others land and are shown in a diff that does
 * not take focus); `never` (as sensitiveOnly, but the others land without a diff).
 */
export type ApprovalPolicy = 'always' | 'sensitiveOnly' | 'never';

/** The one rule for `.git` internals, shared with the read tools (see policy.ts). */
export { isGitInternal };

export type ChangeDecision =
  | { kind: 'refuse'; message: string }
  | { kind: 'ask'; why: string | undefined }
  | { kind: 'apply' };

export interface ChangePolicyInput {
  located: Located;
  /** Real absolute path. */
  real: string;
  /** The git directory not named `.git` that holds the path or is it (see core/gitDirectory.ts), if any. */
  gitDir?: Located;
  policy: ApprovalPolicy;
  sensitive: GlobSet;
  protectedFiles: GlobSet;
}

/**
 * Whether a change to one path may land, must be shown first, or may land as the policy
 * says. `.git` internals and git directories under other names are never written; paths outside the workspace, secrets and
 * protected files always ask, whatever the policy.
 */
export function decideChange(i: ChangePolicyInput): ChangeDecision {
  if (isGitInternal(i.real)) {
    return { kind: 'refuse', message: `${i.located.display} is inside a .git folder: git's own files are never written by these tools. Use git itself (ask the user) to change a repository's state.` };
  }
  if (i.gitDir) {
    return { kind: 'refuse', message: `${i.located.display} ${inGitDirectory(i.located, i.gitDir)}: git's own files are never written by these tools. Use git itself (ask the user) to change a repository's state.` };
  }
  // Secrets are matched on the workspace-relative and the absolute path, as for reads: a
  // workspace opened on ~/.aws holds `credentials`. Protected files are the project's own.
  const outside = !i.located.root;
  const secret = isSensitive(i.sensitive, i.located.relative, i.real);
  if (outside || secret) {
    return { kind: 'ask', why: [outside && 'it is outside the workspace folders', secret && 'it may hold secrets'].filter(Boolean).join(' and ') };
  }
  const rel = i.located.relative ?? '';
  if (rel && i.protectedFiles.test(rel)) {
    return { kind: 'ask', why: 'a change to it can make something run code or steer an agent' };
  }
  return i.policy === 'always' ? { kind: 'ask', why: undefined } : { kind: 'apply' };
}

export { globSet };
