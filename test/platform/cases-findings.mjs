// What a Windows or macOS user meets today and should not: each case is written as the
// contract (the spec's Platforms section) says the tool behaves, so it fails until the tool
// does. Names Windows does not keep are refused by the tool itself, naming the rule: under
// Wine the file system would have made them (a file called CON), so a case checks the tool's
// answer and that nothing was written, never what Wine did with the name. The format is in
// test/platform/README.md.
const APP = 'export const b = 2;\n';
const TREE = { 'Src/App.ts': APP, 'Src/sub/util.ts': 'export const u = 1;\n' };
const REFUSED = /refused/i;
const RESERVED = /reserved/i;
const STREAM = /stream/i;
const DOT_OR_SPACE = /dot or a space/i;
const CHARACTER = /no Windows name may hold|character/i;
const NFD = 'cafe\u0301.txt';
const NFC = 'caf\u00e9.txt';
/** A path deeper than Windows' 260 characters, below any workspace root. */
const DEEP = `${'d'.repeat(60)}/`.repeat(4) + 'deep.txt';

/** A case that writes `name` in Src/ with `tool` and expects it refused by `rule`, nothing written. */
function refusedName(name, rule, { tool = 'fs_write', on } = {}) {
  const input =
    tool === 'fs_write'
      ? { path: `Src/${name}`, content: 'x\n' }
      : tool === 'fs_edit'
        ? { path: `Src/${name}`, old_string: '', new_string: 'x\n' }
        : { patch: `*** Begin Patch\n*** Add File: Src/${name}\n+x\n*** End Patch` };
  return {
    name: `${tool} of a new Src/${JSON.stringify(name).slice(1, -1)} is refused, naming the rule`,
    ...(on ? { on } : {}),
    files: TREE,
    steps: [{ tool, input, code: 1, has: [REFUSED, rule], lacks: ['Created', 'Success'] }],
    after: { dir: { Src: ['App.ts', 'sub'] } },
  };
}

/**
 * The file on disk is the one named, in its spelling on disk, whatever spelling the model
 * used. Node for Windows gives that spelling already (realpath.native): cases-names.mjs runs
 * these for Windows; on the folding volume they are findings.
 */
export function spelledAsOnDisk(on) {
  return [
    {
      name: 'an Add File onto an entry spelled in another case says it replaces that file, and one file is left',
      files: TREE,
      steps: [{ tool: 'fs_apply_patch', input: { patch: '*** Begin Patch\n*** Add File: src/app.ts\n+export const b = 8;\n*** End Patch' }, has: ['Success', /replac|overwr/i] }],
      after: { dir: { Src: ['App.ts', 'sub'] }, files: { 'Src/App.ts': 'export const b = 8;\n' } },
    },
    {
      name: 'src/app.ts is printed as Src/App.ts',
      files: TREE,
      steps: [{ tool: 'fs_read', input: { path: 'src/app.ts' }, has: ['<path>Src/App.ts</path>'] }],
    },
    {
      name: 'an edit through SRC/APP.TS prints Src/App.ts',
      files: TREE,
      steps: [{ tool: 'fs_edit', input: { path: 'SRC/APP.TS', old_string: 'b = 2', new_string: 'b = 4' }, has: ['Src/App.ts'], lacks: ['SRC/APP.TS'] }],
      after: { files: { 'Src/App.ts': 'export const b = 4;\n' } },
    },
    {
      name: 'a new file in src/ is printed in its folder\'s spelling, Src/',
      files: TREE,
      steps: [{ tool: 'fs_write', input: { path: 'src/new.ts', content: 'n\n' }, has: ['Created Src/new.ts'] }],
    },
    {
      name: 'a patch through another spelling prints the file as on disk',
      files: TREE,
      steps: [{ tool: 'fs_apply_patch', input: { patch: '*** Begin Patch\n*** Update File: src/sub/UTIL.ts\n@@\n-export const u = 1;\n+export const u = 2;\n*** End Patch' }, has: ['M Src/sub/util.ts'] }],
    },
    {
      name: 'fs_read of the folder src prints it as Src',
      files: TREE,
      steps: [{ tool: 'fs_read', input: { path: 'src' }, has: ['<path>Src</path>', 'App.ts'] }],
    },
    {
      name: 'fs_list of src prints the folder as Src',
      files: TREE,
      steps: [{ tool: 'fs_list', input: { path: 'src' }, has: [/^Folder Src\b/m] }],
    },
  ].map((c) => ({ ...c, on }));
}

