"""Plain counting baseline for the author-term graph: 1..3-grams of whitespace tokens, distinct authors per
term, terms used by fewer than k authors. Reads `author<TAB>text` lines; prints JSON with seconds, tokens,
rare-term count and peak RSS."""
import json
import resource
import sys
import time
from collections import Counter, defaultdict

path, k = sys.argv[1], int(sys.argv[2])
t0 = time.perf_counter()
authors = defaultdict(set)
counts = Counter()
tokens = 0
with open(path, encoding="utf-8") as f:
    for line in f:
        author, text = line.rstrip("\n").split("\t", 1)
        words = text.lower().split()
        tokens += len(words)
        for n in (1, 2, 3):
            for i in range(len(words) - n + 1):
                term = " ".join(words[i : i + n])
                counts[term] += 1
                authors[term].add(author)
rare = sum(1 for t, a in authors.items() if len(a) < k)
seconds = time.perf_counter() - t0


def peak_rss_mb():
    """This process's own peak RSS: VmHWM (rusage's maxrss carries the spawning parent's peak on Linux)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


print(json.dumps({"seconds": seconds, "tokens": tokens, "rare": rare, "maxRssMB": peak_rss_mb()}))
