#!/bin/sh
# install-dsh.sh — installs the DeepSeek Harness toolchain Open Design is tested with (Node, dsh, pnpm), pinned,
# checksum-verified, without any global npm install, and puts a `dsh` launcher in ~/.local/bin.
#
#   curl -fsSL 'https://open-design.ai/install-dsh.sh?version=1' | sh
#   sh install-dsh.sh [--no-launch]
#
# Artifact layout served at $OD_DSH_BASE_URL (default: see OD_DSH_DEFAULT_BASE_URL below):
#   SHA256SUMS                              lines "<sha256>  <name>" for every file below
#   node-v<NODE>-<os>-<arch>.tar.gz         Node distribution; top folder node-v<NODE>-<os>-<arch>/ with bin/node
#                                           (<os>: linux|darwin, <arch>: x64|arm64)
#   node-v<NODE>-win-<arch>.zip             (Windows, used by install-dsh.ps1)
#   dsh-<DSH>.tgz                           the dsh npm package tarball (package/…, package.json "bin" names dsh)
#   pnpm-<PNPM>.tgz                         the pnpm npm package tarball (package/…, package.json "bin" names pnpm)
#
# Result:
#   <data>/open-design/dsh-toolchain/node-<NODE>_dsh-<DSH>_pnpm-<PNPM>/{node,dsh,pnpm,bin}   (<data> = $XDG_DATA_HOME or ~/.local/share)
#   ~/.local/bin/dsh                        launcher (od finds it on PATH or in ~/.local/bin)
# Every download is verified before it is unpacked; everything is unpacked into a staging folder that is moved
# into place only when complete, so a failure leaves nothing half-installed. Rerunning is a no-op.
# Environment: OD_DSH_BASE_URL, OD_DSH_BIN_DIR (launcher folder), OD_DSH_PLATFORM (e.g. linux-x64).
set -eu

# BEGIN GENERATED VERSION POLICY (scripts/gen-dsh-installers.ts from server/dsh/version-policy.json)
OD_DSH_BOOTSTRAP_VERSION="1"
OD_DSH_NODE_VERSION="24.11.1"
OD_DSH_DSH_VERSION="0.1.2-rc.1"
OD_DSH_PNPM_VERSION="10.20.0"
# END GENERATED VERSION POLICY

OD_DSH_DEFAULT_BASE_URL="https://open-design.ai/bootstrap/dsh/toolchain/v${OD_DSH_BOOTSTRAP_VERSION}"

say() { printf 'install-dsh: %s\n' "$*"; }
die() { printf 'install-dsh: error: %s\n' "$*" >&2; exit 1; }

launch=1
for arg in "$@"; do
  case "$arg" in
    --no-launch) launch=0 ;;
    -h|--help) sed -n '2,6p' "$0" 2>/dev/null || true; exit 0 ;;
    *) die "unknown option: $arg (supported: --no-launch)" ;;
  esac
done

base_url="${OD_DSH_BASE_URL:-$OD_DSH_DEFAULT_BASE_URL}"
base_url="${base_url%/}"
[ -n "${HOME:-}" ] || die "HOME is not set"
data_home="${XDG_DATA_HOME:-$HOME/.local/share}"
root="$data_home/open-design/dsh-toolchain"
bin_dir="${OD_DSH_BIN_DIR:-$HOME/.local/bin}"
toolchain="$root/node-${OD_DSH_NODE_VERSION}_dsh-${OD_DSH_DSH_VERSION}_pnpm-${OD_DSH_PNPM_VERSION}"

platform() {
  if [ -n "${OD_DSH_PLATFORM:-}" ]; then printf '%s' "$OD_DSH_PLATFORM"; return; fi
  case "$(uname -s)" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    *) die "unsupported OS $(uname -s); on Windows use install-dsh.ps1" ;;
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

verify() { # file name
  expected=$(awk -v n="$2" '$2 == n || $2 == "*" n { print $1; exit }' "$stage/SHA256SUMS")
  [ -n "$expected" ] || die "SHA256SUMS has no entry for $2"
  actual=$(sha256_of "$1")
  [ "$actual" = "$expected" ] || die "checksum mismatch for $2 (expected $expected, got $actual); nothing was installed"
}

unpack() { # archive dest
  mkdir -p "$2"
  tar -xzf "$1" -C "$2" --strip-components=1 || die "could not unpack $(basename "$1")"
}

