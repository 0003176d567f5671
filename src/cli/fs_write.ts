// The CLI's fs_write: the tool and what running it takes, bundled apart (dist/cli-fs_write.js) so a call loads no other tool.
import { writeTool } from '../tools/write';
import { runTool, type CliCall } from './run';

export const run = (call: CliCall): Promise<number> => runTool(writeTool, call);