export const cases = [
  // --- one file, one name: renames -------------------------------------------------------
  // Under Wine a rename from App.ts to app.ts changes nothing (NTFS renames): the end state asked
  // for, the file under its new spelling, is had on both through a name in between.
  {
    name: 'a case-only rename by patch keeps the file, with the new spelling and content',
    files: TREE,
    steps: [{ tool: 'fs_apply_patch', input: { patch: '*** Begin Patch\n*** Update File: Src/App.ts\n*** Move to: Src/app.ts\n@@\n-export const b = 2;\n+export const b = 6;\n*** End Patch' }, has: ['Success', 'Src/app.ts'], lacks: ['replacing'] }],
    after: { dir: { Src: ['app.ts', 'sub'] }, files: { 'Src/app.ts': 'export const b = 6;\n' } },
  },
  {
    name: 'a case-only rename without a change of content keeps the file',
    files: TREE,
    steps: [{ tool: 'fs_apply_patch', input: { patch: '*** Begin Patch\n*** Update File: Src/App.ts\n*** Move to: Src/APP.TS\n*** End Patch' }, has: ['Success'] }],
    after: { dir: { Src: ['APP.TS', 'sub'] }, files: { 'Src/APP.TS': APP } },
  },
  {
    name: 'a case-only rename of a file named in yet another case keeps the file',
    files: TREE,
    steps: [{ tool: 'fs_apply_patch', input: { patch: '*** Begin Patch\n*** Update File: src/APP.ts\n*** Move to: Src/app.ts\n*** End Patch' }, has: ['Success'] }],
    after: { dir: { Src: ['app.ts', 'sub'] }, files: { 'Src/app.ts': APP } },
  },
  {
    name: 'a normalisation-only rename keeps the file, with the new spelling',
    on: ['macos'],
    files: { [NFD]: 'crème\n' },
    steps: [{ tool: 'fs_apply_patch', input: { patch: `*** Begin Patch\n*** Update File: ${NFD}\n*** Move to: ${NFC}\n*** End Patch` }, has: ['Success'] }],
    after: { dir: { '': [NFC] }, files: { [NFC]: 'crème\n' } },
  },
  // Wine resolves a rename's target to the entry already there, so under Wine a file keeps its
  // name whatever the tool renames onto it: these run on the folding volume only.
  {
    name: 'fs_write over another spelling keeps the name on disk',
    on: ['macos'],
    files: TREE,
    steps: [
      { tool: 'fs_read', input: { path: 'Src/App.ts' }, capture: { v: /version ([0-9a-f]+)/ } },
      { tool: 'fs_write', input: { path: 'src/APP.ts', content: 'export const b = 3;\n', version: '{{v}}' } },
    ],
    after: { dir: { Src: ['App.ts', 'sub'] }, files: { 'Src/App.ts': 'export const b = 3;\n' } },
  },

  {
    name: 'fs_edit through another spelling keeps the name on disk',
    on: ['macos'],
    files: TREE,
    steps: [{ tool: 'fs_edit', input: { path: 'src/app.ts', old_string: 'b = 2', new_string: 'b = 4' } }],
    after: { dir: { Src: ['App.ts', 'sub'] }, files: { 'Src/App.ts': 'export const b = 4;\n' } },
  },
  {
    name: 'a patch updating a file through another spelling keeps the name on disk',
    on: ['macos'],
    files: TREE,
    steps: [{ tool: 'fs_apply_patch', input: { patch: '*** Begin Patch\n*** Update File: SRC/APP.TS\n@@\n-export const b = 2;\n+export const b = 5;\n*** End Patch' }, has: ['Success'] }],
    after: { dir: { Src: ['App.ts', 'sub'] }, files: { 'Src/App.ts': 'export const b = 5;\n' } },
  },

  // --- one file, one name: printed as on disk ---------------------------------------------
  ...spelledAsOnDisk(['macos']),
  {
    name: 'an NFD name read through its NFC spelling is printed in NFD, as on disk',
    on: ['macos'],
    files: { [NFD]: 'crème\n' },
    steps: [{ tool: 'fs_read', input: { path: NFC }, has: [`<path>${NFD}</path>`, 'L1: crème'] }],
  },
  {
    name: 'an NFC name read through its NFD spelling is printed in NFC, as on disk',
    on: ['macos'],
    files: { [NFC]: 'crème\n' },
    steps: [{ tool: 'fs_read', input: { path: NFD }, has: [`<path>${NFC}</path>`, 'L1: crème'] }],
  },

  // --- globs fold where the volume folds ----------------------------------------------------
  {
    name: 'fs_glob **/app.TS finds Src/App.ts',
    files: TREE,
    steps: [{ tool: 'fs_glob', input: { pattern: '**/app.TS' }, has: ['Src/App.ts'] }],
  },
  {
    name: 'fs_glob src/*.ts finds Src/App.ts',
    files: TREE,
    steps: [{ tool: 'fs_glob', input: { pattern: 'src/*.ts' }, has: ['Src/App.ts'] }],
  },
  {
    name: 'fs_grep include *.TS searches Src/App.ts',
    files: TREE,
    steps: [{ tool: 'fs_grep', input: { pattern: 'const b', include: '*.TS' }, has: ['Src/App.ts'] }],
  },
  {
    name: 'fs_glob with the NFC spelling finds the NFD name',
    on: ['macos'],
    files: { [NFD]: 'crème\n' },
    steps: [{ tool: 'fs_glob', input: { pattern: NFC }, has: [NFD] }],
  },
  {
    name: "fs_grep's include with the NFC spelling searches the NFD name",
    on: ['macos'],
    files: { [NFD]: 'crème\n' },
    steps: [{ tool: 'fs_grep', input: { pattern: 'crème', include: NFC }, has: [NFD, 'L1: crème'] }],
  },

  // --- names Windows does not keep: refused, naming the rule, nothing written ---------------
  refusedName('CON', RESERVED),
  refusedName('nul.txt', RESERVED),
  refusedName('com1.log', RESERVED),
  refusedName('CONOUT$', RESERVED),
  refusedName('Aux.c', RESERVED, { tool: 'fs_apply_patch' }),
  refusedName('lpt1.md', RESERVED, { tool: 'fs_edit' }),
  refusedName('App.ts:evil', STREAM),
  refusedName('b.txt.', DOT_OR_SPACE),
  refusedName('c.txt ', DOT_OR_SPACE),
  refusedName('d.txt.', DOT_OR_SPACE, { tool: 'fs_apply_patch' }),
  refusedName('a?b.txt', CHARACTER),
  refusedName('a<b>.txt', CHARACTER),
  refusedName('a|b.txt', CHARACTER, { tool: 'fs_apply_patch' }),
  refusedName('a"b.txt', CHARACTER),
  refusedName('tab\there.txt', CHARACTER),
  {
    name: 'fs_write of src\\CON is refused, naming the rule',
    on: ['windows'],
    files: TREE,
    steps: [{ tool: 'fs_write', input: { path: 'src\\CON', content: 'x\n' }, code: 1, has: [REFUSED, RESERVED], lacks: ['Created'] }],
    after: { dir: { Src: ['App.ts', 'sub'] } },
  },
  {
    name: 'fs_read of Src\\NUL is refused, naming the rule',
    on: ['windows'],
    files: TREE,
    steps: [{ tool: 'fs_read', input: { path: 'Src\\NUL' }, code: 1, has: [REFUSED, RESERVED] }],
  },
  {
    name: 'fs_read of App.ts::$DATA is refused, naming the rule',
    on: ['windows'],
    files: TREE,
    steps: [{ tool: 'fs_read', input: { path: 'Src/App.ts::$DATA' }, code: 1, has: [REFUSED, STREAM], lacks: ['L1:'] }],
  },
  {
    name: 'fs_edit of an existing file through App.ts. is refused, naming the rule',
    on: ['windows'],
    files: TREE,
    steps: [{ tool: 'fs_edit', input: { path: 'Src/App.ts.', old_string: 'b = 2', new_string: 'b = 5' }, code: 1, has: [REFUSED, DOT_OR_SPACE] }],
    after: { files: { 'Src/App.ts': APP } },
  },
  {
    name: 'a patch deleting Src/CON is refused, naming the rule',
    on: ['windows'],
    files: TREE,
    steps: [{ tool: 'fs_apply_patch', input: { patch: '*** Begin Patch\n*** Delete File: Src/CON\n*** End Patch' }, code: 1, has: [REFUSED, RESERVED] }],
  },
  {
    name: 'a \\\\?\\ device path is refused, naming the rule',
    on: ['windows'],
    files: TREE,
    steps: [{ tool: 'fs_read', input: (c) => ({ path: `\\\\?\\${c.abs('Src/App.ts')}` }), code: 1, has: [/device path/i], lacks: ['L1:'] }],
  },
  {
    name: 'a \\\\.\\ device path is refused, naming the rule',
    on: ['windows'],
    files: TREE,
    steps: [{ tool: 'fs_write', input: { path: '\\\\.\\CON', content: 'x\n' }, code: 1, has: [/device path/i] }],
  },
  {
    name: 'a drive-relative path (Z:Src\\App.ts) is refused, naming the rule',
    on: ['windows'],
    files: TREE,
    steps: [{ tool: 'fs_read', input: { path: 'Z:Src\\App.ts' }, code: 1, has: [REFUSED, /drive/i], lacks: ['L1:'] }],
  },
  {
    name: 'a Git Bash path (/z/...) reads the file it names, or is refused naming the rule',
    on: ['windows'],
    files: TREE,
    steps: [{ tool: 'fs_read', input: (c) => ({ path: `/${c.root[0].toLowerCase()}${c.root.slice(2).replace(/\\/g, '/')}/Src/App.ts` }), code: [0, 1], has: [/L1: export const b = 2;|refused.*drive/is] }],
  },

  {
    name: "fs_list's first line prints the folder's absolute path with /",
    on: ['windows'],
    files: TREE,
    steps: [{ tool: 'fs_list', input: { path: 'Src\\sub' }, has: ['Folder Src/sub', 'util.ts'], lacks: ['\\'] }],
  },

  // --- Windows paths over 260 characters ----------------------------------------------------
  {
    name: 'a new file at a path over 260 characters is written (or refused with the reason), never UNKNOWN',
    on: ['windows'],
    files: TREE,
    steps: [{ tool: 'fs_write', input: { path: DEEP, content: 'deep\n' }, code: [0, 1], has: [/Created|260|long/], lacks: ['UNKNOWN', 'unknown error'] }],
  },
  {
    name: 'a file at a path over 260 characters reads (or is refused with the reason), never UNKNOWN',
    on: ['windows'],
    files: { [DEEP]: 'deep\n' },
    steps: [{ tool: 'fs_read', input: { path: DEEP }, code: [0, 1], has: [/L1: deep|260|long/], lacks: ['UNKNOWN', 'unknown error'] }],
  },
  {
    name: 'an edit at a path over 260 characters lands (or is refused with the reason), never UNKNOWN',
    on: ['windows'],
    files: { [DEEP]: 'deep\n' },
    steps: [{ tool: 'fs_edit', input: { path: DEEP, old_string: 'deep', new_string: 'deeper' }, code: [0, 1], has: [/Edited|260|long/], lacks: ['UNKNOWN', 'unknown error'] }],
  },

  // --- line endings of new files ------------------------------------------------------------
  {
    name: 'a new file in a folder of CRLF files is written with CRLF',
    files: { 'win/a.txt': 'a\r\nb\r\n', 'win/b.txt': 'c\r\nd\r\n', 'win/c.txt': 'e\r\n' },
    steps: [{ tool: 'fs_write', input: { path: 'win/new.txt', content: 'x\ny\n' } }],
    after: { files: { 'win/new.txt': 'x\r\ny\r\n' } },
  },
  {
    name: 'a file a patch adds to a folder of CRLF files is written with CRLF',
    files: { 'win/a.txt': 'a\r\nb\r\n', 'win/b.txt': 'c\r\nd\r\n' },
    steps: [{ tool: 'fs_apply_patch', input: { patch: '*** Begin Patch\n*** Add File: win/added.txt\n+x\n+y\n*** End Patch' } }],
    after: { files: { 'win/added.txt': 'x\r\ny\r\n' } },
  },

  // --- POSIX: a backslash is part of a name ---------------------------------------------------
  {
    name: 'fs_read of a\\b.txt reads the entry spelled so, not a/b.txt',
    on: ['macos'],
    files: { 'a\\b.txt': 'backslash\n', 'a/b.txt': 'slash\n' },
    steps: [{ tool: 'fs_read', input: { path: 'a\\b.txt' }, has: ['L1: backslash'] }],
  },
  {
    name: '*** Delete File: a\\b.txt deletes the entry spelled so, and a/b.txt stays',
    on: ['macos'],
    files: { 'a\\b.txt': 'backslash\n', 'a/b.txt': 'slash\n' },
    steps: [{ tool: 'fs_apply_patch', input: { patch: '*** Begin Patch\n*** Delete File: a\\b.txt\n*** End Patch' }, has: ['Success'] }],
    after: { dir: { '': ['a'] }, files: { 'a/b.txt': 'slash\n' } },
  },
  {
    name: 'a path fs_grep prints for a\\b.txt, passed back, reaches that same entry',
    on: ['macos'],
    files: { 'a\\b.txt': 'needle in backslash\n', 'a/b.txt': 'slash\n' },
    steps: [
      { tool: 'fs_grep', input: { pattern: 'needle', output: 'files' }, capture: { p: /^(a.b\.txt)$/m } },
      { tool: 'fs_read', input: { path: '{{p}}' }, has: ['L1: needle in backslash'] },
    ],
  },

  // --- volumes that cache attributes (the macOS suite's one-second run) ---------------------
  {
    name: 'two edits in a row both land',
    on: ['macos-cached'],
    files: TREE,
    steps: [
      { tool: 'fs_edit', input: { path: 'Src/App.ts', old_string: 'b = 2', new_string: 'b = 3' } },
      { tool: 'fs_edit', input: { path: 'Src/App.ts', old_string: 'b = 3', new_string: 'b = 4' } },
    ],
    after: { files: { 'Src/App.ts': 'export const b = 4;\n' } },
  },
  {
    name: 'an edit right after a write of the same file lands',
    on: ['macos-cached'],
    files: TREE,
    steps: [
      { tool: 'fs_write', input: { path: 'Src/fresh.ts', content: 'export const f = 1;\n' } },
      { tool: 'fs_edit', input: { path: 'Src/fresh.ts', old_string: 'f = 1', new_string: 'f = 22' } },
    ],
    after: { files: { 'Src/fresh.ts': 'export const f = 22;\n' } },
  },
];
