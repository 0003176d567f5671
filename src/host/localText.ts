import { readFileSync } from 'node:fs';

/** A local text file read whole (the CLI's --input-file). */
export function readLocalText(p: string): string {
  return readFileSync(p, 'utf8');
}
