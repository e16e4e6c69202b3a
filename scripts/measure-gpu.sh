#!/usr/bin/env bash
# Measures the calibration microbenchmarks on this machine's GPU in one command and writes a
# calibration targets file for `warpsim calibrate` (workloads/micro/README.md "On your own GPU").
#
#   scripts/measure-gpu.sh [--gpu NAME] [--out FILE] [--quick]
#
#   --gpu NAME   the configuration the targets are for (the file's `gpu`); default: the card's
#                name as nvidia-smi gives it, lower case, e.g. "rtx-4090"
#   --out FILE   where to write the targets file; default configs/calibration/NAME.toml, only
#                when that file does not exist yet (`warpsim calibrate NAME` reads it there)
#   --quick      smaller sizes and one repetition (seconds instead of about a minute)
#
# Compiles workloads/micro/gpu/measure_gpu.cu with nvcc ($NVCC, else nvcc on PATH, else
# /usr/local/cuda/bin/nvcc) for the local GPU (-arch=native) in a temporary directory, runs it
# (progress on stderr) and prints how to compare the simulator with the file.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

die() {
  echo "measure-gpu.sh: $2" >&2
  exit "$1"
}
usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'; }

gpu='' out='' quick=''
while [ $# -gt 0 ]; do
  case $1 in
    --gpu) [ $# -ge 2 ] || die 2 "--gpu needs a name"; gpu=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || die 2 "--out needs a file"; out=$2; shift 2 ;;
    --quick) quick=--quick; shift ;;
    -h | --help) usage; exit 0 ;;
    *) die 2 "unknown argument '$1' (try --help)" ;;
  esac
done

nvcc=${NVCC:-$(command -v nvcc || true)}
[ -n "$nvcc" ] || nvcc=/usr/local/cuda/bin/nvcc
[ -x "$nvcc" ] || die 1 "nvcc not found (set NVCC or put the CUDA toolkit's bin on PATH)"

if [ -z "$gpu" ]; then
  command -v nvidia-smi > /dev/null ||
    die 2 "nvidia-smi not found: name the configuration with --gpu NAME"
  card=$(nvidia-smi --query-gpu=name --format=csv,noheader -i 0 2> /dev/null | head -n 1) ||
    die 1 "nvidia-smi found no GPU"
  gpu=$(echo "$card" | tr '[:upper:]' '[:lower:]' | sed 's/^nvidia //; s/^geforce //; s/^tesla //; s/[^a-z0-9.]\{1,\}/-/g; s/^-//; s/-$//')
  [ -n "$gpu" ] || die 2 "cannot make a name of the GPU '$card': give --gpu NAME"
fi
case $gpu in *[!A-Za-z0-9._-]*) die 2 "--gpu: '$gpu' is not a plain name (letters, digits, . _ -)" ;; esac

if [ -z "$out" ]; then
  out=$root/configs/calibration/$gpu.toml
  [ ! -e "$out" ] ||
    die 2 "$out exists (published targets or an earlier measurement): write elsewhere with --out FILE"
fi
mkdir -p "$(dirname "$out")"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/measure-gpu.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "measure-gpu.sh: compiling measure_gpu.cu for this GPU (-arch=native)" >&2
"$nvcc" -O2 -arch=native -o "$tmp/measure_gpu" "$root/workloads/micro/gpu/measure_gpu.cu" ||
  die 1 "nvcc failed (-arch=native needs a GPU visible to the driver on this machine)"
# Into a temporary file first: a failed run leaves no half-written targets file behind.
"$tmp/measure_gpu" --gpu "$gpu" $quick --out "$tmp/targets.toml" || die 1 "measure_gpu failed"
cp "$tmp/targets.toml" "$out"
echo "measure-gpu.sh: wrote $out" >&2

cat << EOF

Compare the simulator with this card (CONFIG: a configuration of it, e.g. a copy of the nearest
bundled one in configs/ with its SM count, clocks and cache sizes set):
  warpsim calibrate CONFIG --targets $out
Fit the latency keys to the measurements (add \`fit = "KEY"\` to a target, e.g. "l1.hit_latency",
as configs/calibration/v100.toml does) and write them as an overlay:
  warpsim calibrate CONFIG --targets $out --fit --write fitted.toml
EOF
