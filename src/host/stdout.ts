import { writeSync } from 'node:fs';
import type * as Tty from 'node:tty';

/** How long to wait for a full pipe to drain before writing again. */
const FULL_PIPE_WAIT_MS = 1;

/**
 * Writes `text` whole to file descriptor `fd` (the CLI's stdout), synchronously. The CLI
 * prints its one result and ends: writing to the descriptor spares creating
 * `process.stdout` (a socket, and the net module with it, when stdout is a pipe), a few
 * milliseconds of a call's start. A short write goes on from where it stopped; a pipe
 * another process left non-blocking answers EAGAIN when full, and the write waits for the
 * reader, as Node's own stream would, and then goes on. A reader that closed the pipe ends
 * the writing, quietly. A Windows console gets the text through `process.stdout`, which
 * gives it the characters whatever its code page.
 */
export function writeWholeSync(fd: number, text: string): void {
  // a Windows console shows a descriptor's bytes in its own code page: its stream writes text
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- only on Windows
  if (process.platform === 'win32' && fd === 1 && (require('node:tty') as typeof Tty).isatty(fd)) {
    process.stdout.write(text);
    return;
  }
  const bytes = Buffer.from(text, 'utf8');
  let wait: Int32Array | undefined;
  for (let at = 0; at < bytes.length; ) {
    try {
      at += writeSync(fd, bytes, at, bytes.length - at);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') {
        // the reader is gone (`| head`): nothing more can be shown
        return;
      }
      if (code !== 'EAGAIN') {
        throw e;
      }
      wait ??= new Int32Array(new SharedArrayBuffer(4));
      Atomics.wait(wait, 0, 0, FULL_PIPE_WAIT_MS);
    }
  }
}
