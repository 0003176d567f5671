/**
 * The cascade's steps in the order {@link findEdit} runs them, with the levels each may
 * return (see {@link MatchLevel} for each level's rule). This table is the order: the step
 * loop walks it, and a place found by the line step is ranked by its position in that
 * step's list. Each step runs only when every step before it found nothing.
 *
 * The typography step for a phrase inside one line returns `unicode-normalized`, but runs
 * after the whole line step, `block-anchor` included: a block the line step finds answers
 * first. (A list of levels alone would put it before `block-anchor`; this is the order that
 * has always run, and its answers are kept.)
 */
export const CASCADE = [
  { step: 'exact', levels: ['exact'] },
  { step: 'read-prefix', levels: ['read-prefix'] },
  { step: 'lines', levels: ['trimmed-boundary', 'line-trimmed', 'indentation-flexible', 'whitespace-normalized', 'unicode-normalized', 'block-anchor'] },
  { step: 'typography-in-line', levels: ['unicode-normalized'] },
  { step: 'escaped', levels: ['escape-normalized'] },
  { step: 'elided', levels: ['context-aware'] },
] as const;

export type Step = (typeof CASCADE)[number]['step'];

/** A level of the matching cascade (documented in `types.ts`). */
export type Level = (typeof CASCADE)[number]['levels'][number];

/** The levels the line step tells apart, strictest first: a place's level is the loosest tolerance it needed. */
export const LINE_LEVELS: readonly Level[] = CASCADE[2].levels;
