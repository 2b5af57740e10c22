#!/usr/bin/env python3
"""Plain BM25 baseline for the docs benchmark: SQLite FTS5 (porter + unicode61 tokenizer, bm25())
over the same chunks Sonde indexes, queried with the question's words OR-ed, as the DuckDB
docs skill queries its FTS index. Scores the same relevance set the same way (page-level MRR@10,
recall@5). Usage: docs-fts5.py CHUNKS_JSONL RELEVANCE_TSV"""
import json, re, sqlite3, sys, time

chunks, relevance = sys.argv[1], sys.argv[2]
db = sqlite3.connect(":memory:")
db.execute("CREATE VIRTUAL TABLE chunks USING fts5(path UNINDEXED, title, section, text, tokenize='porter unicode61')")
start = time.perf_counter()
with open(chunks, encoding="utf-8") as f:
    db.executemany("INSERT INTO chunks VALUES (?, ?, ?, ?)",
                   ((c["path"], c["title"], c["section"], c["text"]) for c in map(json.loads, f)))
db.commit()
print(f"build_seconds {time.perf_counter() - start:.2f}")

def rank(question):
    words = re.findall(r"\w+", question)
    if not words:
        return []
    query = " OR ".join('"' + w.replace('"', '') + '"' for w in words)
    pages = []
    for (path,) in db.execute("SELECT path FROM chunks WHERE chunks MATCH ? ORDER BY bm25(chunks) LIMIT 40", (query,)):
        if path not in pages:
            pages.append(path)
    return pages

questions = []
with open(relevance, encoding="utf-8") as f:
    for line in f:
        if line.strip() and not line.startswith("#"):
            lang, text, answers = line.rstrip("\n").split("\t")
            questions.append((lang, text, set(answers.split(","))))

def score(selected):
    rr, hit5 = 0.0, 0
    for _, text, answers in selected:
        ranked = rank(text)[:10]
        for i, page in enumerate(ranked):
            if page in answers:
                rr += 1 / (i + 1)
                hit5 += i < 5
                break
    n = len(selected)
    return f"n={n} MRR@10={rr / n:.3f} recall@5={hit5 / n:.3f}"

latencies = []
for _ in range(20):
    for _, text, _ in questions:
        t = time.perf_counter()
        rank(text)
        latencies.append((time.perf_counter() - t) * 1000)
latencies.sort()
print(f"latency_p50_ms {latencies[len(latencies) // 2]:.3f}")
print(f"latency_p99_ms {latencies[int(len(latencies) * 0.99)]:.3f}")
print("en " + score([q for q in questions if q[0] == "en"]))
print("cjk " + score([q for q in questions if q[0] != "en"]))
