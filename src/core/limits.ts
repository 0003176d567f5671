/**
 * Every hard cap the tools apply, with its unit in its name. Input can lower some of
 * them (a smaller `limit`), never raise them.
 */

/** Lines one fs_read page returns at most. */
export const MAX_READ_LINES = 2000;
/** Bytes (UTF-8) of rendered content one fs_read page returns at most. */
export const MAX_READ_BYTES = 50 * 1024;
/** The fewest lines `agentFileTools.read.maxLines` may set a page to (the setting only lowers MAX_READ_LINES). */
export const READ_SETTING_MIN_LINES = 10;
/** The fewest bytes `agentFileTools.read.maxBytes` may set a page to (the setting only lowers MAX_READ_BYTES). */
export const READ_SETTING_MIN_BYTES = 1024;
/** Characters (UTF-16 code units) of one line before it is cut. */
export const MAX_LINE_CHARS = 2000;
/**
 * Files up to this size are read whole, decoded, counted and hashed. Larger files are
 * streamed: the page is found without loading the file, and the total is not counted.
 */
export const FULL_READ_MAX_BYTES = 8 * 1024 * 1024;
/** Bytes sniffed at the start of a file to tell text from binary. */
export const SNIFF_BYTES = 4096;
/** Share of control bytes in the sniffed sample above which a file is binary. */
export const BINARY_CONTROL_RATIO = 0.3;
/** "Did you mean" candidates given for a missing path. */
export const MAX_SUGGESTIONS = 3;
/** Symbols one outline page lists at most (fs_read mode "outline"; the page's bytes are capped by MAX_READ_BYTES too). */
export const MAX_OUTLINE_SYMBOLS = 500;
/**
 * Bytes (UTF-8) of symbol lines the first page of an outline shows (a later page, or one
 * with `limit`, fills MAX_READ_BYTES): the tree is shown down to the deepest level that
 * fits (deeper symbols counted on the line of the one that holds them), so the first
 * answer for a big file stays near 2 KiB with its envelope, and a file with a small top
 * level costs a few hundred bytes.
 */
export const MAX_OUTLINE_PAGE_BYTES = 1536;
/** Collapsed symbols tried for the call that outlines one of them, largest first, before none is offered (several share a name). */
export const MAX_OUTLINE_INSIDE_TRIES = 20;
/** Characters of a symbol's name, and of its parameter list, shown in an outline before they are cut. */
export const MAX_OUTLINE_NAME_CHARS = 80;
/** Levels of nesting an outline descends to (a class, its methods, the functions inside those, ...). */
export const MAX_OUTLINE_DEPTH = 4;
/** Milliseconds a syntax parse for an outline may take before its thread is terminated and the indentation outline answers. */
export const MAX_OUTLINE_PARSE_MS = 5000;
/** Heap (bytes) of the thread outlines are parsed on; the parser's WASM memory comes on top, bounded by MAX_OUTLINE_PARSE_BYTES of input. */
export const MAX_OUTLINE_WORKER_HEAP_BYTES = 256 * 1024 * 1024;
/** Milliseconds the parse thread stays warm after an outline before it is ended (the next outline starts it again). */
export const OUTLINE_WORKER_IDLE_MS = 5 * 60 * 1000;
/** Milliseconds the editor's symbol providers (language servers) get to answer before the parser answers instead. */
export const MAX_OUTLINE_PROVIDER_MS = 5000;
/** Bytes (UTF-8) of a file parsed for an outline at most: larger files get the indentation outline. */
export const MAX_OUTLINE_PARSE_BYTES = 8 * 1024 * 1024;
/**
 * Steps of edit distance (cells of the table, see levenshteinWithin) one "did you mean"
 * for a symbol spends at most: some tens of milliseconds, in slices, whatever the outline
 * holds (enough for every name of a 100,000-symbol outline asked for by a short name);
 * the closest names among those it reached are offered.
 */
