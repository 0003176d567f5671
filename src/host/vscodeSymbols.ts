import * as vscode from 'vscode';
import type { CancelSignal } from '../core/cancel';
import { MAX_OUTLINE_DEPTH, MAX_OUTLINE_NAME_CHARS } from '../core/limits';
import type { OutlineSymbol } from '../core/outline/symbols';

/** The words an outline uses for the editor's symbol kinds. */
const KIND_WORDS: Partial<Record<vscode.SymbolKind, string>> = {
  [vscode.SymbolKind.File]: 'file',
  [vscode.SymbolKind.Module]: 'module',
  [vscode.SymbolKind.Namespace]: 'namespace',
  [vscode.SymbolKind.Package]: 'package',
  [vscode.SymbolKind.Class]: 'class',
  [vscode.SymbolKind.Method]: 'method',
  [vscode.SymbolKind.Property]: 'property',
  [vscode.SymbolKind.Field]: 'field',
  [vscode.SymbolKind.Constructor]: 'constructor',
  [vscode.SymbolKind.Enum]: 'enum',
  [vscode.SymbolKind.Interface]: 'interface',
  [vscode.SymbolKind.Function]: 'function',
  [vscode.SymbolKind.Variable]: 'variable',
  [vscode.SymbolKind.Constant]: 'constant',
  [vscode.SymbolKind.String]: 'string',
  [vscode.SymbolKind.Number]: 'number',
  [vscode.SymbolKind.Boolean]: 'boolean',
  [vscode.SymbolKind.Array]: 'array',
  [vscode.SymbolKind.Object]: 'object',
  [vscode.SymbolKind.Key]: 'key',
  [vscode.SymbolKind.Null]: 'null',
  [vscode.SymbolKind.Struct]: 'struct',
  [vscode.SymbolKind.Event]: 'event',
  [vscode.SymbolKind.Operator]: 'operator',
};

/** Kinds whose nested variables are locals: a function's workings, not the file's outline. */
const CALLABLE = new Set([vscode.SymbolKind.Function, vscode.SymbolKind.Method, vscode.SymbolKind.Constructor]);
const LOCAL = new Set([vscode.SymbolKind.Variable, vscode.SymbolKind.Constant, vscode.SymbolKind.Property, vscode.SymbolKind.Field]);

function cut(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > MAX_OUTLINE_NAME_CHARS ? `${one.slice(0, MAX_OUTLINE_NAME_CHARS - 1)}…` : one;
}

/** 1-based lines of an editor range: a range ending at the start of a line ends on the line before. */
function linesOf(r: vscode.Range): { first: number; last: number } {
  const last = r.end.character === 0 && r.end.line > r.start.line ? r.end.line : r.end.line + 1;
  return { first: r.start.line + 1, last };
}

function fromDocumentSymbols(list: readonly vscode.DocumentSymbol[], depth: number, inCallable: boolean): OutlineSymbol[] {
  const out: OutlineSymbol[] = [];
  for (const s of list) {
    // enum members, type parameters and a function's locals are noise in an outline
    if (s.kind === vscode.SymbolKind.EnumMember || s.kind === vscode.SymbolKind.TypeParameter || (inCallable && LOCAL.has(s.kind)) || !s.name) {
      continue;
    }
    out.push({
      kind: KIND_WORDS[s.kind] ?? 'symbol',
      name: cut(s.name),
      ...linesOf(s.range),
      children: depth + 1 < MAX_OUTLINE_DEPTH ? fromDocumentSymbols(s.children ?? [], depth + 1, inCallable || CALLABLE.has(s.kind)) : [],
    });
  }
  return out;
}

/** Flat symbol information (older providers), nested by which range holds which. */
function fromSymbolInformation(list: readonly vscode.SymbolInformation[]): OutlineSymbol[] {
  const flat = list
    .filter((s) => s.name && s.kind !== vscode.SymbolKind.EnumMember && s.kind !== vscode.SymbolKind.TypeParameter)
    .map((s) => ({ kind: KIND_WORDS[s.kind] ?? 'symbol', name: cut(s.name), ...linesOf(s.location.range), children: [] as OutlineSymbol[] }))
    .sort((a, b) => a.first - b.first || b.last - a.last);
  const roots: OutlineSymbol[] = [];
  const open: OutlineSymbol[] = [];
  for (const s of flat) {
    while (open.length > 0 && open[open.length - 1].last < s.last) {
      open.pop();
    }
    (open.length > 0 && open.length < MAX_OUTLINE_DEPTH ? open[open.length - 1].children : roots).push(s);
    open.push(s);
  }
  return roots;
}

/** The symbols VS Code's providers give for a document (opening it, unshown, when no editor has it). */
export async function documentSymbolsOf(uri: vscode.Uri, signal: CancelSignal): Promise<OutlineSymbol[] | undefined> {
  const found = await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>('vscode.executeDocumentSymbolProvider', uri);
  if (!found || found.length === 0 || signal.isCancellationRequested) {
    return undefined;
  }
  return 'children' in found[0] ? fromDocumentSymbols(found as vscode.DocumentSymbol[], 0, false) : fromSymbolInformation(found as vscode.SymbolInformation[]);
}
