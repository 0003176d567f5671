import { ToolError } from '../core/errors';
import { MAX_COMPILED_GLOB_SETS } from '../core/limits';
import { locate } from '../core/paths';
import { globSeparators } from '../core/search/glob';
import { WINDOWS_PATHS } from '../host/volume';
import { compileSensitiveFiles, decideRead, globSet, type GlobSet, type ReadDecision, type SensitiveFileTest } from '../core/policy';
import type { QuestionVerb } from '../core/questions';
import { decideChange, type ChangeDecision } from '../core/writePolicy';
import { ApprovalDenied, type Confirmation } from './approval';
import { loadFileText, type FileText } from './fileText';
import { fileKey, openDocumentFor, resolveTarget, type Target } from './target';
import type { Settings } from './settings';
import type { Preparation, ToolContext } from './types';
import type { OpenDocument } from '../host/workspace';

/**
 * "May this call see or touch this path?", answered in one place. The rules are pure
 * (core/policy.ts for reads, core/writePolicy.ts for changes); this module feeds them the
 * settings' globs, compiled once for the process, asks the person when a rule says so, and
 * gives each call one {@link Access} per path that holds both decisions.
 */

/** Compiled glob lists by what they were compiled from: a patch decides for hundreds of paths, and settings rarely change. */
const compiled = new Map<string, unknown>();

function cached<T>(key: string, compile: () => T): T {
  let v = compiled.get(key) as T | undefined;
  if (v === undefined) {
    v = compile();
    if (compiled.size >= MAX_COMPILED_GLOB_SETS) {
      compiled.delete(compiled.keys().next().value as string);
    }
    compiled.set(key, v);
  }
  return v;
}

/** A glob list compiled once; `nocase` as for {@link globSet}. */
export function globsOf(globs: readonly string[], nocase: boolean): GlobSet {
  return cached(`set\0${nocase ? 'i' : 'c'}\0${globs.join('\n')}`, () => globSet(globs, nocase));
}

// Secrets and protected files are matched without regard to case on every platform: on
// macOS and Windows `.ENV` is `.env`, and elsewhere asking once too often is the safe side.
/** The `sensitiveFiles` setting, compiled once. */
export const sensitiveGlobs = (s: Settings): GlobSet => globsOf(s.sensitiveFiles, true);
const protectedGlobs = (s: Settings) => globsOf(s.protectedFiles, true);
/**
 * The allow-list of outside paths, matched as the volume of the path compares names (it
 * lets reads through, so never more loosely), and on Windows with either separator, as a
 * Windows user writes a path (`C:\\Users\\me\\notes\\**`).
 */
const allowedOutside = (s: Settings, foldsCase: boolean) => globsOf(WINDOWS_PATHS ? s.allowedOutsidePaths.map((g) => globSeparators(g)) : s.allowedOutsidePaths, foldsCase);

/** The sensitive-file test for the many files one search returns (compiled once; its memory is the search's). */
export function sensitiveFileTest(settings: Settings): SensitiveFileTest {
  return cached(`files\0${settings.sensitiveFiles.join('\n')}`, () => compileSensitiveFiles(settings.sensitiveFiles)).tester();
}

/**
 * Whether the person has the file in front of them: a tab shows its document, or they
 * changed it. A document only loaded (the review loads the file it would change, language
 * servers load others) does not count.
 */
function inEditor(doc: OpenDocument | undefined): boolean {
  return doc !== undefined && (doc.isDirty || doc.shown !== false);
}

/** The read rule for one resolved path. */
export function readDecision(ctx: ToolContext, t: Target, toolName: string, verb: QuestionVerb): ReadDecision {
  return decideRead({
    located: t.located,
    real: t.real,
    given: t.abs !== t.real ? locate(t.abs, ctx.ws.roots()) : undefined,
    gitDir: t.gitDir !== undefined ? locate(t.gitDir, ctx.ws.roots()) : undefined,
    openInEditor: inEditor(openDocumentFor(ctx, t)),
    ...(t.badName ? { badName: t.badName } : {}),
    allowOutside: allowedOutside(ctx.settings, !t.located.root && ctx.ws.names(t.real).foldsCase),
    sensitive: sensitiveGlobs(ctx.settings),
    toolName,
    verb,
  });
}

