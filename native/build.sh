#!/usr/bin/env bash
# Builds ppmlm's wasm SIMD kernels from kernels.c with Debian's clang >= 16 and its lld
# (apt-get install clang-16 lld-16 llvm-16; relaxed SIMD's intrinsics need 16): for a tfjs wasm heap
# without threads (plain) and for the threaded one (shared memory), each with plain SIMD and with
# relaxed SIMD's fused multiply-add (-relaxed). The modules import tfjs's memory, so they must carry no
# data segments and never use a stack in linear memory (it would overwrite tfjs's tensors): both are
# checked here.
set -euo pipefail
cd "$(dirname "$0")"
version=
for v in 19 18 17 16; do command -v "clang-$v" >/dev/null && { version=$v; break; }; done
[ -n "$version" ] || { echo "build.sh: needs clang >= 16 (apt-get install clang-16 lld-16 llvm-16)" >&2; exit 2; }
for variant in plain shared plain-relaxed shared-relaxed; do
  flags=()
  case "$variant" in shared*) flags+=(-matomics -mbulk-memory -Wl,--shared-memory) ;; esac
  case "$variant" in *-relaxed) flags+=(-mrelaxed-simd) ;; esac
  "clang-$version" --target=wasm32 -O3 -msimd128 -nostdlib -ffreestanding -Wall -Werror "${flags[@]}" \
    -fuse-ld="$(command -v "wasm-ld-$version")" \
    -Wl,--no-entry -Wl,--import-memory -Wl,--max-memory=4294967296 -Wl,-z,stack-size=0 \
    -o "kernels-$variant.wasm" kernels.c
  if "llvm-objdump-$version" -h "kernels-$variant.wasm" | grep -qw DATA; then echo "kernels-$variant.wasm has a data segment" >&2; exit 1; fi
  if "llvm-objdump-$version" -d "kernels-$variant.wasm" | grep -q 'global\.'; then echo "kernels-$variant.wasm uses the stack pointer" >&2; exit 1; fi
  echo "native/kernels-$variant.wasm: $(wc -c < "kernels-$variant.wasm") bytes"
done
