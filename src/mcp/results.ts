import type { ToolResult } from '../services/result';

/** The content of an MCP tool result (the part of the SDK's CallToolResult the server fills). */
export interface McpContent {
  [key: string]: unknown;
  content: ({ type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string })[];
  isError?: boolean;
}

/**
 * A tool's result as an MCP client gets it: the text a model gets in Copilot (the text parts
 * joined by "\n" into one text, as the chat's one prompt-tsx part holds them, see
 * vscode/result.ts), then each image as MCP image content. A failure sets `isError`. A data
 * part that is no image (no tool gives one) is named in a line of the text, as the CLI prints it.
 */
export function toMcpContent(r: ToolResult): McpContent {
  const lines: string[] = [];
  const images: McpContent['content'] = [];
  for (const p of r.parts) {
    if (p.kind === 'text') {
      lines.push(p.text);
    } else if (p.mime.startsWith('image/')) {
      images.push({ type: 'image', data: Buffer.from(p.data).toString('base64'), mimeType: p.mime });
    } else {
      lines.push(`[data: ${p.mime}, ${p.data.byteLength} bytes]`);
    }
  }
  const content: McpContent['content'] = lines.length ? [{ type: 'text', text: lines.join('\n') }, ...images] : images;
  return r.isError ? { content, isError: true } : { content };
}

/** What a manifest entry of `contributes.languageModelTools` holds that MCP lists. */
export interface ManifestTool {
  name: string;
  displayName?: string;
  modelDescription?: string;
  inputSchema?: object;
}

/**
 * The tools to list, from the manifest's entries (the one place their descriptions and
 * schemas live): only names of the tool table, in the table's order, each once.
 */
export function toolsFromManifest(entries: readonly ManifestTool[], names: readonly string[], mutating: (name: string) => boolean): { name: string; title: string; description: string; inputSchema: Record<string, unknown>; mutates: boolean }[] {
  return names.flatMap((name) => {
    const e = entries.find((x) => x.name === name);
    if (!e || typeof e.modelDescription !== 'string' || !e.inputSchema || typeof e.inputSchema !== 'object') {
      return [];
    }
    return [{ name, title: e.displayName ?? name, description: e.modelDescription, inputSchema: e.inputSchema as Record<string, unknown>, mutates: mutating(name) }];
  });
}
