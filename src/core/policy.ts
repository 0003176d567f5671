import { foldCase } from './names';
import { compileGlob, compileGlobs } from './glob/matcher';
import { isGitName, type Located } from './paths';
import type { Phrase } from './phrase';
import { QUESTIONS, type QuestionVerb, type QuestionWords } from './questions';

// Kept importable from here, where the other rules about git's folders live.
export { isGitName };

/**
 * Files whose reads ask first, inside the workspace or outside it: the credential files
 * developers keep (environment files, keys and certificates, SSH, GPG, git, package
 * registries, cloud and container tools, Terraform). Entries starting with "!" are
 * exceptions (templates that hold no secrets). Matched without regard to case (see
 * {@link sensitiveSet}).
 * @default see below; the `agentFileTools.sensitiveFiles` setting replaces it.
 */
export const DEFAULT_SENSITIVE_GLOBS: readonly string[] = [
  // environment files; their templates stay readable
  '**/.env',
  '**/.env.*',
  '**/*.env',
  '**/.env-*',
  '**/.env_*',
  '!**/.env[._-]{example,sample,template,defaults,dist}',
  '!**/.env.*.{example,sample,template}',
  '**/.envrc',
  // private keys, certificates, key stores
  '**/*.pem',
  '**/*.key',
  '**/*.p12',
  '**/*.pfx',
  '**/*.p8',
  '**/*.crt',
  '**/*.cer',
  '**/*.der',
  '**/*.jks',
  '**/*.keystore',
  '**/*.keytab',
  '**/*.kdbx',
  // SSH and PuTTY
  '**/.ssh/**',
  '**/id_rsa',
  '**/id_dsa',
  '**/id_ecdsa',
  '**/id_ed25519',
  '**/id_ecdsa_sk',
  '**/id_ed25519_sk',
  '**/ssh_host_*_key',
  '**/*_rsa',
  '**/*_dsa',
  '**/*_ecdsa',
  '**/*_ed25519',
  '**/*.ppk',
  '**/.putty/**',
  // GPG
  '**/.gnupg/**',
  '**/*.gpg',
  '**/*.pgp',
  '**/*.asc',
  '**/secring.*',
  // git credentials
  '**/.git-credentials',
  '**/.gitcookies',
  '**/.config/git/credentials',
  '**/.config/gh/hosts.yml',
  '**/.config/hub',
  // package registries
  '**/.npmrc',
  '**/.yarnrc',
  '**/.yarnrc.yml',
  '**/.pypirc',
  '**/pip.conf',
  '**/pip.ini',
  '**/pypoetry/auth.toml',
  '**/.gem/credentials',
  '**/.local/share/gem/credentials',
  '**/.bundle/config',
  '**/.cargo/credentials',
  '**/.cargo/credentials.toml',
  '**/.m2/settings.xml',
  '**/.m2/settings-security.xml',
  '**/.gradle/gradle.properties',
  '**/auth.json',
  '**/.credentials',
  '**/.nuget/NuGet/NuGet.Config',
  // cloud: AWS, Google Cloud, Azure, and service-account and OAuth client files
  '**/.aws/**',
  '**/.config/gcloud/**',
  '**/AppData/Roaming/gcloud/**',
  '**/application_default_credentials.json',
  '**/*service*account*.json',
  '**/client_secret*.json',
  '**/credentials.json',
  '**/.azure/**',
  '**/*.publishsettings',
  '**/.s3cfg',
  '**/.boto',
  // containers: Docker and Kubernetes
  '**/.docker/config.json',
  '**/.dockercfg',
  '**/.kube/**',
  '**/kubeconfig',
  '**/*.kubeconfig',
  // Terraform state and variables
  '**/*.tfstate',
  '**/*.tfstate.*',
  '**/*.tfvars',
  '**/*.tfvars.json',
  '**/.terraformrc',
  '**/terraform.rc',
  '**/.terraform.d/credentials.tfrc.json',
  // passwords of other tools
  '**/.netrc',
  '**/_netrc',
  '**/.pgpass',
  '**/.my.cnf',
  '**/.mylogin.cnf',
  '**/.htpasswd',
  '**/.vault-token',
  '**/.password-store/**',
  '**/*.ovpn',
  '**/secrets.{json,toml,yaml,yml}',
];

