// The unit tests the Windows suite runs under Node for Windows (Wine), in one mocha process:
// those whose subject differs by platform (paths and the path policy, globs, ignore rules,
// locks, patch headers and renames, edits and writes with CRLF). The whole unit suite runs
// on Linux in `npm test`; under Wine a Node call costs several times what it costs natively,
// so the rest stays there.
export const UNIT_FILES = [
  'access', // the path policy: outside, sensitive, protected, asked before shown
  'change-guards', // what must always ask: the editor's folders, settings, git's own files
  'glob', // fs_glob: patterns, paging, sorting
  'glob-shortcuts',
  'matcher', // globs compiled once, hostile globs
  'ignore', // .gitignore and the ignore settings
  'locks', // the per-file lock
  'patch-parse', // patch headers
  'patch-plan',
  'patch-rename',
  'apply-patch-tool',
  'edit-tool', // fs_edit, CRLF kept
  'fileText', // line endings and BOMs read and written back
  'write', // fs_write, CRLF kept on overwrite
  'name-rules', // the name rules and paths of all three platforms, pure: the same answers under Windows' Node
  'volume-probe', // the probe says what the volume does (Wine folds case as NTFS does)
];

/**
 * Tests that cannot run under Wine, by a word of their full title, with why. These are not
 * skipped for being red: each needs something Wine or this machine does not give, and each
 * runs in the Linux unit suite.
 */
export const NOT_UNDER_WINE = [
  {
    title: '(ripgrep)',
    why: 'ripgrep for Windows cannot be installed here (no package of the two reachable registries ships rg.exe); the tools fall back to their JavaScript engine, which the other tests run',
  },
  {
    title: 'symbolic link',
    why: "Wine 8 answers success to CreateSymbolicLink and makes no link, so a test's link is never there",
  },
  {
    title: 'outside link',
    why: "Wine 8 answers success to CreateSymbolicLink and makes no link, so a test's link is never there",
  },
  {
    title: 'shows nothing of a file that may hold secrets, or lies outside the workspace, when a chunk does not fit it',
    why: "the outside file is reached through a symbolic link, which Wine 8 does not make",
  },
  {
    title: 'a read-only file',
    why: "Wine keeps Windows' read-only attribute as the file's Unix mode, which root (these machines' user) writes through",
  },
];
