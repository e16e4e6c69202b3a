#!/usr/bin/env bash
# Regenerates or checks the committed PTX of the CUDA test kernels.
#
#   ptx_tool.sh regen [nvcc]   compile every tests/cuda/*.cu to the .ptx beside it
#   ptx_tool.sh check [nvcc]   compile into a temporary directory and compare with the committed
#                              .ptx; exit 77 (CTest "skipped") when nvcc is not available
#
# Each .cu names its nvcc flags on its first line: "// nvcc-flags: -arch=compute_80 -O3".
# The comparison ignores what legitimately differs between machines: the compiler
# identification header, the paths in .file directives, and the DWARF sections of -G builds
# (they embed the build directory).
set -euo pipefail

mode=${1:-}
nvcc=${2:-${WARPSIM_NVCC:-}}
here=$(cd "$(dirname "$0")" && pwd)

if [[ -z "$nvcc" ]]; then
  nvcc=$(command -v nvcc || true)
  [[ -z "$nvcc" && -x /usr/local/cuda/bin/nvcc ]] && nvcc=/usr/local/cuda/bin/nvcc
fi
if [[ -z "$nvcc" || ! -x "$nvcc" ]]; then
  echo "nvcc not found (set WARPSIM_NVCC or install the CUDA toolkit): PTX not regenerated/checked"
  [[ "$mode" == check ]] && exit 77
  exit 1
fi

flags_of() {
  local line
  line=$(head -n 1 "$1")
  if [[ "$line" != "// nvcc-flags:"* ]]; then
    echo "$1:1: error: first line must be '// nvcc-flags: ...'" >&2
    return 1
  fi
  echo "${line#// nvcc-flags:}"
}

# Strip what differs between machines (see header).
normalise() {
  sed -e '/^\/\/ Compiler Build ID:/d' -e '/^\/\/ Cuda compilation tools/d' \
      -e '/^\/\/ Based on NVVM/d' \
      -e 's/^\(\s*\.file\s\+[0-9]\+\s\+"\)[^"]*\/\([^"/]*"\)/\1\2/' \
      -e '/^\s*\.section\s\+\.debug/,$d' "$1"
}

compile() {  # compile <cu> <out.ptx>
  local flags
  flags=$(flags_of "$1")
  # shellcheck disable=SC2086
  "$nvcc" -ptx $flags "$1" -o "$2"
}

case "$mode" in
  regen)
    for cu in "$here"/*.cu; do
      echo "nvcc $(flags_of "$cu") $(basename "$cu")"
      compile "$cu" "${cu%.cu}.ptx"
    done
    ;;
  check)
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    stale=0
    for cu in "$here"/*.cu; do
      name=$(basename "${cu%.cu}")
      committed="$here/$name.ptx"
      if [[ ! -f "$committed" ]]; then
        echo "$committed: missing (run the regen-ptx target)"
        stale=1
        continue
      fi
      compile "$cu" "$tmp/$name.ptx"
      if ! diff -q <(normalise "$committed") <(normalise "$tmp/$name.ptx") >/dev/null; then
        echo "$committed: stale, differs from what $(basename "$nvcc") now emits for $name.cu:"
        diff <(normalise "$committed") <(normalise "$tmp/$name.ptx") | head -n 10 || true
        stale=1
      fi
    done
    if [[ $stale -ne 0 ]]; then
      echo "PTX is stale: run 'cmake --build <build> --target regen-ptx'"
      exit 1
    fi
    echo "all committed PTX matches $("$nvcc" --version | tail -n 1)"
    ;;
  *)
    echo "usage: $0 regen|check [nvcc]" >&2
    exit 2
    ;;
esac
