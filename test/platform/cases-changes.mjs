// Changes under each platform's semantics: line endings (a Windows user's files are CRLF),
// BOMs, and changes through the spellings a folding volume accepts. What works today. The
// format is in test/platform/README.md.
const CRLF = 'alpha\r\nbeta\r\ngamma\r\n';
const BOM = '\ufeff';

export const cases = [
  {
    name: 'fs_edit keeps CRLF',
    files: { 'crlf.txt': CRLF },
    steps: [{ tool: 'fs_edit', input: { path: 'crlf.txt', old_string: 'beta', new_string: 'BETA' } }],
    after: { files: { 'crlf.txt': 'alpha\r\nBETA\r\ngamma\r\n' } },
  },
  {
    name: 'fs_edit matches two lines given with LF in a CRLF file, and keeps CRLF',
    files: { 'crlf.txt': CRLF },
    steps: [{ tool: 'fs_edit', input: { path: 'crlf.txt', old_string: 'alpha\nbeta', new_string: 'one\ntwo' } }],
    after: { files: { 'crlf.txt': 'one\r\ntwo\r\ngamma\r\n' } },
  },
  {
    name: 'lines fs_edit adds to a CRLF file end in CRLF',
    files: { 'crlf.txt': CRLF },
    steps: [{ tool: 'fs_edit', input: { path: 'crlf.txt', old_string: 'beta', new_string: 'beta\nbeta2\nbeta3' } }],
    after: { files: { 'crlf.txt': 'alpha\r\nbeta\r\nbeta2\r\nbeta3\r\ngamma\r\n' } },
  },
  {
    name: 'fs_edit through another spelling keeps CRLF',
    files: { 'Src/Crlf.txt': CRLF },
    steps: [{ tool: 'fs_edit', input: { path: 'SRC/CRLF.TXT', old_string: 'gamma', new_string: 'GAMMA' } }],
    after: { files: { 'Src/Crlf.txt': 'alpha\r\nbeta\r\nGAMMA\r\n' } },
  },
  {
    name: 'fs_edit keeps a BOM and CRLF',
    files: { 'bom.txt': `${BOM}alpha\r\nbeta\r\n` },
    steps: [{ tool: 'fs_edit', input: { path: 'bom.txt', old_string: 'alpha', new_string: 'ALPHA' } }],
    after: { files: { 'bom.txt': `${BOM}ALPHA\r\nbeta\r\n` } },
  },
  {
    name: 'fs_edit replace_all keeps CRLF',
    files: { 'crlf.txt': 'x = 1\r\nx = 1\r\ny\r\n' },
    steps: [{ tool: 'fs_edit', input: { path: 'crlf.txt', old_string: 'x = 1', new_string: 'x = 2', replace_all: true } }],
    after: { files: { 'crlf.txt': 'x = 2\r\nx = 2\r\ny\r\n' } },
  },
  {
    name: 'fs_edit keeps LF in an LF file',
    files: { 'lf.txt': 'alpha\nbeta\n' },
    steps: [{ tool: 'fs_edit', input: { path: 'lf.txt', old_string: 'beta', new_string: 'beta\nmore' } }],
    after: { files: { 'lf.txt': 'alpha\nbeta\nmore\n' } },
  },
  {
    name: 'fs_apply_patch keeps CRLF',
    files: { 'crlf.txt': CRLF },
    steps: [{ tool: 'fs_apply_patch', input: { patch: '*** Begin Patch\n*** Update File: crlf.txt\n@@\n alpha\n-beta\n+BETA\n+inserted\n gamma\n*** End Patch' }, has: ['Success'] }],
    after: { files: { 'crlf.txt': 'alpha\r\nBETA\r\ninserted\r\ngamma\r\n' } },
  },
  {
    name: 'fs_apply_patch at the end of a CRLF file keeps CRLF',
    files: { 'crlf.txt': CRLF },
    steps: [{ tool: 'fs_apply_patch', input: { patch: '*** Begin Patch\n*** Update File: crlf.txt\n@@\n gamma\n+delta\n*** End of File\n*** End Patch' }, has: ['Success'] }],
    after: { files: { 'crlf.txt': 'alpha\r\nbeta\r\ngamma\r\ndelta\r\n' } },
  },
  {
    name: 'fs_apply_patch moves a CRLF file and keeps CRLF',
    files: { 'crlf.txt': CRLF },
    steps: [{ tool: 'fs_apply_patch', input: { patch: '*** Begin Patch\n*** Update File: crlf.txt\n*** Move to: moved/crlf.txt\n@@\n-alpha\n+ALPHA\n*** End Patch' }, has: ['Success'] }],
    after: { files: { 'moved/crlf.txt': 'ALPHA\r\nbeta\r\ngamma\r\n' }, dir: { '': ['moved'] } },
  },
  {
    name: 'fs_write of LF content over a CRLF file keeps CRLF',
    files: { 'crlf.txt': CRLF },
    steps: [
      { tool: 'fs_read', input: { path: 'crlf.txt' }, capture: { v: /version ([0-9a-f]+)/ }, has: ['CRLF'] },
      { tool: 'fs_write', input: { path: 'crlf.txt', content: 'one\ntwo\n', version: '{{v}}' } },
    ],
    after: { files: { 'crlf.txt': 'one\r\ntwo\r\n' } },
  },
  {
    name: 'fs_write over a BOM file keeps the BOM',
    files: { 'bom.txt': `${BOM}alpha\r\n` },
    steps: [
      { tool: 'fs_read', input: { path: 'bom.txt' }, capture: { v: /version ([0-9a-f]+)/ } },
      { tool: 'fs_write', input: { path: 'bom.txt', content: 'omega\n', version: '{{v}}' } },
    ],
    after: { files: { 'bom.txt': `${BOM}omega\r\n` } },
  },
  {
    name: 'fs_read says CRLF for a CRLF file',
    files: { 'crlf.txt': CRLF },
    steps: [{ tool: 'fs_read', input: { path: 'CRLF.TXT' }, has: ['CRLF', 'L2: beta'], lacks: ['\r'] }],
  },
  {
    name: 'an overwrite without a read is refused with the version',
    files: { 'Src/App.ts': 'export const b = 2;\n' },
    steps: [{ tool: 'fs_write', input: { path: 'src/app.ts', content: 'x\n' }, code: 1, has: ['version'] }],
    after: { files: { 'Src/App.ts': 'export const b = 2;\n' } },
  },
  {
    name: 'an overwrite with a stale version is refused',
    files: { 'Src/App.ts': 'export const b = 2;\n' },
    steps: [
      { tool: 'fs_read', input: { path: 'Src/App.ts' }, capture: { v: /version ([0-9a-f]+)/ } },
      { tool: 'fs_edit', input: { path: 'Src/App.ts', old_string: 'b = 2', new_string: 'b = 9' } },
      { tool: 'fs_write', input: { path: 'SRC/app.ts', content: 'x\n', version: '{{v}}' }, code: 1 },
    ],
    after: { files: { 'Src/App.ts': 'export const b = 9;\n' } },
  },
  {
    name: 'a new file in a folder of LF files is written with LF',
    files: { 'lf/a.txt': 'a\nb\n', 'lf/b.txt': 'c\nd\n' },
    steps: [{ tool: 'fs_write', input: { path: 'lf/new.txt', content: 'x\ny\n' } }],
    after: { files: { 'lf/new.txt': 'x\ny\n' } },
  },
  {
    name: 'a patch that fails part-way writes nothing',
    files: { 'a.txt': 'a1\r\na2\r\n', 'b.txt': 'b1\r\n' },
    steps: [{ tool: 'fs_apply_patch', input: { patch: '*** Begin Patch\n*** Update File: a.txt\n@@\n-a1\n+A1\n*** Update File: B.TXT\n@@\n-nope\n+x\n*** End Patch' }, code: 1 }],
    after: { files: { 'a.txt': 'a1\r\na2\r\n', 'b.txt': 'b1\r\n' } },
  },
];
