import * as nodePath from 'node:path';
import { globSet, inGitDirectory, isGitInternal, isSensitive, type GlobSet } from './policy';
import type { Located } from './paths';
import { EXACT_NAMES, isWithinAs, type NameComparison } from './names';

/**
 * Files whose change can make something run code or steer an agent: a change to one of
 * them always asks, whatever the approval policy, so a model steered by a hostile file
 * cannot plant a task, hook, build step, install script, CI job, dev container, MCP
 * server or instruction unseen. Each entry is there because a tool runs or reads it on
 * its own: the editor on opening the folder (tasks, dev containers, linter configs
 * written in code), a build or install (manifests, build scripts, wrappers, Dockerfiles),
 * git (attributes, hooks folders), CI on a push, an environment loader on entering the
 * folder (`.envrc`, mise), or an agent at the start of a session (instructions, rules,
 * settings). A file that only names a version (`.nvmrc`, `.python-version`) runs nothing
 * and is not here. Matched without regard to case. It holds at least what VS Code itself
 * never auto-approves for chat edits.
 * @default see below; the `agentFileTools.protectedFiles` setting replaces it.
 */
export const DEFAULT_PROTECTED_GLOBS: readonly string[] = [
  // editors: tasks, launch and run configurations, settings, local scripts
  '**/.vscode/*.json',
  '**/*.code-workspace',
  '**/.devcontainer/**',
  '**/.devcontainer.json',
  '**/.idea/**',
  '**/.fleet/**',
  '**/.zed/**',
  '**/*.sublime-project',
  '**/*.sublime-build',
  '**/.nvim.lua',
  '**/.nvimrc',
  '**/.exrc',
  '**/.dir-locals.el',
  // JavaScript: manifests, lockfiles, package manager settings and plugins, configs that are code
  '**/package.json',
  '**/*.lock',
  '**/*-lock.json',
  '**/*-lock.yaml',
  '**/.npmrc',
  '**/.yarnrc',
  '**/.yarnrc.*',
  '**/.yarn/**',
  '**/.pnpmfile.*',
  '**/pnpm-workspace.yaml',
  '**/bunfig.toml',
  '**/deno.json',
  '**/deno.jsonc',
  '**/*.config.{js,cjs,mjs,ts,cts,mts}',
  '**/.*rc.{js,cjs,mjs,ts}',
  '**/gulpfile.*',
  '**/gruntfile.*',
  // Rust, Go, Python, Ruby, PHP
  '**/Cargo.toml',
  '**/build.rs',
  '**/.cargo/config',
  '**/.cargo/config.toml',
  '**/rust-toolchain',
  '**/rust-toolchain.toml',
  '**/go.mod',
  '**/go.work',
  '**/setup.py',
  '**/setup.cfg',
  '**/pyproject.toml',
  '**/requirements*.txt',
  '**/Pipfile',
  '**/conftest.py',
  '**/pytest.ini',
  '**/tox.ini',
  '**/noxfile.py',
  '**/sitecustomize.py',
  '**/Gemfile',
  '**/*.gemspec',
  '**/Rakefile',
  '**/.rspec',
  '**/composer.json',
  // JVM and .NET: builds, wrappers, package sources
  '**/pom.xml',
  '**/.mvn/**',
  '**/mvnw',
  '**/mvnw.cmd',
  '**/*.gradle',
  '**/*.gradle.kts',
  '**/gradle.properties',
  '**/gradle-wrapper.properties',
  '**/gradle-wrapper.jar',
  '**/gradlew',
  '**/gradlew.bat',
  '**/*.sbt',
  '**/build.xml',
  '**/*.csproj',
  '**/*.vbproj',
  '**/*.fsproj',
  '**/*.sln',
  '**/*.props',
  '**/*.targets',
  '**/nuget.config',
  '**/server.xml',
  '**/web.config',
  // other ecosystems' manifests and build scripts
  '**/Package.swift',
  '**/Podfile',
  '**/*.podspec',
  '**/pubspec.yaml',
  '**/mix.exs',
  '**/rebar.config',
  '**/*.cabal',
  '**/cabal.project',
  '**/stack.yaml',
  '**/build.zig',
  '**/build.zig.zon',
  '**/*.nimble',
  '**/Makefile.PL',
  '**/Build.PL',
  '**/cpanfile',
  '**/conanfile.py',
  '**/conanfile.txt',
  '**/vcpkg.json',
  // build tools and task runners
  '**/Makefile',
  '**/GNUmakefile',
  '**/*.mk',
  '**/CMakeLists.txt',
  '**/*.cmake',
  '**/CMakePresets.json',
  '**/CMakeUserPresets.json',
  '**/meson.build',
  '**/meson.options',
  '**/meson_options.txt',
  '**/configure',
  '**/configure.ac',
  '**/BUILD',
  '**/BUILD.bazel',
  '**/WORKSPACE',
  '**/WORKSPACE.bazel',
  '**/MODULE.bazel',
  '**/*.bzl',
  '**/.bazelrc',
  '**/BUCK',
  '**/SConstruct',
  '**/SConscript',
  '**/Taskfile.yml',
  '**/Taskfile.yaml',
  '**/Taskfile.dist.yml',
  '**/Taskfile.dist.yaml',
  '**/justfile',
  '**/.justfile',
  '**/*.just',
  '**/Earthfile',
  // containers, environments and machines
  '**/Dockerfile',
  '**/Dockerfile.*',
  '**/*.dockerfile',
  '**/Containerfile',
  '**/docker-compose*.yml',
  '**/docker-compose*.yaml',
  '**/compose.yml',
  '**/compose.yaml',
  '**/compose.*.yml',
  '**/compose.*.yaml',
  '**/Vagrantfile',
  '**/Procfile',
  '**/.envrc',
  '**/mise.toml',
  '**/.mise.toml',
  '**/mise.*.toml',
  '**/.mise/**',
  '**/.tool-versions',
  '**/devbox.json',
  '**/flake.nix',
  '**/shell.nix',
  '**/default.nix',
  '**/.gitpod.yml',
  '**/.replit',
  '**/replit.nix',
  // repository behaviour: attributes, config, hooks
  '**/.gitattributes',
  '**/.gitmodules',
  '**/.gitconfig',
  '**/.lfsconfig',
  '**/.githooks/**',
  '**/.git-hooks/**',
  '**/.husky/**',
  '**/.pre-commit-config.yaml',
  '**/.pre-commit-hooks.yaml',
  '**/lefthook.yml',
  '**/lefthook.yaml',
  '**/lefthook.toml',
  '**/lefthook.json',
  '**/.lefthook.yml',
  '**/.lefthook.yaml',
  '**/lefthook-local.yml',
  '**/lefthook-local.yaml',
  '**/.lefthook/**',
  '**/.simple-git-hooks.*',
  '**/simple-git-hooks.*',
  '**/.overcommit.yml',
  // CI and deployment
  '**/.github/workflows/**',
  '**/.github/actions/**',
  '**/action.yml',
  '**/action.yaml',
  '**/.gitlab-ci.yml',
  '**/.gitlab/**',
  '**/.circleci/**',
  '**/azure-pipelines*.yml',
  '**/azure-pipelines*.yaml',
  '**/.azure-pipelines/**',
  '**/Jenkinsfile',
  '**/Jenkinsfile.*',
  '**/*.jenkinsfile',
  '**/bitbucket-pipelines.yml',
  '**/.buildkite/**',
  '**/.travis.yml',
  '**/.drone.yml',
  '**/.woodpecker.yml',
  '**/.woodpecker/**',
  '**/appveyor.yml',
  '**/.appveyor.yml',
  '**/.cirrus.yml',
  '**/.semaphore/**',
  '**/.teamcity/**',
  '**/buildspec.yml',
  '**/cloudbuild.yaml',
  '**/cloudbuild.yml',
  '**/netlify.toml',
  '**/vercel.json',
  // agents: instructions, rules, prompts, modes, skills, tools, hooks, MCP servers
  '**/.mcp.json',
  '**/.vscode/mcp.json',
  '**/AGENTS.md',
  '**/AGENTS.override.md',
  '**/AGENT.md',
  '**/CLAUDE.md',
  '**/CLAUDE.local.md',
  '**/GEMINI.md',
  '**/QWEN.md',
  '**/.github/copilot-instructions.md',
  '**/.github/instructions/**',
  '**/.github/prompts/**',
  '**/.github/agents/**',
  '**/.github/chatmodes/**',
  '**/.github/hooks/**',
  '**/.github/skills/**',
  '**/.agents/**',
  '**/.claude/**',
  '**/.codex/**',
  '**/.gemini/**',
  '**/.qwen/**',
  '**/.cursor/**',
  '**/.cursorrules',
  '**/.windsurf/**',
  '**/.windsurfrules',
  '**/.clinerules',
  '**/.clinerules/**',
  '**/.roo/**',
  '**/.roomodes',
  '**/.roorules',
  '**/.roorules-*',
  '**/.continue/**',
  '**/.continuerules',
  '**/.aider*',
  '**/.kiro/**',
  '**/.amazonq/**',
  '**/.junie/**',
  '**/.augment/**',
  '**/.augment-guidelines',
  '**/.goosehints',
  '**/.trae/**',
  '**/.opencode/**',
  '**/opencode.json',
  '**/opencode.jsonc',
  '**/.rules',
];

