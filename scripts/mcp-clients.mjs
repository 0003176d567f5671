// The real MCP clients the tests drive, the MCP Inspector's CLI and Codex CLI, at the versions
// pinned by scripts/mcp-clients/package-lock.json. They are not development dependencies: Codex
// alone is about 400 MB, which every `npm ci` would fetch and unpack. They are installed on demand,
// the way scripts/setup-host.sh installs the test host, into a cache folder beside it
// (MCP_TEST_CLIENTS_DIR, by default .mcp-test-clients in the project), by `npm ci` from that lock.
// Idempotent: when the folder holds an install of the same lock, nothing runs.
//
//   node scripts/mcp-clients.mjs        installs if needed, prints {"codex": ..., "inspector": ...}
//   import { ensureMcpClients } from './mcp-clients.mjs'
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pinned = path.join(root, 'scripts/mcp-clients');
export const clientsDir = process.env.MCP_TEST_CLIENTS_DIR || path.join(root, '.mcp-test-clients');

/** The entry points of the installed clients, run with `node <path>`. */
export function clientPaths(dir = clientsDir) {
  return {
    codex: path.join(dir, 'node_modules/@openai/codex/bin/codex.js'),
    inspector: path.join(dir, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js'),
  };
}

function stamp() {
  const h = createHash('sha256');
  for (const f of ['package.json', 'package-lock.json']) h.update(fs.readFileSync(path.join(pinned, f)));
  return h.digest('hex');
}

/**
 * Installs the pinned clients into `clientsDir` unless an install of the same lock is there, and
 * returns their entry points. Throws when npm fails, with its output.
 */
export function ensureMcpClients({ log = (m) => process.stderr.write(`${m}\n`) } = {}) {
  const want = stamp();
  const stampFile = path.join(clientsDir, '.installed');
  const paths = clientPaths();
  let have;
  try { have = fs.readFileSync(stampFile, 'utf8').trim(); } catch { /* none yet */ }
  if (have === want && Object.values(paths).every((p) => fs.existsSync(p))) {
    return paths;
  }
  const t0 = Date.now();
  log(`mcp-clients: installing the pinned MCP Inspector and Codex CLI into ${clientsDir}`);
  fs.mkdirSync(clientsDir, { recursive: true });
  fs.rmSync(stampFile, { force: true });
  for (const f of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(pinned, f), path.join(clientsDir, f));
  // Called from `npm test`, this inherits the outer npm's configuration as npm_config_* variables
  // (and its package's npm_package_*), which the nested install would read as its own (as
  // scripts/setup-host.sh says): it sees only its own npm; the user's .npmrc files still apply.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_config_|npm_package_|npm_lifecycle_)|^(npm_execpath|npm_node_execpath|npm_command|NODE)$/.test(k)));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: clientsDir, env, encoding: 'utf8', shell: process.platform === 'win32' });
  if (r.status !== 0) {
    throw new Error(`mcp-clients: npm ci in ${clientsDir} failed (exit ${r.status ?? r.signal}):\n${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}`);
  }
  const missing = Object.values(paths).filter((p) => !fs.existsSync(p));
  if (missing.length) {
    throw new Error(`mcp-clients: npm ci in ${clientsDir} left out ${missing.join(', ')}`);
  }
  fs.writeFileSync(stampFile, `${want}\n`);
  log(`mcp-clients: installed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return paths;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    console.log(JSON.stringify(ensureMcpClients()));
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  }
}
