import type * as z from 'zod';
import { NEVER_CANCELLED } from '../core/cancel';
import { NodeWorkspace } from '../host/nodeWorkspace';
import { writeWholeSync } from '../host/stdout';
import { exitCodeOf } from '../services/approval';
import { cliApprover } from '../services/cliApprover';
import { ReadLedger } from '../services/ledger';
import { FileLocks } from '../services/locks';
import { resultText, type ToolResult } from '../services/result';
import { invokeTool } from '../services/run';
import { DEFAULT_SETTINGS } from '../services/settings';
import { SILENT_LOGGER, type ToolContext, type ToolSpec } from '../services/types';

const STDOUT = 1;

/** What the CLI read from its arguments and input, for the one tool it runs. */
export interface CliCall {
  raw: unknown;
  roots: readonly string[];
  yes: boolean;
  allowProtected: boolean;
  allowOutside: boolean;
  untrusted: boolean;
  json: boolean;
}

function emit(result: ToolResult, json: boolean): void {
  if (json) {
    const parts = result.parts.map((p) => (p.kind === 'text' ? { type: 'text', text: p.text } : { type: 'data', mime: p.mime, bytes: p.data.byteLength, base64: Buffer.from(p.data).toString('base64') }));
    writeWholeSync(STDOUT, JSON.stringify({ ok: !result.isError, text: resultText(result), parts }) + '\n');
  } else {
    const text = resultText(result);
    writeWholeSync(STDOUT, text.endsWith('\n') ? text : text + '\n');
  }
}

/**
 * Runs one tool on node:fs and prints its result; the exit code. The spec keeps its own
 * input type, as in the tool table: sound because invokeTool gives a spec only input its
 * own schema parsed.
 */
export async function runTool<S extends z.ZodType>(spec: ToolSpec<S>, call: CliCall): Promise<number> {
  let ws: NodeWorkspace;
  try {
    ws = await NodeWorkspace.create(call.roots.length ? call.roots : [process.cwd()]);
  } catch (e) {
    process.stderr.write(`cannot open --root: ${(e as Error).message}\n`);
    return 2;
  }
  ws.trusted = !call.untrusted;
  // --help says that no checker runs here: the answers need not
  ws.uncheckedSaid = true;
  const approver = cliApprover({ yes: call.yes, allowProtected: call.allowProtected, allowOutside: call.allowOutside });
  const ctx: ToolContext = { ws, approver, settings: DEFAULT_SETTINGS, signal: NEVER_CANCELLED, ledger: new ReadLedger(), locks: new FileLocks(), log: SILENT_LOGGER };
  const result = await invokeTool(spec as unknown as ToolSpec, call.raw, ctx);
  emit(result, call.json);
  return exitCodeOf(result);
}
