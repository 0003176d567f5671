import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyReplacements, describeFailure, findEdit, type FindFailure, type Replacement } from '../../src/core/edit';

// ---------------------------------------------------------------------------------------
// Random files and exact substrings.

const WORDS = ['let', 'x', '=', '1', 'foo()', '{', '}', 'if', 'return', ' ', '  ', '\t', '"s"', 'é', '—'];
const EOLS = ['\n', '\r\n'];

/** A random file: lines of words joined by random line endings (so LF, CRLF and mixed files). */
const fileArb = fc
  .array(fc.tuple(fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 6 }), fc.constantFrom(...EOLS)), { minLength: 1, maxLength: 30 })
  .map((lines) => lines.map(([ws, eol]) => ws.join('') + eol).join(''));

function occurrences(hay: string, needle: string): number {
  let n = 0;
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + 1)) {
    n++;
  }
  return n;
}

/** The line ending the engine must write in content[i, j): the region's dominant one, else the file's, LF on a tie. */
function expectedEol(content: string, i: number, j: number): string {
  const count = (s: string) => {
    const crlf = (s.match(/\r\n/g) ?? []).length;
    return { crlf, lf: (s.match(/\n/g) ?? []).length - crlf };
  };
  const r = count(content.slice(i, j));
  if (r.crlf !== r.lf) {
    return r.crlf > r.lf ? '\r\n' : '\n';
  }
  const f = count(content);
  return f.crlf > f.lf ? '\r\n' : '\n';
}

/** Whether the boundary before content[b] has a letter, digit or underscore on both sides. */
function cutsWord(content: string, b: number): boolean {
  const w = (c: string | undefined) => c !== undefined && /[\p{L}\p{Nd}_]/u.test(c);
  return w(content[b - 1]) && w(content[b]);
}

/** What every successful result must be: replacements sorted, apart, within the text, with their true line numbers. */
function checkReplacements(content: string, reps: readonly Replacement[]): void {
  reps.forEach((r, k) => {
    assert.ok(r.start <= r.end && r.end <= content.length);
    assert.ok(k === 0 || r.start >= reps[k - 1].end, 'sorted, not overlapping');
    assert.equal(r.line, content.slice(0, r.start).split('\n').length);
    assert.equal(r.endLine, content.slice(0, Math.max(r.start, r.end - 1)).split('\n').length);
  });
}

