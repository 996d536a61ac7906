"""GGUF files written from ggml's spec (docs/gguf.md,
https://github.com/ggml-org/ggml/blob/master/docs/gguf.md), for the tests:
an independent writer, so that the reader is checked against the format and
not against itself. `python3 tests/data/gguf/write_gguf.py` rewrites the small
fixtures beside it; the tests also call write() for large models, whose data
region is left sparse (truncate), so a 40 GB file costs no disk.
"""
import os
import struct
import sys

# ggml type: (id, block size, bytes per block), from ggml's type table.
TYPES = {
    "F32": (0, 1, 4), "F16": (1, 1, 2), "Q4_0": (2, 32, 18), "Q8_0": (8, 32, 34),
    "Q4_K": (12, 256, 144), "Q6_K": (14, 256, 210), "IQ4_XS": (23, 256, 136),
    "BF16": (30, 1, 2), "MXFP4": (39, 32, 17), "Q2_K": (10, 256, 84), "Q5_0": (6, 32, 22),
}
# GGUF value types.
U8, I8, U16, I16, U32, I32, F32, BOOL, STRING, ARRAY, U64, I64, F64 = range(13)
_SCALAR = {U8: "<B", I8: "<b", U16: "<H", I16: "<h", U32: "<I", I32: "<i", F32: "<f", BOOL: "<?",
           U64: "<Q", I64: "<q", F64: "<d"}


def _string(s):
    b = s if isinstance(s, bytes) else s.encode("utf-8")
    return struct.pack("<Q", len(b)) + b


def _value(vtype, value):
    if vtype == STRING:
        return _string(value)
    if vtype == ARRAY:
        item_type, items = value
        out = struct.pack("<IQ", item_type, len(items))
        return out + b"".join(_value(item_type, v) for v in items)
    return struct.pack(_SCALAR[vtype], value)


def tensor_bytes(dims, type_name):
    _, block, size = TYPES[type_name]
    n = 1
    for d in dims:
        n *= d
    assert dims[0] % block == 0
    return n // block * size


def write(path, kv, tensors, version=3, alignment=32, sparse=False):
    """kv: [(key, value type, value)]; tensors: [(name, dims, type name)]
    (dims fastest first, as GGUF stores them). Data offsets are packed in
    order, each aligned. The data region is zeros, or a hole when sparse."""
    header = b"GGUF" + struct.pack("<IQQ", version, len(tensors), len(kv))
    header += b"".join(_string(k) + struct.pack("<I", t) + _value(t, v) for k, t, v in kv)
    offset = 0
    table = b""
    for name, dims, type_name in tensors:
        table += _string(name) + struct.pack("<I", len(dims)) + b"".join(struct.pack("<Q", d) for d in dims)
        table += struct.pack("<IQ", TYPES[type_name][0], offset)
        offset += tensor_bytes(dims, type_name)
        offset += -offset % alignment
    head = header + table
    head += b"\0" * (-len(head) % alignment)
    with open(path, "wb") as f:
        f.write(head)
        if sparse:
            f.truncate(len(head) + offset)
        else:
            f.write(b"\0" * offset)
    return len(head) + offset


def llama_kv(arch, name, layers, n_embd, n_head, n_head_kv, ff, vocab, extra=()):
    kv = [("general.architecture", STRING, arch), ("general.name", STRING, name),
          (arch + ".block_count", U32, layers), (arch + ".context_length", U32, 4096),
          (arch + ".embedding_length", U32, n_embd), (arch + ".feed_forward_length", U32, ff),
          (arch + ".attention.head_count", U32, n_head), (arch + ".attention.head_count_kv", U32, n_head_kv),
          (arch + ".attention.layer_norm_rms_epsilon", F32, 1e-5), ("general.quantization_version", U32, 2),
          ("tokenizer.ggml.model", STRING, "gpt2"),
          ("tokenizer.ggml.tokens", ARRAY, (STRING, ["t%d" % k for k in range(vocab)])),
          ("tokenizer.ggml.token_type", ARRAY, (I32, [1] * vocab)),
          ("tokenizer.ggml.add_bos_token", BOOL, True)]
    return kv + list(extra)


