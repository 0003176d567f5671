// The CLI's fs_grep: the tool and what running it takes, bundled apart (dist/cli-fs_grep.js) so a call loads no other tool.
import { grepTool } from '../tools/grep';
import { runTool, type CliCall } from './run';

export const run = (call: CliCall): Promise<number> => runTool(grepTool, call);
