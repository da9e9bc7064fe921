"""A BERT-style masked LM in PyTorch with ppmlm's semantics (word + position embeddings, post-LN encoder,
erf GELU, MLM head tied to the word embeddings, logits at the target positions only, std-0.02 init), shared
by the training-speed baseline (torch_mlm.py) and the plateau probe (../experiments/plateau-probe)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Layer(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.heads = max(1, hidden // 64)
        self.qkv = nn.ModuleList(nn.Linear(hidden, hidden) for _ in range(3))
        self.o, self.ln1 = nn.Linear(hidden, hidden), nn.LayerNorm(hidden, eps=1e-12)
        self.i, self.out, self.ln2 = nn.Linear(hidden, 4 * hidden), nn.Linear(4 * hidden, hidden), nn.LayerNorm(hidden, eps=1e-12)

    def forward(self, x):
        b, s, h = x.shape
        q, k, v = (m(x).view(b, s, self.heads, h // self.heads).transpose(1, 2) for m in self.qkv)
        ctx = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(h // self.heads), -1) @ v
        x = self.ln1(self.o(ctx.transpose(1, 2).reshape(b, s, h)) + x)
        return self.ln2(self.out(F.gelu(self.i(x))) + x)


class Mlm(nn.Module):
    def __init__(self, hidden, layers, seq, vocab):
        super().__init__()
        self.emb, self.pos, self.ln = nn.Embedding(vocab, hidden), nn.Embedding(seq, hidden), nn.LayerNorm(hidden, eps=1e-12)
        self.layers = nn.ModuleList(Layer(hidden) for _ in range(layers))
        self.t, self.tln, self.bias = nn.Linear(hidden, hidden), nn.LayerNorm(hidden, eps=1e-12), nn.Parameter(torch.zeros(vocab))
        for m in self.modules():
            if isinstance(m, (nn.Linear, nn.Embedding)):
                nn.init.normal_(m.weight, std=0.02)
            if isinstance(m, nn.Linear):
                nn.init.zeros_(m.bias)

    def forward(self, ids, positions):
        """Logits at the flat target positions (row * seq + column) of ids [batch, seq]."""
        x = self.ln(self.emb(ids) + self.pos(torch.arange(ids.shape[1])))
        for layer in self.layers:
            x = layer(x)
        h = x.reshape(-1, x.shape[-1])[positions]
        return self.tln(F.gelu(self.t(h))) @ self.emb.weight.T + self.bias
