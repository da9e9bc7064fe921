# Sourced by the experiment scripts: `experiment_setup DATA_DIR OUT_DIR` sets DATA and OUT (absolute,
# OUT created), ROOT (the repository) and PPMLM (the built CLI, with global flags from $PPMLM_FLAGS,
# e.g. "--threads 1"), and stops the script at the first error; `pretrain` (below) is shared by the
# evidence runs, `crime_types` by the Korean cross-crime runs.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PPMLM="node $ROOT/bin/ppmlm.js ${PPMLM_FLAGS:-}"
experiment_setup() {
  DATA=$(cd "${1:?path to the data folder}" && pwd)
  mkdir -p "${2:?output folder}"
  OUT=$(cd "$2" && pwd)
}

# `resume OUT`: --resume where a run into OUT checkpointed (a run killed before its first checkpoint starts
# over without one: ppmlm refuses a resume with nothing to resume).
resume() { [ -d "$1.checkpoint/checkpoint" ] && echo --resume || true; }

# `pretrain FROM OUT EPOCHS LR SEQ BATCH`: masked-LM pretraining of model FROM on public.jsonl (in the
# current folder) into OUT, resumable; its summary goes to OUT.json.
pretrain() {
  [ -d "$2" ] || $PPMLM finetune --model "$1" --corpus public.jsonl --strategy standard --dropout 0 --epochs "$3" --lr "$4" --seq-len "$5" --batch-size "$6" \
    --out "$2" --json $(resume "$2") > "$2.json"
}

# `crime_types [TRAIN_TYPE]`: the Thunder-DeID crime type a model learns from (TRAIN, crime_of_violence by
# default) and the other, the one it is measured on and never sees (TEST); THUNDER, the corpus under DATA.
crime_types() {
  TRAIN=${1:-crime_of_violence}
  case "$TRAIN" in crime_of_violence) TEST=fraud ;; fraud) TEST=crime_of_violence ;; *) echo "TRAIN_TYPE is crime_of_violence or fraud" >&2; exit 2 ;; esac
  THUNDER="$DATA/thunder-deid"
}

# `public_ner_conll NER_DIR OUT_FILE`: WNUT17's training file and the Broad Twitter Corpus as one CoNLL
# file of persons and places (WNUT17's person/location and BTC's PER/LOC; every other type O), what the
# bundled models/public-ner-en learns from.
public_ner_conll() {
  {
    cat "$1/WNUT17/CONLL-format/data/train/wnut17train.conll"; echo
    for f in "$1"/BTC/CONLL-format/data/*.conll; do cat "$f"; echo; done
  } | awk -F'\t' 'BEGIN { OFS = "\t" }
    NF < 2 { print ""; next }
    { tok = $1; gsub(/[[:space:]]/, "", tok); if (tok == "") next
      t = $NF; sub(/-person$/, "-PER", t); sub(/-location$/, "-LOC", t)
      if (t != "O" && t !~ /-(PER|LOC)$/) t = "O"
      print tok, t }' > "$2"
}

# `mean_threshold MODEL...`: the mean of the PII thresholds the models' training recorded (ppmlm.json), the
# one an ensemble of them applies.
mean_threshold() {
  node -e 'const fs = require("fs"); const t = process.argv.slice(1).map((d) => JSON.parse(fs.readFileSync(`${d}/ppmlm.json`, "utf8")).piiThreshold); console.log(t.reduce((a, b) => a + b, 0) / t.length)' "$@"
}