def layer_tensors(l, n_embd, q_dim, kv_dim, ff, weight, norm="F32"):
    b = "blk.%d." % l
    return [(b + "attn_norm.weight", [n_embd], norm), (b + "attn_q.weight", [n_embd, q_dim], weight),
            (b + "attn_k.weight", [n_embd, kv_dim], weight), (b + "attn_v.weight", [n_embd, kv_dim], weight),
            (b + "attn_output.weight", [q_dim, n_embd], weight), (b + "ffn_norm.weight", [n_embd], norm),
            (b + "ffn_gate.weight", [n_embd, ff], weight), (b + "ffn_up.weight", [n_embd, ff], weight),
            (b + "ffn_down.weight", [ff, n_embd], weight)]


def dense(path, version=3):
    """llama, 2 layers, n_embd 64, 4 heads (no GQA), ff 128, vocab 96, all F16."""
    tensors = [("token_embd.weight", [64, 96], "F16")]
    for l in range(2):
        tensors += layer_tensors(l, 64, 64, 64, 128, "F16")
    tensors += [("output_norm.weight", [64], "F32"), ("output.weight", [64, 96], "F16")]
    return write(path, llama_kv("llama", "Dense Test", 2, 64, 4, 4, 128, 96), tensors, version)


def gqa(path):
    """GGUF v2; 4 heads of 64 over n_embd 128 (key_length and value_length
    given, not n_embd / n_head = 32), 2 KV heads, Q8_0, sliding window 128."""
    extra = [("llama.attention.key_length", U32, 64), ("llama.attention.value_length", U32, 64),
             ("llama.attention.sliding_window", U32, 128), ("llama.vocab_size", U32, 128)]
    tensors = [("token_embd.weight", [128, 128], "Q8_0")]
    for l in range(3):
        tensors += layer_tensors(l, 128, 256, 128, 256, "Q8_0")
    tensors += [("output_norm.weight", [128], "F32"), ("output.weight", [128, 128], "Q8_0")]
    return write(path, llama_kv("llama", "GQA Test", 3, 128, 4, 2, 256, 100, extra), tensors, version=2)


def moe(path):
    """qwen3moe-like: 2 layers, 8 experts, 2 used, one shared expert; the
    expert tensors 3-D [n_embd, ff, experts] in Q4_0; router F32."""
    extra = [("qwen3moe.expert_count", U32, 8), ("qwen3moe.expert_used_count", U32, 2),
             ("qwen3moe.expert_feed_forward_length", U32, 64)]
    tensors = [("token_embd.weight", [128, 64], "Q8_0")]
    for l in range(2):
        b = "blk.%d." % l
        tensors += [(b + "attn_norm.weight", [128], "F32"), (b + "attn_q.weight", [128, 128], "Q8_0"),
                    (b + "attn_k.weight", [128, 64], "Q8_0"), (b + "attn_v.weight", [128, 64], "Q8_0"),
                    (b + "attn_output.weight", [128, 128], "Q8_0"), (b + "ffn_norm.weight", [128], "F32"),
                    (b + "ffn_gate_inp.weight", [128, 8], "F32"),
                    (b + "ffn_gate_exps.weight", [128, 64, 8], "Q4_0"), (b + "ffn_up_exps.weight", [128, 64, 8], "Q4_0"),
                    (b + "ffn_down_exps.weight", [64, 128, 8], "Q4_0"),
                    (b + "ffn_gate_shexp.weight", [128, 64], "Q8_0"), (b + "ffn_up_shexp.weight", [128, 64], "Q8_0"),
                    (b + "ffn_down_shexp.weight", [64, 128], "Q8_0")]
    tensors += [("output_norm.weight", [128], "F32"), ("output.weight", [128, 64], "Q8_0")]
    return write(path, llama_kv("qwen3moe", "MoE Test", 2, 128, 4, 2, 256, 64, extra), tensors)


