import { MAX_OUTLINE_DEPTH } from '../limits';
import { outlineName, type OutlineSymbol } from './symbols';

/**
 * The outline of a syntax tree (tree-sitter's, parsed in the host): which nodes are the
 * symbols a model navigates by, per language. Only the shape of a node is used here, so
 * the core stays free of the parser.
 */
export interface SyntaxNode {
  readonly type: string;
  readonly startPosition: { row: number; column: number };
  readonly endPosition: { row: number; column: number };
  readonly namedChildren: readonly (SyntaxNode | null)[];
  readonly lastChild: SyntaxNode | null;
  readonly previousSibling: SyntaxNode | null;
  readonly text: string;
  readonly hasError: boolean;
  readonly isError: boolean;
  readonly isMissing: boolean;
  childForFieldName(name: string): SyntaxNode | null;
}

/** The grammars an outline can come from: the ones VS Code ships (C is read with the C++ grammar). */
export type SyntaxLanguage = 'typescript' | 'tsx' | 'javascript' | 'python' | 'go' | 'rust' | 'java' | 'c-sharp' | 'cpp';

const BY_EXTENSION: Readonly<Record<string, SyntaxLanguage>> = {
  ts: 'typescript', mts: 'typescript', cts: 'typescript', tsx: 'tsx',
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'javascript',
  py: 'python', pyi: 'python', go: 'go', rs: 'rust', java: 'java', cs: 'c-sharp',
  c: 'cpp', h: 'cpp', cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hpp: 'cpp', hh: 'cpp', hxx: 'cpp',
};

export function syntaxLanguageOf(extension: string): SyntaxLanguage | undefined {
  return BY_EXTENSION[extension.toLowerCase()];
}

/** What a node is in the outline: a symbol (with where its members are), a wrapper to look through, or nothing. */
type Role =
  | { symbol: { kind: string; name: string; params?: string }; members?: readonly (SyntaxNode | null)[] }
  | { through: readonly (SyntaxNode | null)[] }
  | undefined;


function field(n: SyntaxNode, name: string): string | undefined {
  const f = n.childForFieldName(name);
  return f ? outlineName(f.text) : undefined;
}

function membersOf(n: SyntaxNode, name = 'body'): readonly (SyntaxNode | null)[] {
  return n.childForFieldName(name)?.namedChildren ?? [];
}

function named(kind: string, n: SyntaxNode, opts: { params?: boolean; members?: readonly (SyntaxNode | null)[] } = {}): Role {
  const name = field(n, 'name');
  if (!name) {
    return undefined;
  }
  return { symbol: { kind, name, params: opts.params ? field(n, 'parameters') : undefined }, members: opts.members };
}

/** A body's nested named functions and classes are symbols too (a compiler's closures); its other statements are not. */
function bodyOf(n: SyntaxNode): readonly (SyntaxNode | null)[] {
  return membersOf(n);
}

