// GGUF files of architectures beyond the dense, GQA and MoE fixtures, written
// here byte by byte from ggml's spec (docs/gguf.md: magic, version, counts,
// typed key/values, the tensor table, the data region aligned to 32): sliding
// windows as llama.cpp applies them per architecture, multi-head latent
// attention, layers without attention (hybrids, pure SSMs, shared and
// multi-token-prediction layers). Each fact is checked against its closed
// form from the shapes, and a file written in a catalog model's shape against
// the catalog's own facts and estimate.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <heteropipe/limits.hpp>
#include <heteropipe/plan/catalog.hpp>
#include <heteropipe/plan/estimate.hpp>
#include <heteropipe/plan/gguf.hpp>
#include <heteropipe/plan/report.hpp>
#include <heteropipe/text/error_text.hpp>

using namespace heteropipe;

namespace {

// ggml types used here: id, elements per block, bytes per block.
struct Type {
  std::uint32_t id;
  std::uint64_t block, bytes;
};
constexpr Type kF32{0, 1, 4}, kF16{1, 1, 2}, kQ8_0{8, 32, 34};

// A GGUF v3 file: its key/values and tensor table, and the size its data region gives it.
class Gguf {
 public:
  explicit Gguf(const std::string& arch) : arch_(arch) { string("general.architecture", arch); }

  Gguf& u32(const std::string& key, std::uint32_t v) {
    this->key(key, 4);
    put(v, 4);
    return *this;
  }
  Gguf& string(const std::string& key, const std::string& v) {
    this->key(key, 8);
    put(v.size(), 8);
    kv_ += v;
    return *this;
  }
  Gguf& u32s(const std::string& key, const std::vector<std::uint32_t>& v) {
    this->key(key, 9);
    put(4, 4);
    put(v.size(), 8);
    for (std::uint32_t x : v) put(x, 4);
    return *this;
  }
  Gguf& bools(const std::string& key, const std::vector<bool>& v) {
    this->key(key, 9);
    put(7, 4);
    put(v.size(), 8);
    for (bool x : v) put(x ? 1 : 0, 1);
    return *this;
  }
  // {arch}.<key>
  Gguf& a(const std::string& key, std::uint32_t v) { return u32(arch_ + "." + key, v); }

  Gguf& tensor(const std::string& name, std::vector<std::uint64_t> dims, Type type) {
    std::uint64_t n = 1;
    for (std::uint64_t d : dims) n *= d;
    std::string t;
    put_to(t, name.size(), 8);
    t += name;
    put_to(t, dims.size(), 4);
    for (std::uint64_t d : dims) put_to(t, d, 8);
    put_to(t, type.id, 4);
    put_to(t, data_, 8);
    table_ += t;
    ++tensors_;
    data_ += n / type.block * type.bytes;
    data_ += (32 - data_ % 32) % 32;
    return *this;
  }

  // The header and table, padded to the data region's start; and the whole file's size.
  std::string head() const {
    std::string out = "GGUF";
    put_to(out, 3, 4);
    put_to(out, tensors_, 8);
    put_to(out, keys_, 8);
    out += kv_ + table_;
    out.resize(out.size() + (32 - out.size() % 32) % 32, '\0');
    return out;
  }
  double size() const { return static_cast<double>(head().size() + data_); }

 private:
  static void put_to(std::string& out, std::uint64_t v, int n) {
    for (int k = 0; k < n; ++k) out += static_cast<char>((v >> (8 * k)) & 0xFF);
  }
  void put(std::uint64_t v, int n) { put_to(kv_, v, n); }
  void key(const std::string& k, std::uint32_t type) {
    put(k.size(), 8);
    kv_ += k;
    put(type, 4);
    ++keys_;
  }

  std::string arch_, kv_, table_;
  std::uint64_t keys_ = 0, tensors_ = 0, data_ = 0;
};

// The facts, handing the reader the head and zeros for the data it never reads.
Result<ModelInfo> read(const Gguf& g) {
  const std::string head = g.head();
  std::string prefix;
  return read_gguf_through(
      [&](double need) -> Result<std::string_view> {
        prefix = head.substr(0, static_cast<std::size_t>(std::min(need, static_cast<double>(head.size()))));
        prefix.resize(static_cast<std::size_t>(need), '\0');
        return std::string_view(prefix);
      },
      g.size());
}

ModelInfo facts(const Gguf& g) {
  auto m = read(g);
  REQUIRE_MESSAGE(m.ok(), text::describe(m.error()));
  return m.value();
}

// A transformer's shape: the usual keys, and per layer attention (when kv_heads > 0) and an MLP, all F16.
struct Shape {
  std::uint32_t layers = 4, n_embd = 64, heads = 4, kv_heads = 2, head = 16, ff = 128, vocab = 64;
  bool ff_key = true;  // false: the caller gives feed_forward_length (per layer)
};

Gguf transformer(const std::string& arch, const Shape& s) {
  Gguf g(arch);
  g.a("block_count", s.layers).a("embedding_length", s.n_embd);
  if (s.ff_key) g.a("feed_forward_length", s.ff);
  g.a("attention.head_count", s.heads).a("attention.key_length", s.head).a("attention.value_length", s.head);
  g.a("context_length", 8192).a("vocab_size", s.vocab);
  g.tensor("token_embd.weight", {s.n_embd, s.vocab}, kF16);
  for (std::uint32_t l = 0; l < s.layers; ++l) {
    const std::string b = "blk." + std::to_string(l) + ".";
    g.tensor(b + "attn_norm.weight", {s.n_embd}, kF32);
    g.tensor(b + "attn_q.weight", {s.n_embd, s.heads * s.head}, kF16);
    g.tensor(b + "attn_k.weight", {s.n_embd, s.kv_heads * s.head}, kF16);
    g.tensor(b + "attn_v.weight", {s.n_embd, s.kv_heads * s.head}, kF16);
    g.tensor(b + "attn_output.weight", {s.heads * s.head, s.n_embd}, kF16);
    g.tensor(b + "ffn_up.weight", {s.n_embd, s.ff}, kF16);
    g.tensor(b + "ffn_down.weight", {s.ff, s.n_embd}, kF16);
  }
  g.tensor("output_norm.weight", {s.n_embd}, kF32);
  return g;
}

std::vector<double> flags(std::initializer_list<int> v) { return {v.begin(), v.end()}; }

EstimateInput on_two_gpus(Phase phase, double tokens, double context) {
  EstimateInput in;
  in.phase = phase;
  in.tokens = tokens;
  in.context = context;
  in.devices = {DeviceChoice{"rtx-4090", {}, {}, {}, {}, {}, {}}, DeviceChoice{"rtx-3090", {}, {}, {}, {}, {}, {}}};
  return in;
}

}  // namespace