describe('fs_edit properties', () => {
  it('a unique substring is found exactly, and applying gives the text with only that range changed', () => {
    fc.assert(
      fc.property(fileArb, fc.nat(), fc.nat(), fc.string({ maxLength: 12 }).map((s) => s.replace(/\r/g, '')), (content, a, b, repl) => {
        const i = a % content.length;
        const j = i + 1 + (b % Math.min(40, content.length - i));
        // Not splitting a CRLF pair at either end.
        fc.pre(!(content[i] === '\n' && content[i - 1] === '\r') && !(content[j - 1] === '\r' && content[j] === '\n'));
        const old = content.slice(i, j);
        const lfContent = content.replace(/\r\n/g, '\n');
        const lfOld = old.replace(/\r\n/g, '\n');
        fc.pre(occurrences(lfContent, lfOld) === 1 && lfOld !== repl);
        // A one-line old_string found inside a deeper indentation re-indents new_string's later lines (tested on its own).
        fc.pre(!(/^[ \t]/.test(old) && /[ \t]$/.test(content.slice(0, i)) && !lfOld.includes('\n') && repl.includes('\n')));
        // Whole lines but for some or all of the first line's indentation are read as whole lines where that writes
        // other text than the exact place would (tested on their own, edit-indent.test.ts): here, only never another place.
        const lineStart = content.lastIndexOf('\n', i - 1) + 1;
        const firstLine = lfOld.slice(0, lfOld.indexOf('\n'));
        const wholeLinesButIndentation =
          lfOld.includes('\n') && firstLine.trim() !== '' && i > lineStart && content.slice(lineStart, i).trim() === '' && (j === content.length || content[j] === '\n' || content[j] === '\r' || content[j - 1] === '\n');
        const r = findEdit(content, { oldString: old, newString: repl });
        if (wholeLinesButIndentation && !(r.ok && r.level === 'exact')) {
          const lineEnd = content.indexOf('\n', j - 1) === -1 ? content.length : content.indexOf('\n', j - 1);
          // found exactly once, so never lost to a looser reading
          assert.ok(r.ok, JSON.stringify(r));
          assert.ok(r.replacements.length === 1 && r.replacements[0].start >= lineStart && r.replacements[0].end <= lineEnd + 1, JSON.stringify(r));
          return;
        }
        if (cutsWord(content, i) || cutsWord(content, j)) {
          // Names and numbers match whole: a place that cuts one is never edited (a looser level may find a whole line elsewhere).
          if (r.ok) {
            assert.notEqual(r.level, 'exact');
            assert.ok(r.replacements.every((rep) => rep.end <= i || rep.start >= j), JSON.stringify(r));
          } else if (r.reason === 'ambiguous') {
            // a looser reading over the cut place: the two readings are named, neither taken
            assert.ok(r.cutReading, JSON.stringify(r));
          } else {
            assert.equal(r.reason, 'not-found', JSON.stringify(r));
          }
          return;
        }
        assert.ok(r.ok, JSON.stringify(r));
        checkReplacements(content, r.replacements);
        assert.equal(r.level, 'exact');
        assert.equal(r.replacements.length, 1);
        assert.deepEqual([r.replacements[0].start, r.replacements[0].end], [i, j]);
        const eol = expectedEol(content, i, j);
        assert.equal(applyReplacements(content, r.replacements), content.slice(0, i) + repl.replace(/\n/g, eol) + content.slice(j));
      }),
      { numRuns: 400 },
    );
  });

  it('a looser reading of old_string that takes in where it is as written, inside a longer name, is no place either', () => {
    // " \n1" is in the file only as the end of line 3 and the start of "1foo()"; dropping its
    // blank line, trailing whitespace and indentation would read it as line 3, "  1 ", itself
    const r = findEdit('\r\n}\n  1 \n1foo()\r\n\n\n', { oldString: ' \n1', newString: '' });
    assert.equal(r.ok, false, JSON.stringify(r));
    assert.equal(r.reason, 'ambiguous');
    assert.deepEqual(r.reason === 'ambiguous' && { lines: r.lines, cut: r.cutReading }, { lines: [3], cut: { word: '1foo', line: 4 } });
    // old_string's lines without their indentation, and the text as written across "10" below them
    const twice = findEdit('class A:\n    x = 1\n    x = 1\nx = 10\n', { oldString: 'x = 1\nx = 1', newString: 'y' });
    assert.deepEqual(twice.ok === false && twice.reason === 'ambiguous' && { lines: twice.lines, cut: twice.cutReading }, { lines: [2], cut: { word: '10', line: 4 } });
    assert.match(describeFailure(twice as FindFailure, 'a.py'), /^old_string is in a\.py as written only where it cuts "10" in two \(line 4\), and when indentation is ignored at line 2, overlapping it; it is not clear which one to change, so nothing was changed\.\nCopy old_string exactly from the lines you mean/);
    // the same loose reading, where old_string is nowhere as written, still finds the line
    const loose = findEdit('\r\n}\n  1 \n2foo()\r\n\n\n', { oldString: ' \n1', newString: '' });
    assert.equal(loose.ok, true, JSON.stringify(loose));
  });

  it('with replace_all, every non-overlapping place is replaced and nothing else changes', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('ab', 'b', 'c', '\n', 'x'), { maxLength: 40 }), fc.constantFrom('ab', 'b', 'c', 'x'), (parts, needle) => {
        const content = parts.join('');
        const r = findEdit(content, { oldString: needle, newString: '#', replaceAll: true });
        if (!content.includes(needle)) {
          assert.equal(r.ok, false);
          return;
        }
        assert.ok(r.ok);
        assert.equal(applyReplacements(content, r.replacements), content.split(needle).join('#'));
        for (const [k, rep] of r.replacements.entries()) {
          assert.equal(rep.line, content.slice(0, rep.start).split('\n').length);
          assert.ok(k === 0 || rep.start >= r.replacements[k - 1].end, 'sorted, not overlapping');
        }
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------
// Perturbed copies: round trips, and never the wrong place.

const IDS = ['alpha', 'beta', 'gamma', 'delta', 'total', 'count', 'items', 'rate'];
const TEXTS = ['hello', 'ready', 'done'];

interface Stmt {
  level: number;
  id: string;
  num: number;
  kind: 'call' | 'if' | 'quote';
  text: string;
}

const stmtArb = fc.record({
  level: fc.nat({ max: 2 }),
  id: fc.constantFrom(...IDS),
  num: fc.nat({ max: 99 }),
  kind: fc.constantFrom('call' as const, 'if' as const, 'quote' as const),
  text: fc.constantFrom(...TEXTS),
});

/** How a file (or the model) writes a block: indentation base, step and style, quotes, line ending. */
interface Format {
  base: number;
  step: number;
  tabs: boolean;
  curly: boolean;
  eol: string;
}

function say(s: Stmt, curly: boolean): string {
  const [open, close] = curly ? ['“', '”'] : ['"', '"'];
  switch (s.kind) {
    case 'call':
      return `${s.id}(${s.num});`;
    case 'if':
      return `if (${s.id} > ${s.num}) {`;
    case 'quote':
      return `${s.id} = ${open}${s.text}${close};`;
  }
}

function indent(cols: number, f: Format): string {
  return f.tabs ? '\t'.repeat(Math.floor(cols / 4)) + ' '.repeat(cols % 4) : ' '.repeat(cols);
}

function render(block: Stmt[], f: Format): string[] {
  return block.map((s) => indent(f.base + s.level * f.step, f) + say(s, f.curly));
}

/** What a model may have done to its copy of the block. */
interface Perturbation {
  model: Format;
  trailing: boolean[];
  blankAround: boolean;
  prefixes: boolean;
  escaped: boolean;
  crlf: boolean;
}

/**
 * The block as the model would send it: its own format, then copy mistakes. Trailing
 * whitespace is a copy mistake: it sticks to the statements of `original` the model copied,
 * not to the lines it wrote itself.
 */
function asModel(block: Stmt[], original: Stmt[], p: Perturbation, firstLine: number): string {
  const lines = render(block, p.model);
  let ls = lines.map((l, k) => {
    const at = original.indexOf(block[k]);
    return at >= 0 && p.trailing[at % p.trailing.length] ? l + '  ' : l;
  });
  if (p.prefixes) {
    ls = ls.map((l, k) => `L${firstLine + k}: ${l}`);
  }
  let text = ls.join('\n');
  if (p.blankAround) {
    text = `\n${text}\n\n`;
  }
  if (p.escaped) {
    text = text.replace(/"/g, '\\"').replace(/\n/g, '\\n');
  }
  return p.crlf ? text.replace(/\n/g, '\r\n') : text;
}

const formatArb = (eol: boolean) =>
  fc.record({
    base: fc.constantFrom(0, 4, 8),
    step: fc.constantFrom(2, 4),
    tabs: fc.boolean(),
    curly: fc.boolean(),
    eol: eol ? fc.constantFrom('\n', '\r\n') : fc.constant('\n'),
  });

const perturbationArb = fc
  .record({
    model: formatArb(false),
    trailing: fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
    blankAround: fc.boolean(),
    prefixes: fc.boolean(),
    escaped: fc.boolean(),
    crlf: fc.boolean(),
  })
  // Prefixes are per line: a model that escaped the newlines copied no such lines.
  .map((p) => ({ ...p, escaped: p.escaped && !p.prefixes, model: { ...p.model, curly: false } }));

/** The edit the model makes to the block: change a number, add a line after one, or drop one. */
const changeArb = fc.record({ at: fc.nat(), kind: fc.constantFrom('renumber' as const, 'insert' as const, 'delete' as const) });

function change(block: Stmt[], c: { at: number; kind: 'renumber' | 'insert' | 'delete' }): Stmt[] {
  const k = c.at % block.length;
  const out = block.slice();
  if (c.kind === 'renumber') {
    out[k] = { ...out[k], num: out[k].num + 100, text: out[k].text + 's' };
  } else if (c.kind === 'insert') {
    out.splice(k + 1, 0, { level: out[k].level, id: 'inserted', num: 7, kind: 'call', text: '' });
  } else if (block.length > 1) {
    out.splice(k, 1);
  } else {
    out[k] = { ...out[k], id: 'renamed' };
  }
  return out;
}

/** The block's relative levels start at 0, as code does. */
function normalizeLevels(block: Stmt[]): Stmt[] {
  const min = Math.min(...block.map((s) => s.level));
  return block.map((s) => ({ ...s, level: s.level - min }));
}

const FILLER = ['setup();', 'teardown();', 'log("x");', 'step(0);', 'wait();'];

function layout(block: Stmt[], f: Format, before: number, after: number, extra: string[][] = []): { lines: string[]; start: number } {
  const filler = (n: number, seed: number) => Array.from({ length: n }, (_, k) => indent(f.base, f) + FILLER[(k + seed) % FILLER.length]);
  const lines = [...filler(before, 0)];
  for (const e of extra) {
    lines.push(...e, ...filler(2, lines.length));
  }
  const start = lines.length;
  lines.push(...render(block, f), ...filler(after, 3));
  return { lines, start };
}

describe('fs_edit properties: perturbed copies', () => {
  it('round trip: a perturbed copy of a unique block, edited, gives the file with the edit in its own format', () => {
    let tolerant = 0;
    fc.assert(
      fc.property(
        fc.array(stmtArb, { minLength: 1, maxLength: 5 }).map(normalizeLevels),
        formatArb(true),
        perturbationArb,
        changeArb,
        fc.nat({ max: 6 }),
        fc.nat({ max: 6 }),
        (block, fileFormat, p, c, before, after) => {
          const edited = change(block, c);
          // Escaping twice shows only where old_string has something to escape; otherwise the engine cannot know.
          p = { ...p, escaped: p.escaped && (block.length > 1 || p.blankAround || block[0].kind === 'quote') };
          const { lines, start } = layout(block, fileFormat, before, after);
          const file = lines.join(fileFormat.eol) + fileFormat.eol;
          const old = asModel(block, block, p, start + 1);
          const neu = asModel(edited, block, p, start + 1);
          const expectedLines = [...lines.slice(0, start), ...render(edited, fileFormat), ...lines.slice(start + block.length)];
          const expected = expectedLines.join(fileFormat.eol) + fileFormat.eol;
          const r = findEdit(file, { oldString: old, newString: neu });
          assert.ok(r.ok, `${JSON.stringify(r)}\nfile:\n${file}\nold:\n${old}\nnew:\n${neu}`);
          checkReplacements(file, r.replacements);
          // A substring match is literal: new_string as given (a one-line old_string may have matched after the indentation).
          const lf = (t: string) => t.replace(/\r\n/g, '\n');
          const literal = (o: string, n: string) => lf(applyReplacements(file, r.replacements)) === lf(file).replace(lf(o), lf(n));
          if (r.exact) {
            assert.ok(literal(old, neu));
            return;
          }
          const plain = { ...p, escaped: false };
          if (r.level === 'escape-normalized' && lf(file).includes(lf(asModel(block, block, plain, start + 1)))) {
            // Literal, or (a one-line old_string found inside a deeper indentation) with the added lines re-indented.
            assert.ok(literal(asModel(block, block, plain, start + 1), asModel(edited, block, plain, start + 1)) || applyReplacements(file, r.replacements) === expected);
            return;
          }
          tolerant++;
          assert.equal(applyReplacements(file, r.replacements), expected, `level ${r.level}: ${r.adjustments.join('; ')}\nold:\n${old}\nnew:\n${neu}`);
        },
      ),
      { numRuns: 600 },
    );
    assert.ok(tolerant > 300, `only ${tolerant} of 600 runs needed a tolerant level`);
  });

  it('never the wrong place: with decoys that differ in substance, the result is the block or a failure', () => {
    let right = 0;
    fc.assert(
      fc.property(
        fc.array(stmtArb, { minLength: 1, maxLength: 4 }).map(normalizeLevels),
        formatArb(false),
        perturbationArb,
        fc.array(fc.record({ line: fc.nat(), how: fc.constantFrom('number', 'identifier', 'case'), format: formatArb(false) }), { minLength: 1, maxLength: 3 }),
        fc.nat({ max: 4 }),
        (block, fileFormat, p, decoySpecs, before) => {
          const decoys = decoySpecs.map((d) => {
            const k = d.line % block.length;
            const s = block[k];
            const mutated: Stmt =
              d.how === 'number' ? { ...s, num: s.num + 1, text: s.text === 'done' ? 'ready' : 'done' } : d.how === 'identifier' ? { ...s, id: s.id === 'alpha' ? 'beta' : 'alpha' } : { ...s, id: s.id[0].toUpperCase() + s.id.slice(1) };
            const copy = block.slice();
            copy[k] = mutated;
            return render(copy, { ...d.format, curly: fileFormat.curly });
          });
          const { lines, start } = layout(block, fileFormat, before, 2, decoys);
          const file = lines.join('\n') + '\n';
          const edited = change(block, { at: 0, kind: 'renumber' });
          const old = asModel(block, block, p, start + 1);
          const neu = asModel(edited, block, p, start + 1);
          const r = findEdit(file, { oldString: old, newString: neu });
          if (!r.ok) {
            (globalThis as Record<string, unknown>).__why = [...(((globalThis as Record<string, unknown>).__why as unknown[]) ?? []), { r, file, old }];
            return;
          }
          checkReplacements(file, r.replacements);
          const expected = [...lines.slice(0, start), ...render(edited, fileFormat), ...lines.slice(start + block.length)].join('\n') + '\n';
          assert.equal(applyReplacements(file, r.replacements), expected, `wrong place at level ${r.level}\nfile:\n${file}\nold:\n${old}`);
          right++;
        },
      ),
      { numRuns: 600 },
    );
    assert.ok(right > 300, `only ${right} of 600 runs found the block`);
  });

  it('a copy that differs in substance (a number, a name, case, a quote, a line dropped, added or moved) never matches, however formatted', () => {
    type Mutation = 'number' | 'identifier' | 'case' | 'quote' | 'drop' | 'duplicate' | 'swap';
    const mutate = (block: Stmt[], how: Mutation, at: number): string[] | undefined => {
      const k = at % block.length;
      const lines = render(block, { base: 0, step: 4, tabs: false, curly: false, eol: '\n' });
      const s = block[k];
      switch (how) {
        case 'number':
          return s.kind === 'quote' ? undefined : lines.map((l, i) => (i === k ? l.replace(String(s.num), String(s.num + 1)) : l));
        case 'identifier':
          return lines.map((l, i) => (i === k ? l.replace(s.id, s.id + 'x') : l));
        case 'case':
          return lines.map((l, i) => (i === k ? l.replace(s.id, s.id.toUpperCase()) : l));
        case 'quote':
          return s.kind === 'quote' ? lines.map((l, i) => (i === k ? l.replace(/"/g, "'") : l)) : undefined;
        case 'drop':
          // An inner line: without its first or last line, a block is a smaller block that is in the file.
          return k > 0 && k < block.length - 1 ? lines.filter((_, i) => i !== k) : undefined;
        case 'duplicate':
          return [...lines.slice(0, k + 1), lines[k], ...lines.slice(k + 1)];
        case 'swap': {
          const j = (k + 1) % block.length;
          if (lines[j].trim() === lines[k].trim()) {
            return undefined;
          }
          const out = lines.slice();
          [out[j], out[k]] = [lines[k], lines[j]];
          return out;
        }
      }
    };
    fc.assert(
      fc.property(
        fc.array(stmtArb, { minLength: 1, maxLength: 5 }).map(normalizeLevels),
        formatArb(true),
        perturbationArb,
        fc.constantFrom<Mutation>('number', 'identifier', 'case', 'quote', 'drop', 'duplicate', 'swap'),
        fc.nat(),
        (block, fileFormat, p, how, at) => {
          const mutated = mutate(block, how, at);
          fc.pre(mutated !== undefined);
          // Not by chance a run of the block's own lines (dropping one of two equal lines, say).
          const joined = (ls: string[]) => `\n${ls.map((l) => l.trim()).join('\n')}\n`;
          fc.pre(!joined(render(block, { ...fileFormat, curly: false })).includes(joined(mutated!)));
          const { lines, start } = layout(block, fileFormat, 2, 2);
          const file = lines.join(fileFormat.eol) + fileFormat.eol;
          // The model's copy: its own indentation of the mutated lines, then its copy mistakes.
          const shifted = mutated!.map((l) => (p.model.base ? ' '.repeat(p.model.base) + l : l));
          let old = shifted.map((l, k) => (p.trailing[k % p.trailing.length] ? l + '  ' : l)).join('\n');
          if (p.prefixes) {
            old = old.split('\n').map((l, k) => `L${start + 1 + k}: ${l}`).join('\n');
          }
          if (p.blankAround) {
            old = `\n${old}\n\n`;
          }
          if (p.escaped) {
            old = old.replace(/"/g, '\\"').replace(/\n/g, '\\n');
          }
          const r = findEdit(file, { oldString: old, newString: old + ' // changed' });
          assert.equal(r.ok, false, `matched at ${r.ok ? r.level : ''} although ${how} differs\nfile:\n${file}\nold:\n${old}`);
        },
      ),
      { numRuns: 800 },
    );
  });

  it('never the wrong place: two copies of the same text formatted differently are ambiguous, unless old_string is one of them exactly', () => {
    fc.assert(
      fc.property(fc.array(stmtArb, { minLength: 1, maxLength: 4 }).map(normalizeLevels), formatArb(false), formatArb(false), perturbationArb, (block, f1, f2, p) => {
        const other = render(block, { ...f2, curly: f1.curly });
        const { lines, start } = layout(block, f1, 1, 1, [other]);
        const file = lines.join('\n') + '\n';
        const old = asModel(block, block, p, start + 1);
        const r = findEdit(file, { oldString: old, newString: asModel(change(block, { at: 0, kind: 'renumber' }), block, p, start + 1) });
        if (!r.ok) {
          return;
        }
        // Only a literal copy may decide; then the edit lands on a block whose text old_string (as given, or without its prefixes or escapes) is.
        assert.ok(['exact', 'read-prefix', 'escape-normalized'].includes(r.level), `level ${r.level} chose between two copies\nfile:\n${file}\nold:\n${old}`);
      }),
      { numRuns: 400 },
    );
  });
});

// ---------------------------------------------------------------------------------------
// Elisions: the lines left out stay inside the block the shown lines are in.

describe('fs_edit properties: elisions', () => {
  const NAMES = ['load', 'save', 'parse', 'check'];
  const fnArb = fc.record({
    name: fc.constantFrom(...NAMES),
    body: fc.array(fc.record({ id: fc.constantFrom(...IDS), num: fc.nat({ max: 3 }), nested: fc.boolean() }), { minLength: 1, maxLength: 4 }),
    ret: fc.constantFrom(...IDS),
  });

  /** A function as braces (JavaScript) or indentation (Python) write it: its lines, each body line indented under the head. */
  function fnLines(f: { name: string; body: { id: string; num: number; nested: boolean }[]; ret: string }, k: number, python: boolean): string[] {
    const ind = python ? '    ' : '  ';
    const out = [python ? `def ${f.name}${k}(a):` : `function ${f.name}${k}(a) {`];
    for (const s of f.body) {
      if (s.nested) {
        out.push(python ? `${ind}if ${s.id}:` : `${ind}if (${s.id}) {`, `${ind}${ind}${python ? `${s.id}(${s.num})` : `${s.id}(${s.num});`}`);
        if (!python) {
          out.push(`${ind}}`);
        }
      } else {
        out.push(`${ind}${python ? `${s.id}(${s.num})` : `${s.id}(${s.num});`}`);
      }
    }
    out.push(`${ind}return ${f.ret}${python ? '' : ';'}`);
    if (!python) {
      out.push('}');
    }
    return out;
  }

  it('never the wrong place: the head of one function, "...", and lines of the end of any function edit inside the first or not at all', () => {
    let placed = 0;
    fc.assert(
      fc.property(
        fc.array(fnArb, { minLength: 2, maxLength: 5 }),
        fc.boolean(),
        fc.nat(),
        fc.nat(),
        fc.constantFrom('// ...', '// ... existing code ...', '...', '# ...'),
        fc.constantFrom(0, 1, 2),
        fc.nat({ max: 2 }),
        fc.boolean(),
        (fns, python, hk, tk, mark, elisionDepth, tailLen, drift) => {
          const blocks = fns.map((f, k) => fnLines(f, k, python));
          const lines: string[] = [];
          const ranges: [number, number][] = [];
          for (const b of blocks) {
            ranges.push([lines.length + 1, lines.length + b.length]);
            lines.push(...b, '');
          }
          const file = lines.join('\n');
          const h = hk % blocks.length;
          const t = tk % blocks.length;
          // Lines of the body's end (never the other head: old_string that shows it asks for both functions).
          const tail = blocks[t].slice(Math.max(1, blocks[t].length - 1 - tailLen));
          const ind = python ? '    ' : '  ';
          const elision = ind.repeat(elisionDepth) + (python && mark.startsWith('//') ? mark.replace('//', '#') : mark);
          const pad = drift ? '    ' : '';
          const oldLines = [blocks[h][0], elision, ...tail].map((l) => pad + l);
          const newLines = [...oldLines.slice(0, -1), oldLines[oldLines.length - 1] + (python ? '  # changed' : ' // changed')];
          const r = findEdit(file, { oldString: oldLines.join('\n'), newString: newLines.join('\n') });
          if (!r.ok) {
            return;
          }
          const [first, last] = ranges[h];
          for (const p of r.places) {
            assert.ok(p.startLine >= first && p.endLine <= last, `edited lines ${p.startLine}-${p.endLine}, outside ${fns[h].name}${h} (${first}-${last}) at ${r.level}\nfile:\n${file}\nold:\n${oldLines.join('\n')}`);
          }
          placed++;
        },
      ),
      { numRuns: 800 },
    );
    assert.ok(placed > 150, `only ${placed} of 800 runs were placed`);
  });
});