function ecmaRole(n: SyntaxNode, inClass: boolean, top: boolean): Role {
  switch (n.type) {
    case 'export_statement': {
      const d = n.childForFieldName('declaration');
      return d ? { through: [d] } : undefined;
    }
    case 'ambient_declaration':
      // `declare namespace ts { ... }`, `declare function f(): void;`: what is declared
      return { through: n.namedChildren };
    case 'expression_statement':
      // a namespace not exported parses as a statement
      return n.namedChildren.length === 1 && n.namedChildren[0]?.type === 'internal_module' ? { through: n.namedChildren } : undefined;
    case 'class_declaration':
    case 'abstract_class_declaration':
      return named('class', n, { members: membersOf(n) });
    case 'interface_declaration':
      return named('interface', n, { members: membersOf(n) });
    case 'enum_declaration':
      return named('enum', n);
    case 'type_alias_declaration':
      return named('type', n);
    case 'internal_module':
    case 'module':
      return named('namespace', n, { members: membersOf(n) });
    case 'function_declaration':
    case 'generator_function_declaration':
    case 'function_signature':
      return named('function', n, { params: true, members: bodyOf(n) });
    case 'method_definition':
    case 'method_signature':
    case 'abstract_method_signature':
      return named(field(n, 'name') === 'constructor' ? 'constructor' : 'method', n, { params: true, members: bodyOf(n) });
    // as the grammar names them: a class's field, an interface's property
    case 'public_field_definition':
    case 'field_definition':
      return inClass ? named('field', n) : undefined;
    case 'property_signature':
      return inClass ? named('property', n) : undefined;
    case 'lexical_declaration':
    case 'variable_declaration': {
      if (!top) {
        return undefined;
      }
      return { through: n.namedChildren };
    }
    case 'variable_declarator': {
      const name = field(n, 'name');
      const value = n.childForFieldName('value');
      if (!name || !top) {
        return undefined;
      }
      if (value && (value.type === 'arrow_function' || value.type === 'function_expression' || value.type === 'function')) {
        return { symbol: { kind: 'function', name, params: field(value, 'parameters') ?? field(value, 'parameter') }, members: membersOf(value) };
      }
      if (value && value.type === 'class') {
        return { symbol: { kind: 'class', name }, members: membersOf(value) };
      }
      // an object of functions (a tool's spec, a handler table): its functions are its members
      return { symbol: { kind: 'constant', name }, members: value?.type === 'object' ? value.namedChildren : undefined };
    }
    case 'pair': {
      const value = n.childForFieldName('value');
      const name = field(n, 'key');
      if (!name || !value || (value.type !== 'arrow_function' && value.type !== 'function_expression' && value.type !== 'function')) {
        return undefined;
      }
      return { symbol: { kind: 'method', name, params: field(value, 'parameters') ?? field(value, 'parameter') }, members: membersOf(value) };
    }
    default:
      return undefined;
  }
}

function pythonRole(n: SyntaxNode, inClass: boolean, top: boolean): Role {
  switch (n.type) {
    case 'decorated_definition': {
      const d = n.childForFieldName('definition');
      const r = d ? pythonRole(d, inClass, top) : undefined;
      return r && 'symbol' in r ? r : undefined;
    }
    case 'class_definition':
      return named('class', n, { members: membersOf(n) });
    case 'function_definition':
      return named(inClass ? 'method' : 'function', n, { params: true, members: membersOf(n) });
    case 'expression_statement':
      return top || inClass ? { through: n.namedChildren } : undefined;
    case 'assignment': {
      const left = n.childForFieldName('left');
      if (!left || left.type !== 'identifier') {
        return undefined;
      }
      // in a class body, an attribute (`prompt: str | None = None`): a field, not a property (those are `@property` methods)
      return { symbol: { kind: inClass ? 'field' : /^[A-Z0-9_]+$/.test(left.text) ? 'constant' : 'variable', name: outlineName(left.text) } };
    }
    default:
      return undefined;
  }
}

