// The CLI's fs_edit: the tool and what running it takes, bundled apart (dist/cli-fs_edit.js) so a call loads no other tool.
import { editTool } from '../tools/edit';
import { runTool, type CliCall } from './run';

export const run = (call: CliCall): Promise<number> => runTool(editTool, call);