TEST_CASE("gguf: sliding windows follow llama.cpp's rule for each architecture") {
  Shape s;
  s.layers = 12;
  // F16 K and V of every layer: 12 layers x 2 bytes x 2 heads x (16 + 16).
  const double kv = 12.0 * 2 * 2 * (16 + 16);
  SUBCASE("gemma3: five sliding layers, then a global one") {
    const ModelInfo m = facts(transformer("gemma3", s).a("attention.sliding_window", 16).a("attention.head_count_kv", 2));
    CHECK(m.sliding_window == 16);
    CHECK(m.sliding_layers == flags({1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0}));
    CHECK(m.kv_bytes_per_token == kv);  // the cache a position adds; the estimate caps the sliding layers'
  }
  SUBCASE("gemma2: every other layer from the first, 4,096 positions when the file gives no window") {
    const ModelInfo m = facts(transformer("gemma2", s).a("attention.head_count_kv", 2));
    CHECK(m.sliding_window == 4096);
    CHECK(m.sliding_layers == flags({1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0}));
  }
  SUBCASE("gpt-oss (and Ollama's gptoss): every other layer") {
    for (const char* arch : {"gpt-oss", "gptoss"}) {
      const ModelInfo m = facts(transformer(arch, s).a("attention.sliding_window", 128).a("attention.head_count_kv", 2));
      CHECK(m.sliding_window == 128);
      CHECK(m.sliding_layers == flags({1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0}));
    }
  }
  SUBCASE("cohere2: three sliding layers, then a global one") {
    const ModelInfo m = facts(transformer("cohere2", s).a("attention.sliding_window", 64).a("attention.head_count_kv", 2));
    CHECK(m.sliding_layers == flags({1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0}));
  }
  SUBCASE("llama4: chunks of 8,192 on three layers of four, unless the file gives a window of 0") {
    const ModelInfo m = facts(transformer("llama4", s).a("attention.head_count_kv", 2));
    CHECK(m.sliding_window == 8192);
    CHECK(m.sliding_layers == flags({1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0}));
    const ModelInfo none = facts(transformer("llama4", s).a("attention.sliding_window", 0).a("attention.head_count_kv", 2));
    CHECK(none.sliding_layers == std::vector<double>(12, 0.0));
  }
  SUBCASE("smallthinker: the dense layer first in each four, a window of 4,096 where the file gives one") {
    const ModelInfo m = facts(transformer("smallthinker", s).a("attention.sliding_window", 100).a("attention.head_count_kv", 2));
    CHECK(m.sliding_window == 4096);
    CHECK(m.sliding_layers == flags({0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1}));
    const ModelInfo none = facts(transformer("smallthinker", s).a("attention.head_count_kv", 2));
    CHECK(none.sliding_layers == std::vector<double>(12, 0.0));
  }
  SUBCASE("exaone4: the 64-layer model three sliding layers of four, 4,096 positions; other sizes none") {
    Shape big = s;
    big.layers = 64;
    const ModelInfo m = facts(transformer("exaone4", big).a("attention.head_count_kv", 2));
    CHECK(m.sliding_window == 4096);
    for (std::size_t j = 0; j < 64; ++j) CHECK(m.sliding_layers[j] == (j % 4 < 3 ? 1.0 : 0.0));
    const ModelInfo small = facts(transformer("exaone4", s).a("attention.sliding_window", 4096).a("attention.head_count_kv", 2));
    CHECK(small.sliding_layers == std::vector<double>(12, 0.0));
  }
  SUBCASE("olmo2 slides only with a window; an architecture llama.cpp gives none to never slides") {
    CHECK(facts(transformer("olmo2", s).a("attention.head_count_kv", 2)).sliding_layers == std::vector<double>(12, 0.0));
    CHECK(facts(transformer("olmo2", s).a("attention.sliding_window", 32).a("attention.head_count_kv", 2)).sliding_layers ==
          flags({1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0}));
    for (const char* arch : {"qwen2", "llama", "phi3"}) {
      const ModelInfo m = facts(transformer(arch, s).a("attention.sliding_window", 32).a("attention.head_count_kv", 2));
      CHECK(m.sliding_window == 32);  // what the file says, never applied
      CHECK(m.sliding_layers == std::vector<double>(12, 0.0));
    }
  }
  SUBCASE("the file's attention.sliding_window_pattern: a period, or a flag per layer, over the rule") {
    const ModelInfo period =
        facts(transformer("gemma3", s).a("attention.sliding_window", 16).a("attention.sliding_window_pattern", 3).a(
            "attention.head_count_kv", 2));
    CHECK(period.sliding_layers == flags({1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0}));
    const std::vector<bool> given{true, false, false, true, true, true, false, true, false, false, false, true};
    const ModelInfo array = facts(transformer("gemma4", s)
                                      .a("attention.sliding_window", 512)
                                      .bools("gemma4.attention.sliding_window_pattern", given)
                                      .a("attention.head_count_kv", 2));
    CHECK(array.sliding_window == 512);
    CHECK(array.sliding_layers == flags({1, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0, 1}));
    // An array of another length than block_count is refused, as llama.cpp refuses it.
    auto short_array = read(transformer("gemma4", s)
                                .a("attention.sliding_window", 512)
                                .bools("gemma4.attention.sliding_window_pattern", {true, false})
                                .a("attention.head_count_kv", 2));
    REQUIRE_FALSE(short_array.ok());
    CHECK(short_array.error().code == ErrorCode::wrong_length);
    CHECK(short_array.error().field == Field::sliding_layers);
    CHECK(short_array.error().value == 2);
    CHECK(short_array.error().limit == 12);
    CHECK(text::describe(short_array.error()) == "sliding_layers: needs layers = 12 values, one per layer, or none (got 2)");
    // So is an empty one, and one longer than any model's layers (whose
    // items the reader keeps for no key): they were read as no pattern, by
    // gemma3's rule of five sliding layers in six.
    for (const std::size_t length : {std::size_t{0}, static_cast<std::size_t>(limits::kMaxPlanLayers) + 1}) {
      CAPTURE(length);
      auto odd = read(transformer("gemma3", s)
                          .a("attention.sliding_window", 16)
                          .bools("gemma3.attention.sliding_window_pattern", std::vector<bool>(length, true))
                          .a("attention.head_count_kv", 2));
      REQUIRE_FALSE(odd.ok());
      CHECK(odd.error().code == ErrorCode::wrong_length);
      CHECK(odd.error().field == Field::sliding_layers);
      CHECK(odd.error().value == static_cast<double>(length));
      CHECK(odd.error().limit == 12);
    }
    // A period given as a string is refused at its type, as llama.cpp refuses it.
    auto text_period = read(transformer("gemma3", s)
                                .a("attention.sliding_window", 16)
                                .string("gemma3.attention.sliding_window_pattern", "6")
                                .a("attention.head_count_kv", 2));
    REQUIRE_FALSE(text_period.ok());
    CHECK(text_period.error().code == ErrorCode::wrong_type);
    CHECK(text_period.error().token == "gemma3.attention.sliding_window_pattern");
  }
}

