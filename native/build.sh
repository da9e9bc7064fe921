#!/usr/bin/env bash
# Builds ppmlm's wasm SIMD kernels from kernels.c with Debian's clang + lld (apt-get install clang lld):
# kernels-plain.wasm for a tfjs wasm heap without threads, kernels-shared.wasm for the threaded one
# (shared memory). The modules import tfjs's memory, so they must carry no data segments and never use
# a stack in linear memory (it would overwrite tfjs's tensors): both are checked here.
set -euo pipefail
cd "$(dirname "$0")"
for variant in plain shared; do
  flags=()
  [ "$variant" = shared ] && flags=(-matomics -mbulk-memory -Wl,--shared-memory)
  clang --target=wasm32 -O3 -msimd128 -nostdlib -ffreestanding -Wall -Werror "${flags[@]}" \
    -Wl,--no-entry -Wl,--import-memory -Wl,--max-memory=4294967296 -Wl,-z,stack-size=0 \
    -o "kernels-$variant.wasm" kernels.c
  if llvm-objdump -h "kernels-$variant.wasm" | grep -qw DATA; then echo "kernels-$variant.wasm has a data segment" >&2; exit 1; fi
  if llvm-objdump -d "kernels-$variant.wasm" | grep -q 'global\.'; then echo "kernels-$variant.wasm uses the stack pointer" >&2; exit 1; fi
  echo "native/kernels-$variant.wasm: $(wc -c < "kernels-$variant.wasm") bytes"
done
