import picomatch from 'picomatch';
import type { Located } from './paths';

/**
 * Files whose reads ask first even inside the workspace. Entries starting with "!"
 * are exceptions (templates that hold no secrets).
 * @default see below; the `agentFileTools.sensitiveFiles` setting replaces it.
 */
export const DEFAULT_SENSITIVE_GLOBS: readonly string[] = [
  '**/.env',
  '**/.env.*',
  '!**/.env.example',
  '!**/.env.sample',
  '!**/.env.template',
  '!**/.env.defaults',
  '**/*.pem',
  '**/*.key',
  '**/*.p12',
  '**/*.pfx',
  '**/*.crt',
  '**/*.cer',
  '**/*.jks',
  '**/*.keystore',
  '**/id_rsa',
  '**/id_dsa',
  '**/id_ecdsa',
  '**/id_ed25519',
  '**/.npmrc',
  '**/.netrc',
  '**/.pgpass',
];

export interface GlobSet {
  test(path: string): boolean;
}

/** Compiles include globs and "!" exceptions into one matcher over "/" paths. */
export function globSet(globs: readonly string[]): GlobSet {
  const inc = globs.filter((g) => !g.startsWith('!'));
  const exc = globs.filter((g) => g.startsWith('!')).map((g) => g.slice(1));
  const opts = { dot: true, nocase: process.platform === 'win32' };
  const isInc = inc.length ? picomatch(inc, opts) : () => false;
  const isExc = exc.length ? picomatch(exc, opts) : () => false;
  return { test: (path: string) => isInc(path) && !isExc(path) };
}

export type ReadDecision =
  | { kind: 'allow' }
  | { kind: 'confirm'; reason: 'outside' | 'sensitive'; title: string; message: string };

export interface ReadPolicyInput {
  located: Located;
  /** Real absolute path. */
  real: string;
  /** A file open in an editor is one the user already looks at. */
  openInEditor: boolean;
  allowOutside: GlobSet;
  sensitive: GlobSet;
  toolName: string;
  /** "read", "list", "search" */
  verb: string;
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
 * Whether reading a path needs the user's approval first, and the words to ask with. Chat shows
 * the title as Markdown in its confirmation card and as plain text in the Sessions list, and a
 * call from outside a chat shows it in a modal dialog: titles name no tool and no path, so no
 * underscore or asterisk can be taken for emphasis. Messages are Markdown, with names and paths
 * in code spans.
 */
export function decideRead(i: ReadPolicyInput): ReadDecision {
  const posixReal = i.real.split('\\').join('/');
  if (!i.located.root) {
    if (i.openInEditor || i.allowOutside.test(posixReal)) {
      return { kind: 'allow' };
    }
    return {
      kind: 'confirm',
      reason: 'outside',
      title: `Allow Agent File Tools to ${i.verb} outside the workspace?`,
      message: `${code(i.toolName)} wants to ${i.verb} ${code(i.real)}, which is outside the workspace folders.`,
    };
  }
  const rel = i.located.relative ?? '';
  if (rel && i.sensitive.test(rel)) {
    return {
      kind: 'confirm',
      reason: 'sensitive',
      title: `Allow Agent File Tools to ${i.verb} a sensitive file?`,
      message: `${code(i.toolName)} wants to ${i.verb} ${code(i.located.display)}, which may hold secrets (it matches the ${code('agentFileTools.sensitiveFiles')} setting).`,
    };
  }
  return { kind: 'allow' };
}