/** `*Parser[T]` → `Parser`: the type a Go method belongs to. */
function receiverType(n: SyntaxNode): string | undefined {
  const p = n.childForFieldName('receiver')?.namedChildren.find((c) => c?.type === 'parameter_declaration');
  const t = p?.childForFieldName('type');
  return t ? outlineName(t.text.replace(/^\*/, '').replace(/\[.*$/, '')) : undefined;
}

function goRole(n: SyntaxNode, _inClass: boolean, top: boolean): Role {
  switch (n.type) {
    case 'function_declaration':
      return named('function', n, { params: true, members: bodyOf(n) });
    case 'method_declaration': {
      const name = field(n, 'name');
      const recv = receiverType(n);
      return name ? { symbol: { kind: 'method', name: recv ? `${recv}.${name}` : name, params: field(n, 'parameters') } } : undefined;
    }
    case 'method_elem':
    case 'method_spec':
      return named('method', n, { params: true });
    case 'type_declaration':
      return { through: n.namedChildren };
    case 'type_spec': {
      const t = n.childForFieldName('type');
      const kind = t?.type === 'struct_type' ? 'struct' : t?.type === 'interface_type' ? 'interface' : 'type';
      return named(kind, n, { members: t?.type === 'interface_type' ? t.namedChildren : [] });
    }
    case 'const_declaration':
    case 'var_declaration':
      return top ? { through: n.namedChildren } : undefined;
    case 'const_spec':
    case 'var_spec':
      return named(n.type === 'const_spec' ? 'constant' : 'variable', n);
    default:
      return undefined;
  }
}

function rustRole(n: SyntaxNode, inClass: boolean): Role {
  switch (n.type) {
    case 'function_item':
    case 'function_signature_item':
      return named(inClass ? 'method' : 'function', n, { params: true, members: bodyOf(n) });
    case 'struct_item':
      return named('struct', n);
    case 'enum_item':
      return named('enum', n);
    case 'union_item':
      return named('union', n);
    case 'trait_item':
      return named('trait', n, { members: membersOf(n) });
    case 'mod_item':
      return named('module', n, { members: membersOf(n) });
    case 'const_item':
    case 'static_item':
      return named('constant', n);
    case 'type_item':
      return named('type', n);
    case 'macro_definition':
      return named('macro', n);
    case 'impl_item': {
      const type = n.childForFieldName('type');
      const trait = field(n, 'trait');
      const name = type ? outlineName((type.childForFieldName('type') ?? type).text) : undefined;
      return name ? { symbol: { kind: trait ? `impl ${trait} for` : 'impl', name }, members: membersOf(n) } : undefined;
    }
    default:
      return undefined;
  }
}

const JAVA_TYPES: Readonly<Record<string, string>> = {
  class_declaration: 'class', interface_declaration: 'interface', enum_declaration: 'enum', record_declaration: 'record', annotation_type_declaration: 'annotation',
};

function javaRole(n: SyntaxNode, inClass: boolean): Role {
  if (JAVA_TYPES[n.type]) {
    return named(JAVA_TYPES[n.type], n, { members: membersOf(n) });
  }
  switch (n.type) {
    case 'method_declaration':
      return named('method', n, { params: true });
    case 'constructor_declaration':
      return named('constructor', n, { params: true });
    case 'enum_body_declarations':
      return { through: n.namedChildren };
    case 'field_declaration':
      // `int a = 1, b = 2;`: a field per name, each spanning the declaration they share
      return inClass ? { through: n.namedChildren.filter((c) => c?.type === 'variable_declarator') } : undefined;
    case 'variable_declarator':
      return inClass ? named('field', n) : undefined;
    default:
      return undefined;
  }
}

const CSHARP_TYPES: Readonly<Record<string, string>> = {
  class_declaration: 'class', interface_declaration: 'interface', enum_declaration: 'enum', struct_declaration: 'struct', record_declaration: 'record',
};

function csharpRole(n: SyntaxNode): Role {
  if (CSHARP_TYPES[n.type]) {
    return named(CSHARP_TYPES[n.type], n, { members: membersOf(n) });
  }
  switch (n.type) {
    case 'namespace_declaration':
      return named('namespace', n, { members: membersOf(n) });
    case 'file_scoped_namespace_declaration':
      return named('namespace', n, { members: n.namedChildren });
    case 'declaration_list':
      return { through: n.namedChildren };
    case 'method_declaration':
      return named('method', n, { params: true });
    case 'constructor_declaration':
      return named('constructor', n, { params: true });
    case 'property_declaration':
      return named('property', n);
    case 'delegate_declaration':
      return named('delegate', n, { params: true });
    default:
      return undefined;
  }
}

/** The name a C/C++ declarator declares, through pointers and references (`*k`, `&f`, `A::f`). */
function declaratorName(d: SyntaxNode | null): { name: string; params?: string } | undefined {
  for (let cur = d; cur; ) {
    if (cur.type === 'function_declarator') {
      const inner = cur.childForFieldName('declarator');
      return inner ? { name: outlineName(inner.text), params: field(cur, 'parameters') } : undefined;
    }
    const next = cur.childForFieldName('declarator');
    if (!next) {
      return undefined;
    }
    cur = next;
  }
  return undefined;
}

const CPP_TYPES: Readonly<Record<string, string>> = { class_specifier: 'class', struct_specifier: 'struct', union_specifier: 'union', enum_specifier: 'enum' };

function cppRole(n: SyntaxNode, inClass: boolean): Role {
  if (CPP_TYPES[n.type]) {
    return n.childForFieldName('body') ? named(CPP_TYPES[n.type], n, { members: membersOf(n) }) : undefined;
  }
  switch (n.type) {
    case 'function_definition': {
      const d = declaratorName(n.childForFieldName('declarator'));
      return d ? { symbol: { kind: inClass || d.name.includes('::') ? 'method' : 'function', ...d } } : undefined;
    }
    case 'declaration':
    case 'field_declaration': {
      const d = declaratorName(n.childForFieldName('declarator'));
      if (d) {
        return { symbol: { kind: 'declaration', ...d } };
      }
      const t = n.childForFieldName('type');
      return t && CPP_TYPES[t.type] ? { through: [t] } : undefined;
    }
    case 'type_definition': {
      const t = n.childForFieldName('type');
      return t && CPP_TYPES[t.type] ? { through: [t] } : undefined;
    }
    case 'namespace_definition':
      return named('namespace', n, { members: membersOf(n) });
    case 'template_declaration':
    case 'preproc_ifdef':
    case 'preproc_if':
    case 'preproc_else':
    case 'preproc_elif':
      return { through: n.namedChildren };
    case 'linkage_specification':
      return { through: membersOf(n) };
    case 'declaration_list':
      return { through: n.namedChildren };
    case 'preproc_def':
    case 'preproc_function_def':
      return named('macro', n);
    default:
      return undefined;
  }
}

type RoleOf = (n: SyntaxNode, inClass: boolean, top: boolean) => Role;

const ROLES: Readonly<Record<SyntaxLanguage, RoleOf>> = {
  typescript: ecmaRole, tsx: ecmaRole, javascript: ecmaRole, python: pythonRole, go: goRole, rust: rustRole, java: javaRole, 'c-sharp': csharpRole, cpp: cppRole,
};

/** Kinds whose members are a class's: functions directly inside them are methods. */
const CONTAINERS = new Set(['class', 'interface', 'struct', 'trait', 'impl', 'record', 'enum', 'union']);

/** Declarations without a body, that an implementation of the same name may follow (TypeScript overloads). */
const SIGNATURES = new Set(['function_signature', 'method_signature', 'abstract_method_signature']);

/**
 * Where a declaration's own text ends: a comment after it on its line (`f() {} // note`)
 * is in its node for the parser, but it is not the declaration's to replace.
 */
function endOf(n: SyntaxNode): { row: number; column: number } {
  // down the last child that is not a comment, to the token that ends the declaration (the
  // comment may sit inside its last block); node by node, as a list of children costs memory for each
  for (let cur = n; ; ) {
    let next = cur.lastChild;
    while (next && COMMENTS.has(next.type)) {
      next = next.previousSibling;
    }
    if (!next) {
      return cur.endPosition;
    }
    cur = next;
  }
}

const COMMENTS = new Set(['comment', 'line_comment', 'block_comment']);

function isBroken(n: SyntaxNode | null | undefined): boolean {
  return !!n && (n.isError || n.isMissing);
}

/**
 * The symbols of a syntax tree, nested as the code nests them. A symbol whose node holds a
 * parse error, or stands next to one, is marked uncertain: its range may not be what the
 * author meant.
 */
export function outlineFromSyntax(root: SyntaxNode, language: SyntaxLanguage): OutlineSymbol[] {
  const roleOf = ROLES[language];
  const signatures = new Set<OutlineSymbol>();
  const walk = (nodes: readonly (SyntaxNode | null)[], depth: number, inClass: boolean, top: boolean, outer?: SyntaxNode, brokenNear = false): OutlineSymbol[] => {
    const out: OutlineSymbol[] = [];
    nodes.forEach((n, i) => {
      if (!n) {
        return;
      }
      const role = roleOf(n, inClass, top);
      if (!role) {
        return;
      }
      const near = brokenNear || isBroken(nodes[i - 1]) || isBroken(nodes[i + 1]);
      if ('through' in role) {
        // a wrapper (`export`, a declaration list, a template) spans its symbol; its lines are the symbol's, and so are its neighbours
        out.push(...walk(role.through, depth, inClass, top, outer ?? n, near && role.through.length === 1));
        return;
      }
      const span = outer ?? n;
      const end = endOf(span);
      // a node that ends at the start of a line ends with the line before it
      const endsAtLineStart = end.column === 0 && end.row > span.startPosition.row;
      const symbol: OutlineSymbol = {
        kind: role.symbol.kind,
        name: role.symbol.name,
        params: role.symbol.params,
        first: span.startPosition.row + 1,
        last: end.row + (endsAtLineStart ? 0 : 1),
        startColumn: span.startPosition.column,
        ...(endsAtLineStart ? {} : { endColumn: end.column }),
        children: [],
      };
      if (SIGNATURES.has(n.type)) {
        signatures.add(symbol);
      }
      if (span.hasError || near) {
        symbol.uncertain = true;
      }
      if (role.members && depth + 1 < MAX_OUTLINE_DEPTH) {
        // a namespace's members are declared as a module's are: its constants count
        symbol.children = walk(role.members, depth + 1, CONTAINERS.has(symbol.kind.split(' ')[0]), symbol.kind === 'namespace' || symbol.kind === 'module');
      }
      out.push(symbol);
    });
    return out;
  };
  const symbols = walk(root.namedChildren, 0, false, true);
  return mergeOverloads(symbols, signatures);
}

/**
 * TypeScript's overload signatures and the implementation after them are one function to
 * read or replace: a run of signatures of one name, each on the line after the last (no
 * other code between), and the symbol of that name that follows, become one symbol.
 */
function mergeOverloads(symbols: OutlineSymbol[], signatures: ReadonlySet<OutlineSymbol>): OutlineSymbol[] {
  const out: OutlineSymbol[] = [];
  let run: OutlineSymbol | undefined;
  for (const s of symbols) {
    s.children = mergeOverloads(s.children, signatures);
    const prev = out[out.length - 1];
    if (run && prev === run && prev.name === s.name && prev.kind === s.kind && s.first - prev.last <= 1) {
      const merged = { ...s, first: prev.first, startColumn: prev.startColumn, uncertain: prev.uncertain || s.uncertain || undefined };
      out[out.length - 1] = merged;
      run = signatures.has(s) ? merged : undefined;
      continue;
    }
    out.push(s);
    run = signatures.has(s) ? s : undefined;
  }
  return out;
}

/** The lines (1-based, inclusive) of each place the parser could not make sense of: its ERROR and MISSING nodes. */
export function errorRanges(root: SyntaxNode): { first: number; last: number }[] {
  const out: { first: number; last: number }[] = [];
  const visit = (n: SyntaxNode) => {
    if (n.isError || n.isMissing) {
      out.push({ first: n.startPosition.row + 1, last: n.endPosition.row + 1 });
      return;
    }
    for (const c of n.namedChildren) {
      if (c && (c.hasError || c.isMissing)) {
        visit(c);
      }
    }
  };
  if (root.hasError) {
    visit(root);
  }
  return out;
}
