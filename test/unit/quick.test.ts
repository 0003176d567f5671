import * as assert from 'node:assert/strict';
import * as L from '../../src/core/limits';
import { resultText } from '../../src/services/result';
import { fieldsAt, parseInput } from '../../src/services/run';
import type { ToolSpec } from '../../src/services/types';
import { TOOLS } from '../../src/tools/registry';

/**
 * Each tool's quick check against its schema: whatever the quick check takes, the schema
 * takes too, with a deep-equal value; and a call runs (or is refused, word for word) the same
 * with the quick check as with the schema alone.
 */

/** A small seeded generator, so that a failure repeats. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LIMITS = [L.MAX_PATH_INPUT_CHARS, L.MAX_SYMBOL_QUERY_CHARS, L.MAX_VERSION_INPUT_CHARS, L.MAX_PATTERN_INPUT_CHARS, L.MAX_GLOB_INPUT_CHARS, L.MAX_CURSOR_INPUT_CHARS];

/** Strings at the edges: empty, folder-like paths, surrogates whole and lone, each limit and one past it. */
const STRINGS: string[] = [
  '',
  ' ',
  'a',
  'src/app.ts',
  'a/',
  'dir/.',
  'dir/..',
  '.',
  '..',
  'a\\',
  '!*.log',
  '*.ts',
  '**/*.ts',
  'é',
  '😀',
  'x\uD83D\uDE00y',
  '\uD800',
  'a\uDC00',
  '\uDBFF\uD800',
  'line\nline',
  '\u0000',
  '10',
  ' 7 ',
  '-3',
  '1.5',
  'true',
  'false',
  'slice',
  'indentation',
  'outline',
  'files',
  'content',
  'count',
  'git',
  'filesystem',
  'path',
  'mtime',
  'code',
  'markdown',
  'raw',
  '__proto__',
  ...LIMITS.flatMap((n) => ['a'.repeat(n), 'a'.repeat(n + 1), `${'a'.repeat(n - 1)}\uD800`]),
];

const NUMBERS: number[] = [0, -0, 1, 2, 3, 5, 9, 10, 11, 100, -1, 1.5, 0.1, NaN, Infinity, -Infinity, 2 ** 31, 2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, 1e308, -1e308, Number.MIN_VALUE];

const SCALARS: unknown[] = [...STRINGS, ...NUMBERS, true, false, null, undefined];

/** Every field the schemas know, with names near them: aliases, typos, other tools' fields. */
const NAMES = [
  ...new Set([
    ...TOOLS.flatMap((t) => fieldsAt(t.schema)),
    'anchor_line',
    'max_levels',
    'include_siblings',
    'include_header',
    'max_lines',
    'file_path',
    'filePath',
    'oldString',
    'old_str',
    'search',
    'replace',
    'explanation',
    'start_line',
    'end_line',
    'view_range',
    'recursive',
    'glob',
    'type',
    'output_mode',
    '-A',
    'replacements',
    'expected_replacements',
    'foo',
    'constructor',
    'toString',
    '__proto__',
  ]),
];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

/** A value of any kind, nesting up to `depth` more levels. */
function anyValue(r: () => number, depth: number): unknown {
  const k = r();
  if (depth <= 0 || k < 0.7) {
    return pick(r, SCALARS);
  }
  if (k < 0.85) {
    return Array.from({ length: Math.floor(r() * 4) }, () => anyValue(r, depth - 1));
  }
  return anyObject(r, depth - 1, 0.5);
}

/** An object of known and unknown fields; `fit` is how often a value is one that fits some field. */
function anyObject(r: () => number, depth: number, fit: number): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  const n = Math.floor(r() * 5);
  for (let i = 0; i < n; i++) {
    const name = pick(r, NAMES);
    const v = r() < fit ? fitting(r, name, depth) : anyValue(r, depth);
    if (name === '__proto__') {
      Object.defineProperty(o, name, { value: v, enumerable: true, configurable: true, writable: true });
    } else {
      o[name] = v;
    }
  }
  return o;
}

const EDIT_ITEM_NAMES = ['old_string', 'new_string', 'replace_all'];
/** The words of every enum field, and near misses. */
const ENUM_WORDS = ['slice', 'indentation', 'outline', 'content', 'files', 'count', 'path', 'mtime', 'filesystem', 'git', 'code', 'markdown', 'raw', 'Slice', 'x', 'files_with_matches', ''];
const INDENTATION_NAMES = ['anchor_line', 'max_levels', 'include_siblings', 'include_header', 'max_lines'];

