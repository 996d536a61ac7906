// GGUF headers: the facts of files written from ggml's spec by
// tests/data/gguf/write_gguf.py (an independent writer), each checked
// against its closed form; the reader's errors, with their byte offsets; and
// cut or damaged files, which never crash or hang.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include <heteropipe/limits.hpp>
#include <heteropipe/plan/estimate.hpp>
#include <heteropipe/plan/gguf.hpp>
#include <heteropipe/plan/report.hpp>
#include <heteropipe/text/error_text.hpp>
#include <heteropipe/text/numbers.hpp>

using namespace heteropipe;

namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(HETEROPIPE_TEST_DATA) + "/gguf/" + name, std::ios::binary);
  REQUIRE(in);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

Result<ModelInfo> read_all(const std::string& bytes, double size, int* calls = nullptr) {
  return read_gguf_through(
      [&](double need) -> Result<std::string_view> {
        if (calls) ++*calls;
        return std::string_view(bytes).substr(0, static_cast<std::size_t>(need));
      },
      size);
}

ModelInfo facts(const std::string& name) {
  const std::string bytes = fixture(name);
  auto m = read_all(bytes, static_cast<double>(bytes.size()));
  REQUIRE_MESSAGE(m.ok(), text::describe(m.error()));
  return m.value();
}

Error error_of(const std::string& bytes, double size) {
  auto m = read_all(bytes, size);
  REQUIRE_FALSE(m.ok());
  return m.error();
}

void put_u64(std::string& bytes, std::size_t at, std::uint64_t v) {
  for (int k = 0; k < 8; ++k) bytes[at + k] = static_cast<char>((v >> (8 * k)) & 0xFF);
}

void put_u32(std::string& bytes, std::size_t at, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) bytes[at + k] = static_cast<char>((v >> (8 * k)) & 0xFF);
}

// Where the ggml type of the tensor `name` (of n_dims dimensions) sits.
std::size_t type_offset(const std::string& bytes, const std::string& name, std::size_t n_dims) {
  const std::size_t at = bytes.find(name);
  REQUIRE(at != std::string::npos);
  return at + name.size() + 4 + 8 * n_dims;
}

}  // namespace

TEST_CASE("gguf: a dense llama, every fact from its header and tensor table") {
  const ModelInfo m = facts("dense.gguf");
  CHECK(m.architecture == "llama");
  CHECK(m.name == "Dense Test");
  CHECK(m.layers == 2);
  CHECK(m.n_embd == 64);
  CHECK(m.n_head == 4);
  CHECK(m.n_head_kv == 4);
  CHECK(m.context_length == 4096);
  CHECK(m.expert_count == 0);
  CHECK(m.key_length == 16);  // n_embd / n_head: the file gives no key_length
  CHECK(m.feed_forward_length == 128);
  CHECK(m.vocab_size == 96);  // from the tokenizer's token list
  // Per layer, F16: q, k, v, o of 64 x 64 and gate, up, down of 64 x 128, plus two F32 norms.
  const double layer = (4.0 * 64 * 64 + 3.0 * 64 * 128) * 2 + 2 * 64 * 4;
  CHECK(m.layer_bytes == std::vector<double>{layer, layer});
  CHECK(m.active_layer_bytes == m.layer_bytes);
  CHECK(m.active_layer_params == std::vector<double>(2, 4.0 * 64 * 64 + 3.0 * 64 * 128 + 2 * 64));
  CHECK(m.embedding_bytes == 64.0 * 96 * 2);
  CHECK(m.output_bytes == 64.0 * 96 * 2 + 64 * 4);
  // F16 K and V: 2 layers x 2 x 4 heads x (16 + 16) x 2 bytes / 2.
  CHECK(m.kv_bytes_per_token == 2.0 * 2 * 4 * (16 + 16));
}

TEST_CASE("gguf: version 2, grouped-query attention and a head size that is not n_embd / n_head") {
  const ModelInfo m = facts("gqa.gguf");
  CHECK(m.n_head == 4);
  CHECK(m.n_head_kv == 2);
  CHECK(m.key_length == 64);
  CHECK(m.value_length == 64);
  CHECK(m.sliding_window == 128);
  CHECK(m.vocab_size == 128);  // llama.vocab_size wins over the 100 tokens listed
  // Q8_0 (34 bytes per 32): q and o of 128 x 256, k and v of 128 x 128, gate/up/down 128 x 256.
  const double layer = (2.0 * 128 * 256 + 2.0 * 128 * 128 + 3.0 * 128 * 256) / 32 * 34 + 2 * 128 * 4;
  CHECK(m.layer_bytes == std::vector<double>(3, layer));
  CHECK(m.kv_bytes_per_token == 3.0 * 2 * 2 * (64 + 64));
}

