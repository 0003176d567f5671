import * as z from 'zod';
import { MAX_CURSOR_INPUT_CHARS, MAX_EDIT_TEXT_CHARS, MAX_EDITS_PER_CALL, MAX_GLOB_INPUT_CHARS, MAX_GREP_CONTEXT_LINES, MAX_IGNORE_INPUT_GLOBS, MAX_LIST_DEPTH_LEVELS, MAX_PATCH_CHARS, MAX_PATH_INPUT_CHARS, MAX_PATTERN_INPUT_CHARS, MAX_SYMBOL_QUERY_CHARS, MAX_VERSION_INPUT_CHARS } from '../core/limits';
import { snakeCase } from '../services/aliases';
import { boolField, changedFilePathField, contentField, intField, textField } from '../services/fields';
import { columnInSlice, editShapeProblems, indentationInOutline, indentationOutsideItsMode, symbolWhole } from './inputRules';

/**
 * The tools' input schemas, the one judge of a call's input and the source of its error
 * messages. They are apart from the tools so that a call need not build them (nor load
 * zod) when its tool's quick check (src/tools/quick.ts) takes the input: each spec reaches
 * them on first use (src/tools/lazySchemas.ts), and the CLI's build puts them and zod in
 * a bundle of their own (dist/cli-schemas.js).
 */

const indentationSchema = z.strictObject({
  anchor_line: intField(1).optional(),
  max_levels: intField(0).optional(),
  include_siblings: boolField().optional(),
  include_header: boolField().optional(),
  max_lines: intField(1).optional(),
});

export const readSchema = z
  .strictObject({
    path: textField(MAX_PATH_INPUT_CHARS, 'a file path'),
    offset: intField(1).optional(),
    limit: intField(1).optional(),
    column: intField(1).optional(),
    mode: z.enum(['slice', 'indentation', 'outline'], { error: 'expected "slice", "indentation" or "outline"' }).optional(),
    indentation: indentationSchema.optional(),
    symbol: textField(MAX_SYMBOL_QUERY_CHARS, 'a symbol name such as Parser.parse').optional(),
  })
  .refine((v) => !indentationOutsideItsMode(v), {
    error: 'indentation options apply only with mode "indentation"',
    path: ['indentation'],
  })
  .refine(columnInSlice, {
    error: 'column reads one line in pieces and applies only in mode "slice"',
    path: ['column'],
  })
  .refine((v) => !indentationInOutline(v), {
    error: 'indentation options apply only with mode "indentation"',
    path: ['indentation'],
  })
  .refine(symbolWhole, {
    error: 'symbol reads the whole symbol: give it without mode, offset or limit (or with mode "outline" for the symbols inside it)',
    path: ['symbol'],
  });

export const listSchema = z.strictObject({
  path: textField(MAX_PATH_INPUT_CHARS, 'a folder path').optional(),
  depth: intField(1).pipe(z.number().max(MAX_LIST_DEPTH_LEVELS, { error: `must be ${MAX_LIST_DEPTH_LEVELS} or less` })).optional(),
  offset: intField(1).optional(),
  cursor: textField(MAX_CURSOR_INPUT_CHARS, 'the cursor text a previous fs_list page gave').optional(),
  limit: intField(1).optional(),
  include_hidden: boolField().optional(),
  respect_ignore: boolField().optional(),
  ignore: z
    .array(
      textField(MAX_GLOB_INPUT_CHARS, 'a glob').refine((g) => !g.startsWith('!'), { error: 'negations ("!glob") are not supported; use respect_ignore=false to see ignored entries' }),
      { error: 'expected a list of globs' },
    )
    .max(MAX_IGNORE_INPUT_GLOBS, { error: (issue) => `holds ${String((issue.input as unknown[]).length)} globs; at most ${MAX_IGNORE_INPUT_GLOBS} are accepted` })
    .optional(),
  source: z.enum(['filesystem', 'git'], { error: 'expected "filesystem" or "git"' }).optional(),
});

export const globSchema = z.strictObject({
  pattern: textField(MAX_GLOB_INPUT_CHARS, 'a glob, e.g. "**/*.ts"'),
  path: textField(MAX_PATH_INPUT_CHARS, 'a folder path').optional(),
  limit: intField(1).optional(),
  offset: intField(1).optional(),
  cursor: textField(MAX_CURSOR_INPUT_CHARS, 'the cursor text a previous fs_glob page gave').optional(),
  sort: z.enum(['path', 'mtime'], { error: 'expected "path" or "mtime"' }).optional(),
  respect_ignore: boolField().optional(),
});

