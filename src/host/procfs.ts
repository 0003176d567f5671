import * as fs from 'node:fs';
import { WINDOWS_PATHS } from './volume';

/**
 * Whether this host names the file an open descriptor holds by `/proc/self/fd/N` (Linux
 * has it; macOS and Windows do not, and neither may a Linux container without /proc):
 * asked once, of the host itself, by opening `/` and reading back its descriptor's path.
 * Where it holds, a folder the policy decided on is held open while a tool reads or
 * writes through it, so a folder swapped for a link meanwhile is never followed; elsewhere
 * the folder's path is resolved again just before each use, which leaves the moment
 * between that check and the use (see SECURITY.md). Windows paths never: there `/proc`
 * would be a folder of the current drive (Wine maps `/` to a drive).
 */
export const PROC_FD_PATHS: boolean = probe();

function probe(): boolean {
  if (WINDOWS_PATHS) {
    return false;
  }
  let fd: number | undefined;
  try {
    fd = fs.openSync('/', fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
    return fs.readlinkSync(`/proc/self/fd/${fd}`) === '/';
  } catch {
    return false;
  } finally {
    if (fd !== undefined) {
      fs.closeSync(fd);
    }
  }
}
