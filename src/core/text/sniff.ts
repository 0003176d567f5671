/**
 * Names a binary file's type from its magic number with `file-type`, so a refusal can
 * say "a ZIP archive (zip, application/zip)" rather than only "binary".
 *
 * `file-type` is ESM-only; it is loaded with a dynamic import on first use, which
 * plain Node runs natively and the bundler inlines, so it costs nothing until a
 * binary file is met.
 */

import type * as FileType from 'file-type' with { 'resolution-mode': 'import' };

export interface FileTypeGuess {
  /** Usual extension, without the dot: "zip", "pdf", "png". */
  ext: string;
  mime: string;
}

type FileTypeModule = typeof FileType;

let loading: Promise<FileTypeModule> | undefined;

function fileTypeModule(): Promise<FileTypeModule> {
  loading ??= import('file-type');
  return loading;
}

/**
 * The type `bytes` start with, or undefined when no magic number matches (plain text
 * has none). Give at least the first 4 KiB; some formats need more to be told apart.
 */
export async function detectFileType(bytes: Uint8Array): Promise<FileTypeGuess | undefined> {
  if (bytes.length === 0) {
    return undefined;
  }
  const { fileTypeFromBuffer } = await fileTypeModule();
  const found = await fileTypeFromBuffer(bytes);
  return found ? { ext: found.ext, mime: found.mime } : undefined;
}