TEST_CASE("gguf: multi-head latent attention caches its latent and rope part as K alone") {
  // DeepSeek-V2/V3 in small: kv_lora_rank 32 and 8 rope dimensions, so key_length 40 and value_length 32 in a
  // file converted for MLA (key_length_mla 24 and value_length_mla 16 the decompressed heads), one KV head.
  Shape s;
  s.heads = 4;
  s.kv_heads = 1;
  Gguf mla("deepseek2");
  mla.a("block_count", 3).a("embedding_length", 64).a("attention.head_count", 4).a("attention.head_count_kv", 1);
  mla.a("attention.key_length", 40).a("attention.value_length", 32).a("attention.key_length_mla", 24);
  mla.a("attention.value_length_mla", 16).a("attention.kv_lora_rank", 32).a("rope.dimension_count", 8);
  mla.tensor("token_embd.weight", {64, 64}, kF16);
  for (int l = 0; l < 3; ++l) {
    const std::string b = "blk." + std::to_string(l) + ".";
    mla.tensor(b + "attn_kv_a_mqa.weight", {64, 40}, kQ8_0).tensor(b + "attn_q.weight", {64, 4 * 24}, kQ8_0);
    mla.tensor(b + "attn_k_b.weight", {16, 32, 4}, kF16).tensor(b + "attn_v_b.weight", {32, 16, 4}, kF16);
    mla.tensor(b + "attn_output.weight", {64, 64}, kQ8_0);
  }
  const ModelInfo m = facts(mla);
  CHECK(m.key_length == 40);
  CHECK(m.value_length == 32);
  // Per layer one K head of kv_lora_rank + rope = 40 elements, F16, no V: 3 x 2 x 40 bytes.
  CHECK(m.kv_bytes_per_token == 3.0 * 2 * 1 * 40);
  // One tensor's bytes, from its own type: attn_kv_a_mqa 64 x 40 in Q8_0 (34 bytes per 32).
  CHECK(m.layer_bytes[0] == 64.0 * 40 / 32 * 34 + 64.0 * 96 / 32 * 34 + 2.0 * 16 * 32 * 4 * 2 + 64.0 * 64 / 32 * 34);

  // A file converted before MLA (no *_mla keys): llama.cpp decompresses and caches K and V of every head.
  Gguf old("deepseek2");
  old.a("block_count", 3).a("embedding_length", 64).a("attention.head_count", 4).a("attention.head_count_kv", 4);
  old.a("attention.key_length", 24).a("attention.value_length", 16);
  for (int l = 0; l < 3; ++l) old.tensor("blk." + std::to_string(l) + ".attn_output.weight", {64, 64}, kF16);
  CHECK(facts(old).kv_bytes_per_token == 3.0 * 2 * 4 * (24 + 16));
}

