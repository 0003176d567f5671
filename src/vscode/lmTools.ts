import * as vscode from 'vscode';
import type { VscodeApprover } from '../approval/vscodeApprover';
import type { Workspace } from '../host/workspace';
import { code } from '../core/policy';
import { InstructionMemory } from '../core/read/instructions';
import { ReadLedger } from '../services/ledger';
import { FileLocks } from '../services/locks';
import { TOOLS } from '../tools/registry';
import { invokeTool, prepareTool } from '../services/run';
import type { Logger, ToolContext, ToolSpec } from '../services/types';
import { toLmResult } from './result';
import { readSettings } from './settings';

/** One `vscode.LanguageModelTool` over a neutral tool spec. */
class LmTool implements vscode.LanguageModelTool<unknown> {
  constructor(
    private readonly spec: ToolSpec,
    private readonly context: (spec: ToolSpec, input: unknown, token: vscode.CancellationToken, options?: vscode.LanguageModelToolInvocationOptions<unknown>) => ToolContext,
    private readonly approver: VscodeApprover,
  ) {}

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>, token: vscode.CancellationToken) {
    let prep;
    try {
      prep = await prepareTool(this.spec, options.input, this.context(this.spec, options.input, token));
    } catch (e) {
      // The policy could not be checked: ask rather than let the call through unexamined.
      return {
        invocationMessage: `Running ${this.spec.name}`,
        confirmationMessages: {
          title: 'Allow an unchecked Agent File Tools call?',
          message: new vscode.MarkdownString(`${code(this.spec.name)} could not check whether this call stays inside the workspace (${e instanceof Error ? e.message : String(e)}). Allow it anyway?`),
        },
      };
    }
    if (!prep) {
      // invalid input: invoke reports it to the model without touching anything
      return { invocationMessage: `Running ${this.spec.name}` };
    }
    if (prep.confirmation) {
      this.approver.noteShown(this.spec.name, options.input, prep.confirmation);
    }
    return {
      invocationMessage: prep.invocationMessage,
      confirmationMessages: prep.confirmation ? { title: prep.confirmation.title, message: new vscode.MarkdownString(prep.confirmation.message) } : undefined,
    };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<unknown>, token: vscode.CancellationToken) {
    const ctx = this.context(this.spec, options.input, token, options);
    return toLmResult(await invokeTool(this.spec, options.input, ctx), {
      inChat: options.toolInvocationToken !== undefined,
      tokenizationOptions: options.tokenizationOptions,
      token,
      log: ctx.log,
      tool: this.spec.name,
    });
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

/** Registers every tool of the registry; returns the disposables. */
export function registerTools(ws: Workspace, approver: VscodeApprover, log: Logger): vscode.Disposable[] {
  const ledger = new ReadLedger();
  const locks = new FileLocks();
  const instructions = new InstructionMemory();
  const context = (spec: ToolSpec, input: unknown, token: vscode.CancellationToken, options?: vscode.LanguageModelToolInvocationOptions<unknown>): ToolContext => {
    const tok = options?.tokenizationOptions;
    return {
      ws,
      approver: approver.forCall(spec.name, input),
      settings: readSettings(),
      signal: token,
      ledger,
      locks,
      log,
      budget: tok ? { tokenBudget: tok.tokenBudget, countTokens: (text) => Promise.resolve(tok.countTokens(text, token)) } : undefined,
      requestKey: requestKeyOf(options?.toolInvocationToken),
      instructions,
    };
  };
  return TOOLS.map((spec) => vscode.lm.registerTool(spec.name, new LmTool(spec, context, approver)));
}