TEST_CASE("gguf: a mixture of experts reads expert_used_count / expert_count of its *_exps, shared experts whole") {
  const ModelInfo m = facts("moe.gguf");
  CHECK(m.expert_count == 8);
  CHECK(m.expert_used_count == 2);
  const double attention = (2.0 * 128 * 128 + 2.0 * 128 * 64) / 32 * 34;
  const double fixed = attention + 2 * 128 * 4 + 128.0 * 8 * 4;  // + norms + the F32 router
  const double experts = 3.0 * 128 * 64 * 8 / 32 * 18;          // Q4_0: 18 bytes per 32
  const double shared = 3.0 * 128 * 64 / 32 * 34;
  CHECK(m.layer_bytes == std::vector<double>(2, fixed + experts + shared));
  CHECK(m.active_layer_bytes == std::vector<double>(2, fixed + experts * 2 / 8 + shared));
  const double params = 2.0 * 128 * 128 + 2.0 * 128 * 64 + 2 * 128 + 128 * 8 + 3.0 * 128 * 64 * 2 + 3.0 * 128 * 64;
  CHECK(m.active_layer_params == std::vector<double>(2, params));
}

TEST_CASE("gguf: a gemma3 file slides five layers of six, as llama.cpp runs gemma3") {
  const ModelInfo m = facts("sliding.gguf");
  CHECK(m.architecture == "gemma3");
  CHECK(m.sliding_window == 16);
  CHECK(m.sliding_layers == std::vector<double>{1, 1, 1, 1, 1, 0});
  CHECK(m.key_length == 32);  // given: not n_embd / n_head = 16
  // F16 K and V: 6 layers x 2 bytes x 2 heads x (32 + 32); the estimate caps the sliding layers at 16 positions.
  CHECK(m.kv_bytes_per_token == 6.0 * 2 * 2 * (32 + 32));
  // Per layer, all F16: q 64 x 128, k and v 64 x 64, o 128 x 64, gate, up 64 x 128 and down 128 x 64, two norms.
  CHECK(m.layer_bytes == std::vector<double>(6, (2.0 * 64 * 128 + 2.0 * 64 * 64 + 3.0 * 64 * 128 + 2 * 64) * 2));
  CHECK(m.output_bytes == 64.0 * 64 * 2 + 64 * 4);  // tied: token_embd.weight and output_norm.weight
}

TEST_CASE("gguf: each tensor's own type sets its bytes; tied embeddings count the embedding as the LM head") {
  const ModelInfo m = facts("mixed_tied.gguf");
  const double sq = 256.0 * 256, ffn = 256.0 * 512;
  const double layer = 2 * 256 * 4 + sq / 256 * 144 /* Q4_K */ + sq / 256 * 136 /* IQ4_XS */ +
                       sq / 256 * 210 /* Q6_K */ + sq * 2 /* BF16 */ + ffn / 32 * 17 /* MXFP4 */ +
                       ffn / 256 * 144 + ffn / 256 * 210;
  CHECK(m.layer_bytes == std::vector<double>{layer});
  CHECK(m.embedding_bytes == 256.0 * 64 / 256 * 210);
  CHECK(m.output_bytes == m.embedding_bytes + 256 * 4);  // no output.weight: decode reads token_embd
}

TEST_CASE("gguf: the type table holds ggml's block and type sizes") {
  struct Row {
    std::uint32_t id;
    std::int64_t block, size;
  };
  // Bits per weight as llama.cpp quotes them: Q4_K 4.5, Q6_K 6.5625, IQ4_XS 4.25, MXFP4 4.25, Q8_0 8.5.
  for (Row r : {Row{12, 256, 144}, Row{14, 256, 210}, Row{23, 256, 136}, Row{39, 32, 17}, Row{8, 32, 34},
                Row{10, 256, 84}, Row{16, 256, 66}, Row{30, 1, 2}, Row{40, 64, 36}}) {
    const auto t = ggml_type(r.id);
    REQUIRE(t);
    CHECK(t->block_size == r.block);
    CHECK(t->type_size == r.size);
  }
  for (std::uint32_t removed : {4u, 5u, 31u, 36u, 38u, 41u, 1000u}) CHECK_FALSE(ggml_type(removed));
  CHECK(ggml_type_named("Q5_0")->id == 6);
  CHECK_FALSE(ggml_type_named("Q4_K_M"));
}

TEST_CASE("gguf: a matrix whose rows are no whole number of its type's blocks gets llama.cpp's fallback type") {
  // tensor_type_fallback (src/llama-quant.cpp): the row, ne0, must be whole blocks of 256 for the K-quants
  // and i-quants; else a 32-weight type; F16 where that does not divide the row either, or none is named.
  auto row_type = [](const char* type, std::int64_t row) {
    return std::string(quantizer_row_type(*ggml_type_named(type), row).name);
  };
  CHECK(row_type("Q4_K", 8192) == "Q4_K");
  CHECK(row_type("Q4_K", 29568) == "Q5_0");
  CHECK(row_type("Q5_K", 29568) == "Q5_1");
  CHECK(row_type("Q6_K", 2880) == "Q8_0");
  CHECK(row_type("Q3_K", 2880) == "Q4_0");
  CHECK(row_type("Q2_K", 2880) == "Q4_0");
  CHECK(row_type("IQ4_XS", 2880) == "IQ4_NL");
  CHECK(row_type("IQ2_XXS", 2880) == "IQ4_NL");
  CHECK(row_type("Q4_K", 48) == "F16");  // 48 is no whole number of Q5_0's 32 either
  CHECK(row_type("Q8_0", 48) == "F16");
  CHECK(row_type("Q8_0", 2880) == "Q8_0");
  CHECK(row_type("F16", 7) == "F16");
}

