#!/usr/bin/env python3
"""ONNX Runtime on the same model and the same kind of input as
`engram bench throughput`, for comparing Engram's embedder with what a
user would otherwise run on the same machine.

The model folder has no ONNX file, so this writes the BERT graph itself
(standard ONNX operators, opset 17) from the folder's `model.safetensors`,
checks that its embeddings match sentence-transformers' reference within
1e-4 when a reference file is given, and then times ONNX Runtime with all
graph optimisations (and, separately, after ONNX Runtime's own BERT
fusion pass) on ~100-token chunks at batch sizes 1, 8 and 32, and on one
short query.

Needs: pip install onnxruntime onnx safetensors tokenizers numpy

    python3 scripts/bench-ort.py MODEL_DIR [--reference minilm-reference.json]
"""

import argparse
import json
import os
import random
import statistics
import tempfile
import time

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from safetensors.numpy import load_file
from tokenizers import Tokenizer

WORDS = ("memory search vector garden river coffee meeting project budget travel friend "
         "weekend library concert recipe mountain train doctor school market weather holiday "
         "painting guitar running deadline kitchen birthday museum ocean planet software engine "
         "database question answer morning evening the a to and of in with about after before we "
         "she he they visited planned discussed cooked bought fixed wrote read played shared").split()


def bert_graph(weights, layers, heads, hidden):
    """The encoder with mean pooling and L2 normalisation, as one graph:
    inputs input_ids, attention_mask (int64, [batch, seq]); output
    embeddings [batch, hidden]."""
    nodes, inits = [], []

    def init(name, array):
        inits.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def node(op, inputs, name, **attrs):
        nodes.append(helper.make_node(op, inputs, [name], name=name, **attrs))
        return name

    w = lambda k: weights[k]

    def layer_norm(inp, key, out):
        return node("LayerNormalization", [inp, init(f"{out}_w", w(key + ".weight")),
                                           init(f"{out}_b", w(key + ".bias"))],
                    out, axis=-1, epsilon=1e-12)

    head_dim = hidden // heads
    init("word", w("embeddings.word_embeddings.weight"))
    init("pos", w("embeddings.position_embeddings.weight"))
    init("type0", w("embeddings.token_type_embeddings.weight")[0])
    init("axis1", np.array([1], dtype=np.int64))
    init("shape_heads", np.array([0, 0, heads, head_dim], dtype=np.int64))
    init("shape_back", np.array([0, 0, hidden], dtype=np.int64))
    init("scale", np.array(1.0 / np.sqrt(head_dim), dtype=np.float32))
    init("neg", np.array(-1e4, dtype=np.float32))
    init("onef", np.array(1.0, dtype=np.float32))
    init("half", np.array(0.5, dtype=np.float32))
    init("sqrt2", np.array(np.sqrt(2.0), dtype=np.float32))
    init("eps", np.array(1e-9, dtype=np.float32))

    # embeddings
    node("Gather", ["word", "input_ids"], "tok")
    node("Shape", ["input_ids"], "seq_len", start=1, end=2)
    node("Slice", ["pos", init("zero1", np.array([0], dtype=np.int64)), "seq_len",
                   init("axis0", np.array([0], dtype=np.int64))], "pos_emb")
    node("Add", ["tok", "pos_emb"], "emb0")
    node("Add", ["emb0", "type0"], "emb1")
    x = layer_norm("emb1", "embeddings.LayerNorm", "emb")

    # additive attention mask [batch, 1, 1, seq]
    node("Cast", ["attention_mask"], "maskf", to=TensorProto.FLOAT)
    node("Sub", ["onef", "maskf"], "inv_mask")
    node("Mul", ["inv_mask", "neg"], "add_mask2")
    node("Unsqueeze", ["add_mask2", init("axes12", np.array([1, 2], dtype=np.int64))], "add_mask")

    for i in range(layers):
        p = f"encoder.layer.{i}."

        def linear(inp, key, out):
            wt = init(f"{out}_w", w(p + key + ".weight").T)
            node("MatMul", [inp, wt], f"{out}_mm")
            return node("Add", [f"{out}_mm", init(f"{out}_b", w(p + key + ".bias"))], out)

        def split_heads(t, out):
            node("Reshape", [t, "shape_heads"], f"{out}_r")
            return node("Transpose", [f"{out}_r"], out, perm=[0, 2, 1, 3])

        q = split_heads(linear(x, "attention.self.query", f"l{i}q"), f"l{i}qh")
        k = split_heads(linear(x, "attention.self.key", f"l{i}k"), f"l{i}kh")
        v = split_heads(linear(x, "attention.self.value", f"l{i}v"), f"l{i}vh")
        node("Transpose", [k], f"l{i}kt", perm=[0, 1, 3, 2])
        node("MatMul", [q, f"l{i}kt"], f"l{i}s0")
        node("Mul", [f"l{i}s0", "scale"], f"l{i}s1")
        node("Add", [f"l{i}s1", "add_mask"], f"l{i}s2")
        node("Softmax", [f"l{i}s2"], f"l{i}p", axis=-1)
        node("MatMul", [f"l{i}p", v], f"l{i}ctx")
        node("Transpose", [f"l{i}ctx"], f"l{i}ctx_t", perm=[0, 2, 1, 3])
        node("Reshape", [f"l{i}ctx_t", "shape_back"], f"l{i}ctx_m")
        a = linear(f"l{i}ctx_m", "attention.output.dense", f"l{i}ao")
        node("Add", [a, x], f"l{i}res1")
        h = layer_norm(f"l{i}res1", p + "attention.output.LayerNorm", f"l{i}h")
        f = linear(h, "intermediate.dense", f"l{i}ff")
        # exact GELU: x * 0.5 * (1 + erf(x / sqrt 2))
        node("Div", [f, "sqrt2"], f"l{i}g0")
        node("Erf", [f"l{i}g0"], f"l{i}g1")
        node("Add", [f"l{i}g1", "onef"], f"l{i}g2")
        node("Mul", [f, f"l{i}g2"], f"l{i}g3")
        node("Mul", [f"l{i}g3", "half"], f"l{i}g4")
        o = linear(f"l{i}g4", "output.dense", f"l{i}out")
        node("Add", [o, h], f"l{i}res2")
        x = layer_norm(f"l{i}res2", p + "output.LayerNorm", f"l{i}x")

    # mean pooling over the mask, then L2 normalisation
    node("Unsqueeze", ["maskf", init("axes2", np.array([2], dtype=np.int64))], "mask3")
    node("Mul", [x, "mask3"], "masked")
    node("ReduceSum", ["masked", "axis1"], "summed", keepdims=0)
    node("ReduceSum", ["maskf", "axis1"], "count", keepdims=1)
    node("Max", ["count", "eps"], "count1")
    node("Div", ["summed", "count1"], "mean")
    node("LpNormalization", ["mean"], "embeddings", axis=-1, p=2)

    graph = helper.make_graph(
        nodes, "minilm",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "seq"])],
        [helper.make_tensor_value_info("embeddings", TensorProto.FLOAT, ["batch", hidden])],
        inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def corpus(tok, n, target, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        text = ""
        while len(tok.encode(text).ids) < target:
            s = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(6, 14)))
            text += s[0].upper() + s[1:] + ". "
        out.append(text.strip())
    return out