export const MAX_SYMBOL_SUGGEST_CELLS = 5_000_000;
/** Characters of a `symbol` argument (a dotted name, perhaps with parameters). */
export const MAX_SYMBOL_QUERY_CHARS = 500;
/** Lines of comments, decorators and attributes above a symbol taken as its documentation. */
export const MAX_SYMBOL_DOC_LINES = 200;
/** Directory entries read at most by fs_read on a directory. */
export const MAX_DIR_ENTRIES = 5000;
/** Hex digits of the content hash shown as a file's version. */
export const VERSION_HEX_CHARS = 8;
/** Chunk size of streamed reads, in bytes. */
export const STREAM_CHUNK_BYTES = 256 * 1024;
/**
 * Streamed files up to this size get a line total: the newlines after the page are
 * counted (one fast pass, about the cost of reading the file). Larger files say
 * "total not counted" unless the page reaches the end.
 */
export const LINE_TOTAL_MAX_BYTES = 64 * 1024 * 1024;
/**
 * Bytes of one read of the newline scan that finds a deep line: few enough to stay in
 * the processor's cache while its newlines are counted, large enough that a gigabyte
 * takes about a thousand reads.
 */
export const LINE_SCAN_CHUNK_BYTES = 1024 * 1024;

/**
 * The same where a read is a synchronous call, not a round trip through the thread pool
 * (the CLI): smaller reads stay in the processor's cache (a 10 MiB file counted in 2.7 ms
 * instead of 3.9 ms), and their number costs nothing more.
 */
export const LINE_SCAN_CHUNK_BYTES_SYNC = 256 * 1024;
/**
 * Reads of the newline scan in flight at once, each into a buffer of its own: the file
 * system's threads read ahead while one chunk is counted (memory: this many chunks).
 */
export const LINE_SCAN_READS_IN_FLIGHT = 3;
/**
 * fsyncs a change has in flight at once (its temporary files, then the folders it renamed
 * in): the disk commits concurrent syncs together, where one after another each waits for
 * its own commit; also the most descriptors the change holds open for them.
 */
export const APPLY_FSYNCS_IN_FLIGHT = 16;
/**
 * Folders a change holds open at once on Linux (see Disk.inFolder): each file of a change
 * is reached about ten times through its folder, and opening it afresh each time was most
 * of the apply's system calls. The least recently used is let go first.
 */
export const APPLY_HELD_FOLDERS = 256;
/** Paths of one change resolved or checked at once (real paths, git directories, texts read again). */
export const PATH_CHECKS_IN_FLIGHT = 8;
/** Files whose line-start index is kept (least recently read dropped first). */
export const MAX_LINE_INDEX_FILES = 32;
/**
 * Checkpoints (line number and the byte it starts at) kept per file: 64 KiB at most. When
 * full, every other one is dropped, so they stay spread over the whole file.
 */
export const MAX_LINE_INDEX_CHECKPOINTS = 4096;
/** Lines at least between two checkpoints a scan records (a page's end is always recorded). */
export const LINE_INDEX_MIN_STEP_LINES = 1000;
/**
 * A folder whose own size (what the file system records of its entries; ext4: 4 KiB per
 * ~150 names) is over this is read by name, each entry's type looked up when a listing
 * reaches it, in bytes.
 */
export const LAZY_TYPE_FOLDER_BYTES = 1024 * 1024;
/** Lines scanned up from the end of a block comment for its start, in indentation mode's header. */
export const INDENT_COMMENT_SCAN_MAX_LINES = 200;
/** Bytes of a PDF above which fs_read does not extract its text (pdf.js holds it all in memory). */
export const MAX_PDF_BYTES = 64 * 1024 * 1024;
/** Pages of a PDF one fs_read call returns at most. */
export const MAX_PDF_PAGES_PER_READ = 100;
/** Characters (UTF-16 code units) of one PDF page's text before it is cut. */
export const MAX_PDF_PAGE_CHARS = 50 * 1024;
/** Lines of one notebook output shown (the first and last ones) before the rest is counted, not shown. */
export const MAX_NOTEBOOK_OUTPUT_LINES = 10;
/** Characters (UTF-16 code units) of one notebook output line before it is cut. */
export const MAX_NOTEBOOK_OUTPUT_LINE_CHARS = 500;
/** Bytes (UTF-8) of one AGENTS.md / CLAUDE.md shown after a read before it is cut. */
export const MAX_INSTRUCTION_FILE_BYTES = 16 * 1024;
/** Bytes (UTF-8) of all instruction files shown after one read. */
export const MAX_INSTRUCTIONS_TOTAL_BYTES = 32 * 1024;
/** Compiled glob lists (the sensitive, protected and allowed-outside settings) kept for the process; the oldest are dropped first. */
export const MAX_COMPILED_GLOB_SETS = 16;
/** Chat requests whose instruction files given are remembered; the least recent are forgotten. */
export const MAX_INSTRUCTION_REQUESTS = 64;

