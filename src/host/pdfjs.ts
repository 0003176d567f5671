/**
 * Loads pdf.js for the thread that runs it (the task thread, see taskWorker.ts; tests):
 * the one place that sets the globals pdf.js needs to load. It runs through its "fake
 * worker": the worker module is imported and handed to it as `globalThis.pdfjsWorker`,
 * so there is no worker thread and no file URL to resolve, which also holds once
 * bundled. Both modules are imported on the first PDF only.
 */
import { openPdfPages, type PdfJs, type PdfPages } from '../core/read/pdf';

let loading: Promise<PdfJs> | undefined;

/** pdf.js and its worker, loaded once; a failed load is retried on the next call. */
export function loadPdfJs(): Promise<PdfJs> {
  loading ??= (async () => {
    const restore = preparePdfjsImport();
    try {
      const [lib, worker] = await Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import('pdfjs-dist/legacy/build/pdf.worker.mjs')]);
      (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = { WorkerMessageHandler: worker.WorkerMessageHandler };
      return lib as PdfJs;
    } finally {
      restore();
    }
  })().catch((e: unknown) => {
    loading = undefined;
    throw e;
  });
  return loading;
}

/** An identity matrix: all pdf.js needs of `DOMMatrix` to load. */
class DOMMatrixStandIn {
  a = 1;
  b = 0;
  c = 0;
  d = 1;
  e = 0;
  f = 0;
}

/**
 * pdf.js's canvas code builds a `DOMMatrix` when it loads, and Node has none; pdf.js
 * would take one from a native canvas package, which a bundle does not ship and
 * text extraction does not need. A stand-in serves for the load and is removed
 * after, so no half-made DOMMatrix stays visible to other code in the process. The
 * same load prints "Warning: cannot polyfill ..." lines on the console: noise on the
 * CLI's stderr for a text-only use, dropped while the modules load.
 */
function preparePdfjsImport(): () => void {
  const g = globalThis as { DOMMatrix?: unknown };
  const standIn = g.DOMMatrix === undefined;
  if (standIn) {
    g.DOMMatrix = DOMMatrixStandIn;
  }
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith('Warning: ')) {
      return;
    }
    warn.apply(console, args);
  };
  return () => {
    console.warn = warn;
    if (standIn && g.DOMMatrix === DOMMatrixStandIn) {
      delete g.DOMMatrix;
    }
  };
}

/** Opens a PDF with pdf.js in this thread (see openPdfPages). */
export async function openPdfPagesHere(bytes: Uint8Array, where: string): Promise<PdfPages> {
  return openPdfPages(await loadPdfJs(), bytes, where);
}