export interface GlobSet {
  test(path: string): boolean;
}

/**
 * Compiles include globs and "!" exceptions into one matcher over "/" paths.
 * @param nocase match letters regardless of case: where the volume folds case (see core/names.ts), or always for the safe side.
 */
export function globSet(globs: readonly string[], nocase: boolean): GlobSet {
  const inc = globs.filter((g) => !g.startsWith('!'));
  const exc = globs.filter((g) => g.startsWith('!')).map((g) => g.slice(1));
  const isInc = inc.length ? compileGlobs(inc, { nocase }) : () => false;
  const isExc = exc.length ? compileGlobs(exc, { nocase }) : () => false;
  return { test: (path: string) => isInc(path) && !isExc(path) };
}

/**
 * The sensitive-file globs as a test, without regard to case on every platform: on macOS
 * and Windows `.ENV` is the file `.env`, and elsewhere asking once too often is the safe side.
 */
export function sensitiveSet(globs: readonly string[]): GlobSet {
  return globSet(globs, true);
}

/**
 * Whether a path lies inside a `.git` folder (or is one): git's own data, which no tool
 * lists, walks, searches, reads or writes. Nested repositories' `.git` too; any "/" or
 * "\\" separated path, relative or absolute; case is ignored, as file systems that fold
 * it would, and the other names Windows gives the folder count as it.
 */
export function isGitInternal(path: string): boolean {
  return path.split(/[\\/]/).some((seg) => isGitName(seg) || isNtfsGitAlias(seg));
}

/**
 * Names Windows resolves to `.git`: trailing dots and spaces are dropped (`.git.`,
 * `.git `), `:` names a stream of it (`.git::$INDEX_ALLOCATION`), and `git~1` is its
 * short name. git refuses to check such names out on every system; a path holding one
 * is git's own data on Windows, and nothing a project needs elsewhere.
 */
function isNtfsGitAlias(seg: string): boolean {
  return /^(\.git|git~1)[. ]*(:.*)?$/i.test(seg);
}


/**
 * Words for a path in a git directory not named `.git`: "is a git folder (...)" or "is
 * inside the git folder X (...)", saying why a folder so named is one.
 */
export function inGitDirectory(path: Located, gitDir: Located): string {
  const what = 'a repository under another name than .git';
  return path.display === gitDir.display ? `is a git folder (${what})` : `is inside the git folder ${gitDir.display} (${what})`;
}

/** Why a read needs a yes: a path outside the workspace folders, a file that may hold secrets. */
export type ReadReason = 'outside' | 'sensitive';

export type ReadDecision =
  | { kind: 'allow' }
  /** Never allowed, whatever the answer would be: `message` says why. */
  | { kind: 'deny'; message: string }
  | { kind: 'confirm'; reasons: ReadReason[]; title: Phrase; message: Phrase };

export interface ReadPolicyInput {
  located: Located;
  /** Real absolute path. */
  real: string;
  /** The path as given, made absolute (symlinks not resolved), where it differs. */
  given?: Located;
  /** The git directory not named `.git` that holds the path or is it (see core/gitDirectory.ts), if any. */
  gitDir?: Located;
  /** A file open in an editor is one the user already looks at: it is not asked about for being outside. */
  openInEditor: boolean;
  /** A name Windows does not keep as written (see core/nameRules.ts): refused when `always` (the workspace is on Windows). */
  badName?: { message: string; always: boolean };
  allowOutside: GlobSet;
  sensitive: GlobSet;
  toolName: string;
  /** What the tool does with the path: "read", "list", "search", "edit", ... */
  verb: QuestionVerb;
}

/**
 * Text as a Markdown code span, whatever backticks it holds: the fence is one backtick longer
 * than the longest run inside, padded when the text starts or ends with one.
 */
export function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * The forms of a path the sensitive-file globs are tested on: relative to its workspace
 * folder when it has one, and always the absolute path without its root ("/" or "C:/"),
 * so that `**\/.aws/credentials` names the file outside the workspace too, and in a
 * workspace opened on `~/.aws` itself.
 */
export function sensitiveForms(relative: string | undefined, real: string): string[] {
  const abs = real.split('\\').join('/').replace(/^[a-zA-Z]:/, '').replace(/^\/+/, '');
  return relative ? [relative, abs] : [abs];
}

