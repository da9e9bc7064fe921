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
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
H, L, HEADS = 128, 2, 2
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


class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.ModuleList(nn.Linear(H, H) for _ in range(3))
        self.o, self.ln1 = nn.Linear(H, H), nn.LayerNorm(H, eps=1e-12)
        self.i, self.out, self.ln2 = nn.Linear(H, 4 * H), nn.Linear(4 * H, H), nn.LayerNorm(H, eps=1e-12)

    def forward(self, x):
        b = x.shape[0]
        q, k, v = (m(x).view(b, S, HEADS, H // HEADS).transpose(1, 2) for m in self.qkv)
        ctx = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(H // HEADS), -1) @ v
        x = self.ln1(self.o(ctx.transpose(1, 2).reshape(b, S, H)) + x)
        return self.ln2(self.out(F.gelu(self.i(x))) + x)


class Mlm(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb, self.pos, self.ln = nn.Embedding(V, H), nn.Embedding(S, H), nn.LayerNorm(H, eps=1e-12)
        self.layers = nn.ModuleList(Layer() for _ in range(L))
        self.t, self.tln, self.bias = nn.Linear(H, H), nn.LayerNorm(H, eps=1e-12), nn.Parameter(torch.zeros(V))
        for m in self.modules():
            if isinstance(m, (nn.Linear, nn.Embedding)):
                nn.init.normal_(m.weight, std=0.02)
            if isinstance(m, nn.Linear):
                nn.init.zeros_(m.bias)

    def forward(self, x, targets):
        h = self.ln(self.emb(x) + self.pos(torch.arange(S)))
        for layer in self.layers:
            h = layer(h)
        return self.tln(F.gelu(self.t(h[targets]))) @ self.emb.weight.T + self.bias


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
model = Mlm()
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
    loss = F.cross_entropy(model(x, targets), labels)
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    sched.step()
    running += loss.item()
    if step % 500 == 0:
        with torch.no_grad():
            top1 = (model(held_input, held_targets).argmax(-1) == held_labels).float().mean().item()
        print(f"step {step}: training loss {running / 500:.3f}, held-out top-1 {top1:.4f}", flush=True)
        running = 0.0
