// The CLI's fs_apply_patch: the tool and what running it takes, bundled apart (dist/cli-fs_apply_patch.js) so a call loads no other tool.
import { applyPatchTool } from '../tools/applyPatch';
import { runTool, type CliCall } from './run';

export const run = (call: CliCall): Promise<number> => runTool(applyPatchTool, call);
