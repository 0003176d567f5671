import type { ToolContext } from './types';

/**
 * The largest k in [1, n] whose rendering fits the call's token budget, with its text.
 * Without a budget, or when everything fits, k is n. Never below 1: a page must hold
 * something, or following its continuation would never advance. Binary search, so a
 * 2000-line page costs about a dozen token counts.
 */
export async function fitToBudget(ctx: ToolContext, n: number, render: (k: number) => string): Promise<{ k: number; text: string }> {
  const full = render(n);
  const budget = ctx.budget;
  if (!budget || n <= 1 || (await budget.countTokens(full)) <= budget.tokenBudget) {
    return { k: n, text: full };
  }
  let lo = 1;
  let hi = n - 1;
  let best = { k: 1, text: render(1) };
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const text = render(mid);
    if ((await budget.countTokens(text)) <= budget.tokenBudget) {
      best = { k: mid, text };
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return best;
}
