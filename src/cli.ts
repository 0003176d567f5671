/**
 * Headless runner: the same tools as the extension, on node:fs.
 *
 *   agent-file-tools <tool> [--root DIR]... [--input JSON | --input-file FILE] [--yes] [--allow-protected] [--allow-outside] [--untrusted] [--json]
 *   agent-file-tools --list
 *
 * Exit codes: 0 success, 1 the tool answered with an error, 2 usage error, 3 approval required.
 */
import { NEVER_CANCELLED } from './core/cancel';
import { NodeWorkspace, readLocalText } from './host/nodeWorkspace';
import { ReadLedger } from './services/ledger';
import { FileLocks } from './services/locks';
import { TOOLS, findTool } from './tools/registry';
import { resultText, type ToolResult } from './services/result';
import { invokeTool } from './services/run';
import { exitCodeOf } from './services/approval';
import { cliApprover } from './services/cliApprover';
import { DEFAULT_SETTINGS } from './services/settings';
import { SILENT_LOGGER, type ToolContext } from './services/types';

const USAGE = `usage: agent-file-tools <tool> [--root DIR] [--input JSON | --input-file FILE] [--yes] [--allow-protected] [--allow-outside] [--untrusted] [--json]
       agent-file-tools --list
tools: ${TOOLS.map((t) => t.name).join(', ')}`;

class UsageError extends Error {}

interface Args {
  tool?: string;
  list: boolean;
  roots: string[];
  input?: string;
  inputFile?: string;
  yes: boolean;
  allowProtected: boolean;
  allowOutside: boolean;
  untrusted: boolean;
  json: boolean;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { list: false, roots: [], yes: false, allowProtected: false, allowOutside: false, untrusted: false, json: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) {
        throw new UsageError(`${arg} needs a value`);
      }
      return v;
    };
    switch (arg) {
      case '--list':
        a.list = true;
        break;
      case '--root':
        a.roots.push(value());
        break;
      case '--input':
        a.input = value();
        break;
      case '--input-file':
        a.inputFile = value();
        break;
      case '--yes':
        a.yes = true;
        break;
      case '--allow-protected':
        a.allowProtected = true;
        break;
      case '--allow-outside':
        a.allowOutside = true;
        break;
      case '--untrusted':
        a.untrusted = true;
        break;
      case '--json':
        a.json = true;
        break;
      case '-h':
      case '--help':
        throw new UsageError('');
      default:
        if (arg.startsWith('-')) {
          throw new UsageError(`unknown flag ${arg}`);
        }
        if (a.tool) {
          throw new UsageError(`unexpected argument ${arg}`);
        }
        a.tool = arg;
    }
  }
  if (a.input !== undefined && a.inputFile !== undefined) {
    throw new UsageError('give --input or --input-file, not both');
  }
  return a;
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) {
    return '';
  }
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) {
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function emit(result: ToolResult, json: boolean): void {
  if (json) {
    const parts = result.parts.map((p) => (p.kind === 'text' ? { type: 'text', text: p.text } : { type: 'data', mime: p.mime, bytes: p.data.byteLength, base64: Buffer.from(p.data).toString('base64') }));
    process.stdout.write(JSON.stringify({ ok: !result.isError, text: resultText(result), parts }) + '\n');
  } else {
    const text = resultText(result);
    process.stdout.write(text.endsWith('\n') ? text : text + '\n');
  }
}

export async function main(argv: string[]): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(argv);
  } catch (e) {
    process.stderr.write(`${(e as Error).message ? (e as Error).message + '\n' : ''}${USAGE}\n`);
    return 2;
  }
  if (args.list) {
    process.stdout.write(TOOLS.map((t) => t.name).join('\n') + '\n');
    return 0;
  }
  if (!args.tool) {
    process.stderr.write(`no tool named\n${USAGE}\n`);
    return 2;
  }
  const spec = findTool(args.tool);
  if (!spec) {
    process.stderr.write(`unknown tool ${args.tool}\n${USAGE}\n`);
    return 2;
  }
  let rawText: string;
  try {
    rawText = args.input ?? (args.inputFile !== undefined ? readLocalText(args.inputFile) : await readStdin());
  } catch (e) {
    process.stderr.write(`cannot read --input-file: ${(e as Error).message}\n`);
    return 2;
  }
  let raw: unknown;
  try {
    raw = rawText.trim() === '' ? {} : JSON.parse(rawText);
  } catch (e) {
    process.stderr.write(`input is not valid JSON: ${(e as Error).message}\n`);
    return 2;
  }
  let ws: NodeWorkspace;
  try {
    ws = await NodeWorkspace.create(args.roots.length ? args.roots : [process.cwd()]);
  } catch (e) {
    process.stderr.write(`cannot open --root: ${(e as Error).message}\n`);
    return 2;
  }
  ws.trusted = !args.untrusted;
  const approver = cliApprover({ yes: args.yes, allowProtected: args.allowProtected, allowOutside: args.allowOutside });
  const ctx: ToolContext = { ws, approver, settings: DEFAULT_SETTINGS, signal: NEVER_CANCELLED, ledger: new ReadLedger(), locks: new FileLocks(), log: SILENT_LOGGER };
  const result = await invokeTool(spec, raw, ctx);
  emit(result, args.json);
  return exitCodeOf(result);
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`internal error: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
