// A bridge from tests in the extension host to the browser that shows the workbench:
// a test writes a request file, the runner performs the steps with Playwright (keys,
// clicks, waits, screenshots) and writes the response. This is how a test drives the
// UI as a person would.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface UiStep {
  press?: string;
  type?: string;
  click?: string;
  waitFor?: string;
  state?: 'visible' | 'hidden' | 'attached';
  timeout?: number;
  screenshot?: string;
  eval?: string;
}

export interface UiResponse {
  ok: boolean;
  error?: string;
  shots?: string[];
  evals?: unknown[];
}

let seq = 0;

export function uiAvailable(): boolean {
  return !!process.env.AFT_UI_DIR;
}

export async function ui(steps: UiStep[], timeoutMs = 60000): Promise<UiResponse> {
  const dir = process.env.AFT_UI_DIR;
  if (!dir) {
    throw new Error('No UI bridge: AFT_UI_DIR is not set (the tests must run under scripts/run-vscode-tests.mjs).');
  }
  const id = `${process.pid}-${++seq}`;
  const tmp = path.join(dir, `req-${id}.json.tmp`);
  fs.writeFileSync(tmp, JSON.stringify({ id, steps }));
  fs.renameSync(tmp, path.join(dir, `req-${id}.json`));
  const res = path.join(dir, `res-${id}.json`);
  const t0 = Date.now();
  while (!fs.existsSync(res)) {
    if (Date.now() - t0 > timeoutMs) {
      throw new Error(`UI bridge did not answer request ${id} in ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return JSON.parse(fs.readFileSync(res, 'utf8')) as UiResponse;
}

/** Waits for a condition, polling; no fixed sleeps. */
export async function waitFor<T>(what: string, fn: () => T | undefined | Promise<T | undefined>, timeoutMs = 15000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v) {
      return v;
    }
    if (Date.now() - t0 > timeoutMs) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
