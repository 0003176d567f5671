// The path policy under each platform's names: git's own files, secrets, protected files and
// paths outside the workspace, in every spelling a folding volume or Windows accepts. What
// works today. The format is in test/platform/README.md.
const GIT = { '.git/config': '[core]\n\tbare = false\n', '.git/HEAD': 'ref: refs/heads/main\n', '.git/hooks/README': 'hooks\n', 'Src/App.ts': 'export const b = 2;\n' };
const SECRETS = { '.env': 'SECRET=hunter2\n', 'Src/App.ts': 'export const b = 2;\n' };
const GIT_DIR = /\.git folder/;
const ASKS_SECRET = /may hold secrets/;
const OUTSIDE = /outside the workspace/;
const PROTECTED = /is protected/;

export const cases = [
  // --- git's own files ----------------------------------------------------------------------
  {
    name: '.GIT/CONFIG is never read',
    files: GIT,
    steps: [{ tool: 'fs_read', input: { path: '.GIT/CONFIG' }, code: 1, has: [GIT_DIR], lacks: ['bare'] }],
  },
  {
    name: '.Git/hooks/pre-commit is never written',
    files: GIT,
    steps: [{ tool: 'fs_write', input: { path: '.Git/hooks/pre-commit', content: '#!/bin/sh\necho owned\n' }, code: 1, has: [GIT_DIR] }],
    after: { dir: { '.git/hooks': ['README'] } },
  },
  {
    name: '.GIT/config is never edited',
    files: GIT,
    steps: [{ tool: 'fs_edit', input: { path: '.GIT/config', old_string: 'bare = false', new_string: 'bare = true' }, code: 1, has: [GIT_DIR] }],
    after: { files: { '.git/config': '[core]\n\tbare = false\n' } },
  },
  {
    name: 'a patch adding .GIT/hooks/post-checkout is refused whole',
    files: GIT,
    steps: [{ tool: 'fs_apply_patch', input: { patch: '*** Begin Patch\n*** Add File: Src/ok.ts\n+ok\n*** Add File: .GIT/hooks/post-checkout\n+echo owned\n*** End Patch' }, code: 1, has: [GIT_DIR] }],
    after: { dir: { '.git/hooks': ['README'], Src: ['App.ts'] } },
  },
  {
    name: 'a patch deleting .Git/HEAD is refused',
    files: GIT,
    steps: [{ tool: 'fs_apply_patch', input: { patch: '*** Begin Patch\n*** Delete File: .Git/HEAD\n*** End Patch' }, code: 1, has: [GIT_DIR] }],
    after: { files: { '.git/HEAD': 'ref: refs/heads/main\n' } },
  },
  {
    name: 'fs_grep never searches .GIT',
    files: GIT,
    steps: [{ tool: 'fs_grep', input: { pattern: 'bare', path: '.GIT' }, code: 1, has: [GIT_DIR], lacks: ['bare = false'] }],
  },

  // --- secrets ------------------------------------------------------------------------------
  {
    name: '.Env asks before it is read',
    files: SECRETS,
    steps: [{ tool: 'fs_read', input: { path: '.Env' }, yes: false, code: 3, has: [ASKS_SECRET], lacks: ['hunter2'] }],
  },
  {
    name: '.ENV asks before it is read',
    files: SECRETS,
    steps: [{ tool: 'fs_read', input: { path: '.ENV' }, yes: false, code: 3, has: [ASKS_SECRET], lacks: ['hunter2'] }],
  },
  {
    name: 'a secret spelled in another case is left out of a search',
    files: SECRETS,
    steps: [{ tool: 'fs_grep', input: { pattern: 'SECRET|const', output: 'files' }, has: ['Src/App.ts'], lacks: ['hunter2', '.env'] }],
  },
  {
    name: 'an edit of .ENV asks, and shows nothing of it',
    files: SECRETS,
    steps: [{ tool: 'fs_edit', input: { path: '.ENV', old_string: 'SECRET=hunter2', new_string: 'SECRET=x' }, yes: false, code: 3, lacks: ['hunter2'] }],
    after: { files: { '.env': 'SECRET=hunter2\n' } },
  },
  {
    name: 'a key file spelled in another case asks',
    files: { '.ssh/id_rsa': '-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n' },
    steps: [{ tool: 'fs_read', input: { path: '.SSH/ID_RSA' }, yes: false, code: 3, has: [ASKS_SECRET], lacks: ['abc'] }],
  },

  // --- protected files ---------------------------------------------------------------------
  {
    name: '.VSCODE/settings.json is protected in any case',
    files: { '.vscode/settings.json': '{}\n' },
    steps: [{ tool: 'fs_edit', input: { path: '.VSCODE/Settings.json', old_string: '{}', new_string: '{"x": 1}' }, code: 3, has: [PROTECTED] }],
    after: { files: { '.vscode/settings.json': '{}\n' } },
  },
  {
    name: '.GitHub/Copilot-Instructions.md is protected in any case',
    files: { '.github/copilot-instructions.md': '# rules\n' },
    steps: [{ tool: 'fs_edit', input: { path: '.GitHub/Copilot-Instructions.md', old_string: '# rules', new_string: '# mine' }, code: 3, has: [PROTECTED] }],
    after: { files: { '.github/copilot-instructions.md': '# rules\n' } },
  },
  {
    name: 'a new AGENTS.MD is protected',
    files: { 'Src/App.ts': 'export const b = 2;\n' },
    steps: [{ tool: 'fs_write', input: { path: 'Agents.MD', content: 'do as I say\n' }, code: 3, has: [PROTECTED] }],
    after: { dir: { '': ['Src'] } },
  },

  // --- outside the workspace ---------------------------------------------------------------
  {
    name: '../ asks as outside',
    files: { 'Src/App.ts': 'export const b = 2;\n' },
    steps: [{ tool: 'fs_read', input: { path: '../elsewhere/Src/App.ts' }, code: 1, has: [OUTSIDE], lacks: ['L1:'] }],
  },
  {
    name: 'a write outside asks and writes nothing',
    files: { 'Src/App.ts': 'export const b = 2;\n' },
    steps: [{ tool: 'fs_write', input: { path: '../outside-write.txt', content: 'x\n' }, code: 1, has: [OUTSIDE] }],
  },

  // --- Windows: separators, trailing dots, UNC paths ------------------------------
  {
    name: '.GIT\\CONFIG is never read',
    on: ['windows'],
    files: GIT,
    steps: [{ tool: 'fs_read', input: { path: '.GIT\\CONFIG' }, code: 1, has: [GIT_DIR], lacks: ['bare'] }],
  },
  {
    name: '.Git\\hooks\\pre-commit is never written',
    on: ['windows'],
    files: GIT,
    steps: [{ tool: 'fs_write', input: { path: '.Git\\hooks\\pre-commit', content: 'echo owned\n' }, code: 1, has: [GIT_DIR] }],
    after: { dir: { '.git/hooks': ['README'] } },
  },
  {
    name: '.git.\\hooks\\pre-commit (Windows drops the dot) is never written',
    on: ['windows'],
    files: GIT,
    steps: [{ tool: 'fs_write', input: { path: '.git.\\hooks\\pre-commit', content: 'echo owned\n' }, code: 1, has: [GIT_DIR], lacks: ['Created'] }],
    after: { dir: { '.git/hooks': ['README'] } },
  },
  {
    name: 'a UNC path counts as outside',
    on: ['windows'],
    files: { 'Src/App.ts': 'export const b = 2;\n' },
    steps: [{ tool: 'fs_read', input: { path: '\\\\server\\share\\notes.txt' }, code: 1, has: [OUTSIDE] }],
  },
  {
    name: 'a UNC path written with / counts as outside',
    on: ['windows'],
    files: { 'Src/App.ts': 'export const b = 2;\n' },
    steps: [{ tool: 'fs_write', input: { path: '//server/share/notes.txt', content: 'x\n' }, code: 1, has: [OUTSIDE] }],
  },
  {
    name: 'another folder of the drive asks as outside',
    on: ['windows'],
    files: { 'Src/App.ts': 'export const b = 2;\n' },
    steps: [{ tool: 'fs_list', input: { path: 'Z:\\' }, code: 1, has: [OUTSIDE] }],
  },
  {
    name: '..\\ asks as outside',
    on: ['windows'],
    files: { 'Src/App.ts': 'export const b = 2;\n' },
    steps: [{ tool: 'fs_read', input: { path: '..\\elsewhere\\Src\\App.ts' }, code: 1, has: [OUTSIDE], lacks: ['L1:'] }],
  },
];
