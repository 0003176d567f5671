import * as vscode from 'vscode';
import type { Phrase } from '../core/phrase';

/**
 * A phrase of the core in the person's language. The one call to vscode.l10n whose message
 * is not a literal: its keys are the core's literal `phrase('...')` calls, which
 * scripts/l10n-bundle.mjs puts in the bundle (test/unit/l10n.test.ts checks both ends).
 */
export function shown(p: Phrase): string {
  return vscode.l10n.t(p.key, ...p.args);
}
