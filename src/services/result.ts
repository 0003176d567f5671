/** What a tool returns, free of `vscode`: adapters turn it into an LM result or CLI output. */
export type ResultPart = { kind: 'text'; text: string } | { kind: 'data'; mime: string; data: Uint8Array };

export interface ToolResult {
  parts: ResultPart[];
  isError: boolean;
  /** Nothing was done because the person must approve first and could not be asked (the CLI without --yes). */
  needsApproval?: boolean;
}

export function textResult(text: string): ToolResult {
  return { parts: [{ kind: 'text', text }], isError: false };
}

export function errorResult(text: string): ToolResult {
  return { parts: [{ kind: 'text', text }], isError: true };
}

/** The text parts joined, data parts as one line each (the CLI's rendering). */
export function resultText(r: ToolResult): string {
  return r.parts.map((p) => (p.kind === 'text' ? p.text : `[data: ${p.mime}, ${p.data.byteLength} bytes]`)).join('\n');
}
