"""How long a small BERT-style masked LM trained from scratch stays on the unigram plateau, by window length.

An independent PyTorch check of what the PhysioNet evidence's pretraining ran into: the same shape as its
base model (hidden 128, 2 layers, 2 heads, post-LN, erf GELU, decoder tied to the embeddings), trained on
the same token ids packed into windows of WINDOW tokens ([CLS] ... [SEP]), AdamW with 10% warmup and cosine
decay, 15% targets (80/10/10). Every 500 steps it prints the training loss and the top-1 accuracy on 60x128
held-out tokens with every target replaced by [MASK] (the most-frequent-token baseline is printed first): a
model on the plateau scores exactly that baseline.

    npx tsx bench/experiments/plateau-probe/dump-ids.ts OUT/tokenizer OUT/public.jsonl ids.i32
    WINDOW=32 BATCH=64 /usr/bin/python3 bench/experiments/plateau-probe/probe.py ids.i32 6000 2e-3

Measured on the public nursing notes (vocabulary 8,000, lr 2e-3, 2,048 tokens per step): left the plateau
after ~1,000 steps with WINDOW=32, ~2,200 with 64, not within 2,500 with 128.
"""
import math
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "baselines"))
from torch_bert import Mlm  # noqa: E402

torch.set_num_threads(1)
H, L = 128, 2
S, B = int(os.environ.get("WINDOW", 128)), int(os.environ.get("BATCH", 16))
PATH, STEPS, LR = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
CLS, SEP, MASK, FIRST_WORD = 1, 2, 4, 5  # BERT special ids as ppmlm's WordPiece trainer assigns them

ids = np.fromfile(PATH, dtype=np.int32)
ids = ids[ids >= 0]
V = int(ids.max()) + 1
n = len(ids) // (S - 2)
chunks = torch.tensor(ids[: n * (S - 2)].reshape(n, S - 2), dtype=torch.long)
chunks = torch.cat([torch.full((n, 1), CLS), chunks, torch.full((n, 1), SEP)], 1)
perm = torch.randperm(n, generator=torch.Generator().manual_seed(0))
held_n = 60 * 128 // S
held, train = chunks[perm[:held_n]], chunks[perm[held_n:]]


def corrupt(batch, gen):
    x = batch.clone()
    targets = torch.rand(x.shape, generator=gen) < 0.15
    targets[:, 0] = targets[:, -1] = False
    r = torch.rand(x.shape, generator=gen)
    x[targets & (r < 0.8)] = MASK
    rand = targets & (r >= 0.8) & (r < 0.9)
    x[rand] = torch.randint(FIRST_WORD, V, (int(rand.sum()),), generator=gen)
    return x, targets, batch[targets]


torch.manual_seed(1)
model = Mlm(H, L, S, V)
opt = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=0.01)
warm = STEPS // 10
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: s / warm if s < warm else 0.5 * (1 + math.cos(math.pi * (s - warm) / (STEPS - warm))))
gen = torch.Generator().manual_seed(2)
_, held_targets, held_labels = corrupt(held, torch.Generator().manual_seed(3))
held_input = held.clone()
held_input[held_targets] = MASK
unigram = torch.bincount(train[:, 1:-1].reshape(-1), minlength=V)
print(f"window {S}, batch {B}: most-frequent-token baseline {(held_labels == unigram.argmax()).float().mean().item():.4f}", flush=True)
running = 0.0
for step in range(1, STEPS + 1):
    x, targets, labels = corrupt(train[torch.randint(0, len(train), (B,), generator=gen)], gen)
    loss = F.cross_entropy(model(x, targets.reshape(-1).nonzero().squeeze(1)), labels)
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    sched.step()
    running += loss.item()
    if step % 500 == 0:
        with torch.no_grad():
            top1 = (model(held_input, held_targets.reshape(-1).nonzero().squeeze(1)).argmax(-1) == held_labels).float().mean().item()
        print(f"step {step}: training loss {running / 500:.3f}, held-out top-1 {top1:.4f}", flush=True)
        running = 0.0
