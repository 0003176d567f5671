import type * as z from 'zod';
import { applyPatchTool } from './applyPatch';
import { editTool } from './edit';
import { globTool } from './glob';
import { grepTool } from './grep';
import { listTool } from './list';
import { readTool } from './read';
import type { ToolSpec } from '../services/types';
import { writeTool } from './write';

import { isToolName, TOOL_NAMES, type ToolName } from './names';

// The names live apart, so that the CLI lists them and picks a tool without loading any.
export { isToolName, TOOL_NAMES, type ToolName };

/**
 * A tool's entry in the table: its spec, checked against the name it is filed under. The
 * spec keeps its own input type where it is written; the table holds every tool alike,
 * which is sound because run.ts gives a spec only input its own schema parsed.
 */
function defineTool<S extends z.ZodType>(name: ToolName, spec: ToolSpec<S>): ToolSpec {
  if (spec.name !== name) {
    throw new Error(`tool table: ${name} holds the spec of ${spec.name}`);
  }
  return spec;
}

const TABLE: { readonly [N in ToolName]: ToolSpec } = {
  fs_read: defineTool('fs_read', readTool),
  fs_list: defineTool('fs_list', listTool),
  fs_glob: defineTool('fs_glob', globTool),
  fs_grep: defineTool('fs_grep', grepTool),
  fs_edit: defineTool('fs_edit', editTool),
  fs_write: defineTool('fs_write', writeTool),
  fs_apply_patch: defineTool('fs_apply_patch', applyPatchTool),
};

/**
 * The single table of tools. `package.json` `contributes.languageModelTools` must list
 * exactly these names (a unit test checks it, schemas included).
 */
export const TOOLS: readonly ToolSpec[] = TOOL_NAMES.map((name) => TABLE[name]);

export function findTool(name: string): ToolSpec | undefined {
  return isToolName(name) ? TABLE[name] : undefined;
}
