import * as vscode from 'vscode';
import type { CancelSignal } from '../core/cancel';
import { MAX_OUTLINE_DEPTH } from '../core/limits';
import { outlineName, type OutlineSymbol } from '../core/outline/symbols';
import { paced } from '../core/pace';

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


/** 1-based lines and the columns of an editor range: a range ending at the start of a line ends on the line before, at its end. */
function linesOf(r: vscode.Range): Pick<OutlineSymbol, 'first' | 'last' | 'startColumn' | 'endColumn'> {
  const atLineStart = r.end.character === 0 && r.end.line > r.start.line;
  return { first: r.start.line + 1, last: atLineStart ? r.end.line : r.end.line + 1, startColumn: r.start.character, ...(atLineStart ? {} : { endColumn: r.end.character }) };
}

/** The editor's symbols as an outline's, yielding every few hundred (driven by `paced`: a server's answer can hold 100,000). */
function* fromDocumentSymbols(list: readonly vscode.DocumentSymbol[], depth: number, inCallable: boolean, count = { n: 0 }): Generator<void, OutlineSymbol[]> {
  const out: OutlineSymbol[] = [];
  for (const s of list) {
    // enum members, type parameters and a function's locals are noise in an outline
    if (s.kind === vscode.SymbolKind.EnumMember || s.kind === vscode.SymbolKind.TypeParameter || (inCallable && LOCAL.has(s.kind)) || !s.name) {
      continue;
    }
    const children = depth + 1 < MAX_OUTLINE_DEPTH ? yield* fromDocumentSymbols(s.children ?? [], depth + 1, inCallable || CALLABLE.has(s.kind), count) : [];
    out.push({ kind: KIND_WORDS[s.kind] ?? 'symbol', name: outlineName(s.name), ...linesOf(s.range), children });
    if (++count.n % 512 === 0) {
      yield;
    }
  }
  return out;
}

/** Flat symbol information (older providers), nested by which range holds which. */
function fromSymbolInformation(list: readonly vscode.SymbolInformation[]): OutlineSymbol[] {
  const flat = list
    .filter((s) => s.name && s.kind !== vscode.SymbolKind.EnumMember && s.kind !== vscode.SymbolKind.TypeParameter)
    .map((s) => ({ kind: KIND_WORDS[s.kind] ?? 'symbol', name: outlineName(s.name), ...linesOf(s.location.range), children: [] as OutlineSymbol[] }))
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
  return 'children' in found[0] ? paced(fromDocumentSymbols(found as vscode.DocumentSymbol[], 0, false), signal) : fromSymbolInformation(found as vscode.SymbolInformation[]);
}
