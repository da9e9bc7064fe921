#!/usr/bin/env bash
# The de-identification results of docs/deid.md, end to end (about 4.5 hours on 2 cores):
#   bash bench/experiments/deid-results.sh ../shared/data OUT_DIR
# Korean judgments: per-epoch vs single replacement, level-2 labels (16 categories), a fresh encoder of
# hidden 128 / 2 layers, 8 epochs; then per-epoch replacement for 16 epochs, evaluated with disjoint and
# with half-overlapping windows; then the same 16-epoch run with dropout 0.1, and with dropout and 10%
# outside noise, each evaluated at argmax and at the PII threshold it chose on the dev split. English
# PHI: the PhysioNet nursing notes' gold spans and Presidio's synthetic sentences (generated_large.json),
# 6 epochs each. The other rows predate dropout and the dev-chosen threshold: they train with --dropout 0
# and evaluate at argmax.
# Finished models are kept (delete OUT_DIR/<name> to redo one); interrupted training resumes.
source "$(dirname "$0")/common.sh"
experiment_setup "${1:-}" "${2:-}"
KO=(--judgments "$DATA/thunder-deid/judgments" --replacements "$DATA/thunder-deid/replacement" --skip-bad-docs)
EN=(--spans "$DATA/physionet-deid" --spans-format physionet --no-morphemes)
MODEL=(--hidden 128 --layers 2 --heads 2 --intermediate 512 --lr 1e-3)

for mode in per-epoch single; do
  [ -d "$OUT/ko-$mode" ] || $PPMLM deid train "${KO[@]}" --replacement "$mode" --label-level 2 --epochs 8 "${MODEL[@]}" --dropout 0 --out "$OUT/ko-$mode" $(resume "$OUT/ko-$mode")
  # Disjoint windows, as these rows of docs/deid.md were measured.
  [ -f "$OUT/ko-$mode.eval.json" ] || $PPMLM deid eval "${KO[@]}" --model "$OUT/ko-$mode" --stride 0 --pii-threshold argmax --json > "$OUT/ko-$mode.eval.json"