/**
 * When a change waits for the person: `always` (every change); `sensitiveOnly` (outside,
 * sensitive and protected paths wait, the others land and are shown in a diff that does
 * not take focus); `never` (as sensitiveOnly, but the others land without a diff).
 */
export type ApprovalPolicy = 'always' | 'sensitiveOnly' | 'never';

/** The one rule for `.git` internals, shared with the read tools (see policy.ts). */
export { isGitInternal };

/**
 * Why a change asks whatever the policy: a path outside the workspace folders, a file
 * that may hold secrets, a protected file. A change with none of them asks only when the
 * policy says so.
 */
export type ChangeReason = 'outside' | 'sensitive' | 'protected';

export type ChangeDecision =
  | { kind: 'refuse'; message: string }
  | { kind: 'ask'; why: string | undefined; reasons: ChangeReason[] }
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
  /** The editor's own folders (see {@link editorFolders}), real paths: a change inside one always asks. @default none */
  editorFolders?: readonly string[];
  /** How the volume of `real` compares names (see core/names.ts). @default EXACT_NAMES */
  names?: NameComparison;
  /** A name Windows does not keep as written, which the change would write (see core/nameRules.ts): the words of the refusal. */
  badName?: string;
}

/**
 * The folders of the editor itself that a workspace may hold (one opened on the home folder
 * does): the user data folder, found from the extension's global storage
 * (`<user data>/User/globalStorage/<extension>`: settings, tasks, keybindings, prompts and MCP
 * configuration, a remote machine's settings, every extension's stored data, this
 * extension's compiled code, backups of unsaved files); VS Code's own code (`appRoot`); and,
 * for an installed extension, the folder of installed extensions (their code runs in the
 * next window). A development copy's own folder is the project being worked on, so it is
 * left out, and a storage path not laid out as above gives no folder.
 */