function confirmationOf(decision: ReadDecision): Confirmation | undefined {
  return decision.kind === 'confirm' ? { reasons: decision.reasons, title: decision.title, message: decision.message } : undefined;
}

/** What VS Code shows before the call: a refused path needs no question (invoke refuses it). */
export function preparationFor(decision: ReadDecision, invocationMessage: string): Preparation {
  const confirmation = confirmationOf(decision);
  return confirmation ? { invocationMessage, confirmation } : { invocationMessage };
}

/** Refuses what the decision never allows, and asks the person what it asks. */
async function askAbout(ctx: ToolContext, decision: ReadDecision): Promise<void> {
  if (decision.kind === 'deny') {
    throw new ToolError('denied', decision.message);
  }
  const confirmation = confirmationOf(decision);
  if (!confirmation) {
    return;
  }
  const answer = await ctx.approver.confirm(confirmation, ctx.signal);
  if (!answer.allowed) {
    throw new ApprovalDenied(answer.result);
  }
}

/**
 * Decides again, inside the call, on the path as it resolves now, and asks the person
 * when the policy says so: a path swapped between the confirmation and the call is
 * caught here. Throws a ToolError for a path that is never allowed, and ApprovalDenied
 * when the answer is no.
 */
export async function authorize(ctx: ToolContext, t: Target, toolName: string, verb: QuestionVerb): Promise<void> {
  await askAbout(ctx, readDecision(ctx, t, toolName, verb));
}

/** Tools that change files refuse in an untrusted workspace: the folder's content may be hostile. */
export function requireTrust(ctx: ToolContext, tool: string): void {
  if (!ctx.ws.isTrusted()) {
    throw new ToolError(
      'untrusted',
      `${tool} changes files, and this workspace is not trusted, so it refuses. Tell the user: to allow changes, trust the folder (Command Palette: "Workspaces: Manage Workspace Trust"), then ask again. Reading tools still work.`,
    );
  }
}

/**
 * One path as one call of a tool that changes files may see and touch it: resolved once,
 * with the read decision (what fs_read would ask before showing it) and the change
 * decision (refused, reviewed, or applied as the policy says) made once. Every branch of
 * the call that loads, compares, describes or shows the file goes through it.
 *
 * What the model may learn of a file it may not read unasked (a secret, a file outside
 * the workspace) is guarded by the read question: whether old text fits and where, that
 * the file already holds a given content, its size, encoding or type, which names are
 * near it, and for an outside path even whether it exists, are all answers about it. So
 * the question comes first, and until it is answered a right guess reads exactly like a
 * wrong one.
 */
export class Access {
  readonly read: ReadDecision;
  readonly change: ChangeDecision;
  /** The person answered the read question yes in this call. */
  private answered = false;

  private constructor(
    private readonly ctx: ToolContext,
    readonly target: Target,
    verb: QuestionVerb,
    toolName: string,
  ) {
    this.read = readDecision(ctx, target, toolName, verb);
    this.change = decideChange({
      located: target.located,
      real: target.real,
      gitDir: target.gitDir !== undefined ? locate(target.gitDir, ctx.ws.roots()) : undefined,
      policy: ctx.settings.approvalPolicy,
      sensitive: sensitiveGlobs(ctx.settings),
      protectedFiles: protectedGlobs(ctx.settings),
      editorFolders: ctx.ws.editorFolders?.(),
      names: ctx.ws.names(target.real),
      ...(target.badName ? { badName: target.badName.message } : {}),
    });
  }