/** A value likely to fit `name`, by its kind: a path, a count, a flag, a list... */
function fitting(r: () => number, name: string, depth: number): unknown {
  if (name === 'edits') {
    const n = r() < 0.1 ? pick(r, [0, L.MAX_EDITS_PER_CALL, L.MAX_EDITS_PER_CALL + 1]) : 1 + Math.floor(r() * 3);
    return Array.from({ length: n }, () => {
      if (r() < 0.2) {
        return anyValue(r, depth);
      }
      const item: Record<string, unknown> = { old_string: pick(r, STRINGS.slice(0, 25)), new_string: pick(r, STRINGS.slice(0, 25)) };
      if (r() < 0.3) {
        item.replace_all = pick(r, [true, false, 'true', 1]);
      }
      if (r() < 0.2) {
        item[pick(r, [...EDIT_ITEM_NAMES, 'oldString', 'old_str', 'explanation', 'path', 'foo'])] = pick(r, SCALARS);
      }
      if (r() < 0.1) {
        delete item[pick(r, EDIT_ITEM_NAMES)];
      }
      return item;
    });
  }
  if (name === 'ignore') {
    const n = r() < 0.1 ? pick(r, [L.MAX_IGNORE_INPUT_GLOBS, L.MAX_IGNORE_INPUT_GLOBS + 1]) : Math.floor(r() * 3);
    return Array.from({ length: n }, () => (r() < 0.9 ? pick(r, ['*.log', 'dist/**', '!keep', '', 'a'.repeat(L.MAX_GLOB_INPUT_CHARS + 1)]) : anyValue(r, depth)));
  }
  if (name === 'indentation') {
    if (r() < 0.2) {
      return anyValue(r, depth);
    }
    const o: Record<string, unknown> = {};
    for (let i = Math.floor(r() * 4); i > 0; i--) {
      const field = r() < 0.9 ? pick(r, INDENTATION_NAMES) : pick(r, NAMES);
      o[field] = fitting(r, field, depth);
    }
    return o;
  }
  if (/^(mode|output|sort|source|insert_cell)$/.test(name)) {
    return r() < 0.8 ? pick(r, ENUM_WORDS) : pick(r, STRINGS);
  }
  if (/^(offset|limit|column|depth|context|cell|anchor_line|max_levels|max_lines)$/.test(name)) {
    return r() < 0.8 ? pick(r, NUMBERS) : pick(r, ['5', ' 2 ', 'ten', '', '1.5']);
  }
  if (/^(include_hidden|respect_ignore|fixed_strings|case_sensitive|multiline|delete_cell|replace_all|include_siblings|include_header)$/.test(name)) {
    return pick(r, [true, false, true, 'true', 'false', 0, 1, null]);
  }
  return pick(r, STRINGS);
}

/** Valid calls of each tool, which the quick check must take (it is there to take them). */
const TAKEN: Record<string, Record<string, unknown>[]> = {
  fs_read: [{ path: 'a.ts' }, { path: 'a.ts', offset: 10, limit: 20 }, { limit: 20, path: 'a.ts' }, { path: 'a.ts', mode: 'indentation', indentation: { anchor_line: 3, include_siblings: true } }, { path: 'a.ts', symbol: 'A.b' }, { path: 'a.ts', column: 4, offset: 2 }],
  fs_list: [{}, { path: 'src', depth: 2, ignore: ['*.log'], include_hidden: true, source: 'git' }],
  fs_glob: [{ pattern: '**/*.ts' }, { pattern: '*.md', path: 'docs', sort: 'mtime', limit: 5 }],
  fs_grep: [{ pattern: 'foo' }, { pattern: 'a.b', fixed_strings: true, context: 2, output: 'files', include: '*.ts' }],
  fs_edit: [{ path: 'a.ts', old_string: 'x', new_string: 'y' }, { new_string: 'y', old_string: 'x', path: 'a.ts' }, { path: 'a.ts', edits: [{ new_string: 'y', old_string: 'x' }] }, { path: 'a.ts', edits: [{ old_string: 'x', new_string: 'y', replace_all: true }] }, { path: 'a.ipynb', cell: 2, new_string: 'print(1)' }, { path: 'a.ts', old_string: '', new_string: 'new file' }],
  fs_write: [{ path: 'a.ts', content: '' }, { path: 'a.ts', content: 'x\n', version: 'abc' }],
  fs_apply_patch: [{ patch: '*** Begin Patch\n*** End Patch' }],
};

