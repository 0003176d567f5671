// The untrusted-workspace suite: the same runner as the integration suite, on this
// folder's tests, in a workbench started with workspace trust on (Restricted Mode).
import { runSuite } from '../integration/index';

export function run(): Promise<void> {
  return runSuite(__dirname);
}
