// Runs the platform cases (test/platform/cases*.mjs) against the built CLI, in this process:
// under Node for Windows (Wine) for the Windows suite, under Linux Node on a folding FUSE
// volume for the macOS suite. Started by scripts/run-windows-tests.mjs and
// scripts/run-macos-tests.mjs, which set up the platform; not meant to be run by hand.
//
//   node run-cases.mjs --platform windows|macos [--variant cached] --base DIR --results FILE [--label TEXT] [--grep RE] [--files a,b]
//
// Each case gets a fresh folder under --base (its workspace root), its files written with
// node:fs of this platform, then its steps: each a CLI call, driven in-process through
// dist/cli.js's main() (one process for every case: a Node start under Wine costs most of a
// second), with what it printed and its exit code checked, then the files checked on disk.
// A step with `spawn: true` runs the CLI as a process of its own instead. Writes
// { passes, failures, pending, results } to --results; progress goes to standard output.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { setInterval } from 'node:timers';
import { CASE_FILES, caseApplies } from './cases-index.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const cliPath = path.resolve(here, '../../dist/cli.js');
const require = createRequire(import.meta.url);

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : dflt;
};
const platform = arg('platform');
const variant = arg('variant');
const base = arg('base');
const resultsFile = arg('results');
const label = arg('label', platform);
const grep = arg('grep') ? new RegExp(arg('grep'), 'i') : undefined;
const only = arg('files') ? arg('files').split(',') : undefined;
if (!['windows', 'macos'].includes(platform) || !base || !resultsFile) {
  console.error('usage: run-cases.mjs --platform windows|macos --base DIR --results FILE [--label TEXT] [--grep RE] [--files a,b]');
  process.exit(2);
}
const STEP_TIMEOUT_MS = 30000;
// the suite's runner is gone (killed): stop too, rather than go on in a folder no one will read
// (on Windows a process keeps its parent's id whatever becomes of it)
const runnerPid = process.ppid;
if (process.platform !== 'win32') {
  setInterval(() => {
    if (process.ppid !== runnerPid) {
      process.exit(1);
    }
  }, 500).unref();
}
const MUTATING = new Set(['fs_edit', 'fs_write', 'fs_apply_patch']);

