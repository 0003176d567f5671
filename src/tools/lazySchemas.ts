import type * as Schemas from './schemas';

let loaded: typeof Schemas | undefined;

/**
 * The tools' schemas, loaded on first use: a call whose input its tool's quick check takes
 * never builds them, nor loads zod. The CLI's build maps `./schemas` to its own bundle
 * (dist/cli-schemas.js, see esbuild.mjs); the extension's bundle holds them inline.
 */
export function schemas(): typeof Schemas {
  // a require, not an import(): parsing input is synchronous
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('./schemas') as typeof Schemas);
}
