"""PyTorch CPU reference for the training-speed bench: torch_bert.Mlm, the same shape and semantics as
ppmlm's masked LM, trained with AdamW. Prints JSON: training tokens/s and inference tokens/s (the median forward pass) for the thread
counts given. Usage: python3 torch_mlm.py HIDDEN LAYERS SEQ BATCH VOCAB STEPS THREADS..."""
import json
import sys
import time

import torch
import torch.nn.functional as F

from torch_bert import Mlm

H, L, S, B, V, STEPS = (int(x) for x in sys.argv[1:7])
THREADS = [int(x) for x in sys.argv[7:]] or [1]
# Forward passes timed one by one, their median taken, as the ppmlm worker does.
INFER_PASSES = 10

results = {}
for threads in THREADS:
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    model = Mlm(H, L, S, V)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    ids = torch.randint(5, V, (B, S))
    positions = torch.randperm(B * S)[: int(0.15 * B * S)]
    labels = torch.randint(5, V, (len(positions),))
    for step in range(STEPS + 2):
        if step == 2:
            t0 = time.perf_counter()
        opt.zero_grad()
        F.cross_entropy(model(ids, positions), labels).backward()
        opt.step()
    train = B * S * STEPS / (time.perf_counter() - t0)
    with torch.no_grad():
        model(ids, positions)
        passes = []
        for _ in range(INFER_PASSES):
            t0 = time.perf_counter()
            model(ids, positions)
            passes.append(time.perf_counter() - t0)
        infer = B * S / sorted(passes)[INFER_PASSES // 2]
    results[threads] = {"train": train, "infer": infer}
print(json.dumps({"torch": torch.__version__, "results": results}))