TEST_CASE("gguf: layers without attention keep no KV cache; a pure SSM keeps none at all") {
  Shape s;
  s.layers = 8;
  const double layer_kv = 2.0 * 2 * (16 + 16);  // F16, 2 KV heads of 16 + 16
  SUBCASE("Jamba, Granite 4 hybrid, Nemotron-H, LFM2: 0 KV heads given for the recurrent layers") {
    for (const char* arch : {"jamba", "granitehybrid", "nemotron_h", "lfm2"}) {
      const ModelInfo m =
          facts(transformer(arch, s).u32s(std::string(arch) + ".attention.head_count_kv", {0, 0, 0, 2, 0, 0, 0, 2}));
      CHECK(m.n_head_kv == 2);
      CHECK(m.kv_bytes_per_token == 2 * layer_kv);
      CHECK(m.attention_layers == flags({0, 0, 0, 1, 0, 0, 0, 1}));
    }
  }
  SUBCASE("Qwen3-Next and Qwen3.5: every full_attention_interval-th layer attends (4 in llama.cpp before the key)") {
    CHECK(facts(transformer("qwen3next", s).a("attention.head_count_kv", 2)).kv_bytes_per_token == 2 * layer_kv);
    const ModelInfo m =
        facts(transformer("qwen35", s).a("attention.head_count_kv", 2).a("full_attention_interval", 2));
    CHECK(m.kv_bytes_per_token == 4 * layer_kv);
  }
  SUBCASE("Gemma 3n's later layers share the first 20 layers' cache; shared_kv_layers says how many share") {
    Shape g = s;
    g.layers = 30;
    const ModelInfo n =
        facts(transformer("gemma3n", g).a("attention.head_count_kv", 2).a("attention.sliding_window", 512));
    CHECK(n.kv_bytes_per_token == 20 * layer_kv);
    std::vector<double> first_20(30, 0.0);
    std::fill(first_20.begin(), first_20.begin() + 20, 1.0);
    // Every layer attends; the last 10 against the cache of an earlier one, keeping none of their own.
    CHECK(n.attention_layers == std::vector<double>(30, 1.0));
    CHECK(n.kv_layers == first_20);
    CHECK(n.recurrent_layers == std::vector<double>(30, 0.0));
    const ModelInfo four =
        facts(transformer("gemma4", g).a("attention.head_count_kv", 2).a("attention.shared_kv_layers", 12));
    CHECK(four.kv_bytes_per_token == 18 * layer_kv);
    CHECK(four.attention_layers == std::vector<double>(30, 1.0));
    CHECK(std::count(four.kv_layers.begin(), four.kv_layers.end(), 1.0) == 18);
    CHECK(four.kv_layers[17] == 1.0);
    CHECK(four.kv_layers[18] == 0.0);
  }
  SUBCASE("multi-token-prediction layers (nextn_predict_layers) keep no cache") {
    const ModelInfo m = facts(transformer("glm4moe", s).a("attention.head_count_kv", 2).a("nextn_predict_layers", 1));
    CHECK(m.kv_bytes_per_token == 7 * layer_kv);
    CHECK(m.attention_layers == flags({1, 1, 1, 1, 1, 1, 1, 0}));
    CHECK(m.kv_layers == flags({1, 1, 1, 1, 1, 1, 1, 0}));
    CHECK(m.nextn_predict_layers == 1);
    CHECK(m.layers == 8);  // block_count: llama.cpp's -ts split counts the MTP layer too
    CHECK(m.layer_bytes[7] == m.layer_bytes[0]);  // the file's tensors, shown whole
  }
  SUBCASE("Mamba and RWKV: no cache, and the estimate stays finite with no attention work") {
    Gguf mamba("mamba");
    mamba.a("block_count", 4).a("embedding_length", 64).a("context_length", 0).a("ssm.inner_size", 128);
    mamba.a("ssm.state_size", 16).a("ssm.conv_kernel", 4).a("vocab_size", 64);
    mamba.tensor("token_embd.weight", {64, 64}, kF16);
    for (int l = 0; l < 4; ++l) {
      const std::string b = "blk." + std::to_string(l) + ".";
      mamba.tensor(b + "ssm_in.weight", {64, 256}, kF16).tensor(b + "ssm_out.weight", {128, 64}, kF16);
    }
    const ModelInfo m = facts(mamba);
    CHECK(m.n_head == 0);
    CHECK(m.kv_bytes_per_token == 0);
    // Per layer and sequence, F32: the convolution's (4 - 1) x 128 and the SSM's 16 x 128.
    const double state = (3.0 * 128 + 16.0 * 128) * 4;
    CHECK(m.recurrent_bytes_per_sequence == 4 * state);
    CHECK(m.sliding_layers == std::vector<double>(4, 0.0));
    CHECK(m.attention_layers == std::vector<double>(4, 0.0));
    CHECK(m.recurrent_layers == std::vector<double>(4, 1.0));
    // A head count in the file changes nothing: llama.cpp runs every layer of these as recurrent.
    CHECK(facts(transformer("rwkv6", s).a("attention.head_count_kv", 2)).kv_bytes_per_token == 0);
    EstimateInput in = on_two_gpus(Phase::decode, 2, 4096);
    in.M = 3;
    in.model_info = m;
    const PlanInput p = estimate(in).value();
    // Each layer: its weights (64 x 256 + 128 x 64, F16), no cache, and the state of the 2 x 3 sequences in
    // flight; the first and last hold the embedding and the head.
    const double held = (64.0 * 256 + 128.0 * 64) * 2 + state * 2 * 3;
    CHECK(p.layer_memory == std::vector<double>{held + 64.0 * 64 * 2, held, held, held + 64.0 * 64 * 2});
    for (const PlanDevice& d : p.devices) {
      for (double t : d.layer_times) CHECK((std::isfinite(t) && t > 0));
    }
    // Context adds nothing to a model without a cache.
    EstimateInput longer = in;
    longer.context = 65536;
    CHECK(estimate(longer).value().devices[0].layer_times == p.devices[0].layer_times);
  }
}