/** Whether a file (root-relative, under a root that is a workspace folder or not) may hold secrets. */
export type SensitiveFileTest = (rootPath: string, relative: string, inWorkspace: boolean) => boolean;

/** The sensitive-file globs compiled once; each search takes a {@link SensitiveFiles.tester} of its own. */
export interface SensitiveFiles {
  /** A test whose memory of names and folders lives as long as the test: one search's worth. */
  tester(): SensitiveFileTest;
}

/**
 * {@link isSensitive} for the many files a search returns, deciding alike: globs that
 * only name a file at any depth (`**\/.env`, most of them) are decided once per distinct
 * name; the others are tried only in folders whose path holds every literal folder name
 * they need (`.ssh`, `.aws`), decided once per folder. `rootPath` is the real path
 * `relative` is relative to; `inWorkspace` says whether that is a workspace folder.
 * Compiling is the costly part, so it is done here once, and the memory of what was
 * decided, which grows with the files seen, belongs to each tester.
 */
export function compileSensitiveFiles(globs: readonly string[]): SensitiveFiles {
  const byName = (g: string) => /^!?\*\*\/[^/]+$/.test(g);
  const compileNames = (gs: string[]) => (gs.length ? compileGlobs(gs, { nocase: true }) : () => false);
  const named = globs.filter(byName);
  const nameIncTest = compileNames(named.filter((g) => !g.startsWith('!')).map((g) => g.slice(3)));
  const nameExcTest = compileNames(named.filter((g) => g.startsWith('!')).map((g) => g.slice(4)));
  // The other globs, with the folder names a match needs among the path's folders.
  const rest = globs
    .filter((g) => !byName(g))
    .map((g) => {
      const body = g.startsWith('!') ? g.slice(1) : g;
      const segs = body.split('/');
      const folders = segs.slice(0, -1).filter((x) => x !== '' && !/[*?[\]{}\\]/.test(x)).map((x) => foldCase(x));
      return { exclude: g.startsWith('!'), folders, test: compileGlob(body, { nocase: true }) };
    });
  const memoized = (t: (name: string) => boolean) => {
    const memo = new Map<string, boolean>();
    return (name: string) => {
      let v = memo.get(name);
      if (v === undefined) {
        v = t(name);
        if (memo.size >= MEMO_NAMES) {
          // a million distinct names would be kept for nothing: the names that repeat come back soon
          memo.clear();
        }
        memo.set(name, v);
      }
      return v;
    };
  };
  return {
    tester(): SensitiveFileTest {
      const nameInc = memoized(nameIncTest);
      const nameExc = memoized(nameExcTest);
      const byFolder = new Map<string, typeof rest>();
      // the last few folders, compared in place: a search's paths come a folder at a time (a few interleaved)
      const recent: { root: string; folder: string; candidates: typeof rest }[] = [];
      let next = 0;
      const candidatesFor = (rootPath: string, relative: string, cut: number): typeof rest => {
        const len = cut < 0 ? 0 : cut;
        for (const r of recent) {
          if (r.folder.length === len && r.root === rootPath && relative.startsWith(r.folder)) {
            return r.candidates;
          }
        }
        const folder = cut < 0 ? '' : relative.slice(0, cut);
        const dirKey = `${rootPath}\0${folder}`;
        let candidates = byFolder.get(dirKey);
        if (!candidates) {
          const here = new Set(foldCase(`${rootPath.split('\\').join('/')}/${folder}`).split('/'));
          candidates = rest.filter((r) => r.folders.every((f) => here.has(f)));
          byFolder.set(dirKey, candidates);
        }
        recent[next] = { root: rootPath, folder, candidates };
        next = (next + 1) % RECENT_FOLDERS;
        return candidates;
      };
      return (rootPath, relative, inWorkspace) => {
        const cut = relative.lastIndexOf('/');
        const name = relative.slice(cut + 1);
        const candidates = candidatesFor(rootPath, relative, cut);
        const forms = candidates.length ? sensitiveForms(inWorkspace ? relative : undefined, `${rootPath}/${relative}`) : [];
        const hit = (exclude: boolean) => candidates.some((r) => r.exclude === exclude && forms.some((f) => f !== '' && r.test(f)));
        return (nameInc(name) || hit(false)) && !(nameExc(name) || hit(true));
      };
    },
  };
}