// --- the CLI, in this process -----------------------------------------------------------
const { main } = require(cliPath);
/** Runs the CLI's main() with its output captured: its result goes to descriptor 1, usage errors to process.stderr. */
async function cliInProcess(argv) {
  let out = '';
  let err = '';
  const writeSync = fs.writeSync;
  const stderrWrite = process.stderr.write;
  fs.writeSync = function (fd, data, ...rest) {
    if (fd === 1 || fd === 2) {
      const buf = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      const [offset = 0, length = buf.length - offset] = typeof data === 'string' ? [] : rest;
      const text = buf.subarray(offset, offset + length).toString('utf8');
      if (fd === 1) {
        out += text;
      } else {
        err += text;
      }
      return length;
    }
    return writeSync.call(fs, fd, data, ...rest);
  };
  process.stderr.write = (chunk) => {
    err += String(chunk);
    return true;
  };
  let timer;
  try {
    const code = await Promise.race([
      main(argv),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${STEP_TIMEOUT_MS / 1000} s`)), STEP_TIMEOUT_MS);
      }),
    ]);
    return { code, out, err };
  } finally {
    clearTimeout(timer);
    fs.writeSync = writeSync;
    process.stderr.write = stderrWrite;
  }
}

function cliProcess(argv) {
  const r = spawnSync(process.execPath, [cliPath, ...argv], { encoding: 'utf8', timeout: STEP_TIMEOUT_MS });
  return { code: r.status ?? 1, out: r.stdout ?? '', err: (r.stderr ?? '') + (r.error ? String(r.error) : '') };
}

// --- a case's world ---------------------------------------------------------------------
/** A relative path of a case (always written with `/`) in this platform's form, under `root`. */
const at = (root, rel) => path.join(root, ...rel.split('/'));

function context(root) {
  return {
    platform,
    root,
    sep: path.sep,
    /** A case path in this platform's form, absolute. */
    abs: (rel) => at(root, rel),
    vars: {},
  };
}

/** Replaces {{root}} (the case's folder, absolute) and {{name}} (a value a step captured) in every string. */
function fill(value, ctx) {
  if (typeof value === 'function') {
    return fill(value(ctx), ctx);
  }
  if (typeof value === 'string') {
    return value.replace(/\{\{(\w+)\}\}/g, (m, k) => (k === 'root' ? ctx.root : k === 'sep' ? path.sep : ctx.vars[k] ?? m));
  }
  if (Array.isArray(value)) {
    return value.map((v) => fill(v, ctx));
  }
  if (value && typeof value === 'object' && !Buffer.isBuffer(value) && !(value instanceof RegExp)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [fill(k, ctx), fill(v, ctx)]));
  }
  return value;
}

function layOut(ctx, c) {
  fs.mkdirSync(ctx.root, { recursive: true });
  for (const rel of fill(c.dirs ?? [], ctx)) {
    fs.mkdirSync(at(ctx.root, rel), { recursive: true });
  }
  for (const [rel, content] of Object.entries(fill(c.files ?? {}, ctx))) {
    fs.mkdirSync(path.dirname(at(ctx.root, rel)), { recursive: true });
    fs.writeFileSync(at(ctx.root, rel), content);
  }
}

/** Text as a failure shows it: combining marks (an NFD name's accent) written out, so NFD and NFC differ to the eye. */
const visible = (s) => s.replace(/[\u0300-\u036f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const show = (s) => visible(JSON.stringify(s));
const matches = (text, want) => (want instanceof RegExp ? want.test(text) : text.includes(want));

/** The names stored in a folder, as its listing gives them (the spelling on disk). */
function listing(ctx, rel) {
  try {
    return fs.readdirSync(rel === '' || rel === '.' ? ctx.root : at(ctx.root, rel)).sort();
  } catch (e) {
    return `(cannot list: ${e.code ?? e.message})`;
  }
}

/** Checks on disk after a step or a case; the problems found. */
function checkDisk(ctx, after) {
  const problems = [];
  const a = fill(after, ctx);
  for (const [rel, want] of Object.entries(a.files ?? {})) {
    let got;
    try {
      got = fs.readFileSync(at(ctx.root, rel), 'utf8');
    } catch (e) {
      got = `(cannot read: ${e.code ?? e.message})`;
    }
    if (!(want instanceof RegExp ? want.test(got) : got === want)) {
      problems.push(`file ${rel}: expected ${want instanceof RegExp ? want : show(want)}, found ${show(got)}`);
    }
  }
  for (const [rel, want] of Object.entries(a.dir ?? {})) {
    const got = listing(ctx, rel);
    if (JSON.stringify(got) !== JSON.stringify([...want].sort())) {
      problems.push(`folder ${rel || '.'}: expected the entries ${show([...want].sort())}, found ${show(got)}`);
    }
  }
  for (const rel of a.absent ?? []) {
    const parent = path.posix.dirname(rel);
    const got = listing(ctx, parent === '.' ? '' : parent);
    if (Array.isArray(got) && got.includes(path.posix.basename(rel))) {
      problems.push(`an entry ${show(rel)} exists (folder ${parent} holds ${show(got)})`);
    }
  }
  return problems;
}

async function runStep(ctx, step, index) {
  const input = fill(step.input ?? {}, ctx);
  const argv = [step.tool, '--root', ctx.root, '--input', JSON.stringify(input)];
  if (step.yes ?? MUTATING.has(step.tool)) {
    argv.push('--yes');
  }
  argv.push(...(step.flags ?? []));
  const r = step.spawn ? cliProcess(argv) : await cliInProcess(argv);
  const problems = [];
  const codes = step.code === undefined ? [0] : [step.code].flat();
  if (!codes.includes(r.code)) {
    problems.push(`exit code ${r.code}, expected ${codes.join(' or ')}`);
  }
  for (const want of fill(step.has ?? [], ctx)) {
    if (!matches(r.out, want)) {
      problems.push(`the answer lacks ${want instanceof RegExp ? want : show(want)}`);
    }
  }
  for (const want of fill(step.lacks ?? [], ctx)) {
    if (matches(r.out, want)) {
      problems.push(`the answer holds ${want instanceof RegExp ? want : show(want)}`);
    }
  }
  for (const [name, re] of Object.entries(step.capture ?? {})) {
    const m = re.exec(r.out);
    if (m) {
      ctx.vars[name] = m[1];
    } else {
      problems.push(`nothing to capture as ${name} with ${re}`);
    }
  }
  if (step.after) {
    problems.push(...checkDisk(ctx, step.after));
  }
  if (!problems.length) {
    return undefined;
  }
  const inputShown = show(input);
  return [
    `step ${index + 1}: ${step.tool} ${inputShown.length > 300 ? inputShown.slice(0, 300) + '…' : inputShown}`,
    ...problems.map((p) => `  ${p}`),
    `  answer (exit ${r.code}):`,
    ...visible(r.out.trimEnd()).split('\n').map((l) => `  | ${l}`),
    ...(r.err ? r.err.trimEnd().split('\n').map((l) => `  stderr: ${l}`) : []),
  ].join('\n');
}

// --- the run ----------------------------------------------------------------------------
/**
 * The platform is what the suite says, or its cases would prove nothing: Windows Node, and a
 * base folder whose volume finds a name by another case (and, for macOS, by another Unicode
 * normalisation) and keeps the spelling it was given.
 */
function checkPlatform() {
  const problems = [];
  if ((platform === 'windows') !== (process.platform === 'win32')) {
    problems.push(`process.platform is ${process.platform}`);
  }
  fs.mkdirSync(base, { recursive: true });
  const probe = path.join(base, 'Probe-caf\u00e9.txt');
  fs.writeFileSync(probe, 'probe');
  if (!fs.existsSync(path.join(base, 'pROBE-CAF\u00c9.TXT'))) {
    problems.push(`${base} does not find a name by another case`);
  }
  if (platform === 'macos' && !fs.existsSync(path.join(base, 'Probe-cafe\u0301.txt'))) {
    problems.push(`${base} does not find a name by another Unicode normalisation`);
  }
  if (!fs.readdirSync(base).includes('Probe-caf\u00e9.txt')) {
    problems.push(`${base} does not keep a name as it was written`);
  }
  fs.rmSync(probe);
  if (problems.length) {
    console.error(`not the ${platform} semantics the cases are written for: ${problems.join('; ')}`);
    process.exit(1);
  }
}
checkPlatform();
const t0 = Date.now();
const results = [];
let n = 0;
for (const { file, cases } of await Promise.all(CASE_FILES.filter((f) => !only || only.some((o) => f.includes(o))).map(async (file) => ({ file, cases: (await import(`./${file}`)).cases })))) {
  for (const c of cases) {
    if (!caseApplies(c, platform, variant)) {
      continue;
    }
    const title = `${file.replace(/\.mjs$/, '')}: ${c.name} [${label}]`;
    if (grep && !grep.test(title)) {
      continue;
    }
    const ctx = context(path.join(base, `c${String(++n).padStart(3, '0')}`));
    const started = Date.now();
    let err;
    try {
      layOut(ctx, c);
      for (const [i, step] of c.steps.entries()) {
        err = await runStep(ctx, step, i);
        if (err) {
          break;
        }
      }
      if (!err && c.after) {
        const problems = checkDisk(ctx, c.after);
        err = problems.length ? ['after the last step:', ...problems.map((p) => `  ${p}`)].join('\n') : undefined;
      }
    } catch (e) {
      err = `the case could not run: ${e?.stack ?? e}`;
    }
    const ms = Date.now() - started;
    results.push({ title, file, state: err ? 'failed' : 'passed', ms, ...(err ? { err } : {}) });
    console.log(`  ${err ? '✗' : '✔'} ${title} (${ms} ms)`);
    if (err) {
      console.log(err.replace(/^/gm, '      '));
    }
  }
}
const passes = results.filter((r) => r.state === 'passed').length;
const failures = results.length - passes;
console.log(`${label}: ${passes} passing, ${failures} failing (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
fs.writeFileSync(resultsFile, JSON.stringify({ passes, failures, pending: 0, results }, null, 2));
process.exit(0);
