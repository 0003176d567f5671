import type { ToolContext } from './types';

/** Marks a remembered note apart from the instruction-file paths kept in the same memory. */
const NOTE_KEY = '\u0000note:';

/**
 * The lines not yet said in this chat (all of them outside a chat, as in the CLI): a note
 * that is the same on every call, such as which folders ignore rules left out of a
 * workspace-wide search, costs its bytes once, not on every search.
 */
export function newInChat(ctx: ToolContext, lines: readonly string[]): string[] {
  if (!ctx.instructions || ctx.requestKey === undefined || lines.length === 0) {
    return [...lines];
  }
  return ctx.instructions.take(ctx.requestKey, lines.map((l) => NOTE_KEY + l)).map((k) => k.slice(NOTE_KEY.length));
}