export function editorFolders(o: { globalStorage?: string; appRoot?: string; extensionPath?: string; installed: boolean }): string[] {
  const out: string[] = [];
  const storage = o.globalStorage ? nodePath.dirname(nodePath.normalize(o.globalStorage)) : undefined;
  if (storage && nodePath.basename(storage) === 'globalStorage') {
    const user = nodePath.dirname(storage);
    out.push(nodePath.basename(user) === 'User' ? nodePath.dirname(user) : user);
  }
  if (o.appRoot) {
    out.push(nodePath.normalize(o.appRoot));
  }
  if (o.installed && o.extensionPath) {
    out.push(nodePath.dirname(nodePath.normalize(o.extensionPath)));
  }
  return out;
}

/** Is `real` inside one of `folders`, as the volume compares names? */
function inEditorFolder(real: string, folders: readonly string[] | undefined, names: NameComparison): boolean {
  return (folders ?? []).some((f) => isWithinAs(names, f, real));
}

/**
 * Whether a change to one path may land, must be shown first, or may land as the policy
 * says. `.git` internals and git directories under other names are never written; paths outside the workspace, secrets,
 * protected files and the editor's own folders always ask, whatever the policy.
 */
export function decideChange(i: ChangePolicyInput): ChangeDecision {
  if (isGitInternal(i.real)) {
    return { kind: 'refuse', message: `${i.located.display} is inside a .git folder: git's own files are never written by these tools. Use git itself (ask the user) to change a repository's state.` };
  }
  if (i.gitDir) {
    return { kind: 'refuse', message: `${i.located.display} ${inGitDirectory(i.located, i.gitDir)}: git's own files are never written by these tools. Use git itself (ask the user) to change a repository's state.` };
  }
  if (i.badName !== undefined) {
    return { kind: 'refuse', message: i.badName };
  }
  // Secrets are matched on the workspace-relative and the absolute path, as for reads: a
  // workspace opened on ~/.aws holds `credentials`. Protected files are the project's own.
  const outside = !i.located.root;
  const secret = isSensitive(i.sensitive, i.located.relative, i.real);
  if (outside || secret) {
    const reasons: ChangeReason[] = [...(outside ? ['outside' as const] : []), ...(secret ? ['sensitive' as const] : [])];
    return { kind: 'ask', why: [outside && 'it is outside the workspace folders', secret && 'it may hold secrets'].filter(Boolean).join(' and '), reasons };
  }
  const rel = i.located.relative ?? '';
  if ((rel && i.protectedFiles.test(rel)) || inEditorFolder(i.real, i.editorFolders, i.names ?? EXACT_NAMES)) {
    return { kind: 'ask', why: PROTECTED_WHY, reasons: ['protected'] };
  }
  return i.policy === 'always' ? { kind: 'ask', why: undefined, reasons: [] } : { kind: 'apply' };
}

