#!/usr/bin/env bash
# Why membership inference is not reduced by constrained fine-tuning (issue #19, item 4), on the Korean
# judgments: standard and constrained with a members-only unigram blacklist, and constrained with the
# paper's dense one (1-3-grams, k = 2 over the 30 members), seeds 1 and 2, audited after 5 and 20 epochs
# (is it the density of the blacklist, what is attacked, or 30 judgments fitted for 20 epochs?). No
# canaries, so all 30 members take part in membership inference (against 450 non-members); the audit
# reports the loss attack on all masked positions, on the unprotected and on the protected ones.
#   bash bench/experiments/judgments-evidence/membership.sh ../shared/data/thunder-deid OUT_DIR
# Shares OUT_DIR's steps (corpus, tokenizer, base model) with ./run.sh and ./ablation.sh.
HERE=$(cd "$(dirname "$0")" && pwd)
bash "$HERE/run.sh" "${1:?path to thunder-deid}" "${2:?output folder}" none membership-unigram.json membership-dense.json
