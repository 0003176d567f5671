// The CLI's fs_glob: the tool and what running it takes, bundled apart (dist/cli-fs_glob.js) so a call loads no other tool.
import { globTool } from '../tools/glob';
import { runTool, type CliCall } from './run';

export const run = (call: CliCall): Promise<number> => runTool(globTool, call);