package_bin() { # node package_json bin_name
  "$1" -e 'const p=require(process.argv[1]);const b=typeof p.bin==="string"?p.bin:(p.bin||{})[process.argv[2]];if(!b)process.exit(3);process.stdout.write(b)' "$2" "$3"
}

write_launcher() { # dest
  {
    printf '#!/bin/sh\n'
    printf '# open-design dsh launcher (install-dsh.sh) node=%s dsh=%s pnpm=%s\n' "$OD_DSH_NODE_VERSION" "$OD_DSH_DSH_VERSION" "$OD_DSH_PNPM_VERSION"
    printf 'PATH="%s/node/bin:%s/bin:$PATH"\nexport PATH\n' "$toolchain" "$toolchain"
    printf 'exec "%s/node/bin/node" "%s/dsh/%s" "$@"\n' "$toolchain" "$toolchain" "$dsh_bin"
  } > "$1"
  chmod 755 "$1"
}

mkdir -p "$root" "$bin_dir"
stage=""
cleanup() { [ -z "$stage" ] || rm -rf "$stage"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -f "$toolchain/.complete" ] && "$toolchain/node/bin/node" --version >/dev/null 2>&1; then
  say "node $OD_DSH_NODE_VERSION, dsh $OD_DSH_DSH_VERSION, pnpm $OD_DSH_PNPM_VERSION already installed"
  dsh_bin=$(cat "$toolchain/.dsh-bin")
else
  plat=$(platform)
  node_file="node-v${OD_DSH_NODE_VERSION}-${plat}.tar.gz"
  dsh_file="dsh-${OD_DSH_DSH_VERSION}.tgz"
  pnpm_file="pnpm-${OD_DSH_PNPM_VERSION}.tgz"
  stage=$(mktemp -d "$root/.stage.XXXXXX")
  say "downloading from $base_url"
  fetch "$base_url/SHA256SUMS" "$stage/SHA256SUMS"
  for f in "$node_file" "$dsh_file" "$pnpm_file"; do
    fetch "$base_url/$f" "$stage/$f"
    verify "$stage/$f" "$f"
  done
  unpack "$stage/$node_file" "$stage/tree/node"
  unpack "$stage/$dsh_file" "$stage/tree/dsh"
  unpack "$stage/$pnpm_file" "$stage/tree/pnpm"

  node="$stage/tree/node/bin/node"
  [ "$("$node" --version 2>/dev/null)" = "v$OD_DSH_NODE_VERSION" ] || die "the downloaded node is not v$OD_DSH_NODE_VERSION"
  dsh_bin=$(package_bin "$node" "$stage/tree/dsh/package.json" dsh) || die "the dsh package names no dsh executable"
  pnpm_bin=$(package_bin "$node" "$stage/tree/pnpm/package.json" pnpm) || die "the pnpm package names no pnpm executable"
  case "$("$node" "$stage/tree/dsh/$dsh_bin" --version 2>&1)" in
    *"$OD_DSH_DSH_VERSION"*) ;;
    *) die "the downloaded dsh does not report $OD_DSH_DSH_VERSION" ;;
  esac

  mkdir -p "$stage/tree/bin"
  printf '#!/bin/sh\nexec "%s/node/bin/node" "%s/pnpm/%s" "$@"\n' "$toolchain" "$toolchain" "$pnpm_bin" > "$stage/tree/bin/pnpm"
  chmod 755 "$stage/tree/bin/pnpm"
  printf '%s' "$dsh_bin" > "$stage/tree/.dsh-bin"
  : > "$stage/tree/.complete"
  rm -rf "$toolchain"
  mv "$stage/tree" "$toolchain"
  say "installed node $OD_DSH_NODE_VERSION, dsh $OD_DSH_DSH_VERSION, pnpm $OD_DSH_PNPM_VERSION in $toolchain"
fi

launcher_tmp="$bin_dir/.dsh.$$.tmp"
write_launcher "$launcher_tmp"
mv -f "$launcher_tmp" "$bin_dir/dsh"
"$bin_dir/dsh" --version >/dev/null 2>&1 || die "the launcher $bin_dir/dsh does not run"
say "launcher: $bin_dir/dsh"
case ":$PATH:" in
  *":$bin_dir:"*) ;;
  *) say "add $bin_dir to your PATH (od also looks there)" ;;
esac

if [ "$launch" = 1 ]; then
  say "opening the Harness web UI for provider setup (dsh web)"
  nohup "$bin_dir/dsh" web >"$root/web-ui.log" 2>&1 &
fi
say "done"
