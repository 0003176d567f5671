/**
 * Headless runner: the same tools as the extension, on node:fs.
 *
 *   agent-file-tools <tool> [--root DIR]... [--input JSON | --input-file FILE] [--yes] [--allow-protected] [--allow-outside] [--untrusted] [--json]
 *   agent-file-tools --list
 *   agent-file-tools mcp [--root DIR]... [--yes] [--allow-protected] [--allow-outside] [--untrusted] [--http]
 *
 * Exit codes: 0 success, 1 the tool answered with an error, 2 usage error, 3 approval required.
 */
import * as path from 'node:path';
import type * as V8 from 'node:v8';
import type * as McpRunner from './cli/mcp';
import type { CliCall } from './cli/run';
import { loadBundle } from './host/compileCache';
import { readLocalText } from './host/localText';
import { writeWholeSync } from './host/stdout';
import { isToolName, TOOL_NAMES, type ToolName } from './tools/names';

/**
 * Each tool's runner, loaded only when that tool is called: the build bundles each apart
 * (dist/cli-NAME.js, see esbuild.mjs), so a call parses and starts only its own tool, and
 * `--list` none.
 */
const RUNNERS: { readonly [N in ToolName]: () => Promise<{ run(call: CliCall): Promise<number> }> } = {
  fs_read: () => import('./cli/fs_read.js'),
  fs_list: () => import('./cli/fs_list.js'),
  fs_glob: () => import('./cli/fs_glob.js'),
  fs_grep: () => import('./cli/fs_grep.js'),
  fs_edit: () => import('./cli/fs_edit.js'),
  fs_write: () => import('./cli/fs_write.js'),
  fs_apply_patch: () => import('./cli/fs_apply_patch.js'),
};

const USAGE = `usage: agent-file-tools <tool> [--root DIR] [--input JSON | --input-file FILE] [--yes] [--allow-protected] [--allow-outside] [--untrusted] [--json]
       agent-file-tools --list
       agent-file-tools mcp [--root DIR] [--yes] [--allow-protected] [--allow-outside] [--untrusted] [--http]
tools: ${TOOL_NAMES.join(', ')}
Changes are not checked for errors: no language server runs outside VS Code.`;

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
  http: boolean;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { list: false, roots: [], yes: false, allowProtected: false, allowOutside: false, untrusted: false, json: false, http: false };
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
      case '--http':
        a.http = true;
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
  if (a.tool === 'mcp' ? a.input !== undefined || a.inputFile !== undefined || a.json : a.http) {
    throw new UsageError(a.tool === 'mcp' ? 'mcp takes no --input, --input-file or --json: its calls come from the client' : '--http is for mcp only');
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

/**
 * V8's flags for a process that makes one search and exits (`fs_glob`, `fs_grep`), set
 * before its tool's bundle is compiled (its cached code is made and used under them alike:
 * V8 refuses code cached under other flags). Such a call lasts a second or a few, and V8's
 * optimizing compiler cost it more than it saved: `fs_glob` of the 200,000 `.ts` files of a
 * tree made 45 optimized compiles, which took CPU from the processors ripgrep's walk needs.
 * Here a function is optimized after eight times V8's default work (what runs once per
 * folder mostly stays as it is) and inlines less into it. The other tools' calls are short
 * and walk with no ripgrep: there the flags cost more than they saved (15 to 35 ms of an
 * `fs_list` or `fs_read` of 160), and they keep V8's defaults, as does the MCP server.
 * Measured on Node 20's V8 (11.x), which alone gets them: later V8s tier up otherwise.
 */
export const ONE_CALL_V8_FLAGS = ['--interrupt-budget=540672', '--max-inlined-bytecode-size-cumulative=100'] as const;

function tuneForOneSearch(name: ToolName): void {
  if ((name !== 'fs_glob' && name !== 'fs_grep') || !process.versions.v8.startsWith('11.')) {
    return;
  }
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- only a one-call process loads it
    const v8 = require('node:v8') as typeof V8;
    for (const flag of ONE_CALL_V8_FLAGS) {
      v8.setFlagsFromString(flag);
    }
  } catch {
    // V8's defaults
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
    writeWholeSync(1, TOOL_NAMES.join('\n') + '\n');
    return 0;
  }
  if (!args.tool) {
    process.stderr.write(`no tool named\n${USAGE}\n`);
    return 2;
  }
  const name = args.tool;
  if (name === 'mcp') {
    const bundle = loadBundle(path.join(__dirname, 'cli-mcp.js'), module);
    const { serve } = bundle ? (bundle as typeof McpRunner) : await import('./cli/mcp.js');
    return serve({ roots: args.roots, yes: args.yes, allowProtected: args.allowProtected, allowOutside: args.allowOutside, untrusted: args.untrusted, http: args.http });
  }
  if (!isToolName(name)) {
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
  tuneForOneSearch(name);
  // the built CLI loads the tool's bundle beside it through the code cache; run from the sources (tests), the module itself
  const bundle = loadBundle(path.join(__dirname, `cli-${name}.js`), module);
  const { run } = bundle ? (bundle as Awaited<ReturnType<(typeof RUNNERS)[ToolName]>>) : await RUNNERS[name]();
  const code = await run({ raw, roots: args.roots, yes: args.yes, allowProtected: args.allowProtected, allowOutside: args.allowOutside, untrusted: args.untrusted, json: args.json });
  return code;
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
