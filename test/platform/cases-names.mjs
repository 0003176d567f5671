// How names are found and printed on a volume that folds case (NTFS under Windows, the
// APFS-like volume under macOS): what works today. The format is in test/platform/README.md.
import { spelledAsOnDisk } from './cases-findings.mjs';

const APP = 'export const b = 2;\n';
const TREE = { 'Src/App.ts': APP, 'Src/sub/util.ts': 'export const u = 1;\n', 'README.md': '# demo\n' };
/** The case's workspace root as Windows writes it with forward slashes, or as it is. */
const fwd = (c) => c.root.replace(/\\/g, '/');

export const cases = [
  {
    name: 'src/app.ts reads Src/App.ts',
    files: TREE,
    steps: [{ tool: 'fs_read', input: { path: 'src/app.ts' }, has: ['L1: export const b = 2;', 'End of file.'] }],
  },
  {
    name: 'SRC/APP.TS reads Src/App.ts',
    files: TREE,
    steps: [{ tool: 'fs_read', input: { path: 'SRC/APP.TS' }, has: ['L1: export const b = 2;'] }],
  },
  {
    name: 'the CLI as a process of its own reads through another spelling, exit code 0',
    files: TREE,
    steps: [{ tool: 'fs_read', spawn: true, input: { path: 'src/APP.ts' }, has: ['L1: export const b = 2;'] }],
  },
  {
    name: 'an absolute path spelled in another case reads the file',
    files: TREE,
    steps: [{ tool: 'fs_read', input: (c) => ({ path: c.abs('SRC/app.TS') }), has: ['L1: export const b = 2;'] }],
  },
  {
    name: 'a folder spelled in another case reads as that folder',
    files: TREE,
    steps: [{ tool: 'fs_read', input: { path: 'src' }, has: ['<type>directory</type>', 'App.ts', 'sub/'] }],
  },
  {
    name: 'fs_list of a folder spelled in another case lists its entries as stored',
    files: TREE,
    steps: [{ tool: 'fs_list', input: { path: 'SRC' }, has: ['App.ts', 'sub/', 'util.ts'] }],
  },
  {
    name: 'fs_list of the root shows each name as stored',
    files: TREE,
    steps: [{ tool: 'fs_list', input: {}, has: ['Src/', 'App.ts', 'README.md'], lacks: ['src/'] }],
  },
  {
    name: 'fs_glob **/*.ts prints the names as stored, with /',
    files: TREE,
    steps: [{ tool: 'fs_glob', input: { pattern: '**/*.ts' }, has: ['Src/App.ts', 'Src/sub/util.ts'], lacks: ['\\'] }],
  },
  {
    name: 'fs_glob in a folder spelled in another case finds its files',
    files: TREE,
    steps: [{ tool: 'fs_glob', input: { pattern: '*.ts', path: 'SRC' }, has: ['App.ts', 'util.ts'] }],
  },
  {
    name: 'fs_grep prints the file as stored',
    files: TREE,
    steps: [{ tool: 'fs_grep', input: { pattern: 'const b' }, has: ['Src/App.ts', 'L1: export const b = 2;'] }],
  },
  {
    name: 'fs_grep on a file spelled in another case searches it',
    files: TREE,
    steps: [{ tool: 'fs_grep', input: { pattern: 'const b', path: 'SRC/APP.TS' }, has: ['L1: export const b = 2;'] }],
  },
  {
    name: 'fs_grep in a folder spelled in another case searches it',
    files: TREE,
    steps: [{ tool: 'fs_grep', input: { pattern: 'const u', path: 'src/SUB' }, has: ['util.ts', 'L1: export const u = 1;'] }],
  },
  {
    name: 'a read version holds across two spellings of one file',
    files: TREE,
    steps: [
      { tool: 'fs_read', input: { path: 'src/app.ts' }, capture: { v: /version ([0-9a-f]+)/ } },
      { tool: 'fs_write', input: { path: 'SRC/APP.TS', content: 'export const b = 3;\n', version: '{{v}}' }, has: ['version'] },
    ],
    after: { files: { 'Src/App.ts': 'export const b = 3;\n' } },
  },
  {
    name: 'fs_edit through another spelling changes the one file',
    files: TREE,
    steps: [{ tool: 'fs_edit', input: { path: 'src/app.ts', old_string: 'b = 2', new_string: 'b = 4' } }],
    after: { files: { 'Src/App.ts': 'export const b = 4;\n' } },
  },
  {
    name: 'fs_apply_patch updates a file named in another case',
    files: TREE,
    steps: [{ tool: 'fs_apply_patch', input: { patch: '*** Begin Patch\n*** Update File: src/APP.ts\n@@\n-export const b = 2;\n+export const b = 5;\n*** End Patch' }, has: ['Success'] }],
    after: { files: { 'Src/App.ts': 'export const b = 5;\n' } },
  },
  {
    name: 'fs_apply_patch deletes a file named in another case',
    files: TREE,
    steps: [{ tool: 'fs_apply_patch', input: { patch: '*** Begin Patch\n*** Delete File: SRC/APP.TS\n*** End Patch' }, has: ['Success'] }],
    after: { dir: { Src: ['sub'] } },
  },
  {
    name: 'a new file in a folder spelled in another case lands in that folder',
    files: TREE,
    steps: [{ tool: 'fs_write', input: { path: 'src/new.ts', content: 'n\n' }, has: ['Created'] }],
    after: { dir: { '': ['README.md', 'Src'], Src: ['App.ts', 'new.ts', 'sub'] }, files: { 'Src/new.ts': 'n\n' } },
  },
  {
    name: 'a patch adds a file in a folder spelled in another case',
    files: TREE,
    steps: [{ tool: 'fs_apply_patch', input: { patch: '*** Begin Patch\n*** Add File: SRC/SUB/added.ts\n+a\n*** End Patch' }, has: ['Success'] }],
    after: { dir: { '': ['README.md', 'Src'], 'Src/sub': ['added.ts', 'util.ts'] } },
  },
  {
    name: 'a patch moves a file into a folder spelled in another case',
    files: TREE,
    steps: [{ tool: 'fs_apply_patch', input: { patch: '*** Begin Patch\n*** Update File: Src/App.ts\n*** Move to: SRC/SUB/App.ts\n@@\n-export const b = 2;\n+export const b = 7;\n*** End Patch' }, has: ['Success'] }],
    after: { dir: { Src: ['sub'], 'Src/sub': ['App.ts', 'util.ts'] }, files: { 'Src/sub/App.ts': 'export const b = 7;\n' } },
  },
  {
    name: 'a rename to another name keeps the content',
    files: TREE,
    steps: [{ tool: 'fs_apply_patch', input: { patch: '*** Begin Patch\n*** Update File: Src/App.ts\n*** Move to: Src/Main.ts\n*** End Patch' }, has: ['Success'] }],
    after: { dir: { Src: ['Main.ts', 'sub'] }, files: { 'Src/Main.ts': APP } },
  },
  {
    name: 'a near name offers the file as stored',
    files: TREE,
    steps: [{ tool: 'fs_read', input: { path: 'Src/Ap.ts' }, code: 1, has: ['File not found', 'Src/App.ts'] }],
  },

  // --- Windows: separators and drive letters --------------------------------------------
  {
    name: 'backslashes: SRC\\APP.TS reads Src/App.ts',
    on: ['windows'],
    files: TREE,
    steps: [{ tool: 'fs_read', input: { path: 'SRC\\APP.TS' }, has: ['L1: export const b = 2;'] }],
  },
  {
    name: 'mixed separators: Src/sub\\util.ts reads the file',
    on: ['windows'],
    files: TREE,
    steps: [{ tool: 'fs_read', input: { path: 'Src/sub\\util.ts' }, has: ['L1: export const u = 1;'] }],
  },
  {
    name: 'a drive-letter path (Z:\\...) reads the file',
    on: ['windows'],
    files: TREE,
    steps: [{ tool: 'fs_read', input: (c) => ({ path: c.abs('Src/App.ts') }), has: ['L1: export const b = 2;'] }],
  },
  {
    name: 'a drive-letter path written with / reads the file',
    on: ['windows'],
    files: TREE,
    steps: [{ tool: 'fs_read', input: (c) => ({ path: `${fwd(c)}/Src/App.ts` }), has: ['L1: export const b = 2;'] }],
  },
  {
    name: 'a drive letter in lower case reads the file',
    on: ['windows'],
    files: TREE,
    steps: [{ tool: 'fs_read', input: (c) => ({ path: `${c.root[0].toLowerCase()}${c.root.slice(1)}\\Src\\App.ts` }), has: ['L1: export const b = 2;'] }],
  },
  {
    name: 'fs_list of src\\sub prints the folder with / and the names as stored',
    on: ['windows'],
    files: TREE,
    steps: [{ tool: 'fs_list', input: { path: 'src\\sub' }, has: ['Folder Src/sub', 'util.ts'] }],
  },
  {
    name: 'fs_grep in Src\\sub prints its paths with /',
    on: ['windows'],
    files: TREE,
    steps: [{ tool: 'fs_grep', input: { pattern: 'export', path: 'Src\\sub' }, has: ['Src/sub/util.ts'], lacks: ['Src\\sub'] }],
  },
  {
    name: 'fs_glob with a backslash folder as path prints /',
    on: ['windows'],
    files: TREE,
    steps: [{ tool: 'fs_glob', input: { pattern: '*.ts', path: 'Src\\sub' }, has: ['util.ts'], lacks: ['\\'] }],
  },
  {
    name: 'fs_edit through a backslash path changes the file',
    on: ['windows'],
    files: TREE,
    steps: [{ tool: 'fs_edit', input: { path: 'Src\\sub\\util.ts', old_string: 'u = 1', new_string: 'u = 2' } }],
    after: { files: { 'Src/sub/util.ts': 'export const u = 2;\n' } },
  },
  {
    name: 'fs_write through a backslash path creates the file in its folder',
    on: ['windows'],
    files: TREE,
    steps: [{ tool: 'fs_write', input: { path: 'Src\\sub\\w.ts', content: 'w\n' }, has: ['Created Src/sub/w.ts'] }],
    after: { dir: { 'Src/sub': ['util.ts', 'w.ts'] } },
  },

  {
    name: 'a patch header with backslashes (*** Update File: Src\\App.ts) parses and applies',
    on: ['windows'],
    files: TREE,
    steps: [{ tool: 'fs_apply_patch', input: { patch: '*** Begin Patch\n*** Update File: Src\\App.ts\n@@\n-export const b = 2;\n+export const b = 3;\n*** End Patch' }, has: ['Success', 'M Src/App.ts'] }],
    after: { files: { 'Src/App.ts': 'export const b = 3;\n' } },
  },
  {
    name: 'a patch header with a drive letter (*** Update File: Z:\\...\\App.ts) parses and applies',
    on: ['windows'],
    files: TREE,
    steps: [{ tool: 'fs_apply_patch', input: (c) => ({ patch: `*** Begin Patch\n*** Update File: ${c.abs('Src/App.ts')}\n@@\n-export const b = 2;\n+export const b = 3;\n*** End Patch` }), has: ['Success', 'Src/App.ts'] }],
    after: { files: { 'Src/App.ts': 'export const b = 3;\n' } },
  },
  {
    name: 'patch headers with backslashes add, move and delete',
    on: ['windows'],
    files: TREE,
    steps: [
      {
        tool: 'fs_apply_patch',
        input: { patch: '*** Begin Patch\n*** Add File: Src\\sub\\added.ts\n+a\n*** Update File: Src\\App.ts\n*** Move to: Src\\sub\\Moved.ts\n*** Delete File: Src\\sub\\util.ts\n*** End Patch' },
        has: ['Success', 'A Src/sub/added.ts', 'Src/sub/Moved.ts', 'D Src/sub/util.ts'],
      },
    ],
    after: { dir: { Src: ['sub'], 'Src/sub': ['Moved.ts', 'added.ts'] }, files: { 'Src/sub/Moved.ts': APP } },
  },

  // --- Windows: Node for Windows gives the spelling on disk (realpath.native) ----------------
  // (on the folding volume these are findings)
  ...spelledAsOnDisk(['windows']),

  // --- macOS: names Windows would not keep are ordinary names there ----------------------
  {
    name: 'with a\\b.txt and a/b.txt both there, fs_glob lists both, each as spelled',
    on: ['macos'],
    files: { 'a\\b.txt': 'backslash\n', 'a/b.txt': 'slash\n' },
    steps: [{ tool: 'fs_glob', input: { pattern: '**/*.txt' }, has: [/^a\\b\.txt$/m, /^a\/b\.txt$/m] }],
  },
  {
    name: 'an existing file named CON reads as a file (only Windows makes it a device)',
    on: ['macos'],
    files: { 'Src/CON': 'console text\n' },
    steps: [{ tool: 'fs_read', input: { path: 'Src/CON' }, has: ['L1: console text'] }],
  },
  {
    name: 'an existing file whose name ends in a dot reads as a file',
    on: ['macos'],
    files: { 'notes.': 'dot\n' },
    steps: [{ tool: 'fs_read', input: { path: 'notes.' }, has: ['L1: dot'] }],
  },
  {
    name: 'an existing file whose name holds a colon is edited in place',
    on: ['macos'],
    files: { 'a:b.txt': 'one\n' },
    steps: [{ tool: 'fs_edit', input: { path: 'a:b.txt', old_string: 'one', new_string: 'two' } }],
    after: { files: { 'a:b.txt': 'two\n' } },
  },
];
