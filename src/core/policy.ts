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

/** Whether reading a path needs the user's approval first, and the words to ask with. */
export function decideRead(i: ReadPolicyInput): ReadDecision {
  const posixReal = i.real.split('\\').join('/');
  if (!i.located.root) {
    if (i.openInEditor || i.allowOutside.test(posixReal)) {
      return { kind: 'allow' };
    }
    return {
      kind: 'confirm',
      reason: 'outside',
      title: `Allow ${i.toolName} outside the workspace?`,
      message: `${i.toolName} wants to ${i.verb} \`${i.real}\`, which is outside the workspace folders.`,
    };
  }
  const rel = i.located.relative ?? '';
  if (rel && i.sensitive.test(rel)) {
    return {
      kind: 'confirm',
      reason: 'sensitive',
      title: `Allow ${i.toolName} on a sensitive file?`,
      message: `${i.toolName} wants to ${i.verb} \`${i.located.display}\`, which may hold secrets (it matches the agentFileTools.sensitiveFiles setting).`,
    };
  }
  return { kind: 'allow' };
}