TEST_CASE("gguf: the reader asks for the leading bytes it needs, a few reads for any header") {
  const std::string bytes = fixture("dense.gguf");
  const auto size = static_cast<double>(bytes.size());
  auto first = read_gguf({}, size);
  REQUIRE(first.ok());
  CHECK(first.value().need == size);  // below kGgufFirstRead: the whole file at once
  auto big = read_gguf({}, 40e9);
  CHECK(big.value().need == limits::kGgufFirstRead);
  // 100 bytes of a file too large to ask for whole: at least twice as many next.
  auto next = read_gguf(std::string_view(bytes).substr(0, 100), 40e9);
  CHECK(next.value().need == limits::kGgufFirstRead);
  int calls = 0;
  CHECK(read_all(bytes, size, &calls).ok());
  CHECK(calls == 1);
}

TEST_CASE("gguf: refusals carry the byte where the problem lies") {
  const std::string good = fixture("dense.gguf");
  const auto size = static_cast<double>(good.size());
  std::string bytes = good;
  bytes[0] = 'X';
  Error e = error_of(bytes, size);
  CHECK(e.code == ErrorCode::not_gguf);
  CHECK(e.index == 0);
  CHECK(text::describe(e) == "GGUF file, byte 0: does not start with the bytes GGUF, so it is no GGUF file");

  bytes = good;
  put_u32(bytes, 4, 1);
  e = error_of(bytes, size);
  CHECK(e.code == ErrorCode::unsupported_version);
  CHECK(e.index == 4);
  CHECK(e.value == 1);

  bytes = good;
  put_u64(bytes, 16, 1'000'000);  // the key count
  e = error_of(bytes, size);
  CHECK(e.code == ErrorCode::too_large);
  CHECK(e.field == Field::key_count);
  CHECK(e.index == 16);
  CHECK(e.limit == limits::kMaxGgufKeys);
  CHECK(text::describe(e) == "GGUF file, byte 16: 1,000,000 keys, over the limit of 65,536");

  bytes = good;
  put_u64(bytes, 24, std::uint64_t{1} << 40);  // the first key's length
  e = error_of(bytes, size);
  CHECK(e.code == ErrorCode::too_large);
  CHECK(e.field == Field::string_length);
  CHECK(e.index == 24);

  // A count past 2^53 is shown as the file stores it, not as the double it rounds to (2^64 - 1 read
  // "18,446,744,073,709,551,616 keys", 2^53 + 1 "9,007,199,254,740,992 bytes").
  bytes = good;
  put_u64(bytes, 16, ~std::uint64_t{0});
  e = error_of(bytes, size);
  CHECK(e.field == Field::key_count);
  CHECK(e.typed == "18446744073709551615");
  CHECK(text::describe(e) == "GGUF file, byte 16: 18,446,744,073,709,551,615 keys, over the limit of 65,536");
  bytes = good;
  put_u64(bytes, 8, (std::uint64_t{1} << 63) + 1);
  CHECK(text::describe(error_of(bytes, size)) ==
        "GGUF file, byte 8: 9,223,372,036,854,775,809 tensors, over the limit of 1,048,576");
  bytes = good;
  put_u64(bytes, 24, (std::uint64_t{1} << 53) + 1);
  CHECK(text::describe(error_of(bytes, size)) ==
        "GGUF file, byte 24: a string of 9,007,199,254,740,993 bytes, over the limit of 16,777,216");
  // At 2^53 and below the double is exact, and no digits are kept.
  bytes = good;
  put_u64(bytes, 24, std::uint64_t{1} << 53);
  e = error_of(bytes, size);
  CHECK(e.typed.empty());
  CHECK(text::describe(e) == "GGUF file, byte 24: a string of 9,007,199,254,740,992 bytes, over the limit of 16,777,216");

  bytes = good;
  const std::size_t at = type_offset(bytes, "token_embd.weight", 2);
  put_u32(bytes, at, 31);  // Q4_0_4_4, removed from ggml
  e = error_of(bytes, size);
  CHECK(e.code == ErrorCode::unknown_type);
  CHECK(e.field == Field::ggml_type);
  CHECK(e.index == static_cast<std::int64_t>(at));
  CHECK(e.token == "token_embd.weight");
  CHECK(text::describe(e) == "GGUF file, byte " + text::grouped(static_cast<double>(at)) +
                                 ": tensor 'token_embd.weight' has ggml type 31, which this reader does not know");

  // A tensor named twice (layer 1's query weight renamed to layer 0's): its bytes would count twice.
  bytes = good;
  const std::size_t second = bytes.find("blk.1.attn_q.weight");
  REQUIRE(second != std::string::npos);
  bytes[second + 4] = '0';
  e = error_of(bytes, size);
  CHECK(e.code == ErrorCode::duplicate_tensor);
  CHECK(e.index == static_cast<std::int64_t>(second - 8));  // the name's length comes first
  CHECK(e.token == "blk.0.attn_q.weight");
  CHECK(text::describe(e) == "GGUF file, byte " + text::grouped(static_cast<double>(second - 8)) +
                                 ": tensor 'blk.0.attn_q.weight' appears a second time in the tensor table (its "
                                 "bytes would count twice)");

  // A layer number past any integer type (or past 10^9, where the reader
  // stopped counting) is a layer past block_count, never a tensor of no
  // layer whose bytes are counted nowhere.
  bytes = good;
  const std::size_t output = bytes.find("blk.1.attn_output.weight");
  REQUIRE(output != std::string::npos);
  bytes.replace(output, 24, "blk.999999999999999999.x");
  e = error_of(bytes, size);
  CHECK(e.code == ErrorCode::bad_tensor);
  CHECK(e.value == 1e18);
  CHECK(e.token == "blk.999999999999999999.x");
  CHECK(text::describe(e).find("is in layer 1,000,000,000,000,000,000, but block_count says 2") != std::string::npos);

  // A key given twice (tokenizer.ggml.model renamed general.architecture, "gpt2"
  // after "llama"): the last one was read, so the model's architecture was
  // gpt2, and a block_count given twice planned the second; ggml refuses it.
  bytes = good;
  const std::size_t renamed = bytes.find("tokenizer.ggml.model");
  REQUIRE(renamed != std::string::npos);
  REQUIRE(std::string("tokenizer.ggml.model").size() == std::string("general.architecture").size());
  bytes.replace(renamed, 20, "general.architecture");
  e = error_of(bytes, size);
  CHECK(e.code == ErrorCode::duplicate_key);
  CHECK(e.field == Field::gguf);
  CHECK(e.index == static_cast<std::int64_t>(renamed - 8));  // the key's length comes first
  CHECK(e.token == "general.architecture");
  CHECK(text::describe(e) == "GGUF file, byte " + text::grouped(static_cast<double>(renamed - 8)) +
                                 ": key 'general.architecture' appears a second time in the metadata (which of its "
                                 "values holds is not defined, and ggml refuses such a file)");

  // A fact's key of another type (a float32 block_count, or head_count_kv):
  // block_count was said to be missing, and head_count_kv fell back to n_head
  // (no grouped-query attention, its KV cache overstated) with no error.
  for (const std::string key : {"llama.block_count", "llama.attention.head_count_kv"}) {
    CAPTURE(key);
    bytes = good;
    const std::size_t type_at = bytes.find(key) + key.size();
    put_u32(bytes, type_at, 6);  // FLOAT32, as wide as the uint32 it was
    e = error_of(bytes, size);
    CHECK(e.code == ErrorCode::wrong_type);
    CHECK(e.field == Field::value_type);
    CHECK(e.index == static_cast<std::int64_t>(type_at));
    CHECK(e.value == 6);
    CHECK(e.token == key);
    CHECK(text::describe(e) == "GGUF file, byte " + text::grouped(static_cast<double>(type_at)) + ": key '" + key +
                                   "' has value type 6, but it must be a whole number");
  }
  // An empty string where the number should be: four more bytes, taken from the zeros at the file's end.
  bytes = good;
  const std::string blocks = "llama.block_count";
  const std::size_t blocks_type_at = bytes.find(blocks) + blocks.size();
  put_u32(bytes, blocks_type_at, 8);  // STRING
  bytes.insert(blocks_type_at + 8, 4, '\0');
  put_u64(bytes, blocks_type_at + 4, 0);
  bytes.resize(good.size());
  e = error_of(bytes, size);
  CHECK(e.code == ErrorCode::wrong_type);
  CHECK(e.index == static_cast<std::int64_t>(blocks_type_at));
  CHECK(e.value == 8);

  // ggml's spec: a tensor's data offset is a multiple of general.alignment (32 here, the file gives none).
  bytes = good;
  const std::size_t offset_at = type_offset(bytes, "token_embd.weight", 2) + 4;
  std::uint64_t embd_offset = 0;
  for (int k = 7; k >= 0; --k) embd_offset = embd_offset << 8 | static_cast<unsigned char>(bytes[offset_at + k]);
  REQUIRE(embd_offset % 32 == 0);
  put_u64(bytes, offset_at, embd_offset + 8);
  e = error_of(bytes, size);
  CHECK(e.code == ErrorCode::unaligned_tensor);
  CHECK(e.field == Field::gguf);
  CHECK(e.index == static_cast<std::int64_t>(offset_at));
  CHECK(e.value == static_cast<double>(embd_offset + 8));
  CHECK(e.limit == 32);
  CHECK(e.token == "token_embd.weight");
  CHECK(text::describe(e) == "GGUF file, byte " + text::grouped(static_cast<double>(offset_at)) +
                                 ": tensor 'token_embd.weight''s data offset, " +
                                 text::grouped(static_cast<double>(embd_offset + 8)) +
                                 ", is no multiple of the alignment, 32");

  // Two tensors' data at one offset: the one later in the table starts inside the other's.
  bytes = good;
  const std::size_t q_offset_at = type_offset(bytes, "blk.0.attn_q.weight", 2) + 4;
  put_u64(bytes, q_offset_at, embd_offset);
  e = error_of(bytes, size);
  CHECK(e.code == ErrorCode::overlapping_tensors);
  const bool q_later = q_offset_at > offset_at;
  CHECK(e.index == static_cast<std::int64_t>(q_later ? q_offset_at : offset_at));
  CHECK(e.token == (q_later ? "blk.0.attn_q.weight" : "token_embd.weight"));
  CHECK(e.value == static_cast<double>(embd_offset));
  CHECK(e.limit > static_cast<double>(embd_offset));
  CHECK(text::describe(e).find("inside another tensor's data, which ends at ") != std::string::npos);

  // The header cut short, and the data region one byte short of the last tensor's end.
  e = error_of(good.substr(0, 100), 100);
  CHECK(e.code == ErrorCode::truncated);
  CHECK(e.limit == 100);
  CHECK(e.index <= 100);
  e = error_of(good, size - 1);
  CHECK(e.code == ErrorCode::truncated);
  CHECK(e.token == "output.weight");
  CHECK(e.value == size);
}