def mixed(path):
    """Mixed tensor types in one layer, and tied embeddings (no output.weight):
    Q4_K, Q6_K, IQ4_XS, MXFP4, BF16 and F32 over n_embd 256; alignment 64."""
    b = "blk.0."
    tensors = [("token_embd.weight", [256, 64], "Q6_K"),
               (b + "attn_norm.weight", [256], "F32"), (b + "attn_q.weight", [256, 256], "Q4_K"),
               (b + "attn_k.weight", [256, 256], "IQ4_XS"), (b + "attn_v.weight", [256, 256], "Q6_K"),
               (b + "attn_output.weight", [256, 256], "BF16"), (b + "ffn_norm.weight", [256], "F32"),
               (b + "ffn_gate.weight", [256, 512], "MXFP4"), (b + "ffn_up.weight", [256, 512], "Q4_K"),
               (b + "ffn_down.weight", [512, 256], "Q6_K"), ("output_norm.weight", [256], "F32")]
    kv = llama_kv("gemma2", "Mixed Tied Test", 1, 256, 4, 4, 512, 64, [("general.alignment", U32, 64)])
    return write(path, kv, tensors, alignment=64)


def fallback_down(path):
    """Qwen2.5 72B's shape in small: an intermediate of 384, 1.5 super-blocks
    of 256 as 29,568 is 115.5 (n_embd 256, 2 heads of 128, 1 KV head, vocab
    64, 2 layers), quantized as llama.cpp's quantizer stores a Q4_K file:
    every matrix Q4_K but ffn_down, whose rows of 384 are no whole number of
    Q4_K's blocks, in its fallback Q5_0 (tensor_type_fallback in
    src/llama-quant.cpp); norms F32."""
    tensors = [("token_embd.weight", [256, 64], "Q4_K")]
    for l in range(2):
        t = layer_tensors(l, 256, 256, 128, 384, "Q4_K")
        tensors += [(n, d, "Q5_0" if n.endswith("ffn_down.weight") else ty) for n, d, ty in t]
    tensors += [("output_norm.weight", [256], "F32"), ("output.weight", [256, 64], "Q4_K")]
    return write(path, llama_kv("qwen2", "Fallback Down Test", 2, 256, 2, 1, 384, 64), tensors)


def fallback_hidden(path):
    """gpt-oss's case in small: n_embd 288, 1.125 super-blocks of 256 as
    2,880 is 11.25 (2 heads of 128, so q_dim 256; 1 KV head; ff 256; vocab 64;
    1 layer) in a Q4_K file: every matrix whose rows are n_embd long (Q, K,
    V, gate, up, the token embedding) in Q4_K's fallback Q5_0, the attention
    output and ffn_down (rows of 256) Q4_K, and output.weight Q8_0, which the
    quantizer chooses for the LM head (llama_tensor_get_type_impl); norms F32."""
    extra = [("llama.attention.key_length", U32, 128), ("llama.attention.value_length", U32, 128)]
    row_288 = ("attn_q", "attn_k", "attn_v", "ffn_gate", "ffn_up")
    tensors = [("token_embd.weight", [288, 64], "Q5_0")]
    tensors += [(n, d, "Q5_0" if any(k in n for k in row_288) else ty)
                for n, d, ty in layer_tensors(0, 288, 256, 128, 256, "Q4_K")]
    tensors += [("output_norm.weight", [288], "F32"), ("output.weight", [288, 64], "Q8_0")]
    return write(path, llama_kv("llama", "Fallback Hidden Test", 1, 288, 2, 1, 256, 64, extra), tensors)


def llama_70b(path, sparse=True):
    """Llama 3 70B's shape (80 layers, n_embd 8192, 64 heads, 8 KV heads, ff
    28672, vocab 128256) in Q4_K, norms F32, the LM head Q6_K: about 40 GB of
    data, all of it a hole."""
    tensors = [("token_embd.weight", [8192, 128256], "Q4_K")]
    for l in range(80):
        tensors += layer_tensors(l, 8192, 8192, 1024, 28672, "Q4_K")
    tensors += [("output_norm.weight", [8192], "F32"), ("output.weight", [8192, 128256], "Q6_K")]
    kv = llama_kv("llama", "Llama-3-70B shape", 80, 8192, 64, 8, 28672, 16,
                    [("llama.vocab_size", U32, 128256)])
    return write(path, kv, tensors, sparse=sparse)


