#!/usr/bin/env bash
# Prepares this machine to run Skillgate in a real VS Code: Debian's Chromium and the
# packages code-server's native modules need, then code-server itself in a git-ignored
# folder outside the project's dependencies (.vscode-test/code-server). Idempotent:
# every step checks first and says what it did. See shared/real-vscode.md for why.
set -euo pipefail

CODE_SERVER_VERSION="4.100.3"
RIPGREP_PREBUILT_VERSION="1.15.11"
RIPGREP_ARCHIVE="ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DEST="$ROOT/.vscode-test/code-server"
say() { printf '[setup-test-host] %s\n' "$*"; }
fail() { printf '[setup-test-host] FAILED: %s\n' "$*" >&2; exit 1; }

# 1. Debian packages. git and pre-commit are for the packaging tests (the pre-commit hook
# test installs pre-commit from the Python package index when it can, else uses this one).
need=()
for pkg in build-essential pkg-config libkrb5-dev ripgrep chromium fonts-dejavu-core git pre-commit; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] || fail "missing Debian packages (${need[*]}); run this script as root or install them"
  say "installing Debian packages: ${need[*]}"
  apt-get update -qq || fail "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null || fail "apt-get install ${need[*]} failed"
else
  say "Debian packages present"
fi
[ -x /usr/bin/chromium ] || fail "/usr/bin/chromium is missing after install"
command -v rg >/dev/null || fail "rg (ripgrep) is missing after install"
command -v pre-commit >/dev/null || fail "pre-commit is missing after install"

# 2. code-server.
installed="$(node -e "try{console.log(require('$DEST/node_modules/code-server/package.json').version)}catch{}" 2>/dev/null || true)"
if [ "$installed" = "$CODE_SERVER_VERSION" ] && [ -x "$DEST/node_modules/.bin/code-server" ]; then
  say "code-server $CODE_SERVER_VERSION present in $DEST"
else
  # @vscode/ripgrep downloads rg from GitHub, which is unreachable here; it first
  # looks for this cached archive, so we place Debian's rg in it.
  cache="${TMPDIR:-/tmp}/vscode-ripgrep-cache-$RIPGREP_PREBUILT_VERSION"
  if [ ! -s "$cache/$RIPGREP_ARCHIVE" ]; then
    say "caching Debian's rg for @vscode/ripgrep in $cache"
    work="$(mktemp -d)"
    cp "$(command -v rg)" "$work/rg"
    mkdir -p "$cache"
    tar -czf "$cache/$RIPGREP_ARCHIVE" -C "$work" rg
    rm -rf "$work"
  fi
  say "installing code-server $CODE_SERVER_VERSION into $DEST (a few minutes)"
  mkdir -p "$DEST"
  [ -f "$DEST/package.json" ] || echo '{ "name": "skillgate-test-host", "private": true }' > "$DEST/package.json"
  # Its postinstall refuses to run as root without unsafe-perm, and a nested
  # `npx node-gyp` would otherwise stop at a prompt. npm 11 skips dependency install
  # scripts unless allowed; code-server's build them (native modules), so this
  # isolated test-host folder allows them all.
  if ! (cd "$DEST" && npm_config_unsafe_perm=true npm_config_yes=true npm_config_dangerously_allow_all_scripts=true npm install --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION" > "$DEST/install.log" 2>&1); then
    tail -40 "$DEST/install.log" >&2
    fail "npm install code-server@$CODE_SERVER_VERSION failed (log: $DEST/install.log)"
  fi
  [ -x "$DEST/node_modules/.bin/code-server" ] || fail "code-server binary missing after install (log: $DEST/install.log)"
  say "code-server $CODE_SERVER_VERSION installed"
fi
"$DEST/node_modules/.bin/code-server" --version | head -1 | sed 's/^/[setup-test-host] code-server /'
