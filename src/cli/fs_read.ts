// The CLI's fs_read: the tool and what running it takes, bundled apart (dist/cli-fs_read.js) so a call loads no other tool.
import { readTool } from '../tools/read';
import { runTool, type CliCall } from './run';

export const run = (call: CliCall): Promise<number> => runTool(readTool, call);
