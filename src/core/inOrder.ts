/**
 * `step` for every item, at most `limit` at a time, the results in the items' order.
 * Once a step fails no further one starts, and the error thrown (after the steps under way
 * settled) is that of the first item in order that failed: the same error as running them
 * one after another, for independent steps (each a few questions to the file system,
 * where one after another each waited for its own round trip through the thread pool).
 */
export async function inOrder<T, R>(items: readonly T[], limit: number, step: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  const errors = new Map<number, unknown>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (errors.size === 0 && next < items.length) {
      const i = next++;
      try {
        out[i] = await step(items[i], i);
      } catch (e) {
        errors.set(i, e);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (errors.size > 0) {
    throw errors.get(Math.min(...errors.keys()));
  }
  return out;
}
