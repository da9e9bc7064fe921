#!/usr/bin/env bash
# The bundled recogniser models/public-ner-en, trained from public NER only and measured beside the rules:
#   bash bench/experiments/public-ner-recogniser.sh ../shared/data OUT_DIR [COPIES]
# Trains ppmlm's token classifier on WNUT17's training file and the Broad Twitter Corpus (CC BY 4.0),
# persons and places only (WNUT17's person/location and BTC's PER/LOC; other types become O), each epoch
# with COPIES (default 2) copies of every sentence that names one, listed names and places in their place
# (--surrogate-mentions). Then measures it, direct terms, on wikigold and WNUT17's test file (neither
# trained on) and, with the default blacklist, on the PhysioNet notes, at the threshold its training chose
# and at 0.15, 0.25, 0.5, 0.7 and 0.9 (lower buys recall with more of the other text), and at its own
# threshold with every term it found (--model-agreement 0): OUT_DIR/results.md, 95% intervals over articles, tweets and patients.
# About 11 minutes on 2 cores (5 training, 6 measuring). models/public-ner-en is OUT_DIR/model with its
# README.md. A rerun keeps a trained model and the measurements already written (delete them to redo).
. "$(dirname "$0")/common.sh"
data=${1:-../shared/data}
out=${2:-public-ner-run}
copies=${3:-2}
here=$(dirname "$0")
ppmlm="node $here/../../bin/ppmlm.js"
ner="$data/english-ner"
mkdir -p "$out"
public_ner_conll "$ner" "$out/public-ner.conll"
if [ ! -f "$out/model/ppmlm.json" ]; then
  start=$(date +%s)
  $ppmlm deid train --spans "$out/public-ner.conll" --spans-format conll --public-corpus --no-morphemes \
    --epochs 4 --surrogate-mentions "$copies" --hidden 128 --layers 2 --heads 2 --intermediate 512 --vocab-size 8000 \
    --batch-size 32 --split 90/5/5 --out "$out/model" --force --json $(resume "$out/model") > "$out/train.json"
  echo "training: $(( $(date +%s) - start )) s" > "$out/train-seconds.txt"
fi
wikigold="$ner/wikigold/CONLL-format/data/wikigold.conll.txt"
wnut="$ner/WNUT17/CONLL-format/data/test/emerging.test.annotated"
wnut_dev="$ner/WNUT17/CONLL-format/data/dev/emerging.dev.conll"
measure() { # name, then eval flags; one JSON per measurement, written whole, kept so a rerun skips it
  [ -f "$out/$1.json" ] && return
  $ppmlm --quiet blacklist eval --json "${@:2}" > "$out/$1.json.tmp"
  mv "$out/$1.json.tmp" "$out/$1.json"
}
for t in rules 0.15 0.25 own 0.5 0.7 0.9; do
  case $t in
    rules) model=() ;;
    own) model=(--deid-model "$out/model") ;;
    *) model=(--deid-model "$out/model" --deid-threshold "$t") ;;
  esac
  # ${model[@]+...}: an empty array is unbound under set -u before bash 4.4.
  measure "wikigold-$t" --gold "$wikigold" --only direct ${model[@]+"${model[@]}"}
  measure "wnut17-test-$t" --gold "$wnut" --gold-format conll --only direct ${model[@]+"${model[@]}"}
  measure "physionet-$t" --gold "$data/physionet-deid" ${model[@]+"${model[@]}"}
done
# Every term the model found, however seldom it marked the word where it stands (--model-agreement 0).
measure wikigold-own-every --gold "$wikigold" --only direct --deid-model "$out/model" --model-agreement 0
measure wnut17-test-own-every --gold "$wnut" --gold-format conll --only direct --deid-model "$out/model" --model-agreement 0
measure physionet-own-every --gold "$data/physionet-deid" --deid-model "$out/model" --model-agreement 0
measure wikigold-model-alone --gold "$wikigold" --only direct --recognizers none --deid-model "$out/model"
# WNUT17's dev file, where the recipe's settings were chosen (bench/experiments/public-ner-recogniser/dev-runs.md).
measure wnut17-dev-rules --gold "$wnut_dev" --gold-format conll --only direct
measure wnut17-dev-own --gold "$wnut_dev" --gold-format conll --only direct --deid-model "$out/model"
npx tsx "$here/public-ner-table.ts" "$out" > "$out/results.md"
cat "$out/results.md"
