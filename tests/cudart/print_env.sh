#!/bin/sh
# Run by the CLI test through `warpsim run -- print_env.sh ARGS`: prints its arguments, the
# WARPSIM_* variables it was given and the first directory of LD_LIBRARY_PATH.
echo "args: $*"
env | grep -E '^WARPSIM_(CONFIG|MODE|OVERLAYS|QUIET|RESOURCES|SET|SMS|STATS)=' | sort
echo "library dir: ${LD_LIBRARY_PATH%%:*}"