TEST_CASE("gguf: the recurrent state per sequence, as llama.cpp holds it for each architecture's recurrent layers") {
  Shape s;
  s.layers = 8;
  const std::vector<std::uint32_t> hybrid{0, 0, 0, 2, 0, 0, 0, 2};
  // A Mamba-2 block: (conv 4 - 1) x (inner 256 + 2 x 2 groups x state 16) and state 16 x inner 256, F32.
  const double mamba2 = (3.0 * (256 + 2 * 2 * 16) + 16.0 * 256) * 4;
  auto ssm = [](Gguf g) -> Gguf {
    return g.a("ssm.conv_kernel", 4).a("ssm.inner_size", 256).a("ssm.state_size", 16).a("ssm.group_count", 2);
  };
  SUBCASE("a transformer holds none") {
    const ModelInfo m = facts(transformer("llama", s).a("attention.head_count_kv", 2));
    CHECK(m.recurrent_bytes_per_sequence == 0);
    CHECK(m.recurrent_layers == std::vector<double>(8, 0.0));
    CHECK(m.attention_layers == std::vector<double>(8, 1.0));
  }
  SUBCASE("Jamba and Granite 4 hybrid: the layers given 0 KV heads") {
    for (const char* arch : {"jamba", "granitehybrid"}) {
      const ModelInfo m = facts(ssm(transformer(arch, s).u32s(std::string(arch) + ".attention.head_count_kv", hybrid)));
      CHECK(m.recurrent_bytes_per_sequence == 6 * mamba2);
      CHECK(m.recurrent_layers == flags({1, 1, 1, 0, 1, 1, 1, 0}));
    }
  }
  SUBCASE("Nemotron-H: 0 KV heads and no MLP; a layer with an MLP alone holds nothing") {
    Shape per_layer_ff = s;
    per_layer_ff.ff_key = false;
    const ModelInfo m = facts(ssm(transformer("nemotron_h", per_layer_ff)
                                      .u32s("nemotron_h.attention.head_count_kv", hybrid)
                                      .u32s("nemotron_h.feed_forward_length", {0, 128, 0, 0, 0, 128, 0, 0})));
    CHECK(m.recurrent_bytes_per_sequence == 4 * mamba2);
    CHECK(m.kv_bytes_per_token == 2 * 2.0 * 2 * (16 + 16));
    // Layers 1 and 5 are MLPs alone: neither attending nor recurrent.
    CHECK(m.recurrent_layers == flags({1, 0, 1, 0, 1, 0, 1, 0}));
    CHECK(m.attention_layers == flags({0, 0, 0, 1, 0, 0, 0, 1}));
  }
  SUBCASE("Qwen3-Next: the layers between the full-attention ones; Falcon-H1: every layer, which attends too") {
    CHECK(facts(ssm(transformer("qwen3next", s).a("attention.head_count_kv", 2))).recurrent_bytes_per_sequence ==
          6 * mamba2);
    // A full_attention_interval of 0 (llama.cpp would divide by it) is no
    // interval, for the cache as for the state: it marked every layer
    // attending and three in four recurrent as well.
    const ModelInfo zero =
        facts(ssm(transformer("qwen3next", s).a("attention.head_count_kv", 2).a("full_attention_interval", 0)));
    CHECK(zero.attention_layers == flags({0, 0, 0, 1, 0, 0, 0, 1}));
    CHECK(zero.recurrent_layers == flags({1, 1, 1, 0, 1, 1, 1, 0}));
    CHECK(zero.kv_bytes_per_token == 2 * 2.0 * 2 * (16 + 16));
    // A multi-token-prediction layer at the end (Qwen3.5's) holds no state, whatever the interval says:
    // llama.cpp marks the layers from n_layer - nextn_predict_layers not recurrent, and decode runs none of them.
    const ModelInfo mtp = facts(ssm(
        transformer("qwen35", s).a("attention.head_count_kv", 2).a("full_attention_interval", 3).a("nextn_predict_layers", 1)));
    CHECK(mtp.recurrent_layers == flags({1, 1, 0, 1, 1, 0, 1, 0}));
    CHECK(mtp.recurrent_bytes_per_sequence == 5 * mamba2);
    CHECK(mtp.attention_layers == flags({0, 0, 1, 0, 0, 1, 0, 0}));
    const ModelInfo falcon = facts(ssm(transformer("falcon-h1", s).a("attention.head_count_kv", 2)));
    CHECK(falcon.recurrent_bytes_per_sequence == 8 * mamba2);
    CHECK(falcon.kv_bytes_per_token == 8 * 2.0 * 2 * (16 + 16));
    CHECK(falcon.attention_layers == std::vector<double>(8, 1.0));
    CHECK(falcon.recurrent_layers == std::vector<double>(8, 1.0));
  }
  SUBCASE("RWKV: token shifts (2 unless given) x n_embd and n_embd x the head size; LFM2: n_embd x (l_cache - 1)") {
    CHECK(facts(transformer("rwkv6", s).a("wkv.head_size", 16)).recurrent_bytes_per_sequence ==
          8 * (2.0 * 64 + 64.0 * 16) * 4);
    CHECK(facts(transformer("rwkv7", s).a("wkv.head_size", 16).a("token_shift_count", 1)).recurrent_bytes_per_sequence ==
          8 * (1.0 * 64 + 64.0 * 16) * 4);
    CHECK(facts(transformer("lfm2", s).a("shortconv.l_cache", 3).u32s("lfm2.attention.head_count_kv", hybrid))
              .recurrent_bytes_per_sequence == 6 * (64.0 * 2) * 4);
  }
}

TEST_CASE("estimate: a file's sliding layers hold and read at most the window") {
  Shape s;
  s.layers = 6;
  const ModelInfo m = facts(transformer("gemma3", s).a("attention.sliding_window", 512).a("attention.head_count_kv", 2));
  REQUIRE(m.sliding_layers == flags({1, 1, 1, 1, 1, 0}));
  EstimateInput in = on_two_gpus(Phase::decode, 2, 4096);
  in.M = 3;
  in.model_info = m;
  const PlanInput p = estimate(in).value();
  const double per_layer_kv = 2.0 * 2 * (16 + 16);
  // Sliding layers hold 512 positions of each of the 2 x 3 sequences in flight; the global one all 4,096.
  CHECK(p.layer_memory[1] == m.layer_bytes[1] + per_layer_kv * 512 * 2 * 3);
  CHECK(p.layer_memory[5] == m.layer_bytes[5] + per_layer_kv * 4096 * 2 * 3 + m.output_bytes);
  // The same facts with no layer sliding hold the whole context in every layer.
  EstimateInput full = in;
  full.model_info->sliding_layers.clear();
  const PlanInput q = estimate(full).value();
  CHECK(q.layer_memory[1] - m.layer_bytes[1] == q.layer_memory[5] - m.layer_bytes[5] - m.output_bytes);
  CHECK(q.layer_memory[1] > p.layer_memory[1]);
  // Bad flags are refused by name and layer.
  EstimateInput bad = in;
  bad.model_info->sliding_layers[2] = 0.5;
  CHECK(text::describe(estimate(bad).error()) ==
        "sliding_layers, layer 3: must be 0 (attends to every position) or 1 (slides) (got 0.5)");
  bad.model_info->sliding_layers.pop_back();
  CHECK(text::describe(estimate(bad).error()) == "sliding_layers: needs layers = 6 values, one per layer, or none (got 5)");
}

