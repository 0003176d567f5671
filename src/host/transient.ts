import { TRANSIENT_FIRST_WAIT_MS, TRANSIENT_TRIES } from '../core/limits';

/**
 * Errors a rename or delete gets for a moment while another program holds the file: on
 * Windows an indexer, a virus scanner or an editor opens files without letting others
 * move them, and the call fails with EPERM, EBUSY or EACCES until it lets go (graceful-fs
 * retries the same for the same reason).
 */
const TRANSIENT = new Set(['EPERM', 'EBUSY', 'EACCES']);

function codeOf(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Runs `op` (a rename or a delete) again while it fails with a transient error, waiting
 * TRANSIENT_FIRST_WAIT_MS, then twice as long each time, TRANSIENT_TRIES tries in all
 * (750 ms of waiting at most); then its last error stands, and the change it belongs to
 * is taken back as for any other failure. Any other error stands at once.
 */
export async function retryTransient<T>(op: () => Promise<T>, wait: (ms: number) => Promise<void> = sleep): Promise<T> {
  for (let attempt = 1, ms = TRANSIENT_FIRST_WAIT_MS; ; attempt++, ms *= 2) {
    try {
      return await op();
    } catch (e) {
      if (attempt >= TRANSIENT_TRIES || !TRANSIENT.has(codeOf(e) ?? '')) {
        throw e;
      }
    }
    await wait(ms);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
