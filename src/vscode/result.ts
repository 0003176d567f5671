import { PromptElement, renderElementJSON, type BasePromptElementProps, type PromptPiece } from '@vscode/prompt-tsx';
import * as vscode from 'vscode';
import type { ToolResult } from '../services/result';
import type { Logger } from '../services/types';

/**
 * How a tool's result reaches its caller.
 *
 * Outside a chat (the CLI, another extension calling `vscode.lm.invokeTool` without an
 * invocation token) every part is returned as it is: text parts as `LanguageModelTextPart`s.
 *
 * Inside a chat request the text must reach the model whole. Copilot Chat writes any text part
 * longer than `github.copilot.chat.agent.largeToolResultsToDisk.thresholdBytes` (8192 by
 * default) to a file and shows the model only a pointer to it, while a
 * `LanguageModelPromptTsxPart` is rendered into the prompt, as Copilot's own tools return
 * theirs. So in a chat all text parts become one prompt-tsx part whose text is the text parts
 * joined by "\n": byte for byte what `resultText` gives the CLI. Data parts (images) follow it
 * unchanged. The pages are already sized to the call's token budget by the tools themselves.
 *
 * The first text part is the answer; any later text part is an addition (the instruction files
 * fs_read appends) and gets a lower priority, so when the chat has to make room it drops an
 * addition before it touches the page.
 */
export interface ChatDelivery {
  /** The call came with a chat's invocation token. */
  inChat: boolean;
  tokenizationOptions?: vscode.LanguageModelToolTokenizationOptions;
  token?: vscode.CancellationToken;
  /** Told how each chat result was delivered, with the token budget it was sized for. */
  log?: Logger;
  tool?: string;
}

/** Priorities of the text nodes: the page outranks every addition, earlier additions outrank later ones. */
export const PAGE_PRIORITY = 1000;
export const ADDITION_PRIORITY = 500;

interface TextProps extends BasePromptElementProps {
  text: string;
}

/** A piece as prompt-tsx's JSX factory (`vscpp`, set up by the package) builds it. */
function piece(ctor: unknown, props: object | null, ...children: (string | PromptPiece)[]): PromptPiece {
  return vscpp(ctor, props, ...children) as unknown as PromptPiece;
}

class ResultText extends PromptElement<TextProps> {
  render(): PromptPiece {
    return piece(vscppf, null, this.props.text);
  }
}

interface ResultProps extends BasePromptElementProps {
  texts: readonly string[];
}

/**
 * One node per text part. The separating "\n" ends the part before it, never starts the one
 * after: the renderer adds a line break before a node that follows another node unless the text
 * so far already ends with one, so a separator at the start would be doubled.
 */
class ToolResultTexts extends PromptElement<ResultProps> {
  render(): PromptPiece {
    const { texts } = this.props;
    return piece(
      vscppf,
      null,
      ...texts.map((text, i) => piece(ResultText, { text: i < texts.length - 1 ? `${text}\n` : text, priority: i === 0 ? PAGE_PRIORITY : ADDITION_PRIORITY - i })),
    );
  }
}

function plainParts(r: ToolResult): (vscode.LanguageModelTextPart | vscode.LanguageModelDataPart)[] {
  return r.parts.map((p) =>
    p.kind === 'text'
      ? new vscode.LanguageModelTextPart(p.text)
      : p.mime.startsWith('image/')
        ? vscode.LanguageModelDataPart.image(p.data, p.mime)
        : new vscode.LanguageModelDataPart(p.data, p.mime),
  );
}

/** The prompt-tsx element JSON of a result's text parts (what a chat receives). */
export async function renderResultJSON(texts: readonly string[], budget?: vscode.LanguageModelToolTokenizationOptions, token?: vscode.CancellationToken): Promise<unknown> {
  return renderElementJSON(ToolResultTexts, { texts }, budget, token);
}

export async function toLmResult(r: ToolResult, delivery?: ChatDelivery): Promise<vscode.LanguageModelToolResult> {
  const texts = r.parts.flatMap((p) => (p.kind === 'text' ? [p.text] : []));
  if (!delivery?.inChat || texts.length === 0) {
    return new vscode.LanguageModelToolResult(plainParts(r));
  }
  const json = await renderResultJSON(texts, delivery.tokenizationOptions, delivery.token);
  const data = plainParts({ parts: r.parts.filter((p) => p.kind === 'data'), isError: r.isError });
  const chars = texts.reduce((n, t) => n + t.length, texts.length - 1);
  const budget = delivery.tokenizationOptions ? `token budget ${delivery.tokenizationOptions.tokenBudget}` : 'no token budget';
  delivery.log?.info(`${delivery.tool ?? 'tool'} result for the chat: one prompt-tsx part of ${chars} characters${data.length ? ` and ${data.length} data part(s)` : ''} (${budget})`);
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelPromptTsxPart(json), ...data]);
}