const PROTECTED_WHY = 'a change to it can make something run code or steer an agent';

/** What approves a change where nobody is asked (the CLI's flags). */
export interface Grants {
  /** `--yes`: the changes the extension lets land under its most permissive policy. */
  ordinary: boolean;
  /** `--allow-protected`: with `ordinary`, protected files and files that may hold secrets too. */
  protectedFiles: boolean;
  /** `--allow-outside`: with `ordinary`, paths outside the workspace folders too. */
  outside: boolean;
}

/**
 * The grants a change still lacks, given why its files ask (see {@link decideChange}):
 * empty when it may land. What the extension asks about whatever its policy needs a
 * grant of its own beyond `ordinary`, so one "yes" to everything never writes a task,
 * a hook or a secret unseen.
 */
export function missingGrants(reasons: readonly ChangeReason[], g: Grants): (keyof Grants)[] {
  const missing: (keyof Grants)[] = [];
  if (!g.ordinary) {
    missing.push('ordinary');
  }
  if (!g.protectedFiles && (reasons.includes('protected') || reasons.includes('sensitive'))) {
    missing.push('protectedFiles');
  }
  if (!g.outside && reasons.includes('outside')) {
    missing.push('outside');
  }
  return missing;
}

/** Why a file's change always asks, in words for a preview: "is protected: a change to it ...". */
export function reasonWords(reasons: readonly ChangeReason[]): string | undefined {
  const words = [
    reasons.includes('protected') && `is protected (${PROTECTED_WHY})`,
    reasons.includes('sensitive') && 'may hold secrets',
    reasons.includes('outside') && 'is outside the workspace folders',
  ].filter((w): w is string => typeof w === 'string');
  return words.length ? words.join(' and ') : undefined;
}

export { globSet };
