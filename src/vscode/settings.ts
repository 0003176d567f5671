import * as vscode from 'vscode';
import { DIAGNOSTICS_MAX_WAIT_MS, HISTORY_DEFAULT_ENTRIES, HISTORY_DEFAULT_STORAGE_MIB, HISTORY_MAX_ENTRIES, HISTORY_MAX_STORAGE_MIB, MAX_READ_BYTES, MAX_READ_LINES, READ_SETTING_MIN_BYTES, READ_SETTING_MIN_LINES } from '../core/limits';
import { DEFAULT_SETTINGS, guardedList, strictestPolicy, userOnlyList, type Settings } from '../services/settings';

export const SECTION = 'agentFileTools';

/** The largest image `maxImageBytes` may allow to be attached (the manifest's maximum). */
const MAX_IMAGE_BYTES = 50 * 1024 * 1024;

/**
 * What `agentFileTools.*` held when last read, while {@link watchSettings} watches for a
 * change: asking VS Code costs about half a millisecond a call (twice a tool call: once to
 * prepare it, once to run it). The extension host's view of the settings changes only with
 * the events watched, so the copy is dropped exactly when a fresh read would differ: a
 * change applies to the next call.
 */
let cached: { settings?: Settings; enabled: Map<string, boolean> } | undefined;
let watchers = 0;

/** Keeps the settings read once until a setting, the workspace's trust or its folders change. */
export function watchSettings(): vscode.Disposable {
  const drop = () => (cached = undefined);
  watchers++;
  cached = undefined;
  const subs = [vscode.workspace.onDidChangeConfiguration(drop), vscode.workspace.onDidGrantWorkspaceTrust(drop), vscode.workspace.onDidChangeWorkspaceFolders(drop)];
  return new vscode.Disposable(() => {
    subs.forEach((d) => d.dispose());
    watchers--;
    cached = undefined;
  });
}

function cache(): { settings?: Settings; enabled: Map<string, boolean> } | undefined {
  return watchers > 0 ? (cached ??= { enabled: new Map() }) : undefined;
}

/** The `agentFileTools.*` settings as they are now (see {@link watchSettings}); the caller may not change them. */
export function readSettings(): Settings {
  const c = cache();
  return c ? (c.settings ??= frozen(readSettingsNow())) : readSettingsNow();
}

/** The copy kept and its lists, frozen: one caller's change cannot reach the next call. */
function frozen(s: Settings): Settings {
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    // copies: the lists VS Code gives are its own, which other readers of the setting get too
    copy[k] = Array.isArray(v) ? Object.freeze([...v]) : v;
  }
  return Object.freeze(copy) as unknown as Settings;
}

function readSettingsNow(): Settings {
  const c = vscode.workspace.getConfiguration(SECTION);
  // What asks the person first is the user's to loosen, never a repository's (see guardedList).
  // Read without a resource, as every setting here: the workspace's layer is its settings.
  const layers = (key: string) => {
    const i = c.inspect(key);
    return { user: i?.globalValue, shared: [i?.workspaceValue] };
  };
  const sensitive = layers('sensitiveFiles');
  const protectedFiles = layers('protectedFiles');
  const policy = layers('approvalPolicy');
  return {
    sensitiveFiles: guardedList(sensitive.user, DEFAULT_SETTINGS.sensitiveFiles, sensitive.shared),
    allowedOutsidePaths: userOnlyList(layers('allowedOutsidePaths').user),
    ignoreGlobs: c.get<string[]>('ignoreGlobs', [...DEFAULT_SETTINGS.ignoreGlobs]),
    maxImageBytes: bounded(c.get('maxImageBytes'), 0, MAX_IMAGE_BYTES, DEFAULT_SETTINGS.maxImageBytes),
    // the person's "off" stands: a repository's own settings cannot add its instruction files to reads
    instructionFiles: layers('instructionFiles').user === false ? false : c.get<boolean>('instructionFiles', DEFAULT_SETTINGS.instructionFiles) !== false,
    approvalPolicy: strictestPolicy(policy.user, policy.shared),
    protectedFiles: guardedList(protectedFiles.user, DEFAULT_SETTINGS.protectedFiles, protectedFiles.shared),
    saveAfterChange: c.get<boolean>('saveAfterChange', DEFAULT_SETTINGS.saveAfterChange),
    formatAfterChange: c.get<boolean>('formatAfterChange', DEFAULT_SETTINGS.formatAfterChange),
    diagnosticsWaitMs: bounded(c.get('diagnosticsWaitMs'), 0, DIAGNOSTICS_MAX_WAIT_MS, DEFAULT_SETTINGS.diagnosticsWaitMs),
    readMaxLines: bounded(c.get('read.maxLines'), READ_SETTING_MIN_LINES, MAX_READ_LINES, DEFAULT_SETTINGS.readMaxLines),
    readMaxBytes: bounded(c.get('read.maxBytes'), READ_SETTING_MIN_BYTES, MAX_READ_BYTES, DEFAULT_SETTINGS.readMaxBytes),
  };
}

/** A number setting within [min, max]; a hand-edited value outside it (or not a number) is clamped or replaced by the default. */
function bounded(v: unknown, min: number, max: number, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, Math.floor(v))) : fallback;
}

/** How much the history of changes keeps: changes, and bytes of their text. */
export function historyLimits(): { maxEntries: number; maxBytes: number } {
  const c = vscode.workspace.getConfiguration(SECTION);
  return {
    maxEntries: bounded(c.get('history.maxEntries'), 0, HISTORY_MAX_ENTRIES, HISTORY_DEFAULT_ENTRIES),
    maxBytes: bounded(c.get('history.maxStorageMiB'), 0, HISTORY_MAX_STORAGE_MIB, HISTORY_DEFAULT_STORAGE_MIB) * 1024 * 1024,
  };
}

/** Whether the person left the tool on (`agentFileTools.tools.<name>.enabled`, which the manifest's `when` reads too). */
export function toolEnabled(name: string): boolean {
  const c = cache();
  let on = c?.enabled.get(name);
  if (on === undefined) {
    // off in the person's settings or the workspace's: a repository cannot turn back on a tool the person turned off
    const i = vscode.workspace.getConfiguration(SECTION).inspect(`tools.${name}.enabled`);
    on = i?.globalValue !== false && i?.workspaceValue !== false;
    c?.enabled.set(name, on);
  }
  return on;
}
