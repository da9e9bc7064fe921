#!/usr/bin/env bash
# Two more seeds of the bundled models/public-ner-en and their ensemble with it:
#   bash bench/experiments/public-ner-seeds.sh ../shared/data OUT_DIR
# Each seed is trained as public-ner-recogniser.sh trains the bundled model (WNUT17's training file and the
# Broad Twitter Corpus, persons and places, 4 epochs, 2 surrogate copies, --public-corpus), from a fresh
# encoder of the same shape on the bundled model's tokenizer (`model init --vocab models/public-ner-en`,
# so that the three can be averaged), with another `--seed` for the initialisation, the split and the
# order. Then measures, direct terms as public-ner-recogniser.sh does, the bundled model, each seed and
# the three as one recogniser (`--deid-model` repeated) on WNUT17's dev file, and the bundled model and the
# ensemble on WNUT17's test file, wikigold and, with the default blacklist, the PhysioNet notes, with the
# bundled model at the ensemble's threshold beside them, and each seed alone on the notes. One line per row to stdout; each row's `blacklist
# eval --json` in OUT_DIR. About 12 minutes training and 5 measuring on 2 cores; a rerun keeps trained
# models and written rows.
. "$(dirname "$0")/common.sh"
experiment_setup "${1:-../shared/data}" "${2:?output folder}"
ner="$DATA/english-ner"
bundled="$ROOT/models/public-ner-en"
public_ner_conll "$ner" "$OUT/public-ner.conll"
models=("$bundled")
for seed in 43 44; do
  model="$OUT/model-s$seed"
  if [ ! -f "$model/ppmlm.json" ]; then
    [ -d "$OUT/init-s$seed" ] || $PPMLM --quiet model init --vocab "$bundled" --out "$OUT/init-s$seed" --hidden 128 --layers 2 --heads 2 --intermediate 512 --max-positions 128 --seed "$seed" --allow-vocabulary-identifiers
    time $PPMLM --quiet deid train --spans "$OUT/public-ner.conll" --spans-format conll --public-corpus --no-morphemes \
      --epochs 4 --surrogate-mentions 2 --model "$OUT/init-s$seed" --batch-size 32 --split 90/5/5 --seed "$seed" --out "$model" --force --json $(resume "$model") > "$OUT/train-s$seed.json"
  fi
  models+=("$model")
done
wikigold="$ner/wikigold/CONLL-format/data/wikigold.conll.txt"
wnut="$ner/WNUT17/CONLL-format/data/test/emerging.test.annotated"
wnut_dev="$ner/WNUT17/CONLL-format/data/dev/emerging.dev.conll"
measure() { # NAME MODELS-ROLE EVAL-FLAGS...: one row, kept so that a rerun skips it
  local name=$1 which=$2 flags=()
  shift 2
  case $which in
    bundled) flags=(--deid-model "${models[0]}") ;;
    s43) flags=(--deid-model "${models[1]}") ;;
    s44) flags=(--deid-model "${models[2]}") ;;
    ensemble) for m in "${models[@]}"; do flags+=(--deid-model "$m"); done ;;
    bundled-at-mean) flags=(--deid-model "${models[0]}" --deid-threshold "$mean") ;;
  esac
  if [ ! -f "$OUT/$name-$which.json" ]; then
    $PPMLM --quiet blacklist eval --json "$@" "${flags[@]}" > "$OUT/$name-$which.json.tmp"
    mv "$OUT/$name-$which.json.tmp" "$OUT/$name-$which.json"
  fi
  node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); const pct = (x) => (100 * x).toFixed(1);
    const cell = (t) => `${pct(t.full.value)}% [${t.full.interval.map(pct).join(", ")}]`;
    const of = (names) => r.types.find((t) => names.includes(t.type));
    console.log(`${process.argv[2]}: persons ${cell(of(["PERSON", "person"]))}, places ${cell(of(["LOCATION", "location"]))}, all ${cell(of(["all"]))}, other text ${cell({ full: r.otherTextProtected })}`)' "$OUT/$name-$which.json" "$name, $which"
}
# The ensemble's threshold, the mean of the three recorded: the bundled model alone at it tells what the
# threshold moves from what the mean of the probabilities moves.
mean=$(mean_threshold "${models[@]}")
for which in bundled s43 s44 ensemble; do measure wnut17-dev "$which" --gold "$wnut_dev" --gold-format conll --only direct; done
for which in bundled ensemble bundled-at-mean; do
  measure wnut17-test "$which" --gold "$wnut" --gold-format conll --only direct
  measure wikigold "$which" --gold "$wikigold" --only direct
  measure physionet "$which" --gold "$DATA/physionet-deid"
done
# Each seed alone on the notes, so that what the mean of the probabilities moves there can be told from
# models that are merely less eager.
for which in s43 s44; do measure physionet "$which" --gold "$DATA/physionet-deid"; done
