/** The tools' names, in the order they are listed (`--list`, package.json). */
export const TOOL_NAMES = ['fs_read', 'fs_list', 'fs_glob', 'fs_grep', 'fs_edit', 'fs_write', 'fs_apply_patch'] as const;

export type ToolName = (typeof TOOL_NAMES)[number];

export function isToolName(name: string): name is ToolName {
  return (TOOL_NAMES as readonly string[]).includes(name);
}
