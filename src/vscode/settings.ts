import * as vscode from 'vscode';
import { DEFAULT_SETTINGS, type Settings } from '../tools/settings';

export const SECTION = 'agentFileTools';

/** Reads `agentFileTools.*` afresh on every call, so a change applies to the next call. */
export function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration(SECTION);
  return {
    sensitiveFiles: c.get<string[]>('sensitiveFiles', [...DEFAULT_SETTINGS.sensitiveFiles]),
    allowedOutsidePaths: c.get<string[]>('allowedOutsidePaths', [...DEFAULT_SETTINGS.allowedOutsidePaths]),
    ignoreGlobs: c.get<string[]>('ignoreGlobs', [...DEFAULT_SETTINGS.ignoreGlobs]),
    maxImageBytes: c.get<number>('maxImageBytes', DEFAULT_SETTINGS.maxImageBytes),
    instructionFiles: c.get<boolean>('instructionFiles', DEFAULT_SETTINGS.instructionFiles),
  };
}
