#!/usr/bin/python3
"""A random-weight encoder of ruri-v3-30m's (or multilingual-e5-small's) shape, for `npm run bench:embed`.

We cannot download model weights on our machines, so the speed and memory of the real model are measured
on a stand-in with its shape: 102,400-word vocabulary, 256-d, 10 layers, 4 heads, a gated (GeGLU) MLP of
1,024 — 37M parameters, as ruri-v3-30m (ModernBERT) has. Differences from the real graph, which make it
somewhat cheaper: learned absolute positions instead of rotary ones, global attention in every layer,
LayerNorm with bias. `--shape e5-small` writes multilingual-e5-small's shape instead (XLM-R vocabulary of
250,037, 384-d, 12 layers, 12 heads, a plain GELU MLP of 1,536: 118M parameters). The tokenizer is a character-level Unigram over ASCII, kana and CJK ideographs (one
token per Japanese character, about twice what the real SentencePiece vocabulary makes of Japanese text).

Needs python3-onnx and python3-numpy (Debian: apt-get install python3-onnx); the tests never run this.
Usage: /usr/bin/python3 bench/make-embed-model.py [--shape ruri-v3-30m|e5-small] OUT_DIR
"""
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

SHAPES = {
    # vocabulary, width, layers, heads, MLP width, positions, gated MLP, name, prefixes
    "ruri-v3-30m": (102_400, 256, 10, 4, 1024, 8192, True, ("検索クエリ: ", "検索文書: ")),
    "e5-small": (250_037, 384, 12, 12, 1536, 514, False, ("query: ", "passage: ")),
}