TEST_CASE("gguf: general.alignment that is no nonzero power of two is refused at its value, as ggml refuses it") {
  const std::string good = fixture("mixed_tied.gguf");  // gives general.alignment = 64 as a uint32
  const auto size = static_cast<double>(good.size());
  const std::size_t key_at = good.find("general.alignment");
  REQUIRE(key_at != std::string::npos);
  const std::size_t type_at = key_at + std::string("general.alignment").size();
  const std::size_t value_at = type_at + 4;
  for (std::uint32_t bad : {0u, 48u, 3u}) {
    std::string bytes = good;
    put_u32(bytes, value_at, bad);
    const Error e = error_of(bytes, size);
    CHECK(e.code == ErrorCode::bad_alignment);
    CHECK(e.field == Field::gguf);
    CHECK(e.index == static_cast<std::int64_t>(value_at));
    CHECK(e.value == bad);
    CHECK(e.token == "general.alignment");
    CHECK(text::describe(e) == "GGUF file, byte " + text::grouped(static_cast<double>(value_at)) +
                                   ": key 'general.alignment', " + std::to_string(bad) +
                                   ", is no alignment: GGUF requires a nonzero power of two");
  }
  // An int32 of -64: no power of two, quoted as the file gives it.
  std::string bytes = good;
  put_u32(bytes, type_at, 5);  // INT32
  put_u32(bytes, value_at, static_cast<std::uint32_t>(-64));
  Error e = error_of(bytes, size);
  CHECK(e.code == ErrorCode::bad_alignment);
  CHECK(e.value == -64);
  // A float32 is no whole number: refused at its type.
  bytes = good;
  put_u32(bytes, type_at, 6);  // FLOAT32
  e = error_of(bytes, size);
  CHECK(e.code == ErrorCode::bad_alignment);
  CHECK(e.field == Field::value_type);
  CHECK(e.index == static_cast<std::int64_t>(type_at));
  CHECK(e.value == 6);
  CHECK(text::describe(e) == "GGUF file, byte " + text::grouped(static_cast<double>(type_at)) +
                                 ": key 'general.alignment' has value type 6, but the alignment must be a whole number");
  // A power of two is read as the alignment: 32 (the tensors, at multiples of 64, are aligned to it too).
  bytes = good;
  put_u32(bytes, value_at, 32);
  const auto m = read_all(bytes, size);
  CHECK(m.ok());
  // A power of two past the file: the data region would start at 2^31, past the file's end.
  bytes = good;
  put_u32(bytes, value_at, 1u << 31);
  e = error_of(bytes, size);
  CHECK(e.code == ErrorCode::truncated);
  CHECK(e.value > 2147483648.0);
  CHECK(e.limit == size);
}