// Qwen3-Next attends in every fourth layer (3, 7, 11 of 12) and holds a
// gated-delta-net state in the others, so three stages of layers 0-2, 3-7 and
// 8-11 hold 0, 2 and 1 layers' KV cache and 3, 3 and 3 layers' state.
TEST_CASE("estimate: a hybrid's KV cache and attention fall on its attending layers, its state on its recurrent ones") {
  Shape s;
  s.layers = 12;
  const ModelInfo m = facts(transformer("qwen3next", s)
                                .a("attention.head_count_kv", 2)
                                .a("ssm.conv_kernel", 4)
                                .a("ssm.inner_size", 256)
                                .a("ssm.state_size", 16)
                                .a("ssm.group_count", 2));
  REQUIRE(m.attention_layers == flags({0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}));
  REQUIRE(m.recurrent_layers == flags({1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0}));
  const double layer_kv = 2.0 * 2 * (16 + 16);                        // F16, 2 KV heads of 16 + 16
  const double layer_state = (3.0 * (256 + 2 * 2 * 16) + 16.0 * 256) * 4;  // F32, as the recurrent-state test
  REQUIRE(m.kv_bytes_per_token == 3 * layer_kv);
  REQUIRE(m.recurrent_bytes_per_sequence == 9 * layer_state);
  EstimateInput in = on_two_gpus(Phase::decode, 2, 4096);
  in.M = 3;
  in.model_info = m;
  const PlanInput p = estimate(in).value();
  // What a stage holds beyond its weights (and the embedding and head at the ends): 4,096 positions and the
  // state of each of the 2 x 3 sequences in flight.
  auto held = [&](std::size_t first, std::size_t end) {
    double sum = 0;
    for (std::size_t l = first; l < end; ++l) sum += p.layer_memory[l] - m.layer_bytes[l];
    return sum;
  };
  const double sequences = 2 * 3;
  CHECK(held(0, 3) - m.embedding_bytes == 3 * layer_state * sequences);
  CHECK(held(3, 8) == 2 * layer_kv * 4096 * sequences + 3 * layer_state * sequences);
  CHECK(held(8, 12) - m.output_bytes == 1 * layer_kv * 4096 * sequences + 3 * layer_state * sequences);
  // Attention work too: a longer context slows the attending layers only (the layers' weights are alike).
  EstimateInput longer = in;
  longer.context = 65536;
  const PlanInput q = estimate(longer).value();
  for (std::size_t k = 0; k < p.devices.size(); ++k) {
    for (std::size_t l = 0; l < 12; ++l) {
      CAPTURE(l);
      if (m.attention_layers[l] != 0) {
        CHECK(q.devices[k].layer_times[l] > p.devices[k].layer_times[l]);
      } else {
        CHECK(q.devices[k].layer_times[l] == p.devices[k].layer_times[l]);
      }
    }
  }
  // Spread over every layer (the lists left empty), the first stage held a quarter of a layer's cache per layer.
  EstimateInput even = in;
  even.model_info->attention_layers.clear();
  even.model_info->kv_layers.clear();
  even.model_info->recurrent_layers.clear();
  const PlanInput e = estimate(even).value();
  double first = 0;
  for (std::size_t l = 0; l < 3; ++l) first += e.layer_memory[l] - m.layer_bytes[l];
  CHECK(first - m.embedding_bytes == 3 * (3 * layer_kv / 12 * 4096 + 9 * layer_state / 12) * sequences);
  // Flags that put the bytes nowhere are refused.
  EstimateInput nowhere = in;
  nowhere.model_info->recurrent_layers.assign(12, 0.0);
  CHECK(text::describe(estimate(nowhere).error()) ==
        "recurrent_layers: needs a 1 on at least one layer that runs, as recurrent_bytes_per_sequence is above 0");
}

// Gemma 3n keeps a cache in its first 20 layers only (llama.cpp's
// n_layer_kv_from_start); its last 10 attend against the cache of the last
// earlier layer of their kind (sliding or global), so each does the attention
// work of a caching layer and holds no cache.
TEST_CASE("estimate: Gemma 3n's shared-KV layers attend, reading an earlier layer's cache, and hold none") {
  Shape s;
  s.layers = 30;
  const ModelInfo m = facts(transformer("gemma3n", s).a("attention.head_count_kv", 2).a("attention.sliding_window", 512));
  REQUIRE(m.sliding_layers[19] == 0.0);  // period 5: layers 4, 9, ..., 29 are global
  REQUIRE(m.sliding_layers[24] == 0.0);
  REQUIRE(m.sliding_layers[20] == 1.0);
  const double layer_kv = 2.0 * 2 * (16 + 16);
  EstimateInput in = on_two_gpus(Phase::decode, 2, 4096);
  in.M = 3;
  in.model_info = m;
  const PlanInput p = estimate(in).value();
  const double sequences = 2 * 3;
  // Memory: a caching global layer holds 4,096 positions, a caching sliding one 512; a sharing layer none.
  CHECK(p.layer_memory[19] == m.layer_bytes[19] + layer_kv * 4096 * sequences);
  CHECK(p.layer_memory[15] == m.layer_bytes[15] + layer_kv * 512 * sequences);
  for (std::size_t l = 20; l < 29; ++l) CHECK(p.layer_memory[l] == m.layer_bytes[l]);
  CHECK(p.layer_memory[29] == m.layer_bytes[29] + m.output_bytes);
  // Time: a sharing layer reads as much cache as the layer whose cache it reads (the layers' weights are alike).
  for (const PlanDevice& d : p.devices) {
    CHECK(d.layer_times[24] == d.layer_times[19]);
    CHECK(d.layer_times[20] == d.layer_times[15]);
  }
  // Without attention (as the sharing layers were estimated before kv_layers), they were faster.
  EstimateInput idle = in;
  for (std::size_t l = 20; l < 30; ++l) idle.model_info->attention_layers[l] = 0;
  const PlanInput q = estimate(idle).value();
  for (std::size_t k = 0; k < p.devices.size(); ++k) {
    CHECK(q.devices[k].layer_times[24] < p.devices[k].layer_times[24]);
    CHECK(q.devices[k].layer_times[19] == p.devices[k].layer_times[19]);
  }
  CHECK(q.layer_memory == p.layer_memory);
  // An object without kv_layers keeps the cache in its attending layers, as before the list existed.
  EstimateInput old = idle;
  old.model_info->kv_layers.clear();
  const PlanInput o = estimate(old).value();
  CHECK(o.layer_memory == q.layer_memory);
  for (std::size_t k = 0; k < p.devices.size(); ++k) CHECK(o.devices[k].layer_times == q.devices[k].layer_times);
  // Bad flags are refused by name and layer.
  EstimateInput bad = in;
  bad.model_info->kv_layers[2] = 2;
  CHECK(text::describe(estimate(bad).error()) == "kv_layers, layer 3: must be 0 (keeps no KV cache) or 1 (keeps one) (got 2)");
  bad.model_info->kv_layers.pop_back();
  CHECK(text::describe(estimate(bad).error()) == "kv_layers: needs layers = 30 values, one per layer, or none (got 29)");
  bad.model_info->kv_layers.assign(30, 0.0);
  CHECK(text::describe(estimate(bad).error()) ==
        "kv_layers: needs a 1 on at least one layer that runs, as kv_bytes_per_token is above 0");
  // A layer keeping a cache it does not attend against.
  bad.model_info->kv_layers = m.kv_layers;
  bad.model_info->attention_layers[7] = 0;
  CHECK(text::describe(estimate(bad).error()) == "kv_layers, layer 8: must be at most attention_layers = 0 (got 1)");
  // Written before kv_layers: the cache on the layers attention_layers marks, as the old reader wrote them.
  EstimateInput before = in;
  before.model_info->kv_layers.clear();
  before.model_info->attention_layers = m.kv_layers;
  const PlanInput b = estimate(before).value();
  CHECK(b.layer_memory == p.layer_memory);
  CHECK(b.devices[0].layer_times[24] == q.devices[0].layer_times[24]);
}

