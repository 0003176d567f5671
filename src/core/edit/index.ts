/** fs_edit's matching engine: pure text in, replacements or a typed failure out. */
export { applyReplacements, findEdit, planEdits } from './cascade';
export { describeFailure, describeMatch, type EditPosition, type FailurePlace } from './messages';
export type { Ambiguous, ClosestRegion, EditRequest, FindFailure, FindResult, FoundEdit, Invalid, MatchLevel, NotFound, PlanResult, Replacement, TooBroad } from './types';