done
[ -d "$OUT/ko-per-epoch-16" ] || $PPMLM deid train "${KO[@]}" --replacement per-epoch --label-level 2 --epochs 16 "${MODEL[@]}" --dropout 0 --out "$OUT/ko-per-epoch-16" $(resume "$OUT/ko-per-epoch-16")
[ -f "$OUT/ko-per-epoch-16.eval.json" ] || $PPMLM deid eval "${KO[@]}" --model "$OUT/ko-per-epoch-16" --pii-threshold argmax --json > "$OUT/ko-per-epoch-16.eval.json"
[ -f "$OUT/ko-per-epoch-16-disjoint.eval.json" ] || $PPMLM deid eval "${KO[@]}" --model "$OUT/ko-per-epoch-16" --stride 0 --pii-threshold argmax --json > "$OUT/ko-per-epoch-16-disjoint.eval.json"
[ -d "$OUT/ko-dropout-16" ] || $PPMLM deid train "${KO[@]}" --replacement per-epoch --label-level 2 --epochs 16 "${MODEL[@]}" --out "$OUT/ko-dropout-16" $(resume "$OUT/ko-dropout-16")
[ -f "$OUT/ko-dropout-16-argmax.eval.json" ] || $PPMLM deid eval "${KO[@]}" --model "$OUT/ko-dropout-16" --pii-threshold argmax --json > "$OUT/ko-dropout-16-argmax.eval.json"
[ -f "$OUT/ko-dropout-16.eval.json" ] || $PPMLM deid eval "${KO[@]}" --model "$OUT/ko-dropout-16" --json > "$OUT/ko-dropout-16.eval.json"
[ -d "$OUT/ko-noise-16" ] || $PPMLM deid train "${KO[@]}" --replacement per-epoch --label-level 2 --epochs 16 "${MODEL[@]}" --outside-noise 0.1 --out "$OUT/ko-noise-16" $(resume "$OUT/ko-noise-16")
[ -f "$OUT/ko-noise-16-argmax.eval.json" ] || $PPMLM deid eval "${KO[@]}" --model "$OUT/ko-noise-16" --pii-threshold argmax --json > "$OUT/ko-noise-16-argmax.eval.json"
[ -f "$OUT/ko-noise-16.eval.json" ] || $PPMLM deid eval "${KO[@]}" --model "$OUT/ko-noise-16" --json > "$OUT/ko-noise-16.eval.json"
# Dropout alone and dropout + noise again with seed 43 (another split, initialisation and order), to see
# how far a seed moves the figures.
[ -d "$OUT/ko-dropout-16-seed43" ] || $PPMLM deid train "${KO[@]}" --replacement per-epoch --label-level 2 --epochs 16 "${MODEL[@]}" --seed 43 --out "$OUT/ko-dropout-16-seed43" $(resume "$OUT/ko-dropout-16-seed43")
[ -f "$OUT/ko-dropout-16-seed43-argmax.eval.json" ] || $PPMLM deid eval "${KO[@]}" --model "$OUT/ko-dropout-16-seed43" --pii-threshold argmax --json > "$OUT/ko-dropout-16-seed43-argmax.eval.json"
[ -f "$OUT/ko-dropout-16-seed43.eval.json" ] || $PPMLM deid eval "${KO[@]}" --model "$OUT/ko-dropout-16-seed43" --json > "$OUT/ko-dropout-16-seed43.eval.json"
[ -d "$OUT/ko-noise-16-seed43" ] || $PPMLM deid train "${KO[@]}" --replacement per-epoch --label-level 2 --epochs 16 "${MODEL[@]}" --outside-noise 0.1 --seed 43 --out "$OUT/ko-noise-16-seed43" $(resume "$OUT/ko-noise-16-seed43")
[ -f "$OUT/ko-noise-16-seed43-argmax.eval.json" ] || $PPMLM deid eval "${KO[@]}" --model "$OUT/ko-noise-16-seed43" --pii-threshold argmax --json > "$OUT/ko-noise-16-seed43-argmax.eval.json"
[ -f "$OUT/ko-noise-16-seed43.eval.json" ] || $PPMLM deid eval "${KO[@]}" --model "$OUT/ko-noise-16-seed43" --json > "$OUT/ko-noise-16-seed43.eval.json"
PRESIDIO=(--spans "$DATA/presidio-synth/generated_large.json" --spans-format presidio --no-morphemes)
for name in physionet presidio; do
  if [ "$name" = physionet ]; then SPANS=("${EN[@]}"); else SPANS=("${PRESIDIO[@]}"); fi
  [ -d "$OUT/en-$name" ] || $PPMLM deid train "${SPANS[@]}" --epochs 6 "${MODEL[@]}" --dropout 0 --out "$OUT/en-$name" $(resume "$OUT/en-$name")
  [ -f "$OUT/en-$name.eval.json" ] || $PPMLM deid eval "${SPANS[@]}" --model "$OUT/en-$name" --pii-threshold argmax --json > "$OUT/en-$name.eval.json"
done

npx --prefix "$ROOT" tsx "$ROOT/bench/experiments/deid-table.ts" per-epoch="$OUT/ko-per-epoch.eval.json" single="$OUT/ko-single.eval.json" \
  per-epoch-16-disjoint="$OUT/ko-per-epoch-16-disjoint.eval.json" per-epoch-16="$OUT/ko-per-epoch-16.eval.json" \
  dropout-16-argmax="$OUT/ko-dropout-16-argmax.eval.json" dropout-16="$OUT/ko-dropout-16.eval.json" \
  noise-16-argmax="$OUT/ko-noise-16-argmax.eval.json" noise-16="$OUT/ko-noise-16.eval.json" \
  dropout-16-seed43-argmax="$OUT/ko-dropout-16-seed43-argmax.eval.json" dropout-16-seed43="$OUT/ko-dropout-16-seed43.eval.json" \
  noise-16-seed43-argmax="$OUT/ko-noise-16-seed43-argmax.eval.json" noise-16-seed43="$OUT/ko-noise-16-seed43.eval.json" --per-label
npx --prefix "$ROOT" tsx "$ROOT/bench/experiments/deid-table.ts" physionet="$OUT/en-physionet.eval.json" presidio="$OUT/en-presidio.eval.json" --per-label
