// Where the VS Code test host and its runs live, wherever the project is cloned, and the
// check that every Unix socket a run makes fits the system's limit.
//
// The host (Node 24 and code-server, about 800 MB once built) is one folder per version in the
// user's cache, shared by every clone: $VSCODE_HOST_DIR, else
// $XDG_CACHE_HOME/agent-file-tools/vscode-host/<versions> ($XDG_CACHE_HOME defaults to ~/.cache).
// Each run gets a short folder of its own under the system's temporary folder
// ($VSCODE_TEST_RUNS_DIR overrides it): a clone's path can be long, and the sockets a run makes
// live under its folder.
//
//   node scripts/host-paths.mjs     prints the host folder, then the Node and code-server
//                                   versions, one a line (scripts/setup-host.sh reads them)
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The versions the host is made of; each may be overridden for a try of another (the folder's name follows). */
export function hostVersions(env = process.env) {
  return { node: env.NODE24_VERSION || '24.14.1', codeServer: env.CODE_SERVER_VERSION || '4.139.1' };
}

/** The user's cache folder, as the XDG base directory rules give it. */
function cacheHome(env, home) {
  const xdg = env.XDG_CACHE_HOME;
  // the rules ignore a relative value
  return xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.cache');
}

/**
 * The host folder: $VSCODE_HOST_DIR, else one folder per version in the user's cache, so that
 * every clone of the same version uses one install and none lives inside a clone.
 */
export function hostDirectory(env = process.env, home = os.homedir()) {
  if (env.VSCODE_HOST_DIR) {
    return path.resolve(env.VSCODE_HOST_DIR);
  }
  const v = hostVersions(env);
  return path.join(cacheHome(env, home), 'agent-file-tools', 'vscode-host', `code-server-${v.codeServer}-node-${v.node}`);
}

/** The folder the runs' own folders are made in: $VSCODE_TEST_RUNS_DIR, else the system's temporary folder. */
export function runsDirectory(env = process.env) {
  return env.VSCODE_TEST_RUNS_DIR ? path.resolve(env.VSCODE_TEST_RUNS_DIR) : os.tmpdir();
}

/** The longest path a Unix socket may have, in bytes (sun_path holds it and its terminating NUL). */
export const UNIX_SOCKET_PATH_MAX = process.platform === 'darwin' ? 103 : 107;

/**
 * The longest Unix socket paths a host run makes, each with who makes it: chromium's
 * singleton socket in a folder of its temporary folder; Copilot Chat's agent host and VS Code's
 * language servers, in the temporary folder of the server and its extension host; code-server's
 * session socket in its user data folder. (VS Code's own IPC sockets shorten their names to fit.)
 */
export function socketPaths({ chromiumTmp, serverTmp, userDataDir } = {}) {
  const out = [];
  if (chromiumTmp) {
    out.push({ who: "chromium's singleton socket", path: path.join(chromiumTmp, '.org.chromium.Chromium.XXXXXX', 'SingletonSocket') });
  }
  if (serverTmp) {
    out.push({ who: "Copilot Chat's agent host socket", path: path.join(serverTmp, `vscode-agent-host-${'x'.repeat(32)}.sock`) });
  }
  if (userDataDir) {
    out.push({ who: "code-server's session socket", path: path.join(userDataDir, 'code-server-ipc.sock') });
  }
  return out;
}

/**
 * Throws, before anything listens, when a socket path would be longer than the system allows:
 * the server would fail with words of its own (chromium's "Socket path too long", Node's
 * "listen EINVAL"), far from the cause. The message names the path, its length, the limit and
 * what to set.
 */
export function checkSocketPaths(sockets, limit = UNIX_SOCKET_PATH_MAX) {
  for (const s of sockets) {
    const bytes = Buffer.byteLength(s.path);
    if (bytes > limit) {
      throw new Error(
        `${s.who} would be ${s.path}: ${bytes} bytes, over the ${limit} bytes a Unix socket path may have. ` +
          'Set VSCODE_TEST_RUNS_DIR (or TMPDIR) to a shorter folder, such as /tmp/aft-runs.',
      );
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const v = hostVersions();
  const dir = hostDirectory();
  if (dir.includes('\n')) {
    console.error(`the host folder's path holds a line break: ${JSON.stringify(dir)}; set VSCODE_HOST_DIR to another folder`);
    process.exit(2);
  }
  console.log([dir, v.node, v.codeServer].join('\n'));
}