TEST_CASE("gguf: a fact the file gives below 0, or past int64 as a uint64, reaches the checks, never read as 0") {
  // An int32 head_count_kv of -4 was read as 0: no KV cache, so a plan left
  // its memory out (the dense model's at context 4,096: 2,286,848 bytes were
  // 189,696) with no error; an int32 context_length of -5 showed as 0.
  const std::string good = fixture("dense.gguf");
  const auto size = static_cast<double>(good.size());
  struct Case {
    const char* key;
    Field field;
  };
  for (const Case& c : {Case{"llama.attention.head_count_kv", Field::n_head_kv},
                        Case{"llama.context_length", Field::context_length},
                        Case{"llama.embedding_length", Field::n_embd},
                        Case{"llama.feed_forward_length", Field::feed_forward_length}}) {
    CAPTURE(c.key);
    const std::size_t key_at = good.find(c.key);
    REQUIRE(key_at != std::string::npos);
    const std::size_t type_at = key_at + std::string(c.key).size();
    std::string bytes = good;
    put_u32(bytes, type_at, 5);  // INT32
    put_u32(bytes, type_at + 4, static_cast<std::uint32_t>(-4));
    auto m = read_all(bytes, size);
    REQUIRE(m.ok());
    EstimateInput in;
    in.model_info = m.value();
    in.devices = {DeviceChoice{"rtx-4090", {}, {}, {}, {}, {}, {}}};
    in.context = 4096;
    const Error e = estimate(in).error();
    CHECK(e.code == ErrorCode::negative);
    CHECK(e.field == c.field);
    CHECK(e.value == -4);
    CHECK(text::describe(e) == std::string(field_name(c.field)) + ": must be >= 0 (got -4)");
  }
  // A uint64 past int64's range: too large, never negative or 0.
  const std::string key = "llama.context_length";
  const std::size_t type_at = good.find(key) + key.size();
  std::string bytes = good;
  put_u32(bytes, type_at, 10);  // UINT64: four more bytes, taken from the zeros at the file's end
  bytes.insert(type_at + 8, 4, '\0');
  put_u64(bytes, type_at + 4, ~std::uint64_t{0});
  bytes.resize(good.size());
  // It is refused as the checks refuse a count past 2^53, quoted as stored
  // (it was held as int64's largest and quoted as 9223372036854775808).
  Error e = error_of(bytes, size);
  CHECK(e.code == ErrorCode::too_large);
  CHECK(e.field == Field::context_length);
  CHECK(e.limit == limits::kMaxModelCount);
  CHECK(text::describe(e) == "context_length: must be at most 2^53 (got 18446744073709551615)");
  put_u64(bytes, type_at + 4, (std::uint64_t{1} << 63) + 1);
  CHECK(text::describe(error_of(bytes, size)) == "context_length: must be at most 2^53 (got 9223372036854775809)");
  // Past 2^53 within int64, refused and quoted exactly too (2^53 + 1 converted to the double 2^53 and passed).
  put_u64(bytes, type_at + 4, (std::uint64_t{1} << 53) + 1);
  auto m = read_all(bytes, size);
  REQUIRE_MESSAGE(m.ok(), text::describe(m.error()));
  CHECK(m.value().context_length == (std::int64_t{1} << 53) + 1);
  EstimateInput in;
  in.model_info = m.value();
  in.devices = {DeviceChoice{"rtx-4090", {}, {}, {}, {}, {}, {}}};
  e = estimate(in).error();
  CHECK(e.code == ErrorCode::too_large);
  CHECK(e.field == Field::context_length);
  CHECK(text::describe(e) == "context_length: must be at most 2^53 (got 9007199254740993)");
  // block_count likewise: past its range, not "got -1".
  const std::string blocks = "llama.block_count";
  const std::size_t blocks_type_at = good.find(blocks) + blocks.size();
  bytes = good;
  put_u32(bytes, blocks_type_at, 10);
  bytes.insert(blocks_type_at + 8, 4, '\0');
  put_u64(bytes, blocks_type_at + 4, ~std::uint64_t{0});
  bytes.resize(good.size());
  e = error_of(bytes, size);
  CHECK(e.code == ErrorCode::out_of_range);
  CHECK(e.value > 4096);
  CHECK(e.typed == "18446744073709551615");
  CHECK(text::describe(e).find("'llama.block_count' must be between 1 and 4,096 (got 18446744073709551615)") !=
        std::string::npos);
}

