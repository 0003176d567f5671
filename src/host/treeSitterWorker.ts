/**
 * The thread outlines are parsed on (see treeSitter.ts): one request in, one answer out.
 * Bundled on its own (dist/treeSitterWorker.js); the tree-sitter runtime and grammars are
 * loaded from dist/tree-sitter/ on the first parse and kept for the next.
 */
import { parentPort } from 'node:worker_threads';
import type { SyntaxLanguage } from '../core/outline/syntax';
import { parseHere } from './treeSitter';

const port = parentPort!;

port.on('message', (m: { id: number; language: SyntaxLanguage; text: string }) => {
  parseHere(m.language, m.text).then(
    // the packed outline's numbers are moved to the thread that asked, not copied
    (result) => port.postMessage({ id: m.id, ok: true, result }, result.kind === 'parsed' ? [result.packed.ints.buffer as ArrayBuffer] : []),
    (e: unknown) => port.postMessage({ id: m.id, ok: false, error: e instanceof Error ? e.message : String(e) }),
  );
});
