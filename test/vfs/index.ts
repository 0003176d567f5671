// The virtual-workspace suite: the integration suite's runner, on this folder's tests, in a
// window opened on the fault-injecting scheme of faultProvider.ts, registered here first.
import { runSuite } from '../integration/index';
import { registerFaultFs } from './faultProvider';

export const faultFs = registerFaultFs();

export function run(): Promise<void> {
  return runSuite(__dirname);
}