// Discovery tools: fs_list, fs_glob, fs_grep.

/** Folder levels fs_list descends at most (depth=1 lists only the folder's own entries). */
export const MAX_LIST_DEPTH_LEVELS = 10;
/** Entries one fs_list page returns at most. */
export const MAX_LIST_ENTRIES = 1000;
/** Characters (UTF-16 code units) of one entry name fs_list prints before cutting it. */
export const MAX_LIST_NAME_CHARS = 500;
/** Bytes (UTF-8) of entry lines one fs_list page returns at most. */
export const MAX_LIST_OUTPUT_BYTES = 64 * 1024;
/** Paths one fs_glob page returns at most. */
export const MAX_GLOB_RESULTS = 1000;
/** Matching files fs_glob sorts by modification time at most (each is stat'ed). */
export const MAX_MTIME_SORT_FILES = 250_000;
/** Files stat'ed in one synchronous batch before the event loop gets a turn. */
export const STAT_BATCH_FILES = 2000;
/** Matches (lines, or blocks of lines in multiline mode) one fs_grep page returns at most. */
export const MAX_GREP_MATCHES = 1000;
/** Lines of context fs_grep shows around a match at most, on each side. */
export const MAX_GREP_CONTEXT_LINES = 10;
/** Bytes (UTF-8) of result lines one fs_glob or fs_grep page returns at most. */
export const MAX_SEARCH_OUTPUT_BYTES = 64 * 1024;
/** Globs one `{a,b}` pattern may expand to. */
export const MAX_BRACE_EXPANSIONS = 256;
/** Files larger than this are not searched by the JavaScript fallback (ripgrep streams them). */
export const MAX_JS_SEARCH_FILE_BYTES = 64 * 1024 * 1024;
/**
 * Bytes of a line ripgrep prints whole (`--max-columns`); a longer one comes as its
 * start only. Four bytes per character keep MAX_LINE_CHARS characters of any line.
 */
export const MAX_RG_COLUMN_BYTES = 4 * MAX_LINE_CHARS;
/** Characters of file paths passed to one ripgrep process (Windows caps a command line at 32,767). */
export const MAX_RG_PATH_ARG_CHARS = 16 * 1024;
/** Bytes of one ignore file (.gitignore, .ignore, .rgignore) read at most; the rest is not read. */
export const MAX_IGNORE_FILE_BYTES = 4 * 1024 * 1024;
/**
 * Rules of one ignore file the JavaScript walks apply, the first ones; the rest are not.
 * Each path is tested against every rule, so a file of 150,000 rules would cost minutes
 * of matching; the largest hand-written files hold a few thousand.
 */
export const MAX_IGNORE_FILE_RULES = 10_000;
/** Characters of one ignore rule; a longer line is not applied (no path is that long). */
export const MAX_IGNORE_RULE_CHARS = 4096;
/**
 * Characters of ignore rules that mix a star with `?` or a set (`*.py[cod]`, `*a?*b`) one
 * call applies, over all its ignore files: each costs a path's name length times its own
 * length to match, the others a native search. People write a few dozen.
 */
export const MAX_IGNORE_WILDCARD_CHARS = 8 * 1024;
/**
 * Milliseconds the ignore rules of one call may spend matching paths, in all. Rules a
 * person writes match a path in well under a microsecond; a repository's file of rules
 * built to backtrack meets this, and the call says so.
 */
export const MAX_IGNORE_MATCH_MS = 15_000;
/** Milliseconds a loop of the calling thread runs before it lets other work run (and sees a cancellation). */
export const PACE_SLICE_MS = 20;
/**
 * Milliseconds of a child's output (ripgrep's) one turn of the calling thread hands on line by
 * line before the stream waits for the next turn: a flood of lines never holds the thread long.
 */
export const STREAM_TURN_MS = 5;

/**
 * A child's output that comes in small reads is left to gather in its pipe for up to
 * GATHER_MS between reads (see ReadPace): never for longer than the child takes to print
 * GATHER_SAFE_BYTES, or GATHER_SAFE_RECORDS lines, less than a pipe holds (a socket pair
 * holds about 280 writes on Linux, 4.4 KiB of 16-byte writes; 8 KiB on macOS).
 */