TEST_CASE("gguf: a name or architecture that is not UTF-8 is kept as UTF-8, each bad sequence U+FFFD, as a browser decodes it") {
  // general.name "D\xff\xed\xa0\x80\xc0\xe2\x82A\xf0" was kept as those bytes: the CLI's model --json
  // aborted (nlohmann's type_error 316, uncaught), its table printed them, Python gave lone surrogates
  // and the module U+FFFD. Now every interface has the WHATWG decoder's text (TextDecoder's).
  std::string bytes = fixture("dense.gguf");
  const std::size_t at = bytes.find("Dense Test");
  REQUIRE(at != std::string::npos);
  bytes.replace(at, 10, std::string("D\xff\xed\xa0\x80\xc0\xe2\x82" "A\xf0", 10));
  auto m = read_all(bytes, static_cast<double>(bytes.size()));
  REQUIRE(m.ok());
  const std::string fffd = "\xEF\xBF\xBD";
  CHECK(m.value().name == "D" + fffd + fffd + fffd + fffd + fffd + fffd + "A" + fffd);
  // Valid UTF-8 (a CJK name, 4-byte characters) is kept as it is.
  bytes = fixture("dense.gguf");
  bytes.replace(at, 10, std::string("\xE6\xB5\x8B\xE8\xAF\x95\xF0\x9F\x98\x80", 10));
  m = read_all(bytes, static_cast<double>(bytes.size()));
  REQUIRE(m.ok());
  CHECK(m.value().name == "\xE6\xB5\x8B\xE8\xAF\x95\xF0\x9F\x98\x80");
}

TEST_CASE("gguf: every cut and random damage gives the facts or a coded error, never a crash or a hang") {
  for (const char* name : {"dense.gguf", "moe.gguf", "gqa.gguf", "mixed_tied.gguf"}) {
    const std::string good = fixture(name);
    const auto size = static_cast<double>(good.size());
    // Every cut inside the header and table, the file ending there.
    std::size_t header = good.find("output.weight");
    if (header == std::string::npos) header = good.find("output_norm.weight");
    for (std::size_t n = 0; n < header + 64; ++n) {
      auto m = read_all(good.substr(0, n), static_cast<double>(n));
      CHECK_FALSE(m.ok());
    }
    std::mt19937_64 random(7);
    for (int k = 0; k < 300; ++k) {
      std::string bytes = good;
      for (int flips = 0; flips < 4; ++flips) {
        bytes[random() % header] = static_cast<char>(random() & 0xFF);
      }
      auto m = read_all(bytes, size);
      if (!m.ok()) continue;
      CHECK(std::isfinite(m.value().kv_bytes_per_token));
      for (double b : m.value().layer_bytes) CHECK(std::isfinite(b));
    }
  }
}

