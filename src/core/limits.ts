/**
 * Every hard cap the tools apply, with its unit in its name. Input can lower some of
 * them (a smaller `limit`), never raise them.
 */

/** Lines one fs_read page returns at most. */
export const MAX_READ_LINES = 2000;
/** Bytes (UTF-8) of rendered content one fs_read page returns at most. */
export const MAX_READ_BYTES = 50 * 1024;
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
/** Directory entries read at most by fs_read on a directory. */
export const MAX_DIR_ENTRIES = 5000;
/** Hex digits of the content hash shown as a file's version. */
export const VERSION_HEX_CHARS = 8;
/** Chunk size of streamed reads, in bytes. */
export const STREAM_CHUNK_BYTES = 256 * 1024;
/** Lines scanned up from the end of a block comment for its start, in indentation mode's header. */
export const INDENT_COMMENT_SCAN_MAX_LINES = 200;