export const grepSchema = z.strictObject({
  pattern: textField(MAX_PATTERN_INPUT_CHARS, 'a regular expression'),
  path: textField(MAX_PATH_INPUT_CHARS, 'a folder or file path').optional(),
  include: textField(MAX_GLOB_INPUT_CHARS, 'a glob, e.g. "*.ts"').optional(),
  fixed_strings: boolField().optional(),
  case_sensitive: boolField().optional(),
  context: intField(0).pipe(z.number().max(MAX_GREP_CONTEXT_LINES, { error: `must be ${MAX_GREP_CONTEXT_LINES} or less` })).optional(),
  output: z.enum(['content', 'files', 'count'], { error: 'expected "content", "files" or "count"' }).optional(),
  offset: intField(1).optional(),
  cursor: textField(MAX_CURSOR_INPUT_CHARS, 'the cursor text a previous fs_grep page gave').optional(),
  limit: intField(1).optional(),
  multiline: boolField().optional(),
  respect_ignore: boolField().optional(),
});

const oldField = contentField(MAX_EDIT_TEXT_CHARS, 'the exact text to replace');
const newField = contentField(MAX_EDIT_TEXT_CHARS, 'the replacement text');

/** The names models give the fields of one edit in a list (Claude Code, OpenCode, Copilot, Aider), in snake_case; their camelCase forms are taken too. */
const ITEM_ALIASES: Readonly<Record<string, string>> = {
  old_str: 'old_string',
  old_text: 'old_string',
  search: 'old_string',
  new_str: 'new_string',
  new_text: 'new_string',
  replace: 'new_string',
};

const ITEM_FIELDS = ['old_string', 'new_string', 'replace_all'];

const editItem = z.preprocess(
  (v, ctx) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) {
      return v;
    }
    const out: Record<string, unknown> = {};
    const from: Record<string, string> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const snake = snakeCase(k);
      const name = ITEM_ALIASES[snake] ?? (ITEM_FIELDS.includes(snake) ? snake : k);
      if (name === 'explanation') {
        continue;
      }
      if (name in out && JSON.stringify(out[name]) !== JSON.stringify(x)) {
        // which of the two the model meant cannot be known
        ctx.addIssue({ code: 'custom', path: [k], message: `gives \`${name}\` a second, different value (\`${from[name]}\` gave one): give only \`${name}\`` });
        continue;
      }
      out[name] = x;
      from[name] = k;
    }
    return out;
  },
  z.strictObject({
    old_string: oldField,
    new_string: newField,
    replace_all: boolField().optional(),
  }),
);

export const editSchema = z
  .strictObject({
    path: changedFilePathField(MAX_PATH_INPUT_CHARS),
    symbol: textField(MAX_SYMBOL_QUERY_CHARS, 'a symbol name such as Parser.parse').optional(),
    cell: intField(1).optional(),
    insert_cell: z.enum(['code', 'markdown', 'raw'], { error: 'expected "code", "markdown" or "raw": the kind of cell to insert' }).optional(),
    delete_cell: boolField().optional(),
    old_string: oldField.optional(),
    new_string: newField.optional(),
    replace_all: boolField().optional(),
    edits: z
      .array(editItem, { error: 'expected a list of {old_string, new_string} edits' })
      .min(1, { error: 'must hold at least one edit' })
      .max(MAX_EDITS_PER_CALL, { error: `holds more than ${MAX_EDITS_PER_CALL} edits; split them into several calls` })
      .optional(),
  })
  .superRefine((v, ctx) => {
    for (const p of editShapeProblems(v)) {
      ctx.addIssue({ code: 'custom', path: [p.path], message: p.message });
    }
  });

export const writeSchema = z.strictObject({
  path: changedFilePathField(MAX_PATH_INPUT_CHARS),
  content: contentField(MAX_EDIT_TEXT_CHARS, 'the whole new content of the file'),
  version: textField(MAX_VERSION_INPUT_CHARS, 'a version from fs_read').optional(),
});

export const applyPatchSchema = z.strictObject({
  patch: textField(MAX_PATCH_CHARS, 'the patch text, from "*** Begin Patch" to "*** End Patch"'),
});
