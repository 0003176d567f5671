/**
 * The thread tasks run on (see tasks.ts): requests in, answers out, one at a time. It is
 * bundled on its own (dist/taskWorker.js); pdf.js is loaded from its own files on the
 * first PDF, as in the main bundles.
 */
import { parentPort } from 'node:worker_threads';
import { ToolError } from '../core/errors';
import type { TaskRequest } from '../core/process';
import type { PdfPages } from '../core/read/pdf';
import { openPdfPagesHere } from './pdfjs';
import { findRecords } from '../core/search/textSearch';

const port = parentPort!;
let pdf: PdfPages | undefined;
const regexes = new Map<string, RegExp>();

async function answer(r: TaskRequest): Promise<unknown> {
  switch (r.task) {
    case 'regex': {
      const key = `${r.flags}/${r.source}`;
      let regex = regexes.get(key);
      if (!regex) {
        regex = new RegExp(r.source, r.flags);
        regexes.set(key, regex);
      }
      return findRecords(r.text, { regex, acrossLines: r.acrossLines }).records;
    }
    case 'pdf-open':
      await pdf?.close();
      pdf = await openPdfPagesHere(r.bytes, r.where);
      return pdf.pageCount;
    case 'pdf-page':
      if (!pdf) {
        throw new Error('no PDF is open');
      }
      return pdf.text(r.n);
  }
}

port.on('message', (m: { id: number; request: TaskRequest }) => {
  answer(m.request).then(
    (result) => port.postMessage({ id: m.id, ok: true, result }),
    (e: unknown) => port.postMessage({ id: m.id, ok: false, error: e instanceof ToolError ? { code: e.code, message: e.message } : { message: e instanceof Error ? e.message : String(e) } }),
  );
});
