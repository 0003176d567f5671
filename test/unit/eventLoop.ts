/** The longest pause of this thread's event loop while `work` runs (a 5 ms timer's longest gap), and the work's time, in ms. */
export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; gapMs: number; result: T }> {
  let last = performance.now();
  let gap = 0;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
    timer = setTimeout(tick, 5);
  };
  timer = setTimeout(tick, 5);
  const t0 = performance.now();
  const result = await work();
  const end = performance.now();
  clearTimeout(timer);
  return { ms: end - t0, gapMs: Math.max(gap, end - last), result };
}

/** Counts the turns of this thread's event loop (a setImmediate runs once a turn) until stopped. */
export function turnCounter(): { readonly turns: number; stop(): void } {
  let turns = 0;
  let on = true;
  const spin = () => {
    turns++;
    if (on) {
      setImmediate(spin);
    }
  };
  setImmediate(spin);
  return {
    get turns() {
      return turns;
    },
    stop() {
      on = false;
    },
  };
}