TEST_CASE("estimate: a catalog model as facts plans as the catalog's own estimate") {
  // Llama 3 8B exactly; Qwen3 30B-A3B (head size 128 over hidden 2048, 8 of 128 experts) to rounding,
  // for one token and for a prompt of 512, whose micro-batch reads most of the experts; Qwen2.5 72B, whose
  // down projections are in Q4_K's fallback (plan_estimate_test.cpp), to rounding.
  struct Case {
    const char* model;
    Phase phase;
    double tokens;
  };
  for (Case c : {Case{"llama-3-8b", Phase::decode, 1}, Case{"llama-3-8b", Phase::prefill, 512},
                 Case{"qwen3-30b-a3b", Phase::decode, 1}, Case{"qwen3-30b-a3b", Phase::decode, 4},
                 Case{"qwen3-30b-a3b", Phase::prefill, 512}, Case{"qwen2.5-72b", Phase::decode, 1}}) {
    CAPTURE(c.model);
    EstimateInput by_id;
    by_id.model = c.model;
    by_id.quant = "Q4_K_M";
    by_id.phase = c.phase;
    by_id.tokens = c.tokens;
    by_id.devices = {DeviceChoice{"rtx-4090", {}, {}, {}, {}, {}, {}}, DeviceChoice{"rtx-3090", {}, {}, {}, {}, {}, {}}};
    EstimateInput by_facts = by_id;
    by_facts.model_info = model_info_of(find_model(c.model).value(), find_quant("Q4_K_M").value());
    const PlanInput a = estimate(by_id).value(), b = estimate(by_facts).value();
    REQUIRE(a.layer_memory.size() == b.layer_memory.size());
    for (std::size_t l = 0; l < a.layer_memory.size(); ++l) {
      CHECK(a.layer_memory[l] == doctest::Approx(b.layer_memory[l]).epsilon(1e-12));
      for (std::size_t k = 0; k < 2; ++k) {
        CHECK(a.devices[k].layer_times[l] == doctest::Approx(b.devices[k].layer_times[l]).epsilon(1e-12));
      }
    }
    if (std::string(c.model) == "llama-3-8b" && c.phase == Phase::decode) {
      CHECK(a.layer_memory == b.layer_memory);
      CHECK(a.devices[0].layer_times == b.devices[0].layer_times);
    }
  }
}

TEST_CASE("estimate: a mixture of experts reads its active bytes in decode and holds all of them") {
  const ModelInfo m = facts("moe.gguf");
  EstimateInput in;
  in.model_info = m;
  in.context = 100;
  in.devices = {DeviceChoice{"rtx-4090", {}, {}, {}, {}, {}, {}}};
  const PlanInput plan = estimate(in).value();
  const GpuSpec gpu = find_gpu("rtx-4090", 0).value();
  const ClassEfficiency e = class_efficiency(gpu.device_class);
  const double kv = m.kv_bytes_per_token / 2;
  const double read = m.active_layer_bytes[0] + kv * 100;
  // Its weights are stored in fewer than 2 bytes each: the ones read are unpacked at the card's fp16 rate.
  REQUIRE(m.active_layer_bytes[0] < 2 * m.active_layer_params[0]);
  const double unpack = m.active_layer_params[0] * kDequantFlops / gpu.fp16_flops;
  CHECK(plan.devices[0].layer_times[0] ==
        doctest::Approx(read / (e.bandwidth * gpu.memory_bandwidth) + unpack + e.layer_overhead).epsilon(1e-12));
  CHECK(plan.layer_memory[0] == m.layer_bytes[0] + kv * 100 + m.embedding_bytes);
  CHECK(plan.layer_memory[1] == m.layer_bytes[1] + kv * 100 + m.output_bytes);
}

TEST_CASE("estimate: a mixture said to read no bytes unpacks no weights, and every time stays finite") {
  ModelInfo m = facts("moe.gguf");
  for (double& b : m.active_layer_bytes) b = 0;
  EstimateInput in;
  in.model_info = m;
  in.devices = {DeviceChoice{"rtx-4090", {}, {}, {}, {}, {}, {}}};
  const auto plan = estimate(in);
  REQUIRE(plan);
  for (double t : plan.value().devices[0].layer_times) CHECK(std::isfinite(t));
}

