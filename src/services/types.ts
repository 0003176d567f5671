import type * as z from 'zod';
import type { CancelSignal } from '../core/cancel';
import type { Workspace } from '../host/workspace';
import type { InstructionMemory } from '../core/read/instructions';
import type { ReadLedger } from './ledger';
import type { FileLocks } from './locks';
import type { Approver, Confirmation } from './approval';
import type { ToolResult } from './result';
import type { AliasTable } from './aliases';
import type { Settings } from './settings';
import type { ChangeJournal, ChangeOrigin } from './journal';

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const SILENT_LOGGER: Logger = { info() {}, warn() {}, error() {} };

/** Everything a tool may use; built per call by the VS Code adapter or the CLI. */
export interface ToolContext {
  ws: Workspace;
  /** Asks the person: confirmations of reads, reviews of changes. */
  approver: Approver;
  settings: Settings;
  signal: CancelSignal;
  ledger: ReadLedger;
  /** Serialises changes to the same file across calls. */
  locks: FileLocks;
  log: Logger;
  /** Set when the caller gives `tokenizationOptions`: outputs are sized to fit it. */
  budget?: TokenBudget;
  /** Identifies the chat request the call belongs to, when there is one. */
  requestKey?: string;
  /** Which instruction files each chat request was already given. */
  instructions?: InstructionMemory;
  /** Where changes that landed are recorded (VS Code's history of changes). */
  journal?: ChangeJournal;
  /** Who asked for the call, when the adapter knows (a chat request without it). */
  origin?: ChangeOrigin;
  /** For an MCP client's call: the client, by the name it gave (dialogs and the history name it). */
  client?: string;
}

export interface TokenBudget {
  tokenBudget: number;
  countTokens(text: string): Promise<number>;
}

/** What VS Code shows before the call runs, and whether the user must approve it. */
export interface Preparation {
  invocationMessage: string;
  /** Shown before the call runs; the call runs only if the person agrees. */
  confirmation?: Confirmation;
}

export interface QuickCheck<T> {
  /** The schema's top-level fields, in its order (a unit test holds them to it). */
  fields: readonly string[];
  /** The parsed input, or undefined: the schema is to judge it. */
  parse(input: unknown): T | undefined;
}

export interface ToolSpec<S extends z.ZodType = z.ZodType> {
  /** The name the model sees (`fs_read`). */
  name: string;
  mutates: boolean;
  schema: S;
  /**
   * A cheap check of the input's plain shape, beside the schema: it takes only input the
   * schema takes, with the value the schema would give, so that a valid call need not build
   * the schema (nor load zod). Whatever it does not take, the schema judges and words.
   */
  quick?: QuickCheck<z.output<S>>;
  /** A valid call, shown when input is invalid. */
  example: string;
  /** Other names models use for this tool's fields (see aliases.ts). */
  aliases?: AliasTable;
  /** Free of side effects and quick: VS Code times it out after a few seconds. */
  prepare(input: z.output<S>, ctx: ToolContext): Promise<Preparation>;
  invoke(input: z.output<S>, ctx: ToolContext): Promise<ToolResult>;
}