// A GLM-4.5-style file whose last layer is a multi-token-prediction layer:
// llama.cpp loads none of its tensors (TENSOR_SKIP) and decode never runs it,
// but its -ts split counts every layer of the file, the MTP one included.
TEST_CASE("estimate: multi-token-prediction layers are neither held nor timed, and llama.cpp's -ts still counts them") {
  Shape s;
  s.layers = 8;
  const ModelInfo m = facts(transformer("glm4moe", s).a("attention.head_count_kv", 2).a("nextn_predict_layers", 1));
  REQUIRE(m.nextn_predict_layers == 1);
  EstimateInput in = on_two_gpus(Phase::decode, 1, 4096);
  in.M = 2;
  in.model_info = m;
  const PlanInput p = estimate(in).value();
  // The chain is the 7 layers decode runs; the head's weights sit on the last of them.
  const double layer_kv = 2.0 * 2 * (16 + 16);
  REQUIRE(p.layer_memory.size() == 7);
  for (const PlanDevice& d : p.devices) CHECK(d.layer_times.size() == 7);
  CHECK(p.layer_memory[0] == m.layer_bytes[0] + layer_kv * 4096 * 2 + m.embedding_bytes);
  CHECK(p.layer_memory[6] == m.layer_bytes[6] + layer_kv * 4096 * 2 + m.output_bytes);
  double held = 0, file = m.embedding_bytes + m.output_bytes + m.kv_bytes_per_token * 4096 * 2;
  for (double b : p.layer_memory) held += b;
  for (std::size_t l = 0; l < 7; ++l) file += m.layer_bytes[l];
  CHECK(held == file);  // everything but layer 7's weights
  CHECK(p.unrun_layers == 1);
  // The same layers without the MTP one (a file of 7 layers): the same chain, to the bit.
  Shape seven = s;
  seven.layers = 7;
  EstimateInput plain = in;
  plain.model_info = facts(transformer("glm4moe", seven).a("attention.head_count_kv", 2));
  const PlanInput q = estimate(plain).value();
  CHECK(q.layer_memory == p.layer_memory);
  for (std::size_t k = 0; k < p.devices.size(); ++k) CHECK(q.devices[k].layer_times == p.devices[k].layer_times);
  // The commands: vLLM and SGLang partition the 7 layers (num_hidden_layers leaves the MTP layer out);
  // llama.cpp's last count adds the MTP layer and the output layer to the last stage's.
  const PlanReport r = make_plan_report(p, std::nullopt, 1).value();
  std::int64_t first = r.plan.stages.front().layers, last = r.plan.stages.back().layers;
  REQUIRE(r.plan.stages.size() == 2);
  CHECK(first + last == 7);
  CHECK(r.runtime.vllm_pp_layer_partition == std::to_string(first) + "," + std::to_string(last));
  CHECK(r.runtime.llama_cpp_tensor_split == std::to_string(first) + "," + std::to_string(last + 1 + 1));
  // The memory-proportional baseline is llama.cpp's default split, whose slots count the MTP layer too.
  std::vector<double> capacities;
  for (const PlanDevice& d : p.devices) capacities.push_back(d.memory_capacity);
  std::vector<std::int64_t> baseline;
  for (const PlanStage& stage : r.memory_proportional.plan.stages) baseline.push_back(stage.layers);
  CHECK(baseline == memory_proportional_layer_counts(capacities, 7, 1));
  // A count the file could not hold: at least one layer must run, as llama.cpp asserts.
  EstimateInput bad = in;
  bad.model_info->nextn_predict_layers = 8;
  CHECK(text::describe(estimate(bad).error()) == "nextn_predict_layers: must be at most layers - 1 = 7 (got 8)");
  bad.model_info->nextn_predict_layers = -1;
  CHECK(text::describe(estimate(bad).error()) == "nextn_predict_layers: must be >= 0 (got -1)");
  // A cache or a state said to sit only on the MTP layer would vanish from the plan, as on no layer.
  bad.model_info->nextn_predict_layers = 1;
  bad.model_info->attention_layers.assign(8, 1.0);
  bad.model_info->kv_layers.assign(8, 0.0);
  bad.model_info->kv_layers[7] = 1;
  CHECK(text::describe(estimate(bad).error()) ==
        "kv_layers: needs a 1 on at least one layer that runs, as kv_bytes_per_token is above 0");
  bad.model_info->kv_layers[6] = 1;
  CHECK(estimate(bad).ok());
  bad.model_info->kv_layers.clear();
  bad.model_info->attention_layers.assign(8, 0.0);
  bad.model_info->attention_layers[7] = 1;
  CHECK(text::describe(estimate(bad).error()) ==
        "attention_layers: needs a 1 on at least one layer that runs, as kv_bytes_per_token is above 0");
  bad.model_info->recurrent_bytes_per_sequence = 1024;
  bad.model_info->attention_layers.clear();
  bad.model_info->recurrent_layers.assign(8, 0.0);
  bad.model_info->recurrent_layers[7] = 1;
  CHECK(text::describe(estimate(bad).error()) ==
        "recurrent_layers: needs a 1 on at least one layer that runs, as recurrent_bytes_per_sequence is above 0");
}

// Marking every layer attending gives the estimate of the list left empty, to the bit.
TEST_CASE("estimate: attention_layers all 1 is the empty list") {
  Shape s;
  s.layers = 6;
  const ModelInfo m = facts(transformer("gemma3", s).a("attention.sliding_window", 512).a("attention.head_count_kv", 2));
  REQUIRE(m.attention_layers == std::vector<double>(6, 1.0));
  for (Phase phase : {Phase::decode, Phase::prefill}) {
    EstimateInput in = on_two_gpus(phase, 4, 2048);
    in.model_info = m;
    EstimateInput empty = in;
    empty.model_info->attention_layers.clear();
    empty.model_info->recurrent_layers.clear();
    const PlanInput a = estimate(in).value(), b = estimate(empty).value();
    CHECK(a.layer_memory == b.layer_memory);
    for (std::size_t k = 0; k < a.devices.size(); ++k) CHECK(a.devices[k].layer_times == b.devices[k].layer_times);
  }
}

