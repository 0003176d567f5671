import * as assert from 'node:assert/strict';
import { applyReplacements, findEdit, type FindResult } from '../../src/core/edit';

// Realistic edits as models send them, each with the one right outcome: the intended text
// changed in the file's own conventions, or a failure. Never another place.

function code(...lines: string[]): string {
  return lines.join('\n') + '\n';
}

function apply(content: string, oldString: string, newString: string, replaceAll = false): { r: FindResult; text?: string } {
  const r = findEdit(content, { oldString, newString, replaceAll });
  return { r, text: r.ok ? applyReplacements(content, r.replacements) : undefined };
}

describe('fs_edit scenarios', () => {
  it('Python method copied without its class indentation: re-indented into the class', () => {
    const py = code('class Cart:', '    def total(self):', '        return sum(self.items)', '', '    def empty(self):', '        return not self.items');
    const { r, text } = apply(py, 'def total(self):\n    return sum(self.items)', 'def total(self):\n    if not self.items:\n        return 0\n    return sum(self.items)');
    assert.ok(r.ok && !r.exact);
    assert.equal(text, py.replace('        return sum(self.items)\n', '        if not self.items:\n            return 0\n        return sum(self.items)\n'));
  });

  it('Go file indented with tabs, model writes spaces: the new lines get tabs', () => {
    const go = code('func main() {', '\tfor i := 0; i < 3; i++ {', '\t\tfmt.Println(i)', '\t}', '}');
    const { text } = apply(go, '    for i := 0; i < 3; i++ {\n        fmt.Println(i)\n    }', '    for i := 0; i < 3; i++ {\n        if i > 0 {\n            fmt.Println(i)\n        }\n    }');
    assert.equal(text, code('func main() {', '\tfor i := 0; i < 3; i++ {', '\t\tif i > 0 {', '\t\t\tfmt.Println(i)', '\t\t}', '\t}', '}'));
  });

  it('YAML key under two parents: the bare key is ambiguous, the key with its parent is not', () => {
    const yaml = code('server:', '  enabled: true', '  port: 80', 'cache:', '  enabled: true', '  size: 10');
    const a = apply(yaml, '  enabled: true', '  enabled: false');
    assert.equal(a.r.ok, false);
    assert.deepEqual((a.r as { lines: number[] }).lines, [2, 5]);
    const b = apply(yaml, 'cache:\n  enabled: true', 'cache:\n  enabled: false');
    assert.equal(b.text, yaml.replace('cache:\n  enabled: true', 'cache:\n  enabled: false'));
  });

  it('two tests that differ in one number: a drifted copy of one edits that one only', () => {
    const ts = code(
      "it('rounds', () => {",
      '  expect(round(1.25)).toBe(1.3);',
      '});',
      '',
      "it('rounds', () => {",
      '  expect(round(2.25)).toBe(2.3);',
      '});',
    );
    const { r, text } = apply(ts, "it('rounds', () => {  \n    expect(round(2.25)).toBe(2.3);\n});", "it('rounds', () => {\n    expect(round(2.25)).toBe(2.2);\n});");
    assert.ok(r.ok);
    assert.equal(text, ts.replace('toBe(2.3)', 'toBe(2.2)'));
  });

  it('first and last lines of one function, middle of another: not found, never a blend', () => {
    const js = code('function load() {', '  return read(file);', '}', 'function save() {', '  return write(file);', '}');
    const { r } = apply(js, 'function load() {\n  return write(file);\n}', 'function load() {\n  return write(file, true);\n}');
    assert.equal(r.ok, false);
    assert.equal((r as { reason: string }).reason, 'not-found');
  });

  it('stale old_string (a number changed since the read): not found, the differing line shown', () => {
    const cfg = code('const TIMEOUT = 60;', 'const RETRIES = 5;');
    const { r } = apply(cfg, 'const TIMEOUT = 30;\nconst RETRIES = 5;', 'const TIMEOUT = 45;\nconst RETRIES = 5;');
    assert.equal(r.ok, false);
    const c = (r as { closest?: { line: number; expected: string; actual: string } }).closest;
    assert.deepEqual([c?.line, c?.expected, c?.actual], [1, 'const TIMEOUT = 30;', 'const TIMEOUT = 60;']);
  });

  it('lines copied from fs_read with their prefixes after the file grew: found by text, with a warning', () => {
    const f = code('a();', 'b();', 'c();', 'target(1);', 'after();');
    const { r, text } = apply(f, 'L1: target(1);\nL2: after();', 'L1: target(2);\nL2: after();');
    assert.ok(r.ok);
    assert.equal(text, f.replace('target(1)', 'target(2)'));
    assert.match(r.warnings.join(), /said line 1, but the text is at line 4/);
  });

  it('lines copied from fs_grep output (two spaces, `L{n}: ` and `L{n}- `): the note names fs_grep, not fs_read', () => {
    const f = code('a();', 'b();', 'c();');
    const { r, text } = apply(f, '  L1- a();\n  L2: b();', '  L1- a();\n  L2: b(1);');
    assert.ok(r.ok);
    assert.equal(text, f.replace('b();', 'b(1);'));
    assert.match(r.adjustments.join(), /removed the `L\{n\}: ` line-number prefixes copied from fs_grep output/);
    const read = apply(f, 'L1: a();\nL2: b();', 'L1: a();\nL2: b(1);');
    assert.ok(read.r.ok);
    assert.match(read.r.adjustments.join(), /copied from fs_read output/);
  });

  it('Markdown with typographic quotes and dashes, model writes ASCII: the file keeps its typography', () => {
    const md = code('# Notes', '', 'The “fast” path — used by default — skips checks.', '', 'Done.');
    const { r, text } = apply(md, 'The "fast" path - used by default - skips checks.', 'The "fast" path - used by default - skips most checks.');
    assert.ok(r.ok);
    assert.equal(text, md.replace('skips checks', 'skips most checks'));
  });

  it('a Windows file (CRLF, tabs) and a model that writes LF and spaces', () => {
    const cs = 'class A\r\n{\r\n\tvoid Run()\r\n\t{\r\n\t\tStart();\r\n\t}\r\n}\r\n';
    const { text } = apply(cs, '    void Run()\n    {\n        Start();\n    }', '    void Run()\n    {\n        Start();\n        Stop();\n    }');
    assert.equal(text, 'class A\r\n{\r\n\tvoid Run()\r\n\t{\r\n\t\tStart();\r\n\t\tStop();\r\n\t}\r\n}\r\n');
  });

  it('a React component edited with an elision: only the shown lines change', () => {
    const tsx = code('export function Button(props) {', '  const { label } = props;', '  const style = useStyle();', '  return (', '    <button style={style}>', '      {label}', '    </button>', '  );', '}');
    const { r, text } = apply(
      tsx,
      'export function Button(props) {\n  // ... existing code ...\n    <button style={style}>',
      'export function Button(props) {\n  // ... existing code ...\n    <button style={style} onClick={props.onClick}>',
    );
    assert.ok(r.ok);
    assert.equal(r.level, 'context-aware');
    assert.equal(text, tsx.replace('<button style={style}>', '<button style={style} onClick={props.onClick}>'));
  });

  it('a file with trailing whitespace the model does not reproduce: the kept lines keep it', () => {
    const f = code('def f():   ', '    x = 1  ', '    return x');
    const { r, text } = apply(f, 'def f():\n    x = 1\n    return x', 'def f():\n    x = 2\n    return x');
    assert.ok(r.ok);
    assert.equal(r.level, 'line-trimmed');
    assert.equal(text, code('def f():   ', '    x = 2', '    return x'));
  });

  it('rename with replace_all: says which places were inside longer names', () => {
    const f = code('let count = 0;', 'count += 1;', 'const counter = count;');
    const { r, text } = apply(f, 'count', 'total', true);
    assert.ok(r.ok);
    assert.equal(text, code('let total = 0;', 'total += 1;', 'const totaler = total;'));
    assert.match(r.warnings.join(), /1 of the 4 places is inside a longer word \(line 3\)/);
  });

  it('a keyword in the wrong case: not found, and the closest line says why', () => {
    const sql = code('SELECT id, name', 'FROM users', 'WHERE active = 1;');
    const { r } = apply(sql, 'select id, name\nFROM users', 'SELECT id\nFROM users');
    assert.equal(r.ok, false);
    assert.equal((r as { closest?: { line: number } }).closest?.line, 1);
  });

  it('old_string sent as a JSON-escaped string: unescaped, new_string too', () => {
    const js = code('if (ok) {', '  log("done");', '}');
    const { r, text } = apply(js, 'if (ok) {\\n  log(\\"done\\");\\n}', 'if (ok) {\\n  log(\\"done\\");\\n  notify();\\n}');
    assert.ok(r.ok);
    assert.equal(r.level, 'escape-normalized');
    assert.equal(text, code('if (ok) {', '  log("done");', '  notify();', '}'));
  });
});