export const GATHER_MS = 2;
export const GATHER_SAFE_BYTES = 4 * 1024;
/** The same in lines, where the reader counts them: a socket pair holds about 280 writes, whatever their size. */
export const GATHER_SAFE_RECORDS = 128;
/** Ignored paths a footer names as examples. */
export const MAX_IGNORED_EXAMPLES = 5;
/** Files of a patch a result names as not checked for errors, per reason (then how many more). */
export const MAX_UNCHECKED_NAMED = 5;
/** Bytes of `git ls-files` output fs_list accepts (about 2 million paths). */
export const MAX_GIT_LIST_BYTES = 128 * 1024 * 1024;
/** Bytes of a git index file fs_list reads at most (about a million tracked files). */
export const MAX_GIT_INDEX_BYTES = 128 * 1024 * 1024;
/** Characters of one line of a program's output kept; a longer line keeps its start. */
export const MAX_OUTPUT_LINE_CHARS = 1024 * 1024;
/** Memory (resident, not file-backed) a ripgrep or git run may use before it is stopped. */
export const MAX_CHILD_MEMORY_BYTES = 512 * 1024 * 1024;
/** Milliseconds a ripgrep or git run may go without any progress (CPU, reads, output) before it is stopped. */
export const CHILD_STALL_MS = 3000;
/** Milliseconds one ripgrep or git run may take at most. */
export const MAX_CHILD_RUN_MS = 120_000;
/** How often a running child's memory and progress are checked, in milliseconds. */
export const CHILD_WATCH_MS = 100;
/** How often a task's deadline, memory and cancellation are checked, in milliseconds. */
export const TASK_WATCH_MS = 50;
/** Memory (heap and buffers) a task thread may add: a regex search, a PDF's text. */
export const MAX_TASK_MEMORY_BYTES = 512 * 1024 * 1024;
/** Milliseconds the JavaScript search's regex may take on one file before the search stops. */
export const MAX_REGEX_FILE_MS = 5000;
/** Milliseconds a task thread waits for more work before it stops (the next request starts it again). */
export const TASK_IDLE_MS = 1000;
/** Milliseconds one fs_read of a PDF may spend extracting text; the pages done by then are shown. */
export const MAX_PDF_EXTRACT_MS = 5000;
/** How often a running ripgrep is checked for cancellation, in milliseconds. */
export const CANCEL_POLL_MS = 25;
/** Bytes of a .ipynb file fs_read parses at most (its JSON is read whole). */
export const MAX_NOTEBOOK_BYTES = 32 * 1024 * 1024;
/**
 * Nesting of a notebook's JSON fs_read parses at most: nbformat needs about ten levels,
 * and each level parsed is an array or object in memory (32 MiB of "[" are 16 million).
 */
export const MAX_NOTEBOOK_JSON_DEPTH = 256;
/** Arrays and objects of a notebook's JSON fs_read parses at most (a few hundred bytes of memory each). */
export const MAX_NOTEBOOK_JSON_CONTAINERS = 1_000_000;

// Tool input: every string field has a maximum length (also in package.json's inputSchema).

/** Characters of a path given to a tool (PATH_MAX on Linux). */
export const MAX_PATH_INPUT_CHARS = 4096;
/** Characters of a `version` given back to a tool (fs_read's are 8). */
export const MAX_VERSION_INPUT_CHARS = 64;
/** Characters of an fs_grep pattern. */
export const MAX_PATTERN_INPUT_CHARS = 8192;
/** Characters of a glob: an fs_glob pattern, an fs_grep include, one fs_list ignore glob. */
export const MAX_GLOB_INPUT_CHARS = 4096;
/** Globs in fs_list's ignore list. */
export const MAX_IGNORE_INPUT_GLOBS = 100;
/**
 * Characters of a cursor (fs_list, fs_glob, fs_grep): it carries a path in base64 of JSON, up
 * to about 8 characters for each of a path's (a control character is escaped), and a Windows
 * path may be 32,767 long.
 */