def llama_8b(path, sparse=True):
    """Llama 3 8B's shape (32 layers, n_embd 4096, 32 heads, 8 KV heads, ff
    14336, vocab 128256) in Q2_K, the LM head Q6_K: about 3 GB of data, all of
    it a hole (below 4 GiB, which Node 20's openAsBlob cannot size past)."""
    tensors = [("token_embd.weight", [4096, 128256], "Q2_K")]
    for l in range(32):
        tensors += layer_tensors(l, 4096, 4096, 1024, 14336, "Q2_K")
    tensors += [("output_norm.weight", [4096], "F32"), ("output.weight", [4096, 128256], "Q6_K")]
    kv = llama_kv("llama", "Llama-3-8B shape", 32, 4096, 32, 8, 14336, 16, [("llama.vocab_size", U32, 128256)])
    return write(path, kv, tensors, sparse=sparse)


def bad_alignment(path):
    """The mixed fixture but for general.alignment = 48, no power of two:
    ggml refuses such a file, and so does the reader (bad_alignment)."""
    b = "blk.0."
    tensors = [("token_embd.weight", [256, 64], "Q6_K"), (b + "attn_q.weight", [256, 256], "Q4_K")]
    kv = llama_kv("llama", "Bad Alignment Test", 1, 256, 4, 4, 512, 64, [("general.alignment", U32, 48)])
    return write(path, kv, tensors, alignment=48)


def duplicate_key(path):
    """The dense fixture but for llama.block_count given twice (2, then 3):
    ggml refuses a key the file gives twice, and so does the reader (duplicate_key)."""
    tensors = [("token_embd.weight", [64, 96], "F16")]
    for l in range(2):
        tensors += layer_tensors(l, 64, 64, 64, 128, "F16")
    tensors += [("output_norm.weight", [64], "F32"), ("output.weight", [64, 96], "F16")]
    kv = llama_kv("llama", "Duplicate Key Test", 2, 64, 4, 4, 128, 96, [("llama.block_count", U32, 3)])
    return write(path, kv, tensors)


def bad_utf8_name(path):
    """The dense fixture but for a general.name that is not UTF-8 (a stray
    byte, a surrogate in three bytes, a sequence cut short) and ends in a
    terminal's escape sequence: the reader keeps it as UTF-8, each bad sequence
    U+FFFD, as a browser's TextDecoder does; the CLI's table escapes the ESC."""
    tensors = [("token_embd.weight", [64, 96], "F16")]
    for l in range(2):
        tensors += layer_tensors(l, 64, 64, 64, 128, "F16")
    tensors += [("output_norm.weight", [64], "F32"), ("output.weight", [64, 96], "F16")]
    kv = llama_kv("llama", b"Bad \xff name \xed\xa0\x80 cut \xe2\x82 \x1b[2J", 2, 64, 4, 4, 128, 96)
    return write(path, kv, tensors)


def sliding(path):
    """gemma3-like: 6 layers, n_embd 64, 4 heads of 32 (key_length and
    value_length given), 2 KV heads, sliding window 16, all F16, tied
    embeddings. llama.cpp slides five layers of each six for gemma3
    (set_swa_pattern(6) in src/llama-model.cpp), so layers 0-4 slide and
    layer 5 attends to every position."""
    extra = [("gemma3.attention.key_length", U32, 32), ("gemma3.attention.value_length", U32, 32),
             ("gemma3.attention.sliding_window", U32, 16)]
    tensors = [("token_embd.weight", [64, 64], "F16")]
    for l in range(6):
        tensors += layer_tensors(l, 64, 128, 64, 128, "F16", norm="F16")
    tensors += [("output_norm.weight", [64], "F32")]
    return write(path, llama_kv("gemma3", "Sliding Test", 6, 64, 4, 2, 128, 64, extra), tensors)


FIXTURES = {"dense.gguf": dense, "gqa.gguf": gqa, "moe.gguf": moe, "mixed_tied.gguf": mixed,
            "bad_alignment.gguf": bad_alignment, "duplicate_key.gguf": duplicate_key,
            "bad_utf8_name.gguf": bad_utf8_name, "fallback_down.gguf": fallback_down,
            "fallback_hidden.gguf": fallback_hidden, "sliding.gguf": sliding}

if __name__ == "__main__":
    folder = os.path.dirname(os.path.abspath(__file__))
    for name, make in FIXTURES.items():
        print(name, make(os.path.join(folder, name)), file=sys.stderr)
