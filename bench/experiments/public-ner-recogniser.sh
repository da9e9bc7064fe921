#!/usr/bin/env bash
# A learned recogniser from public NER only, measured as a --deid-model beside the default rules:
#   bash bench/experiments/public-ner-recogniser.sh ../shared/data OUT_DIR
# Trains ppmlm's token classifier on WNUT17's training file and the Broad Twitter Corpus (CC BY 4.0),
# persons and places only (WNUT17's person/location and BTC's PER/LOC; other types become O), and
# evaluates it on wikigold and the PhysioNet notes, on neither of which it was trained. The weights stay
# in OUT_DIR: none ship with ppmlm.
set -euo pipefail
data=${1:-../shared/data}
out=${2:-public-ner-run}
ppmlm="node $(dirname "$0")/../../bin/ppmlm.js"
ner="$data/english-ner"
mkdir -p "$out"
{
  cat "$ner/WNUT17/CONLL-format/data/train/wnut17train.conll"; echo
  for f in "$ner"/BTC/CONLL-format/data/*.conll; do cat "$f"; echo; done
} | awk -F'\t' 'BEGIN { OFS = "\t" }
  NF < 2 { print ""; next }
  { tok = $1; gsub(/[[:space:]]/, "", tok); if (tok == "") next
    t = $NF; sub(/-person$/, "-PER", t); sub(/-location$/, "-LOC", t)
    if (t != "O" && t !~ /-(PER|LOC)$/) t = "O"
    print tok, t }' > "$out/public-ner.conll"
time $ppmlm deid train --spans "$out/public-ner.conll" --spans-format conll --public-corpus --no-morphemes \
  --epochs 3 --hidden 128 --layers 2 --heads 2 --intermediate 512 --vocab-size 8000 --batch-size 32 \
  --split 90/5/5 --out "$out/model" --force --json
wikigold="$ner/wikigold/CONLL-format/data/wikigold.conll.txt"
for args in "--recognizers none" ""; do
  echo "== wikigold, the model ${args:+alone}${args:-beside the rules}, direct terms"
  $ppmlm --quiet blacklist eval --gold "$wikigold" --only direct --deid-model "$out/model" $args
done
echo "== PhysioNet notes, default blacklist with the model"
$ppmlm --quiet blacklist eval --gold "$data/physionet-deid" --deid-model "$out/model"