def main(out, shape):
    VOCAB, DIM, LAYERS, HEADS, MLP, POSITIONS, GATED, (QP, PP) = SHAPES[shape]
    HEAD = DIM // HEADS
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(17)
    inits, nodes = [], []

    def w(name, *shape, scale=0.02):
        inits.append(numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(np.float32), name))
        return name

    def c(name, value, dtype=np.int64):
        inits.append(numpy_helper.from_array(np.array(value, dtype=dtype), name))
        return name

    def n(op, ins, outs, **attrs):
        nodes.append(helper.make_node(op, ins, outs, **attrs))
        return outs[0]

    def layernorm(x, name):
        g = c(f"{name}.g", np.ones(DIM), np.float32)
        b = c(f"{name}.b", np.zeros(DIM), np.float32)
        return n("LayerNormalization", [x, g, b], [f"{name}.out"], axis=-1, epsilon=1e-5)

    def gelu(x, name):
        # 0.5 x (1 + erf(x / sqrt 2)): ONNX Runtime fuses this into one Gelu kernel.
        d = n("Div", [x, c(f"{name}.sqrt2", 1.4142135, np.float32)], [f"{name}.d"])
        e = n("Erf", [d], [f"{name}.e"])
        a = n("Add", [e, c(f"{name}.one", 1.0, np.float32)], [f"{name}.a"])
        m = n("Mul", [x, a], [f"{name}.m"])
        return n("Mul", [m, c(f"{name}.half", 0.5, np.float32)], [f"{name}.out"])

    # Embeddings: words + positions (0 … seq-1), then LayerNorm.
    words = n("Gather", [w("tok_emb", VOCAB, DIM), "input_ids"], ["words"])
    ids_shape = n("Shape", ["input_ids"], ["ids_shape"])
    seq = n("Gather", [ids_shape, c("one_idx", 1)], ["seq_len"], axis=0)
    pos = n("Range", [c("zero", 0), seq, c("step", 1)], ["positions"])
    posv = n("Gather", [w("pos_emb", POSITIONS, DIM), pos], ["pos_vecs"])
    x = layernorm(n("Add", [words, posv], ["emb"]), "emb_ln")

    # Attention bias from the mask: 0 where attended, -1e4 where padded; [batch, 1, 1, seq].
    maskf = n("Cast", ["attention_mask"], ["mask_f"], to=TensorProto.FLOAT)
    inv = n("Sub", [c("onef", 1.0, np.float32), maskf], ["mask_inv"])
    bias = n("Mul", [inv, c("neg", -1e4, np.float32)], ["mask_bias2"])
    bias = n("Unsqueeze", [bias, c("ax12", [1, 2])], ["mask_bias"])

    for i in range(LAYERS):
        p = f"l{i}"
        h = layernorm(x, f"{p}.ln1")
        qkv = n("MatMul", [h, w(f"{p}.wqkv", DIM, 3 * DIM)], [f"{p}.qkv"])
        q, k, v = (f"{p}.q", f"{p}.k", f"{p}.v")
        n("Split", [qkv, c(f"{p}.split", [DIM, DIM, DIM])], [q, k, v], axis=-1)

        def heads(t):
            r = n("Reshape", [t, c(f"{t}.shape", [0, 0, HEADS, HEAD])], [f"{t}.r"])
            return n("Transpose", [r], [f"{t}.t"], perm=[0, 2, 1, 3])

        qh, kh, vh = heads(q), heads(k), heads(v)
        kt = n("Transpose", [kh], [f"{p}.kt"], perm=[0, 1, 3, 2])
        s = n("MatMul", [qh, kt], [f"{p}.s"])
        s = n("Mul", [s, c(f"{p}.scale", 1 / np.sqrt(HEAD), np.float32)], [f"{p}.ss"])
        s = n("Add", [s, bias], [f"{p}.sb"])
        a = n("Softmax", [s], [f"{p}.a"], axis=-1)
        o = n("MatMul", [a, vh], [f"{p}.o"])
        o = n("Transpose", [o], [f"{p}.ot"], perm=[0, 2, 1, 3])
        o = n("Reshape", [o, c(f"{p}.oshape", [0, 0, DIM])], [f"{p}.or"])
        o = n("MatMul", [o, w(f"{p}.wo", DIM, DIM)], [f"{p}.proj"])
        x = n("Add", [x, o], [f"{p}.res1"])

        h = layernorm(x, f"{p}.ln2")
        if GATED:
            gi = n("MatMul", [h, w(f"{p}.wi", DIM, 2 * MLP)], [f"{p}.wi_out"])
            g1, g2 = f"{p}.g1", f"{p}.g2"
            n("Split", [gi, c(f"{p}.gsplit", [MLP, MLP])], [g1, g2], axis=-1)
            gg = n("Mul", [gelu(g1, f"{p}.gelu"), g2], [f"{p}.glu"])
        else:
            gg = gelu(n("MatMul", [h, w(f"{p}.wi", DIM, MLP)], [f"{p}.wi_out"]), f"{p}.gelu")
        m = n("MatMul", [gg, w(f"{p}.wo2", MLP, DIM)], [f"{p}.mlp"])
        x = n("Add", [x, m], [f"{p}.res2"])

    last = layernorm(x, "final_ln")
    nodes.append(helper.make_node("Identity", [last], ["last_hidden_state"]))

    graph = helper.make_graph(
        nodes,
        f"{shape}-shape",
        [helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "sequence"]) for name in ("input_ids", "attention_mask")],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "sequence", DIM])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="tsm-bench")
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, "model.onnx"))
    params = sum(int(np.prod(t.dims)) for t in inits)

    # Tokenizer: specials, ▁, ASCII, kana, CJK punctuation and ideographs (as test/helpers/tiny-model.ts).
    pieces = ["<s>", "<pad>", "</s>", "<unk>", "▁"]
    for lo, hi in [(0x21, 0x7E), (0x3001, 0x3002), (0x300C, 0x300F), (0x3041, 0x3096), (0x30A1, 0x30FC), (0x4E00, 0x9FFF), (0xFF01, 0xFF5E)]:
        pieces += [chr(cp) for cp in range(lo, hi + 1)]
    vocab = [[p, 0.0 if i < 4 else -5.0] for i, p in enumerate(pieces)]
    special = lambda i, s: {"id": i, "content": s, "single_word": False, "lstrip": False, "rstrip": False, "normalized": False, "special": True}
    tok = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [special(i, s) for i, s in enumerate(pieces[:4])],
        "normalizer": {"type": "NFKC"},
        "pre_tokenizer": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": True},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}, {"SpecialToken": {"id": "</s>", "type_id": 0}}],
            "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 0}}],
            "special_tokens": {"<s>": {"id": "<s>", "ids": [0], "tokens": ["<s>"]}, "</s>": {"id": "</s>", "ids": [2], "tokens": ["</s>"]}},
        },
        "decoder": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": True},
        "model": {"type": "Unigram", "unk_id": 3, "vocab": vocab, "byte_fallback": False},
    }
    with open(os.path.join(out, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(tok, f, ensure_ascii=False)
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump({"model_type": "bench-encoder", "hidden_size": DIM, "num_hidden_layers": LAYERS, "vocab_size": VOCAB}, f)
    with open(os.path.join(out, "tsm-model.json"), "w", encoding="utf-8") as f:
        json.dump({"name": f"bench/{shape}-shape", "dims": DIM, "queryPrefix": QP, "passagePrefix": PP, "maxTokens": 512}, f, ensure_ascii=False)
    print(f"{out}: {params / 1e6:.1f}M parameters, model.onnx {os.path.getsize(os.path.join(out, 'model.onnx')) / 1e6:.0f} MB")


if __name__ == "__main__":
    args = sys.argv[1:]
    shape = "ruri-v3-30m"
    if len(args) == 3 and args[0] == "--shape" and args[1] in SHAPES:
        shape, args = args[1], args[2:]
    if len(args) != 1:
        sys.exit(__doc__)
    main(args[0], shape)
