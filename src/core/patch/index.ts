export { parsePatch } from './parse';
export { planPatch } from './plan';
export { seekSequence, SEEK_PASSES } from './seek';
export { formatPatchError } from './format';
export { describeVerifyError, describeVerifyFailures, describeWithoutContent, failurePath, PatchSyntaxError, PatchVerifyError } from './errors';
export type { ChunkRef, FileRegion, HunkRef, PatchVerifyCode, PatchVerifyDetail } from './errors';
export type { Chunk, ChunkLine, ChunkMatch, FileProbe, Hunk, ParsedPatch, PatchPlan, PlannedChange, SeekPass, SeekResult } from './types';