export const MAX_CURSOR_INPUT_CHARS = 65536;
/** Levels of arrays and objects inside one another an input may have. */
export const MAX_INPUT_DEPTH = 16;
/** Problems an invalid-input message lists at most; the rest are counted. */
export const MAX_INPUT_ISSUES = 8;
/** Characters of a tool's error text; longer ones are cut. */
export const MAX_ERROR_TEXT_CHARS = 8000;

// Mutating tools: fs_edit, fs_write, fs_apply_patch.

/** Bytes of a file that can be changed as text at most (it is loaded, matched and written whole). */
export const MAX_EDIT_FILE_BYTES = 16 * 1024 * 1024;
/** Characters of `content`, `old_string` or `new_string` one call may give (a whole file at most). */
export const MAX_EDIT_TEXT_CHARS = MAX_EDIT_FILE_BYTES;
/** Edits one fs_edit call may list. */
export const MAX_EDITS_PER_CALL = 100;
/** Lines of the applied change's unified diff a result shows before cutting it. */
export const MAX_CHANGE_DIFF_LINES = 120;
/** Bytes (UTF-8) of the applied change's unified diff a result shows before cutting it (a line can be a whole minified file). */
export const MAX_CHANGE_DIFF_BYTES = 32 * 1024;
/** Bytes of diffs a patch's result shows, all files together (each file's within the two caps above); the diffs of the files after are counted. */
export const MAX_PATCH_DIFF_BYTES = 32 * 1024;
/** Bytes (UTF-8) of the unified diffs the CLI prints for a change it may not apply (all files together). */
export const MAX_PREVIEW_DIFF_BYTES = 64 * 1024;
/**
 * Lines one line diff (a result's diff, its line counts, the edits applied to a document)
 * visits at most, besides reading each line once: a Myers pass visits a span's lines once
 * per edit length it tries. Past it, what is left counts as removed and added whole:
 * coarse, never wrong.
 */
export const MAX_DIFF_WORK_LINES = 10_000_000;
/** Lines (old + new) of a span up to which the line diff tries Myers' diff; longer spans are cut on unique lines first. */
export const MAX_DIFF_MYERS_SPAN_LINES = 4000;
/** Edit length (lines inserted + deleted) at which Myers' diff of one span gives up, and the span is cut on unique lines. */
export const MAX_DIFF_MYERS_EDIT_LINES = 1000;
/** New errors a result lists per changed file. */
export const MAX_DIAGNOSTICS_PER_FILE = 20;
/** Other files with new errors fs_write names after a change. */
export const MAX_OTHER_PROBLEM_FILES = 5;
/** How long a change waits at most for the language servers' diagnostics, in milliseconds. */
export const DIAGNOSTICS_WAIT_MS = 3000;
/** The most `agentFileTools.diagnosticsWaitMs` may ask for: a change's result never waits longer on language servers. */
export const DIAGNOSTICS_MAX_WAIT_MS = 10_000;
/** Bytes of one file name the file systems we write on allow (Linux's NAME_MAX); a temporary or saved-copy name is cut to fit. */
export const MAX_FILE_NAME_BYTES = 255;

// fs_edit

/** Places one fs_edit level counts at most; a text found more often is reported with this many. */
export const MAX_EDIT_PLACES = 100_000;
/** Line numbers an fs_edit failure lists at most (the count gives the rest). */
export const MAX_EDIT_PLACES_LISTED = 20;
/** Characters (UTF-16 code units) of a line quoted in an fs_edit failure before it is cut. */
export const MAX_EDIT_QUOTE_CHARS = 160;
/** Differing lines a stale old_string's answer lists one by one; when more differ it shows the file's region instead. */
export const MAX_EDIT_DIFFERING_LINES_LISTED = 4;
/** Places of an ambiguous old_string shown with their first lines (from the line above each), so context can be added without another read. */
export const MAX_EDIT_PREVIEW_PLACES = 3;
/** Lines shown of each such place, the line above it included. */
export const MAX_EDIT_PREVIEW_LINES = 3;
/** Lines of the file's region a stale old_string's answer shows at most. */
export const MAX_EDIT_REGION_LINES = 60;
/** Bytes (UTF-8) of the file's region a stale old_string's answer shows at most. */
export const MAX_EDIT_REGION_BYTES = 6 * 1024;
/** Lines one elision line (`// ... existing code ...`) in old_string may stand for at most. */
export const MAX_EDIT_ELIDED_LINES = 1000;
/**
 * File lines fs_edit looks at, in all, to chain the parts of an old_string with elisions;
 * parts found at so many places that this is not enough are reported as found at several.
 */
