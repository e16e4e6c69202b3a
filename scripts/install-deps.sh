#!/usr/bin/env bash
# Installs the Debian packages warpsim needs to build and test. Does nothing when they are all
# present; uses sudo only when not running as root. Non-interactive. Starts no services: the
# SLURM and munge daemons run only in the throwaway clusters of scripts/slurm/.
set -euo pipefail

packages=(
  build-essential cmake ninja-build
  libfmt-dev nlohmann-json3-dev libcli11-dev libtomlplusplus-dev
  libgtest-dev libgmock-dev libbenchmark-dev libzstd-dev
  clang libclang-rt-14-dev
  python3 python3-matplotlib   # experiment pages and their plots (src/mech/*/experiment)
  slurmd slurmctld slurm-client munge   # a real SLURM for the sweep test (scripts/slurm/)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo=()
if [[ $(id -u) -ne 0 ]]; then
  if ! command -v sudo >/dev/null; then
    echo "install-deps: not root and no sudo; install these packages: ${missing[*]}" >&2
    exit 1
  fi
  sudo=(sudo -n)
fi
export DEBIAN_FRONTEND=noninteractive
# Packages with services (munge, slurmd, slurmctld) start them on installation through
# invoke-rc.d, which needs an init system (there may be none: containers, CI) and would leave
# system-wide daemons running. A policy-rc.d that says 101 ("action forbidden") stops that; ours
# is there only during the installation, and an existing one is left alone.
policy=/usr/sbin/policy-rc.d
if [[ ! -e $policy ]]; then
  printf '#!/bin/sh\n# scripts/install-deps.sh: no service starts while it installs packages\nexit 101\n' |
    "${sudo[@]}" tee "$policy" >/dev/null
  "${sudo[@]}" chmod 755 "$policy"
  trap '"${sudo[@]}" rm -f "$policy"' EXIT
fi
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