/** Distinct names a sensitive-file tester remembers the verdict of (then it starts again). */
const MEMO_NAMES = 8192;
/** Folders a sensitive-file tester compares in place before its map is asked. */
const RECENT_FOLDERS = 4;

/** {@link compileSensitiveFiles} and one tester of it. */
export function sensitiveFileTester(globs: readonly string[]): SensitiveFileTest {
  return compileSensitiveFiles(globs).tester();
}

/** Whether a path may hold secrets: one of its {@link sensitiveForms} matches. */
export function isSensitive(sensitive: GlobSet, relative: string | undefined, real: string): boolean {
  return sensitiveForms(relative, real).some((p) => p !== '' && sensitive.test(p));
}

const PRESENT: Record<string, string> = { read: 'reads', list: 'lists', search: 'searches' };

/** A question in `words` about `path` for `toolName` (src/core/questions.ts). */
function question(reasons: ReadReason[], words: QuestionWords, toolName: string, path: string): ReadDecision & { kind: 'confirm' } {
  return { kind: 'confirm', reasons, title: words.title, message: words.message(code(toolName), code(path)) };
}

/** The question for a path outside the workspace folders, in `words` (by default, those of `verb`). */
export function outsideQuestion(toolName: string, verb: QuestionVerb, real: string, words: QuestionWords = QUESTIONS[verb].outside): ReadDecision & { kind: 'confirm' } {
  return question(['outside'], words, toolName, real);
}

/**
 * Whether reading a path is refused, needs the user's approval first (and the words to
 * ask with), or may go ahead. One place decides, for every read tool: `.git` internals
 * are refused; a path outside the workspace asks unless an editor shows it or the
 * allow-list names it; a sensitive file asks wherever it is (an outside secret asks
 * both questions, and the allow-list never skips the secret one).
 *
 * Chat shows the title as Markdown in its confirmation card and as plain text in the
 * Sessions list, and a call from outside a chat shows it in a modal dialog: titles name no
 * tool and no path, so no underscore or asterisk can be taken for emphasis. Messages are
 * Markdown, with names and paths in code spans. Both are phrases (questions.ts), shown in the
 * person's language.
 */
export function decideRead(i: ReadPolicyInput): ReadDecision {
  const gitRel = (l: Located) => l.relative ?? l.display;
  if (isGitInternal(gitRel(i.located)) || (i.given && isGitInternal(gitRel(i.given)))) {
    const what = i.given?.display ?? i.located.display;
    const where = isGitInternal(what.slice(0, -4)) || !/(^|[\\/])\.git$/i.test(what) ? 'is inside a .git folder' : 'is a .git folder';
    return {
      kind: 'deny',
      message: `${what} ${where}: ${i.toolName} never ${PRESENT[i.verb] ?? i.verb} git's own data (objects, config, hooks), which can carry credentials and is not the project's source. To see the files git tracks, call fs_list with "source": "git".`,
    };
  }
  if (i.gitDir) {
    return {
      kind: 'deny',
      message: `${i.located.display} ${inGitDirectory(i.located, i.gitDir)}: ${i.toolName} never ${PRESENT[i.verb] ?? i.verb} git's own data (objects, config, hooks), which can carry credentials and is not the project's source.`,
    };
  }
  if (i.badName?.always) {
    return { kind: 'deny', message: i.badName.message };
  }
  const posixReal = i.real.split('\\').join('/');
  const reasons: ReadReason[] = [];
  if (!i.located.root && !i.openInEditor && !i.allowOutside.test(posixReal)) {
    reasons.push('outside');
  }
  if (isSensitive(i.sensitive, i.located.relative, i.real)) {
    reasons.push('sensitive');
  }
  if (reasons.length === 0) {
    return { kind: 'allow' };
  }
  if (reasons.length === 2) {
    return question(reasons, QUESTIONS[i.verb].both, i.toolName, i.located.display);
  }
  if (reasons[0] === 'outside') {
    // (outside the workspace a path is shown whole, with / on every platform)
    return outsideQuestion(i.toolName, i.verb, i.located.display);
  }
  return question(reasons, QUESTIONS[i.verb].sensitive, i.toolName, i.located.display);
}