export const MAX_EDIT_ELISION_STEPS = 300_000;
/**
 * Pieces of text (runs of lines between elision lines) of one old_string fs_edit matches at
 * most; more are refused. Each is searched for through the whole file.
 */
export const MAX_EDIT_ELISION_PIECES = 100;
/**
 * File lines (lines with text, times the pieces of old_string) fs_edit searches through in
 * all to find the pieces of an old_string with elisions; more is refused.
 */
export const MAX_EDIT_ELISION_SCAN_LINES = 30_000_000;
/** Places, over all pieces of an old_string with elisions, fs_edit holds at most to chain them; more are refused. */
export const MAX_EDIT_ELISION_PLACES = 1_000_000;
/**
 * The disproportionate-match guard: a loose match whose block has at least
 * max(old lines + this, old lines * EDIT_GUARD_LINE_RATIO) lines (or old_string that many
 * more than the block) is refused.
 */
export const EDIT_GUARD_EXTRA_LINES = 3;
/** See {@link EDIT_GUARD_EXTRA_LINES}. */
export const EDIT_GUARD_LINE_RATIO = 2;
/** The guard also refuses a block with this many characters more than old_string … */
export const EDIT_GUARD_EXTRA_CHARS = 500;
/** … when it is also this many times as long. */
export const EDIT_GUARD_CHAR_RATIO = 4;
/** A line found more often than this in the file is too common to place the closest region. */
export const MAX_EDIT_VOTE_OCCURRENCES = 256;
/**
 * Line edits (inserted + deleted lines) up to which new_string is aligned with old_string by
 * Myers' diff; a larger rewrite is aligned on the lines each side has once (patience).
 */
export const MAX_EDIT_ALIGN_LINES = 256;
/** Lines (old + new) of a span up to which Myers' diff is tried at all; longer spans are split on unique lines first. */
export const MAX_EDIT_MYERS_SPAN_LINES = 4000;
/** Lines of old_string searched for the line a new line was made from, to keep the file's typography on it. */
export const MAX_EDIT_SOURCE_LINES = 500;
/** Characters of one line up to which a changed line keeps the file's typography character by character. */
export const MAX_EDIT_CHAR_ALIGN_CHARS = 4000;
/** Loop steps between cancellation checks in fs_edit's matching (a power of two). */
export const EDIT_CANCEL_CHECK_STEPS = 4096;

// fs_apply_patch

/** Characters (UTF-16 code units) of patch text parsed at most. */
export const MAX_PATCH_CHARS = 4 * 1024 * 1024;
/** Distinct paths (read, written, moved or deleted) one patch may name. */
export const MAX_PATCH_PATHS = 1000;
/** Paths probed at once while a patch is verified. */
export const PATCH_PROBE_CONCURRENCY = 8;
/** Lines of the patch or of a file quoted in one patch error. */
export const MAX_PATCH_ERROR_LINES = 12;
/** Characters (UTF-16 code units) of one line quoted in a patch error before it is cut. */
export const MAX_PATCH_ERROR_LINE_CHARS = 300;
/** Failures of one file a rejected patch's answer shows (it counts the rest). */
export const MAX_PATCH_FAILURES_PER_FILE = 3;
/** Files with failures a rejected patch's answer shows (it counts the rest). */
export const MAX_PATCH_FAILED_FILES_SHOWN = 4;
/** Characters (UTF-16 code units) of the failures a rejected patch's answer shows, together (within MAX_ERROR_TEXT_CHARS); it counts the rest. */
export const MAX_PATCH_FAILURES_CHARS = 7000;
/** Lines that may start with a `@@` text (it is no whole line of the file) for it to name one of them; more are refused as too common. */
export const MAX_PATCH_PREFIX_LINES = 1000;
/** Places an ambiguity error names (it counts the rest). */
export const MAX_PATCH_AMBIGUOUS_PLACES = 5;
/** Lines of a loosely matched chunk shown as written beside the file's, per chunk, in a patch's answer. */
export const MAX_PATCH_LOOSE_LINES_SHOWN = 3;
/** Loosely matched chunks listed in a patch's answer; the rest are counted. */
export const MAX_PATCH_LOOSE_CHUNKS_SHOWN = 5;
/** Occurrences of one line in a file above which the closest-region search ignores that line (too common to say anything). */
export const MAX_PATCH_CLOSEST_LINE_OCCURRENCES = 1000;
/** Lines of a chunk (its first ones) that the closest-region search compares with the file. */
export const MAX_PATCH_CLOSEST_PATTERN_LINES = 1000;
/** Lines a patch's ambiguous chunks may span, counted once per `@@` line, for the search that reads each `@@` line as the block it opens. */
export const MAX_PATCH_SCOPE_WINDOW_LINES = 2_000_000;
/** Steps of that search (candidate places and `@@` lines tried) before it gives up and the chunk stays refused as ambiguous. */
export const MAX_PATCH_SCOPE_STEPS = 200_000;