def batch(tok, texts, max_len):
    enc = tok.encode_batch(texts)
    n = min(max(len(e.ids) for e in enc), max_len)
    ids = np.zeros((len(texts), n), dtype=np.int64)
    mask = np.zeros((len(texts), n), dtype=np.int64)
    for i, e in enumerate(enc):
        k = min(len(e.ids), n)
        ids[i, :k] = e.ids[:k]
        mask[i, :k] = 1
    if any(len(e.ids) > n for e in enc):
        ids[:, n - 1] = np.where(mask[:, n - 1] == 1, 102, ids[:, n - 1])  # [SEP] after truncation
    return {"input_ids": ids, "attention_mask": mask}


def session(path, threads):
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.intra_op_num_threads = threads
    return ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model_dir")
    ap.add_argument("--reference", help="minilm-reference.json: check the graph against it")
    ap.add_argument("--chunks", type=int, default=256)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    args = ap.parse_args()
    cfg = json.load(open(os.path.join(args.model_dir, "config.json")))
    weights = load_file(os.path.join(args.model_dir, "model.safetensors"))
    weights = {k.removeprefix("bert."): v for k, v in weights.items()}
    tok = Tokenizer.from_file(os.path.join(args.model_dir, "tokenizer.json"))
    tok.no_padding()
    tok.no_truncation()
    max_len = 256
    model = bert_graph(weights, cfg["num_hidden_layers"], cfg["num_attention_heads"], cfg["hidden_size"])
    tmp = tempfile.mkdtemp()
    plain = os.path.join(tmp, "minilm.onnx")
    onnx.save(model, plain)
    fused = os.path.join(tmp, "minilm-fused.onnx")
    try:
        from onnxruntime.transformers.optimizer import optimize_model
        opt = optimize_model(plain, model_type="bert", num_heads=cfg["num_attention_heads"],
                             hidden_size=cfg["hidden_size"], opt_level=0)
        opt.save_model_to_file(fused)
        variants = [("ONNX Runtime", plain), ("ONNX Runtime + BERT fusion", fused)]
    except Exception as e:  # the fusion pass is optional
        print(f"(BERT fusion pass unavailable: {e})")
        variants = [("ONNX Runtime", plain)]

    if args.reference:
        ref = json.load(open(args.reference))
        items = ref["items"] if isinstance(ref, dict) else ref
        sess = session(plain, args.threads)
        worst = 0.0
        for item in items:
            got = sess.run(None, batch(tok, [item["text"]], max_len))[0][0]
            worst = max(worst, float(np.max(np.abs(got - np.array(item["embedding"], dtype=np.float32)))))
        print(f"graph vs reference: max abs difference {worst:.2e} over {len(items)} texts")

    texts = corpus(tok, args.chunks, 100, 7)
    avg = statistics.mean(len(tok.encode(t).ids) for t in texts)
    print(f"ONNX Runtime {ort.__version__}, {args.threads} threads, chunks of ~{avg:.0f} tokens")
    for name, path in variants:
        sess = session(path, args.threads)
        sess.run(None, batch(tok, texts[:8], max_len))
        q = batch(tok, ["when did she go to the support group meeting"], max_len)
        lat = []
        for _ in range(30):
            t = time.perf_counter()
            sess.run(None, q)
            lat.append((time.perf_counter() - t) * 1000)
        print(f"{name}: query p50 {statistics.median(lat):.1f} ms")
        for bs in (1, 8, 32):
            feeds = [batch(tok, texts[i:i + bs], max_len) for i in range(0, len(texts), bs)]
            t = time.perf_counter()
            for f in feeds:
                sess.run(None, f)
            print(f"  batch {bs:>2}: {len(texts) / (time.perf_counter() - t):7.1f} chunks/s")


if __name__ == "__main__":
    main()
