import * as assert from 'node:assert/strict';
import { OutputMode, PromptElement, Raw, renderPrompt, TokenLimit, UserMessage, type BasePromptElementProps, type ITokenizer, type JSONTree, type PromptPiece } from '@vscode/prompt-tsx';

type PromptElementJSON = JSONTree.PromptElementJSON;
import * as vscode from 'vscode';
import { ADDITION_PRIORITY, PAGE_PRIORITY, toLmResult } from '../../src/vscode/result';
import { resultText, type ToolResult } from '../../src/services/result';
import { invoke } from './util';

/** Counts a token per four characters, like the Scripted Model of the Agent-mode suite. */
const tokenizer: ITokenizer<OutputMode.Raw> = {
  mode: OutputMode.Raw,
  tokenLength: (part) => (part.type === Raw.ChatCompletionContentPartKind.Text ? Math.ceil(part.text.length / 4) : 0),
  countMessageTokens: (m) => m.content.reduce((n, p) => n + (p.type === Raw.ChatCompletionContentPartKind.Text ? Math.ceil(p.text.length / 4) : 0), 3),
};

interface ProbeProps extends BasePromptElementProps {
  data: PromptElementJSON;
  max?: number;
}

/** Renders a tool's prompt-tsx part the way Copilot Chat does: `<elementJSON>` in a message, in a TokenLimit when it truncates. */
class ToolMessageProbe extends PromptElement<ProbeProps> {
  render(): PromptPiece {
    const inner = vscpp('elementJSON', { data: this.props.data });
    return vscpp(UserMessage, {}, this.props.max ? vscpp(TokenLimit, { max: this.props.max }, inner) : inner) as unknown as PromptPiece;
  }
}

async function modelText(part: vscode.LanguageModelPromptTsxPart, max?: number): Promise<string> {
  const { messages } = await renderPrompt(ToolMessageProbe, { data: part.value as PromptElementJSON, max }, { modelMaxPromptTokens: 1_000_000 }, tokenizer);
  return messages.map((m) => m.content.map((p) => (p.type === Raw.ChatCompletionContentPartKind.Text ? p.text : '')).join('')).join('');
}

const budget = (tokenBudget: number): vscode.LanguageModelToolTokenizationOptions => ({ tokenBudget, countTokens: async (t) => Math.ceil(t.length / 4) });

describe('tool results: text outside a chat, one prompt-tsx part inside', () => {
  const page = `<path>a.txt</path>\n<content>\n${Array.from({ length: 3000 }, (_, i) => `L${i + 1}: tab\there <b>&amp; ünïcode 🙂 \\n`).join('\n')}\n</content>`;
  const reminder = '<system-reminder>\nInstructions from src/AGENTS.md\n</system-reminder>';
  const twoParts: ToolResult = { isError: false, parts: [{ kind: 'text', text: page }, { kind: 'text', text: reminder }] };

  it('outside a chat (no invocation token) every part stays a text part', async () => {
    for (const delivery of [undefined, { inChat: false, tokenizationOptions: budget(100) }]) {
      const r = await toLmResult(twoParts, delivery);
      assert.equal(r.content.length, 2);
      assert.ok(r.content.every((p) => p instanceof vscode.LanguageModelTextPart));
      assert.deepEqual(
        r.content.map((p) => (p as vscode.LanguageModelTextPart).value),
        [page, reminder],
      );
    }
  });

  it('in a chat the text parts become one prompt-tsx part whose rendered text is the CLI text, byte for byte', async () => {
    const r = await toLmResult(twoParts, { inChat: true, tokenizationOptions: budget(50_000) });
    assert.equal(r.content.length, 1);
    assert.ok(r.content[0] instanceof vscode.LanguageModelPromptTsxPart);
    const text = await modelText(r.content[0] as vscode.LanguageModelPromptTsxPart);
    assert.equal(text, resultText(twoParts));
    assert.equal(text, `${page}\n${reminder}`);
  });

  it('a page that ends with a line break gets no second one before the addition', async () => {
    const r = await toLmResult({ isError: false, parts: [{ kind: 'text', text: 'page\n' }, { kind: 'text', text: 'addition' }] }, { inChat: true });
    assert.equal(await modelText(r.content[0] as vscode.LanguageModelPromptTsxPart), 'page\n\naddition');
  });

  it('when the chat must make room it drops an addition, never the page', async () => {
    const r = await toLmResult(twoParts, { inChat: true });
    const json = (r.content[0] as vscode.LanguageModelPromptTsxPart).value as PromptElementJSON;
    const priorities: number[] = [];
    const walk = (n: { type: number; priority?: number; children?: unknown[] }) => (n.type === 2 ? priorities.push(n.priority ?? Infinity) : (n.children as (typeof n)[] | undefined)?.forEach(walk));
    walk(json.node as never);
    assert.deepEqual(priorities, [PAGE_PRIORITY, ADDITION_PRIORITY - 1]);
    const pageTokens = Math.ceil(`${page}\n`.length / 4);
    const text = await modelText(r.content[0] as vscode.LanguageModelPromptTsxPart, pageTokens + 5);
    assert.equal(text, `${page}\n`);
  });

  it('an image stays a data part after the text', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    const r = await toLmResult({ isError: false, parts: [{ kind: 'text', text: 'a.png: PNG image' }, { kind: 'data', mime: 'image/png', data: png }] }, { inChat: true });
    assert.equal(r.content.length, 2);
    assert.ok(r.content[0] instanceof vscode.LanguageModelPromptTsxPart);
    assert.ok(r.content[1] instanceof vscode.LanguageModelDataPart);
    assert.equal((r.content[1] as vscode.LanguageModelDataPart).mimeType, 'image/png');
    assert.equal(await modelText(r.content[0] as vscode.LanguageModelPromptTsxPart), 'a.png: PNG image');
  });

  it('vscode.lm.invokeTool without an invocation token returns text parts', async () => {
    const { result } = await invoke('fs_read', { path: 'hello.txt' });
    assert.ok(result.content.length > 0 && result.content.every((p) => p instanceof vscode.LanguageModelTextPart));
  });
});
