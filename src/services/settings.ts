import { DIAGNOSTICS_WAIT_MS, MAX_READ_BYTES, MAX_READ_LINES } from '../core/limits';
import { DEFAULT_SENSITIVE_GLOBS } from '../core/policy';
import { DEFAULT_PROTECTED_GLOBS, type ApprovalPolicy } from '../core/writePolicy';

/**
 * The user's settings as the tools see them (`agentFileTools.*` in VS Code; defaults
 * in the CLI). Every field documents its default.
 */
export interface Settings {
  /** Globs of files whose reads ask first; "!" exempts. @default DEFAULT_SENSITIVE_GLOBS */
  sensitiveFiles: readonly string[];
  /** Absolute-path globs outside the workspace that read tools may use without asking. @default [] */
  allowedOutsidePaths: readonly string[];
  /** Extra globs that list, glob and grep treat as ignored, on top of .gitignore and files.exclude. @default [] */
  ignoreGlobs: readonly string[];
  /** Images larger than this many bytes are refused rather than attached. @default 5 MiB */
  maxImageBytes: number;
  /** Append AGENTS.md / CLAUDE.md of the file's folders to fs_read results. @default true */
  instructionFiles: boolean;
  /** When a change waits for the person; outside, sensitive and protected paths always wait. @default "always" */
  approvalPolicy: ApprovalPolicy;
  /** Globs of files whose change always asks first; "!" exempts. @default DEFAULT_PROTECTED_GLOBS */
  protectedFiles: readonly string[];
  /** Save a changed document that had no unsaved changes before. @default true */
  saveAfterChange: boolean;
  /** Format a changed document with the language's formatter. @default false */
  formatAfterChange: boolean;
  /** Milliseconds a change waits for the language servers' errors, at most DIAGNOSTICS_MAX_WAIT_MS. @default DIAGNOSTICS_WAIT_MS */
  diagnosticsWaitMs: number;
  /** Lines one fs_read page holds at most: only lowers the hard cap. @default MAX_READ_LINES */
  readMaxLines: number;
  /** UTF-8 bytes of rendered content one fs_read page holds at most: only lowers the hard cap. @default MAX_READ_BYTES */
  readMaxBytes: number;
}

export const DEFAULT_SETTINGS: Settings = {
  sensitiveFiles: DEFAULT_SENSITIVE_GLOBS,
  allowedOutsidePaths: [],
  ignoreGlobs: [],
  maxImageBytes: 5 * 1024 * 1024,
  instructionFiles: true,
  approvalPolicy: 'always',
  protectedFiles: DEFAULT_PROTECTED_GLOBS,
  saveAfterChange: true,
  formatAfterChange: false,
  diagnosticsWaitMs: DIAGNOSTICS_WAIT_MS,
  readMaxLines: MAX_READ_LINES,
  readMaxBytes: MAX_READ_BYTES,
};

/** The page a text read fills at most: the settings, never over the hard caps (a settings object built by hand may hold anything). */
export function readPageCap(s: Pick<Settings, 'readMaxLines' | 'readMaxBytes'>): { lines: number; bytes: number } {
  const within = (v: number, cap: number) => (Number.isFinite(v) && v >= 1 ? Math.min(Math.floor(v), cap) : cap);
  return { lines: within(s.readMaxLines, MAX_READ_LINES), bytes: within(s.readMaxBytes, MAX_READ_BYTES) };
}

// The settings that decide what asks the person first (`sensitiveFiles`, `protectedFiles`,
// `allowedOutsidePaths`, `approvalPolicy`) as read from VS Code's layers: the user's own
// value (or the default) decides, and a workspace's value (a repository's
// `.vscode/settings.json`, which whoever wrote the repository chose) may only make them ask
// more often. These are the rules; src/vscode/settings.ts reads the layers.

/** The strings of a list setting; undefined for what is not a list (a hand-edited value). */
function stringsOf(v: unknown): string[] | undefined {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;
}

/**
 * A list of globs whose files ask first: the built-in patterns, then the user's own (patterns
 * and exemptions, `!`), then the workspace's patterns, never its exemptions. The setting holds
 * only what is added to the built-in list, which a person sees with a command rather than as
 * hundreds of rows of the Settings editor.
 */
export function guardedList(user: unknown, builtIn: readonly string[], shared: readonly unknown[]): string[] {
  const out = [...builtIn];
  for (const p of stringsOf(user) ?? []) {
    if (!out.includes(p)) {
      out.push(p);
    }
  }
  for (const layer of shared) {
    for (const p of stringsOf(layer) ?? []) {
      if (!p.trimStart().startsWith('!') && !out.includes(p)) {
        out.push(p);
      }
    }
  }
  return out;
}

/** Paths outside the workspace that read without asking: the user's own list only. */
export function userOnlyList(user: unknown): string[] {
  return stringsOf(user) ?? [];
}

const POLICY_ORDER: readonly ApprovalPolicy[] = ['always', 'sensitiveOnly', 'never'];

/** The approval policy: the user's (or the default), or a workspace's where it waits more often. */
export function strictestPolicy(user: unknown, shared: readonly unknown[]): ApprovalPolicy {
  const valid = (v: unknown): v is ApprovalPolicy => POLICY_ORDER.includes(v as ApprovalPolicy);
  let policy = valid(user) ? user : DEFAULT_SETTINGS.approvalPolicy;
  for (const v of shared) {
    if (valid(v) && POLICY_ORDER.indexOf(v) < POLICY_ORDER.indexOf(policy)) {
      policy = v;
    }
  }
  return policy;
}
