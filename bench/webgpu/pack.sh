#!/usr/bin/env bash
# Packs what the WebGPU bench needs on a machine that has nothing (the `device` tool's lent GPU
# machine: no Node, no npm registry) into ONE file, bench/webgpu/gpu-pack.tar.xz (git-ignored,
# ~45 MB, under the device tool's 64 MiB carry limit): this machine's Node binary, the bench bundled
# into one ES module (esbuild, from the lab's own devDependencies through tsx), onnxruntime-web's
# Node and WebGPU builds with their WASM files, and Dawn's linux-x64 binary. run-on-gpu.sh unpacks
# and runs it. Keeps the repository layout inside the pack, so the bench's relative paths hold.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -f bench/webgpu/node_modules/webgpu/index.js ] || npm --prefix bench/webgpu ci --no-audit --no-fund
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/src/bench" "$stage/node_modules/onnxruntime-web/dist" "$stage/bench/webgpu/node_modules/webgpu/dist"
node_modules/.bin/esbuild src/bench/cli.ts --bundle --platform=node --format=esm --target=node20 \
  --external:onnxruntime-web --outfile="$stage/src/bench/cli.mjs" --log-level=warning \
  --banner:js="import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);"
# the code version the bench's JSON names (no git inside the pack)
node -e "const p=require('./package.json'); const v=require('child_process').execFileSync('git',['rev-parse','--short=12','HEAD']).toString().trim(); require('fs').writeFileSync(process.argv[1], JSON.stringify({name:p.name, version:p.version+'+'+v, type:'module'}))" "$stage/package.json"
ort=node_modules/onnxruntime-web
cp "$ort/package.json" "$stage/$ort/"
cp -r node_modules/onnxruntime-common "$stage/node_modules/"
cp "$ort"/dist/ort.node.min.* "$ort"/dist/ort.webgpu.mjs "$ort"/dist/ort-wasm-simd-threaded.mjs "$ort"/dist/ort-wasm-simd-threaded.wasm \
  "$ort"/dist/ort-wasm-simd-threaded.asyncify.mjs "$ort"/dist/ort-wasm-simd-threaded.asyncify.wasm "$stage/$ort/dist/"
wg=bench/webgpu/node_modules/webgpu
cp "$wg/index.js" "$wg/package.json" "$stage/$wg/"
cp -r "$wg/dist/linux-x64" "$stage/$wg/dist/"
cp "$(readlink -f "$(command -v node)")" "$stage/node"
tar -C "$stage" -cf - . | xz -T0 -6 > bench/webgpu/gpu-pack.tar.xz
ls -la bench/webgpu/gpu-pack.tar.xz