// History of changes (VS Code)

/** Changes the history keeps by default (`agentFileTools.history.maxEntries`), and the most it may be set to. */
export const HISTORY_DEFAULT_ENTRIES = 200;
export const HISTORY_MAX_ENTRIES = 10_000;
/** Mebibytes of file text the history keeps by default (`agentFileTools.history.maxStorageMiB`), and the most it may be set to. */
export const HISTORY_DEFAULT_STORAGE_MIB = 64;
export const HISTORY_MAX_STORAGE_MIB = 1024;
/** Bytes of the history's index read at activation at most: a larger one is a damaged or hostile file, started afresh. */
export const HISTORY_MAX_INDEX_BYTES = 16 * 1024 * 1024;
/** How long a revert waits for the merge editor it asked for to appear before it shows the two-way view instead, in milliseconds. */
export const MERGE_EDITOR_OPEN_MS = 10_000;

/** Bytes of a file the tool editor reads to build an example input from its first line; a larger file lends only its path. */
export const EXAMPLE_FILE_MAX_BYTES = 1024 * 1024;

// Platforms: how names, line endings and transient failures are met

/** Files of a folder a new file's line ending is learned from, at most (the majority of their first line breaks). */
export const NEW_FILE_EOL_SAMPLE_FILES = 32;
/** Bytes read from the start of each of them for its first line break. */
export const NEW_FILE_EOL_SAMPLE_BYTES = 4096;
/** Folders above a new file's folder asked the same when its own has no text file to ask. */
export const NEW_FILE_EOL_FOLDERS_UP = 3;
/** Tries of a rename or delete the platform refused for a moment (EPERM, EBUSY, EACCES while an indexer or a scanner holds the file), the first included. */
export const TRANSIENT_TRIES = 5;
/** Milliseconds waited before the second try; doubled before each try after it (50, 100, 200, 400: 750 ms in all at most). */
export const TRANSIENT_FIRST_WAIT_MS = 50;

// MCP server (the extension's, and `agent-file-tools mcp --http`)

/** Random bytes of the bearer token each server makes at start (shown as 64 hex digits). */
export const MCP_TOKEN_BYTES = 32;
/** Bytes of one HTTP request body at most (a 16 Mi-character fs_write with JSON's escapes); a larger one is refused with 413 unread. */
export const MCP_MAX_REQUEST_BYTES = 32 * 1024 * 1024;
/** Requests a second the server answers, averaged over a second's burst; more get 429. Refused requests (no token, a foreign Host) have a budget of their own. */
export const MCP_MAX_REQUESTS_PER_SECOND = 50;
/** HTTP requests being read or answered at once (a call waiting for review holds its request open); more get 503. */
export const MCP_MAX_OPEN_REQUESTS = 32;
/** Tool calls running at once over all clients; one more is answered at once with an error, and nothing is done. */
export const MCP_MAX_CONCURRENT_CALLS = 8;
/** Clients (MCP sessions) at once; a new one past this replaces the one idle longest, or gets 503 if none is idle. */
export const MCP_MAX_SESSIONS = 16;
/** How long a session with no request open may stay idle before it counts as gone and is closed, in milliseconds. */
export const MCP_SESSION_IDLE_MS = 30 * 60 * 1000;
/** How long a request's headers, and its whole body, may take to arrive, in milliseconds. */
export const MCP_HEADERS_TIMEOUT_MS = 10_000;
export const MCP_BODY_TIMEOUT_MS = 60_000;
