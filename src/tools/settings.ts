import { DEFAULT_SENSITIVE_GLOBS } from '../core/policy';

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
}

export const DEFAULT_SETTINGS: Settings = {
  sensitiveFiles: DEFAULT_SENSITIVE_GLOBS,
  allowedOutsidePaths: [],
  ignoreGlobs: [],
};
