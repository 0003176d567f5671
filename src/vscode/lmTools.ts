import * as vscode from 'vscode';
import type { VscodeApprover } from '../approval/vscodeApprover';
import type { Workspace } from '../host/workspace';
import { code } from '../core/policy';
import { InstructionMemory } from '../core/read/instructions';
import { ReadLedger } from '../services/ledger';
import { FileLocks } from '../services/locks';
import { TOOLS } from '../tools/registry';
import { invokeTool, prepareTool } from '../services/run';
import type { ChangeJournal, ChangeOrigin } from '../services/journal';
import type { Logger, ToolContext, ToolSpec } from '../services/types';
import { shown } from './phrase';
import { toLmResult } from './result';
import { readSettings, toolEnabled } from './settings';

/** One `vscode.LanguageModelTool` over a neutral tool spec. */
class LmTool implements vscode.LanguageModelTool<unknown> {
  constructor(
    private readonly spec: ToolSpec,
    private readonly context: ContextFactory,
    private readonly approver: VscodeApprover,
  ) {}

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>, token: vscode.CancellationToken) {
    let prep;
    try {
      prep = await prepareTool(this.spec, options.input, this.context(this.spec.name, options.input, token));
    } catch (e) {
      // The policy could not be checked: ask rather than let the call through unexamined.
      return {
        invocationMessage: vscode.l10n.t('Running {0}', this.spec.name),
        confirmationMessages: {
          title: vscode.l10n.t('Allow an unchecked Agent File Tools call?'),
          message: new vscode.MarkdownString(vscode.l10n.t('{0} could not check whether this call stays inside the workspace ({1}). Allow it anyway?', code(this.spec.name), e instanceof Error ? e.message : String(e))),
        },
      };
    }
    if (!prep) {
      // invalid input: invoke reports it to the model without touching anything
      return { invocationMessage: vscode.l10n.t('Running {0}', this.spec.name) };
    }
    if (prep.confirmation) {
      this.approver.noteShown(this.spec.name, options.input, prep.confirmation);
    }
    return {
      invocationMessage: prep.invocationMessage,
      confirmationMessages: prep.confirmation ? { title: shown(prep.confirmation.title), message: new vscode.MarkdownString(shown(prep.confirmation.message)) } : undefined,
    };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<unknown>, token: vscode.CancellationToken) {
    // The manifest's `when` keeps a turned-off tool out of what a chat offers the model, but
    // VS Code still lists it in vscode.lm.tools and another extension may call it: it refuses.
    if (!toolEnabled(this.spec.name)) {
      return new vscode.LanguageModelToolResult([
        new vscode.LanguageModelTextPart(`${this.spec.name} is turned off in this workspace's settings (agentFileTools.tools.${this.spec.name}.enabled); nothing was done.`),
      ]);
    }
    const ctx = this.context(this.spec.name, options.input, token, options);
    try {
      return await toLmResult(await invokeTool(this.spec, options.input, ctx), {
        inChat: options.toolInvocationToken !== undefined,
        tokenizationOptions: options.tokenizationOptions,
        token,
        log: ctx.log,
        tool: this.spec.name,
      });
    } finally {
      // after the answer has left: an accepted review's editors close behind it
      setTimeout(ctx.endCall, 0);
    }
  }
}

/**
 * The invocation token is opaque and crosses process boundaries as data, so its
 * serialised form is what stays the same for every tool call of one chat request.
 */
function requestKeyOf(token: unknown): string | undefined {
  if (token === undefined || token === null) {
    return undefined;
  }
  try {
    return JSON.stringify(token);
  } catch {
    return undefined;
  }
}

/**
 * Calls the person started (a command of the palette or a view), by tool and input: the
 * command marks its call just before `vscode.lm.invokeTool`, which carries nothing else
 * that says who asked. Such a call's review takes the keyboard, and the history says so.
 */
export class CommandCalls {
  private readonly marked = new Map<string, number>();

  private static key(tool: string, input: unknown): string {
    return `${tool}\0${JSON.stringify(input ?? {})}`;
  }

  /** Marks the call until it runs; dispose when it has. */
  mark(tool: string, input: unknown): vscode.Disposable {
    const key = CommandCalls.key(tool, input);
    this.marked.set(key, (this.marked.get(key) ?? 0) + 1);
    return new vscode.Disposable(() => {
      const n = (this.marked.get(key) ?? 1) - 1;
      if (n > 0) {
        this.marked.set(key, n);
      } else {
        this.marked.delete(key);
      }
    });
  }

  has(tool: string, input: unknown): boolean {
    return this.marked.has(CommandCalls.key(tool, input));
  }
}

/** Builds a call's context: shared memory of reads, locks and instructions, the approver, the journal. */
export type ContextFactory = (
  tool: string,
  input: unknown,
  token: vscode.CancellationToken,
  options?: vscode.LanguageModelToolInvocationOptions<unknown>,
  /** Who asked, for a call that does not go through `vscode.lm.invokeTool` (a revert, an MCP client's). */
  origin?: ChangeOrigin,
  /** For an MCP client's call: the client's name. */
  client?: string,
) => ToolContext & { endCall(): void };

export function contextFactory(ws: Workspace, approver: VscodeApprover, log: Logger, journal: ChangeJournal | undefined, commands: CommandCalls): ContextFactory {
  const ledger = new ReadLedger();
  const locks = new FileLocks();
  const instructions = new InstructionMemory();
  return (tool, input, token, options, given, client) => {
    const tok = options?.tokenizationOptions;
    const origin: ChangeOrigin = given ?? (options?.toolInvocationToken !== undefined ? 'chat' : commands.has(tool, input) ? 'command' : 'extension');
    const callApprover = approver.forCall(tool, input, origin === 'command', client);
    return {
      ws,
      approver: callApprover,
      endCall: callApprover.endCall,
      settings: readSettings(),
      signal: token,
      ledger,
      locks,
      log,
      budget: tok ? { tokenBudget: tok.tokenBudget, countTokens: (text) => Promise.resolve(tok.countTokens(text, token)) } : undefined,
      requestKey: requestKeyOf(options?.toolInvocationToken),
      instructions,
      journal,
      origin,
      ...(client !== undefined ? { client } : {}),
    };
  };
}

/** Registers every tool of the registry; returns the disposables. */
export function registerTools(context: ContextFactory, approver: VscodeApprover): vscode.Disposable[] {
  return TOOLS.map((spec) => vscode.lm.registerTool(spec.name, new LmTool(spec, context, approver)));
}
