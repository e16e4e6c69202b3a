#!/bin/sh
# Regenerates the committed PTX in this directory from the .cu sources (needs CUDA's nvcc).
# The parser tests assert function/symbol/instruction counts of these exact files: update
# src/ptx/nvcc_output_test.cpp when a new nvcc changes them.
set -e
cd "$(dirname "$0")"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
for f in vector_add shared_reduce atomics local_array printf warp_ops half_math double_math switch_case; do
  "$NVCC" -ptx -arch=compute_80 "$f.cu" -o "$f.ptx"
done
"$NVCC" -ptx -arch=compute_80 -rdc=true recursion.cu -o recursion.ptx
"$NVCC" -ptx -arch=compute_75 atomics.cu -o atomics_sm75.ptx
"$NVCC" -ptx -arch=compute_75 -G vector_add.cu -o vector_add_debug_sm75.ptx
"$NVCC" -ptx -arch=compute_90 -G warp_ops.cu -o warp_ops_debug_sm90.ptx
"$NVCC" -ptx -arch=compute_90 -lineinfo shared_reduce.cu -o shared_reduce_lineinfo_sm90.ptx
"$NVCC" -ptx -arch=compute_80 xmem_device_calls.cu -o xmem_device_calls.ptx
