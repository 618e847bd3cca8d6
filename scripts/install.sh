#!/bin/sh
# install.sh — downloads the `od` binary for this machine from a release, verifies it against the release's
# SHA256SUMS and installs it as `od` in ~/.local/bin (or the folder you name).
#
#   sh install.sh [--dir DIR]            (or piped: curl -fsSL <this script> | sh -s -- --dir DIR)
#
# Release layout served at $OD_RELEASE_URL (default: OD_DEFAULT_RELEASE_URL below), as
# `npm run build:release` writes it to dist/release/:
#   SHA256SUMS            lines "<sha256>  <name>" for every file below
#   od-<os>-<arch>        the binary (<os>: linux|darwin, <arch>: x64|arm64; Windows: od-windows-x64.exe, install.ps1)
#
# The binary is downloaded into a staging folder inside the target folder, verified and tried (`od --version`),
# then moved into place in one step: a mismatch or a failed download leaves the folder as it was.
# Environment: OD_RELEASE_URL, OD_INSTALL_DIR (the folder; --dir wins), OD_INSTALL_PLATFORM (e.g. linux-x64).
set -eu

OD_DEFAULT_RELEASE_URL="https://open-design.ai/od/releases/latest"

say() { printf 'install: %s\n' "$*"; }
die() { printf 'install: error: %s\n' "$*" >&2; exit 1; }

dir="${OD_INSTALL_DIR:-}"
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) [ $# -ge 2 ] || die "--dir needs a folder"; dir="$2"; shift 2 ;;
    --dir=*) dir="${1#--dir=}"; shift ;;
    -h|--help) sed -n '2,6p' "$0" 2>/dev/null || true; exit 0 ;;
    *) die "unknown option: $1 (supported: --dir DIR)" ;;
  esac
done
if [ -z "$dir" ]; then
  [ -n "${HOME:-}" ] || die "HOME is not set; name a folder with --dir"
  dir="$HOME/.local/bin"
fi
release_url="${OD_RELEASE_URL:-$OD_DEFAULT_RELEASE_URL}"
release_url="${release_url%/}"

platform() {
  if [ -n "${OD_INSTALL_PLATFORM:-}" ]; then printf '%s' "$OD_INSTALL_PLATFORM"; return; fi
  case "$(uname -s)" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    *) die "unsupported OS $(uname -s); on Windows use install.ps1" ;;
  esac
  case "$(uname -m)" in
    x86_64|amd64) arch=x64 ;;
    arm64|aarch64) arch=arm64 ;;
    *) die "unsupported CPU $(uname -m)" ;;
  esac
  printf '%s-%s' "$os" "$arch"
}

fetch() { # url dest
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 2 -o "$2" "$1" || die "download failed: $1"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1" || die "download failed: $1"
  else
    die "curl or wget is required"
  fi
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1
  elif command -v shasum >/dev/null 2>&1; then shasum -a 256 "$1" | cut -d' ' -f1
  else die "sha256sum or shasum is required"; fi
}

name="od-$(platform)"
mkdir -p "$dir" || die "cannot create $dir"
# In the target folder, so the final move is a rename on one file system.
stage=$(mktemp -d "$dir/.od-install.XXXXXX") || die "cannot write to $dir"
cleanup() { rm -rf "$stage"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

say "downloading $name from $release_url"
fetch "$release_url/SHA256SUMS" "$stage/SHA256SUMS"
expected=$(awk -v n="$name" '$2 == n || $2 == "*" n { print $1; exit }' "$stage/SHA256SUMS")
[ -n "$expected" ] || die "the release has no $name (SHA256SUMS names no such file)"
fetch "$release_url/$name" "$stage/od"
actual=$(sha256_of "$stage/od")
[ "$actual" = "$expected" ] || die "checksum mismatch for $name (expected $expected, got $actual); nothing was installed"
chmod 755 "$stage/od"
version=$("$stage/od" --version 2>/dev/null) || die "the downloaded $name does not run on this machine; nothing was installed"

mv -f "$stage/od" "$dir/od"
say "installed $version as $dir/od"
case ":${PATH:-}:" in
  *":$dir:"*) say "$dir is on your PATH: run \`od\`" ;;
  *) say "$dir is not on your PATH: add it (export PATH=\"$dir:\$PATH\" in your shell profile) or run $dir/od" ;;
esac
