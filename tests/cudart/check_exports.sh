#!/bin/sh
# check_exports.sh NVIDIA_LIBCUDART OUR_LIBCUDART: every function the first exports (with its
# version node) is exported by the second with the same version node. Exit 77 without the first.
set -u
nvidia=$1 ours=$2
if [ ! -f "$nvidia" ]; then echo "skipped: NVIDIA's libcudart.so.13 not found"; exit 77; fi
list() { objdump -T "$1" | awk '$2 == "g" && $3 == "DF" {print $(NF-1), $NF}' | sort -u; }
missing=$(list "$nvidia" > /tmp/cudart_nv.$$; list "$ours" > /tmp/cudart_ours.$$;
          comm -23 /tmp/cudart_nv.$$ /tmp/cudart_ours.$$; rm -f /tmp/cudart_nv.$$ /tmp/cudart_ours.$$)
if [ -n "$missing" ]; then
  echo "FAIL: missing exports (version node, name):"; echo "$missing"; exit 1
fi
echo "ok: all $(objdump -T "$nvidia" | awk '$2 == "g" && $3 == "DF"' | wc -l) functions exported"
