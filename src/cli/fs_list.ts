// The CLI's fs_list: the tool and what running it takes, bundled apart (dist/cli-fs_list.js) so a call loads no other tool.
import { listTool } from '../tools/list';
import { runTool, type CliCall } from './run';

export const run = (call: CliCall): Promise<number> => runTool(listTool, call);