  /** Resolves `path` as given to the tool and decides on it; `verb` words the question (`edit`, `write`, `change`). */
  static async resolve(ctx: ToolContext, path: string, toolName: string, verb: QuestionVerb): Promise<Access> {
    return new Access(ctx, await resolveTarget(ctx, path), verb, toolName);
  }

  /** Decides on a target already resolved (the paths of one patch are resolved together). */
  static of(ctx: ToolContext, target: Target, toolName: string, verb: QuestionVerb): Access {
    return new Access(ctx, target, verb, toolName);
  }

  /** Refuses what may never be written (`.git` internals), before any work. */
  refuseForbidden(): void {
    if (this.change.kind === 'refuse') {
      throw new ToolError('invalid-input', this.change.message);
    }
  }

  /** Whether the person reviews the change before it lands. */
  get reviewed(): boolean {
    return this.change.kind === 'ask';
  }

  /**
   * Whether reading this file would ask (or is refused): where old text does not fit such
   * a file, or fits more than once, is never described, even once the call may go on.
   */
  get guarded(): boolean {
    return this.read.kind !== 'allow';
  }

  /**
   * Whether the model may be shown what the file held (a diff of its old text): reading
   * it asks nothing, the model read or changed it before (its version is in the ledger, as
   * fs_read records it), or the person answered the read question yes in this call.
   */
  get mayShowContent(): boolean {
    return this.read.kind === 'allow' || this.answered || this.ctx.ledger.get(fileKey(this.ctx, this.target.real)) !== undefined;
  }

  /**
   * Whether the read question comes before anything about the file. Not for a file the
   * model may see; for an outside path always, as whether it exists is already an answer;
   * for a secret in the workspace only when something is there (fs_list shows names, and
   * a missing file holds nothing to reveal). `exists` saves the look when it is known.
   */
  private async questionDue(exists?: boolean): Promise<boolean> {
    if (this.mayShowContent) {
      return false;
    }
    // (reading is refused, or asks: a refused path is refused here, before anything else)
    if (this.read.kind !== 'confirm' || this.read.reasons.includes('outside')) {
      return true;
    }
    return exists ?? (await this.ctx.ws.stat(this.target.real)) !== undefined;
  }

  /** The read question this call will ask before it looks at the file, for the chat's card before the call (the call then does not ask it again). */
  async question(exists?: boolean): Promise<Confirmation | undefined> {
    return (await this.questionDue(exists)) ? confirmationOf(this.read) : undefined;
  }

  /** Asks (or refuses) as {@link question} says, before the file is loaded, compared or described. */
  async askFirst(exists?: boolean): Promise<void> {
    if (await this.questionDue(exists)) {
      await askAbout(this.ctx, this.read);
      this.answered = true;
    }
  }

  /**
   * The file's current text, loaded only after the read question (see {@link askFirst}).
   * A secret that appeared after the look for it, or that cannot be loaded as text, is
   * asked about before the call says anything of it.
   */
  async load(): Promise<FileText | undefined> {
    await this.askFirst();
    let text: FileText | undefined;
    try {
      text = await loadFileText(this.ctx, this.target);
    } catch (e) {
      await this.askFirst(true);
      throw e;
    }
    if (text !== undefined) {
      await this.askFirst(true);
    }
    return text;
  }
}

/**
 * What the chat shows while the call runs: when the person will be asked, say that the
 * call waits for them, so a pending review is not mistaken for a slow tool.
 */
export function invocationMessage(access: readonly Access[], plain: string): string {
  // The chat keeps these words once the call is done (the stable API has no past tense), so they read right in both.
  return access.some((a) => a.reviewed) ? `${plain}, after your review in the diff` : plain;
}

/** The first read question of `access`, for the chat's card before the call. */
export async function firstQuestion(access: readonly Access[]): Promise<Confirmation | undefined> {
  for (const a of access) {
    const q = await a.question();
    if (q) {
      return q;
    }
  }
  return undefined;
}
