#!/usr/bin/env python3
"""Search latency while ingest runs, as a user of the API sees it.

Starts `engram serve` (the given binary) on a fresh data directory, adds
50 documents, measures /v4/search alone (100 searches, 20 ms apart), then
again while six clients post DOCS more one-chunk documents. Standard
library only.

    python3 scripts/search-during-ingest.py target/release/engram [DOCS]
"""
import json, os, random, subprocess, sys, tempfile, threading, time, urllib.request
binary = sys.argv[1]
home = tempfile.mkdtemp()
env = dict(os.environ, HOME=home, ENGRAM_DATA_DIR=home + "/data", ENGRAM_LISTEN="127.0.0.1:6790", ENGRAM_LOG="warn")
p = subprocess.Popen([binary, "serve"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
base = "http://127.0.0.1:6790"
for _ in range(600):
    try:
        urllib.request.urlopen(base + "/health", timeout=1); break
    except Exception: time.sleep(0.1)
cred = json.load(open(home + "/.config/engram/credentials.json"))
key = next(v for v in cred.values() if isinstance(v, str) and v.startswith("em_"))
def call(path, body):
    r = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers={"Authorization": "Bearer " + key, "Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(r, timeout=60))
W = "memory search vector garden river coffee meeting project budget travel friend weekend library concert recipe mountain train doctor school market weather holiday painting guitar".split()
rnd = random.Random(3)
docs = [". ".join(" ".join(rnd.choice(W) for _ in range(10)) for _ in range(9)) + "." for _ in range(int(sys.argv[2]) if len(sys.argv) > 2 else 2000)]
for d in docs[:50]: call("/v3/documents", {"content": d, "containerTag": "t", "taskType": "superrag"})
time.sleep(3)
def searches(n, out):
    for i in range(n):
        t = time.perf_counter(); call("/v4/search", {"q": " ".join(rnd.choice(W) for _ in range(5)), "containerTag": "t", "searchMode": "hybrid"}); out.append((time.perf_counter() - t) * 1000)
        time.sleep(0.02)
idle = []; searches(100, idle)
nxt = [50]; lock = threading.Lock()
def poster():
    while True:
        with lock:
            i = nxt[0]; nxt[0] += 1
        if i >= len(docs): return
        call("/v3/documents", {"content": docs[i], "containerTag": "t", "taskType": "superrag"})
ts = [threading.Thread(target=poster) for _ in range(6)]
busy = []
t0 = time.time()
for t in ts: t.start()
st = threading.Thread(target=searches, args=(150, busy)); st.start()
for t in ts: t.join()
st.join()
def q(v, f): v = sorted(v); return v[min(len(v) - 1, int(f * len(v)))]
print(f"idle   search p50 {q(idle,.5):.1f} p95 {q(idle,.95):.1f} p99 {q(idle,.99):.1f} ms")
print(f"ingest search p50 {q(busy,.5):.1f} p95 {q(busy,.95):.1f} p99 {q(busy,.99):.1f} max {max(busy):.1f} ms (posting took {time.time()-t0:.1f} s)")
p.terminate(); p.wait()
