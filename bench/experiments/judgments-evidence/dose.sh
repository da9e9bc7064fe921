#!/usr/bin/env bash
# Why the judgments leak through the tied embeddings and the nursing notes do not (issue #19, item 2): is
# it how large a share of the fine-tuning text each planted secret is? On the judgments, with the 50
# canaries of ./ablation.sh (standard, the positive control, and constrained as shipped; seeds 1 and 2):
#   dose-diluted.json   the same 5 copies of each secret among 150 member judgments instead of 30 (the
#                       30 members and 120 of the non-members; 330 non-members left): a fifth of the share
#   dose-repeats-2.json 2 copies of each secret instead of 5 among the same 30 members
#   bash bench/experiments/judgments-evidence/dose.sh ../shared/data/thunder-deid OUT_DIR
# Shares OUT_DIR's steps (corpus, tokenizer, base model, blacklist) with ./run.sh and ./ablation.sh.
HERE=$(cd "$(dirname "$0")" && pwd)
bash "$HERE/run.sh" "${1:?path to thunder-deid}" "${2:?output folder}" none dose-diluted.json dose-repeats-2.json
