"""PyTorch CPU reference for the training-speed bench: a BERT-style MLM of the same shape as ppmlm's
(word + position embeddings, post-LN encoder, erf GELU, MLM head tied to the embeddings, loss at the
masked positions only), trained with AdamW. Prints JSON: training and inference tokens/s for the thread
counts given. Usage: python3 torch_mlm.py HIDDEN LAYERS SEQ BATCH VOCAB STEPS THREADS..."""
import json
import math
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

H, L, S, B, V, STEPS = (int(x) for x in sys.argv[1:7])
THREADS = [int(x) for x in sys.argv[7:]] or [1]


class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.ModuleList(nn.Linear(H, H) for _ in range(3))
        self.o, self.ln1, self.i, self.out, self.ln2 = nn.Linear(H, H), nn.LayerNorm(H, eps=1e-12), nn.Linear(H, 4 * H), nn.Linear(4 * H, H), nn.LayerNorm(H, eps=1e-12)

    def forward(self, x):
        nh = max(1, H // 64)
        q, k, v = (m(x).view(B, S, nh, H // nh).transpose(1, 2) for m in self.qkv)
        ctx = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(H // nh), -1) @ v
        x = self.ln1(self.o(ctx.transpose(1, 2).reshape(B, S, H)) + x)
        return self.ln2(self.out(F.gelu(self.i(x))) + x)


class Mlm(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb, self.pos, self.ln = nn.Embedding(V, H), nn.Embedding(S, H), nn.LayerNorm(H, eps=1e-12)
        self.layers = nn.ModuleList(Layer() for _ in range(L))
        self.t, self.tln, self.bias = nn.Linear(H, H), nn.LayerNorm(H, eps=1e-12), nn.Parameter(torch.zeros(V))

    def forward(self, ids, positions, labels):
        x = self.ln(self.emb(ids) + self.pos(torch.arange(S)))
        for layer in self.layers:
            x = layer(x)
        h = x.reshape(B * S, H)[positions]
        logits = self.tln(F.gelu(self.t(h))) @ self.emb.weight.T + self.bias
        return F.cross_entropy(logits, labels)


results = {}
for threads in THREADS:
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    model = Mlm()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    ids = torch.randint(5, V, (B, S))
    positions = torch.randperm(B * S)[: int(0.15 * B * S)]
    labels = torch.randint(5, V, (len(positions),))
    for step in range(STEPS + 2):
        if step == 2:
            t0 = time.perf_counter()
        opt.zero_grad()
        model(ids, positions, labels).backward()
        opt.step()
    train = B * S * STEPS / (time.perf_counter() - t0)
    with torch.no_grad():
        model(ids, positions, labels)
        t0 = time.perf_counter()
        for _ in range(STEPS):
            model(ids, positions, labels)
        infer = B * S * STEPS / (time.perf_counter() - t0)
    results[threads] = {"train": train, "infer": infer}
print(json.dumps({"torch": torch.__version__, "results": results}))
