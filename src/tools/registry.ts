import { globTool } from './glob';
import { grepTool } from './grep';
import { listTool } from './list';
import { readTool } from './read';
import type { ToolSpec } from './types';
import { writeTool } from './write';
import { editTool } from './edit';
import { applyPatchTool } from './applyPatch';

/**
 * The single table of tools. `package.json` `contributes.languageModelTools` must list
 * exactly these names (a unit test checks it, schemas included).
 */
export const TOOLS: readonly ToolSpec[] = [
  readTool as unknown as ToolSpec,
  listTool as unknown as ToolSpec,
  globTool as unknown as ToolSpec,
  grepTool as unknown as ToolSpec,
  editTool as unknown as ToolSpec,
  writeTool as unknown as ToolSpec,
  applyPatchTool as unknown as ToolSpec,
];

export function findTool(name: string): ToolSpec | undefined {
  return TOOLS.find((t) => t.name === name);
}
