import type * as ChildProcess from 'node:child_process';
import type * as Os from 'node:os';
import type * as WorkerThreads from 'node:worker_threads';

/**
 * Node modules that only some calls need, loaded on first use: a CLI call that starts no
 * process, no thread and no compile cache parses none of them (each costs a CLI call's
 * start a millisecond or more).
 */

let childProcess: typeof ChildProcess | undefined;
let os: typeof Os | undefined;
let workerThreads: typeof WorkerThreads | undefined;

/* eslint-disable @typescript-eslint/no-require-imports -- loaded when first called, not when this module is */

export function nodeChildProcess(): typeof ChildProcess {
  return (childProcess ??= require('node:child_process') as typeof ChildProcess);
}

export function nodeOs(): typeof Os {
  return (os ??= require('node:os') as typeof Os);
}

export function nodeWorkerThreads(): typeof WorkerThreads {
  return (workerThreads ??= require('node:worker_threads') as typeof WorkerThreads);
}