TEST_CASE("estimate: facts a model cannot have are refused by name") {
  ModelInfo m = facts("dense.gguf");
  m.layer_bytes.pop_back();
  EstimateInput in;
  in.model_info = m;
  in.devices = {DeviceChoice{"rtx-4090", {}, {}, {}, {}, {}, {}}};
  Error e = estimate(in).error();
  CHECK(e.code == ErrorCode::wrong_length);
  CHECK(e.field == Field::layer_bytes);
  CHECK(text::describe(e) == "layer_bytes: needs layers = 2 values, one per layer (got 1)");
  in.model_info = facts("dense.gguf");
  in.model_info->layers = 5000;
  CHECK(text::describe(estimate(in).error()) == "layers: must be between 1 and 4,096 (got 5000)");
  in.model_info = facts("dense.gguf");
  in.model_info->output_bytes = -1;
  CHECK(estimate(in).error().field == Field::output_bytes);
  // Facts that contradict each other, from a file as from a typed object: the fact and the other one.
  in.model_info = facts("moe.gguf");
  in.model_info->expert_used_count = 9;
  e = estimate(in).error();
  CHECK(e.code == ErrorCode::above_fact);
  CHECK(text::describe(e) == "expert_used_count: must be at most expert_count = 8 (got 9)");
  in.model_info->expert_used_count = 0;
  CHECK(text::describe(estimate(in).error()) == "expert_used_count: must be > 0 (got 0)");
  in.model_info = facts("gqa.gguf");
  in.model_info->n_head_kv = in.model_info->n_head + 1;
  CHECK(estimate(in).error().code == ErrorCode::above_fact);
  in.model_info->n_head_kv = 3;
  CHECK(estimate(in).error().code == ErrorCode::not_a_divisor);
  // block_count past the layers the tensors fill: the empty layer is named.
  in.model_info = facts("dense.gguf");
  in.model_info->layers = 3;
  for (auto* list : {&in.model_info->layer_bytes, &in.model_info->active_layer_bytes,
                     &in.model_info->active_layer_params}) {
    list->push_back(0);
  }
  CHECK(text::describe(estimate(in).error()) == "layer_bytes, layer 3: must be > 0 (got 0)");
  // Counts a file may hold up to 2^63: refused past 2^53, and their products never overflow.
  in.model_info = facts("dense.gguf");
  in.model_info->key_length = std::int64_t{1} << 62;
  e = estimate(in).error();
  CHECK(e.code == ErrorCode::too_large);
  CHECK(e.field == Field::key_length);
  in.model_info->key_length = std::int64_t{1} << 53;
  in.model_info->n_head = in.model_info->n_head_kv = std::int64_t{1} << 53;
  in.context = 1000;  // attention over 2^106 query dimensions: times past every limit, refused by name
  const auto huge = make_plan_report(PlanRequest{in});
  REQUIRE_FALSE(huge.ok());
  CHECK(huge.error().code == ErrorCode::too_large);
  CHECK(huge.error().field == Field::layer_times);
  in.context = 0;
  in.model_info.reset();
  in.gguf = "model.gguf";
  e = estimate(in).error();
  CHECK(e.code == ErrorCode::wrong_form);
  CHECK(e.field == Field::gguf);
}

// Files whose matrices llama.cpp's quantizer could not store in Q4_K (rows
// that are no whole number of its 256-weight blocks), written with the types
// it falls back to (tests/data/gguf/write_gguf.py): their bytes, read from the
// tensor table, are the catalog's arithmetic for a model of their shape in
// Q4_K. Where comparable: the files keep their norms in F32, which the catalog
// counts at the matrices' rate, and count output_norm.weight in output_bytes.
TEST_CASE("estimate: the catalog counts a matrix that cannot be stored in its format as the file does") {
  const QuantSpec q4_k{"Q4_K", "Q4_K", 144.0 / 256, "ggml-common.h block_q4_K: 144 bytes per 256 weights"};
  struct Case {
    const char* file;
    ModelSpec shape;
    double norm_rate;  // the catalog's bytes per weight of the norms, whose rows are n_embd long
  };
  // Qwen2.5 72B's down projections in small (rows of 384, as its 29,568), and gpt-oss's hidden size (288, as 2,880).
  for (const Case& c :
       {Case{"fallback_down.gguf", {"down", "Down", 2, 256, 384, 2, 1, 64, false, "test", 128}, 144.0 / 256},
        Case{"fallback_hidden.gguf", {"hidden", "Hidden", 1, 288, 256, 2, 1, 64, false, "test", 128}, 22.0 / 32}}) {
    CAPTURE(c.file);
    const ModelInfo file = facts(c.file);
    const ModelInfo catalog = model_info_of(c.shape, q4_k);
    const double h = static_cast<double>(c.shape.hidden);
    REQUIRE(file.layers == catalog.layers);
    for (std::size_t l = 0; l < file.layer_bytes.size(); ++l) {
      CHECK(file.layer_bytes[l] - 2 * h * 4 == catalog.layer_bytes[l] - 2 * h * c.norm_rate);
      CHECK(file.active_layer_params[l] == catalog.active_layer_params[l]);
    }
    CHECK(file.embedding_bytes == catalog.embedding_bytes);
    CHECK(file.output_bytes - h * 4 == catalog.output_bytes);
  }
  // What the fallback changed: Q5_0 (22 bytes per 32 weights) in place of Q4_K for the down projections of the
  // first, and for everything reading the residual stream of the second, whose LM head is Q8_0 (34 per 32).
  const ModelInfo down = facts("fallback_down.gguf");
  // Q and O 256 x 256, K and V 256 x 128, gate and up 256 x 384 in Q4_K; down 384 x 256 in Q5_0; two norms in F32.
  CHECK(down.layer_bytes[0] ==
        2 * 256 * 4 + (2 * 256.0 * 256 + 2 * 256.0 * 128 + 2 * 256.0 * 384) * 144 / 256 + 384.0 * 256 * 22 / 32);
  const ModelInfo hidden = facts("fallback_hidden.gguf");
  CHECK(hidden.output_bytes == 288.0 * 64 * 34 / 32 + 288 * 4);
}