/** A valid call of the tool changed a little: a field set to a value at the edges, a field dropped, an unknown one added. */
function nearValid(r: () => number, spec: ToolSpec): Record<string, unknown> {
  const o = structuredClone(pick(r, TAKEN[spec.name]));
  const fields = fieldsAt(spec.schema);
  for (let n = 1 + Math.floor(r() * 3); n > 0; n--) {
    const k = r();
    if (k < 0.75) {
      const name = pick(r, fields);
      o[name] = fitting(r, name, 2);
    } else if (k < 0.9) {
      delete o[pick(r, Object.keys(o).length ? Object.keys(o) : fields)];
    } else {
      o[pick(r, NAMES)] = anyValue(r, 2);
    }
  }
  return o;
}

function quickOf(spec: ToolSpec) {
  assert.ok(spec.quick, `${spec.name} has a quick check`);
  return spec.quick;
}

/** The spec without its quick check: what the schema alone makes of a call. */
function schemaOnly(spec: ToolSpec): ToolSpec {
  return { ...spec, schema: spec.schema, quick: undefined };
}

function outcome(spec: ToolSpec, raw: unknown): unknown {
  const r = parseInput(spec, raw);
  // JSON as well: the value's fields in the same order
  return r.ok ? { ok: true, value: r.value, json: JSON.stringify(r.value) } : { ok: false, text: resultText(r.result) };
}

describe('quick input checks', () => {
  for (const spec of TOOLS) {
    describe(spec.name, () => {
      it("names the schema's fields, in its order", () => {
        assert.deepEqual(quickOf(spec).fields, fieldsAt(spec.schema));
      });

      it('takes plain valid calls, as the schema parses them', () => {
        for (const input of [JSON.parse(spec.example) as Record<string, unknown>, ...TAKEN[spec.name]]) {
          const q = quickOf(spec).parse(input);
          assert.notEqual(q, undefined, `quick check takes ${JSON.stringify(input)}`);
          const z = spec.schema.safeParse(input);
          assert.ok(z.success);
          assert.deepStrictEqual(q, z.data);
          assert.equal(JSON.stringify(q), JSON.stringify(z.data), 'the fields in the same order');
          assert.notEqual(q, input, 'a copy, not the input itself');
        }
      });

      it('takes nothing the schema refuses, and gives what the schema gives (random and edge-case inputs)', () => {
        const r = random(0x5eed ^ spec.name.length * 7919);
        let taken = 0;
        let refused = 0;
        for (let i = 0; i < 4000; i++) {
          // mostly near a valid call, where the two could differ; some anything at all
          const input = i % 10 === 0 ? anyValue(r, 3) : i % 10 === 1 ? anyObject(r, 2, 0.85) : nearValid(r, spec);
          const q = quickOf(spec).parse(input);
          const z = spec.schema.safeParse(input);
          if (q !== undefined) {
            taken++;
            assert.ok(z.success, `quick check took what the schema refuses: ${JSON.stringify(input)?.slice(0, 300)}: ${z.success ? '' : z.error.message.slice(0, 300)}`);
            assert.deepStrictEqual(q, z.data, `value for ${JSON.stringify(input)?.slice(0, 300)}`);
            assert.equal(JSON.stringify(q), JSON.stringify(z.data), `field order for ${JSON.stringify(input)?.slice(0, 300)}`);
          } else if (!z.success) {
            refused++;
          }
        }
        // the inputs reach both sides: many taken, many refused
        assert.ok(taken > 100, `taken ${taken}`);
        assert.ok(refused > 100, `refused ${refused}`);
      });

      it('parses a call (aliases, errors and all) as the schema alone does', () => {
        const r = random(0xca11 ^ spec.name.length * 104729);
        for (let i = 0; i < 1500; i++) {
          const input = r() < 0.8 ? nearValid(r, spec) : anyObject(r, 2, 0.85);
          assert.deepStrictEqual(outcome(spec, input), outcome(schemaOnly(spec), input), JSON.stringify(input)?.slice(0, 300));
        }
      });

      it('leaves what JSON.parse makes of __proto__ and the like to the schema', () => {
        const q = quickOf(spec);
        const first = q.fields[0];
        for (const text of [`{"${first}": "a", "__proto__": {"x": 1}}`, `{"${first}": "a", "constructor": 1}`]) {
          const input = JSON.parse(text) as unknown;
          assert.equal(q.parse(input), undefined, text);
        }
        assert.equal(q.parse([]), undefined);
        assert.equal(q.parse(null), undefined);
        assert.equal(q.parse(Object.create(null)), undefined);
      });
    });
  }
});
