#!/usr/bin/env bash
# The real-GPU WebGPU bench in one command, for a session that is lent a GPU by the `device` tool.
# Here, first: `bench/webgpu/pack.sh` (makes bench/webgpu/gpu-pack.tar.xz) and, once, the Vulkan
# loader debs into .gl/ as the device tool's README says. Then one device run:
#   run(carry=[".gl", "bench/webgpu/gpu-pack.tar.xz"], timeout_s=540,
#       command="bash bench/webgpu/run-on-gpu.sh")
# It runs `bench --backend webgpu` (train / score / sample, 512³ MatMul roofline, parity against WASM
# on the same weights, ensembles P = 1, 8, 32, 64 interleaved with WASM; `costs`: runs, uploads,
# readbacks and WebGPU calls — dispatches, submits, maps — per train step / sampling / score pass;
# `output_layouts`: fused vs separate outputs, counts and interleaved times) and writes the JSON to
# $OUT/webgpu-<adapter>.json (and bench/ when run by hand); commit it under bench/.
# Extra arguments go to the bench (e.g. --reps 5, --ensemble-ps 1,8,32).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -d .gl ] && ! ldconfig -p | grep -q libvulkan; then
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
nv=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -z "${VK_ICD_FILENAMES:-}${VK_DRIVER_FILES:-}" ] && [ -f "$nv" ]; then export VK_DRIVER_FILES=$nv; fi
pack=${INVLAB_PACK_DIR:-}   # an unpacked pack (tests of this script)
if [ -z "$pack" ]; then
  pack=$(mktemp -d)
  tar -C "$pack" -xJf bench/webgpu/gpu-pack.tar.xz
fi
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
out=$(mktemp)
# INVLAB_VULKAN_CHECKED: the loader is in place (above); the bench need not look for Chromium's copy
INVLAB_VULKAN_CHECKED=1 "$pack/node" "$pack/src/bench/cli.mjs" --backend webgpu "$@" > "$out"
adapter=$("$pack/node" -e "const r=JSON.parse(require('fs').readFileSync(process.argv[1],'utf8')); console.log(r.adapter.replace(/[^A-Za-z0-9]+/g,'-').replace(/^-|-\$/g,'').toLowerCase())" "$out")
name="webgpu-${adapter}-$(date -u +%Y%m%d).json"
cp "$out" "bench/$name"
[ -n "${OUT:-}" ] && cp "$out" "$OUT/$name"
echo "wrote bench/$name"