// The catalog's Gemma 2, Gemma 3 and gpt-oss written as F16 GGUF files of
// the tensors the catalog counts (norms F16 too, tied embeddings, the router
// and the experts' 3-D tensors): the same facts, sliding pattern and KV cache,
// and the same estimate as the catalog id in F16.
TEST_CASE("estimate: a GGUF file in a catalog model's shape gives the catalog's facts and estimate") {
  for (const char* id : {"gemma-2-27b", "gemma-3-27b", "gpt-oss-20b"}) {
    CAPTURE(id);
    const ModelSpec spec = find_model(id).value();
    const std::string arch = spec.experts > 0 ? "gpt-oss" : std::string(id).find("gemma-3") == 0 ? "gemma3" : "gemma2";
    const auto h = static_cast<std::uint64_t>(spec.hidden), ff = static_cast<std::uint64_t>(spec.intermediate);
    const auto q = static_cast<std::uint64_t>(spec.heads * head_size_of(spec));
    const auto kv = static_cast<std::uint64_t>(spec.kv_heads * head_size_of(spec));
    const auto experts = static_cast<std::uint64_t>(spec.experts);
    Gguf g(arch);
    g.a("block_count", static_cast<std::uint32_t>(spec.layers)).a("embedding_length", static_cast<std::uint32_t>(h));
    g.a("attention.head_count", static_cast<std::uint32_t>(spec.heads));
    g.a("attention.head_count_kv", static_cast<std::uint32_t>(spec.kv_heads));
    g.a("attention.key_length", static_cast<std::uint32_t>(head_size_of(spec)));
    g.a("attention.value_length", static_cast<std::uint32_t>(head_size_of(spec)));
    g.a("feed_forward_length", static_cast<std::uint32_t>(ff)).a("vocab_size", static_cast<std::uint32_t>(spec.vocab));
    if (spec.experts > 0) {
      g.a("expert_count", static_cast<std::uint32_t>(spec.experts)).a("expert_used_count", static_cast<std::uint32_t>(spec.experts_used));
    }
    if (arch != "gemma2") g.a("attention.sliding_window", static_cast<std::uint32_t>(spec.sliding_window));
    g.tensor("token_embd.weight", {h, static_cast<std::uint64_t>(spec.vocab)}, kF16);
    for (std::int64_t l = 0; l < spec.layers; ++l) {
      const std::string b = "blk." + std::to_string(l) + ".";
      g.tensor(b + "attn_norm.weight", {h}, kF16).tensor(b + "attn_q.weight", {h, q}, kF16);
      g.tensor(b + "attn_k.weight", {h, kv}, kF16).tensor(b + "attn_v.weight", {h, kv}, kF16);
      g.tensor(b + "attn_output.weight", {q, h}, kF16).tensor(b + "ffn_norm.weight", {h}, kF16);
      if (experts > 0) {
        g.tensor(b + "ffn_gate_inp.weight", {h, experts}, kF16);
        g.tensor(b + "ffn_gate_exps.weight", {h, ff, experts}, kF16).tensor(b + "ffn_up_exps.weight", {h, ff, experts}, kF16);
        g.tensor(b + "ffn_down_exps.weight", {ff, h, experts}, kF16);
      } else {
        g.tensor(b + "ffn_gate.weight", {h, ff}, kF16).tensor(b + "ffn_up.weight", {h, ff}, kF16);
        g.tensor(b + "ffn_down.weight", {ff, h}, kF16);
      }
    }
    const ModelInfo file = facts(g);
    const ModelInfo catalog = model_info_of(spec, find_quant("F16").value());
    CHECK(file.sliding_window == spec.sliding_window);
    CHECK(file.sliding_layers == catalog.sliding_layers);
    CHECK(file.kv_bytes_per_token == catalog.kv_bytes_per_token);
    CHECK(file.layer_bytes == catalog.layer_bytes);
    CHECK(file.active_layer_bytes == catalog.active_layer_bytes);
    CHECK(file.active_layer_params == catalog.active_layer_params);
    CHECK(file.embedding_bytes == catalog.embedding_bytes);
    CHECK(file.output_bytes == catalog.output_bytes);  // tied: decode reads token_embd.weight as the head
    // Which layers slide, by hand: gemma-2 and gpt-oss every other from the first, gemma-3 five of six.
    for (std::int64_t j = 0; j < spec.layers; ++j) {
      const bool slides = arch == "gemma3" ? j % 6 != 5 : j % 2 == 0;
      CHECK(file.sliding_layers[static_cast<std::size_t>(j)] == (slides ? 1.0 : 0.0));
    }
    // The estimate, by id and by the file's facts, in decode past the window and in prefill.
    for (Phase phase : {Phase::decode, Phase::prefill}) {
      EstimateInput by_id = on_two_gpus(phase, phase == Phase::decode ? 4 : 512, 8192);
      by_id.devices.push_back(DeviceChoice{"h100-sxm", {}, {}, {}, {}, {}, {}});
      by_id.model = id;
      by_id.quant = "F16";
      EstimateInput by_file = by_id;
      by_file.model_info = file;
      auto a = estimate(by_id), b = estimate(by_file);
      REQUIRE_MESSAGE(a.ok(), text::describe(a.error()));
      REQUIRE_MESSAGE(b.ok(), text::describe(b.error()));
      REQUIRE(a.value().layer_memory.size() == b.value().layer_memory.size());
      for (std::size_t l = 0; l < a.value().layer_memory.size(); ++l) {
        CHECK(a.value().layer_memory[l] == doctest::Approx(b.value().layer_memory[l]).epsilon(1e-12));
        for (std::size_t k = 0; k < a.value().devices.size(); ++k) {
          CHECK(a.value().devices[k].layer_times[l] ==
                doctest::Approx(b.value().devices[k].layer_times[l]).epsilon(1e-12));
        }
      }
    }
  }
}
