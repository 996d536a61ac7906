// A GGUF file's header and tensor table to a model's facts. The layout is
// ggml's docs/gguf.md (https://github.com/ggml-org/ggml/blob/master/docs/gguf.md):
// little-endian; strings are a uint64 length and that many bytes; a value is a
// uint32 type and its data (arrays: a uint32 item type, a uint64 count, the
// items); each tensor is its name, a uint32 count of dimensions, a uint64 per
// dimension, its uint32 ggml type and a uint64 offset into the data region,
// which starts at the table's end rounded up to general.alignment (32 unless
// the file says). Version 1 used 32-bit counts and lengths and is not read.
#include "heteropipe/plan/gguf.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <string>

#include "heteropipe/decimal.hpp"
#include "heteropipe/limits.hpp"
#include "../utf8.hpp"

namespace heteropipe {
namespace {

// The format's value types (docs/gguf.md, enum gguf_metadata_value_type).
enum ValueType : std::uint32_t {
  kU8 = 0, kI8 = 1, kU16 = 2, kI16 = 3, kU32 = 4, kI32 = 5, kF32 = 6, kBool = 7,
  kString = 8, kArray = 9, kU64 = 10, kI64 = 11, kF64 = 12,
};

std::int64_t scalar_size(std::uint32_t type) {
  switch (type) {
    case kU8: case kI8: case kBool: return 1;
    case kU16: case kI16: return 2;
    case kU32: case kI32: case kF32: return 4;
    case kU64: case kI64: case kF64: return 8;
    default: return 0;
  }
}

// ggml's GGUF_DEFAULT_ALIGNMENT: the alignment of a file without general.alignment.
constexpr std::uint64_t kDefaultAlignment = 32;

bool is_integer(std::uint32_t type) { return type != kF32 && type != kF64 && type != kBool && scalar_size(type) > 0; }

// What the facts need of the metadata: whole numbers (an array's, for the
// keys some architectures give per layer), strings, and array lengths.
struct Metadata {
  std::map<std::string, std::vector<std::int64_t>, std::less<>> integers;
  std::map<std::string, std::string, std::less<>> strings;
  std::map<std::string, double, std::less<>> array_lengths;
  // Each key's value type (an array's: its items' type) and where the type is
  // given, so that a fact of another type is refused there, not taken as absent.
  struct Type {
    std::uint32_t type = 0;
    std::size_t at = 0;
  };
  std::map<std::string, Type, std::less<>> types;
  // A uint64 value above int64's largest, which `integers` holds as that
  // largest: the value as stored (an array's largest), for its refusal to quote.
  std::map<std::string, std::uint64_t, std::less<>> past_int64;
  // general.alignment as the file gives it: where its
  // value starts, its type, and the value when it is one whole number.
  std::optional<std::size_t> alignment_at;
  std::uint32_t alignment_type = 0;
  double alignment = 0;           // for the refusal to quote
  std::uint64_t alignment_ok = 0;  // the value when it is a nonzero power of two, else 0
};

struct Tensor {
  std::string name;
  double elements = 0, bytes = 0;
  std::uint64_t offset = 0;   // of its data, from the data region's start
  std::size_t offset_at = 0;  // where the table gives that offset
};

// Ran out of bytes: where, and how far the reader must see to go on.
struct OutOfBytes {
  std::size_t at = 0, need = 0;
};

class Cursor {
 public:
  Cursor(std::string_view bytes, double file_size) : bytes_(bytes), file_size_(file_size) {}

  std::size_t offset() const { return at_; }
  std::optional<OutOfBytes> short_by;  // set once the prefix ends too soon; every read fails after it

  bool take(std::size_t n, const char*& out) {
    if (short_by) return false;
    if (bytes_.size() - at_ < n) {
      short_by = OutOfBytes{at_, at_ + n};
      return false;
    }
    out = bytes_.data() + at_;
    at_ += n;
    return true;
  }

  template <class T>
  bool number(T& out) {
    const char* p = nullptr;
    if (!take(sizeof(T), p)) return false;
    unsigned char raw[sizeof(T)];
    std::memcpy(raw, p, sizeof(T));
    std::uint64_t bits = 0;
    for (std::size_t k = sizeof(T); k-- > 0;) bits = (bits << 8) | raw[k];  // little-endian on every host
    if constexpr (sizeof(T) == 8) {
      std::memcpy(&out, &bits, 8);
    } else {
      const auto narrow = static_cast<std::uint32_t>(bits);
      if constexpr (sizeof(T) == 4) std::memcpy(&out, &narrow, 4);
      else {
        const auto small = static_cast<std::uint16_t>(narrow);
        if constexpr (sizeof(T) == 2) std::memcpy(&out, &small, 2);
        else std::memcpy(&out, raw, 1);
      }
    }
    return true;
  }

  double file_size() const { return file_size_; }
  std::string_view bytes() const { return bytes_; }

 private:
  std::string_view bytes_;
  double file_size_;
  std::size_t at_ = 0;
};

Error at(ErrorCode code, Field field, std::size_t offset, double value = 0, std::string token = {},
         double limit = 0) {
  return Error{code, field, static_cast<std::int64_t>(offset), value, std::move(token), limit};
}

// A count of the file (a uint64) over its limit: its value as a double, and
// past 2^53, where the double rounds it (2^64 - 1 reads as 2^64), its exact
// digits as typed, which the sentence shows.
Error over_limit(Field field, std::size_t offset, std::uint64_t count, std::string token, double limit) {
  Error e = at(ErrorCode::too_large, field, offset, static_cast<double>(count), std::move(token), limit);
  if (count > (std::uint64_t{1} << std::numeric_limits<double>::digits)) e.typed = std::to_string(count);
  return e;
}

// The reader over one prefix. Each read returns false when it stopped: on an
// error (error set) or at the prefix's end (cursor.short_by set).
class Reader {
 public:
  Reader(std::string_view bytes, double file_size) : c(bytes, file_size) {}

  Cursor c;
  std::optional<Error> error;
  Metadata meta;
  std::vector<Tensor> tensors;

  bool fail(Error e) {
    error = std::move(e);
    return false;
  }

  bool string(std::string& out, bool keep, const std::string& about) {
    const std::size_t start = c.offset();
    std::uint64_t n = 0;
    if (!c.number(n)) return false;
    if (static_cast<double>(n) > limits::kMaxGgufStringBytes) {
      return fail(over_limit(Field::string_length, start, n, about, limits::kMaxGgufStringBytes));
    }
    const char* p = nullptr;
    if (!c.take(static_cast<std::size_t>(n), p)) return false;
    if (keep) out.assign(p, static_cast<std::size_t>(n));
    return true;
  }

  // One value of `type` under `key`; its integers kept (all of an array's
  // when it holds at most kMaxPlanLayers), its string kept when short.
  bool value(std::uint32_t type, const std::string& key, std::size_t type_at, std::int64_t depth) {
    if (depth == 0 && type != kArray) meta.types[key] = {type, type_at};
    if (type == kString) {
      std::string s;
      if (!string(s, true, key)) return false;
      meta.strings[key] = std::move(s);
      return true;
    }
    if (type == kArray) {
      if (depth >= limits::kMaxGgufArrayDepth) {
        return fail(at(ErrorCode::too_large, Field::array_length, type_at, static_cast<double>(depth), key,
                       static_cast<double>(limits::kMaxGgufArrayDepth)));
      }
      const std::size_t item_type_at = c.offset();
      std::uint32_t item = 0;
      std::uint64_t n = 0;
      if (!c.number(item)) return false;
      if (item > kF64) return fail(at(ErrorCode::unknown_type, Field::value_type, item_type_at, item, key));
      if (depth == 0) meta.types[key] = {item, item_type_at};
      const std::size_t count_at = c.offset();
      if (!c.number(n)) return false;
      if (static_cast<double>(n) > limits::kMaxGgufArrayItems) {
        return fail(over_limit(Field::array_length, count_at, n, key, limits::kMaxGgufArrayItems));
      }
      meta.array_lengths[key] = static_cast<double>(n);
      const std::int64_t size = scalar_size(item);
      if (size > 0) {
        const char* p = nullptr;
        const std::size_t start = c.offset();
        if (!c.take(static_cast<std::size_t>(n) * static_cast<std::size_t>(size), p)) return false;
        // Booleans too: a per-layer flag list (attention.sliding_window_pattern), kept as 0 and 1.
        if ((is_integer(item) || item == kBool) &&
            static_cast<double>(n) <= static_cast<double>(limits::kMaxPlanLayers)) {
          Cursor items(std::string_view(p, static_cast<std::size_t>(n * static_cast<std::uint64_t>(size))), 0);
          std::vector<std::int64_t> values;
          for (std::uint64_t k = 0; k < n; ++k) values.push_back(integer(items, item));
          meta.integers[key] = std::move(values);
          if (item == kU64) {
            for (std::uint64_t k = 0; k < n; ++k) note_past_int64(key, std::string_view(p + k * 8, 8));
          }
        }
        (void)start;
        return true;
      }
      for (std::uint64_t k = 0; k < n; ++k) {
        if (item == kString) {
          std::string ignored;
          if (!string(ignored, false, key)) return false;
        } else if (!value(item, key, item_type_at, depth + 1)) {
          return false;
        }
      }
      return true;
    }
    const std::int64_t size = scalar_size(type);
    if (size == 0) return fail(at(ErrorCode::unknown_type, Field::value_type, type_at, type, key));
    const char* p = nullptr;
    if (!c.take(static_cast<std::size_t>(size), p)) return false;
    if (is_integer(type)) {
      Cursor one(std::string_view(p, static_cast<std::size_t>(size)), 0);
      meta.integers[key] = {integer(one, type)};
      if (type == kU64) note_past_int64(key, std::string_view(p, static_cast<std::size_t>(size)));
    }
    return true;
  }

  // Keeps a uint64 (its 8 bytes) that int64 cannot hold, the largest of the key's.
  void note_past_int64(const std::string& key, std::string_view bytes) {
    Cursor raw(bytes, 0);
    std::uint64_t v = 0;
    raw.number(v);
    if (v <= static_cast<std::uint64_t>(INT64_MAX)) return;
    auto [it, added] = meta.past_int64.emplace(key, v);
    if (!added) it->second = std::max(it->second, v);
  }

  // A whole number of an integer type, read from `from` (which holds it);
  // a uint64 past int64's range is kept as int64's largest, which no fact
  // accepts (each is refused past 2^53 as too large, never read as below 0).
  static std::int64_t integer(Cursor& from, std::uint32_t type) {
    switch (type) {
      case kU8: { std::uint8_t v = 0; from.number(v); return v; }
      case kBool: { std::uint8_t v = 0; from.number(v); return v != 0 ? 1 : 0; }
      case kI8: { std::int8_t v = 0; from.number(v); return v; }
      case kU16: { std::uint16_t v = 0; from.number(v); return v; }
      case kI16: { std::int16_t v = 0; from.number(v); return v; }
      case kU32: { std::uint32_t v = 0; from.number(v); return v; }
      case kI32: { std::int32_t v = 0; from.number(v); return v; }
      case kU64: {
        std::uint64_t v = 0;
        from.number(v);
        return v > static_cast<std::uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(v);
      }
      default: { std::int64_t v = 0; from.number(v); return v; }
    }
  }

  bool header(std::uint64_t& tensor_count, std::uint64_t& key_count) {
    const char* magic = nullptr;
    if (!c.take(4, magic)) return false;
    if (std::memcmp(magic, "GGUF", 4) != 0) return fail(at(ErrorCode::not_gguf, Field::gguf, 0));
    std::uint32_t version = 0;
    if (!c.number(version)) return false;
    if (version != 2 && version != 3) return fail(at(ErrorCode::unsupported_version, Field::gguf, 4, version));
    if (!c.number(tensor_count)) return false;
    if (static_cast<double>(tensor_count) > limits::kMaxGgufTensors) {
      return fail(over_limit(Field::tensor_count, 8, tensor_count, {}, limits::kMaxGgufTensors));
    }
    if (!c.number(key_count)) return false;
    if (static_cast<double>(key_count) > limits::kMaxGgufKeys) {
      return fail(over_limit(Field::key_count, 16, key_count, {}, limits::kMaxGgufKeys));
    }
    return true;
  }

  bool metadata(std::uint64_t key_count) {
    // A key given twice has no defined value (the reader kept the last one,
    // ggml's gguf reader refuses the file): refused at the second.
    std::set<std::string, std::less<>> keys;
    for (std::uint64_t k = 0; k < key_count; ++k) {
      std::string key;
      const std::size_t key_at = c.offset();
      if (!string(key, true, {})) return false;
      if (!keys.insert(key).second) return fail(at(ErrorCode::duplicate_key, Field::gguf, key_at, 0, key));
      const std::size_t type_at = c.offset();
      std::uint32_t type = 0;
      if (!c.number(type)) return false;
      const std::size_t value_at = c.offset();
      if (!value(type, key, type_at, 0)) return false;
      if (key == "general.alignment") alignment(type, type_at, value_at);
    }
    return true;
  }

  // Kept exactly (a uint64 past int64's range too, which integer() would
  // make -1), so the refusal quotes what the file holds.
  void alignment(std::uint32_t type, std::size_t type_at, std::size_t value_at) {
    meta.alignment_type = type;
    meta.alignment_at = is_integer(type) ? value_at : type_at;
    if (!is_integer(type)) return;
    Cursor raw(c.bytes().substr(value_at), 0);
    std::uint64_t v = 0;
    if (type == kU64) {
      raw.number(v);
      meta.alignment = static_cast<double>(v);
    } else {
      const std::int64_t signed_v = integer(raw, type);
      meta.alignment = static_cast<double>(signed_v);
      v = signed_v > 0 ? static_cast<std::uint64_t>(signed_v) : 0;
    }
    meta.alignment_ok = v != 0 && (v & (v - 1)) == 0 ? v : 0;
  }

  bool tensor_table(std::uint64_t tensor_count) {
    tensors.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(tensor_count, 4096)));
    std::set<std::string> names;  // a name given twice would count its bytes twice
    for (std::uint64_t k = 0; k < tensor_count; ++k) {
      Tensor t;
      const std::size_t name_at = c.offset();
      if (!string(t.name, true, {})) return false;
      if (!names.insert(t.name).second) return fail(at(ErrorCode::duplicate_tensor, Field::gguf, name_at, 0, t.name));
      const std::size_t dims_at = c.offset();
      std::uint32_t n_dims = 0;
      if (!c.number(n_dims)) return false;
      if (n_dims > limits::kMaxGgufDims) {
        return fail(at(ErrorCode::too_large, Field::n_dims, dims_at, n_dims, t.name, limits::kMaxGgufDims));
      }
      double elements = 1;
      std::uint64_t first = 1;
      for (std::uint32_t d = 0; d < n_dims; ++d) {
        std::uint64_t n = 0;
        if (!c.number(n)) return false;
        if (d == 0) first = n;
        elements *= static_cast<double>(n);
      }
      const std::size_t type_at = c.offset();
      std::uint32_t type_id = 0;
      if (!c.number(type_id)) return false;
      const auto type = ggml_type(type_id);
      if (!type) return fail(at(ErrorCode::unknown_type, Field::ggml_type, type_at, type_id, t.name));
      t.offset_at = c.offset();
      if (!c.number(t.offset)) return false;
      const auto block = static_cast<std::uint64_t>(type->block_size);
      if (first % block != 0) {
        return fail(at(ErrorCode::bad_tensor, Field::dims, dims_at + 4, static_cast<double>(first), t.name,
                       static_cast<double>(block)));
      }
      // Exact while a tensor stays below 2^53 bytes: any file that fits a disk.
      t.elements = elements;
      t.bytes = elements / static_cast<double>(block) * static_cast<double>(type->type_size);
      // The data must lie inside the file: a cut-short download is said here.
      data_ends.push_back(static_cast<double>(t.offset) + t.bytes);
      tensors.push_back(std::move(t));
    }
    return true;
  }

  std::vector<double> data_ends;
};

// The number under key, if it is whole (the largest of an array's, for keys
// given per layer; its smallest when that is below 0). A value below 0 is
// kept as the file gives it, so that check_model_info refuses it by name:
// read as 0 it said "not given", and a negative head_count_kv planned with
// no KV cache at all.
std::optional<std::int64_t> whole(const Metadata& meta, const std::string& key) {
  auto it = meta.integers.find(key);
  if (it == meta.integers.end() || it->second.empty()) return std::nullopt;
  const auto [least, most] = std::minmax_element(it->second.begin(), it->second.end());
  return *least < 0 ? *least : *most;
}

// Per layer: the array's value, or the one value for all.
std::vector<std::int64_t> per_layer(const Metadata& meta, const std::string& key, std::int64_t layers,
                                    std::int64_t fallback) {
  std::vector<std::int64_t> out(static_cast<std::size_t>(layers), fallback);
  auto it = meta.integers.find(key);
  if (it == meta.integers.end() || it->second.empty()) return out;
  for (std::size_t l = 0; l < out.size(); ++l) out[l] = it->second[std::min(l, it->second.size() - 1)];
  return out;
}

// blk.N.<rest>: N, or -1 for a tensor of no layer. N is read as the nearest
// double, so that a number past any integer type is still a layer, refused
// by its count, never a tensor of no layer whose bytes count nowhere.
double layer_of(std::string_view name) {
  constexpr std::string_view prefix = "blk.";
  if (name.substr(0, prefix.size()) != prefix) return -1;
  std::size_t k = prefix.size();
  while (k < name.size() && name[k] >= '0' && name[k] <= '9') ++k;
  if (k == prefix.size() || k >= name.size() || name[k] != '.') return -1;
  return decimal_value(name.substr(prefix.size(), k - prefix.size()));
}

bool contains(std::string_view name, std::string_view part) { return name.find(part) != std::string_view::npos; }

// The architectures whose every layer llama.cpp runs as a recurrent one,
// with no KV cache (llm_arch_is_recurrent, src/llama-arch.cpp).
bool all_recurrent(std::string_view arch) {
  for (std::string_view a : {"mamba", "mamba2", "rwkv6", "rwkv6qwen2", "rwkv7", "arwkv7"}) {
    if (arch == a) return true;
  }
  return false;
}

// Every how many layers a gated delta net hybrid (Qwen3-Next, Qwen3.5)
// attends, the rest recurrent: the file's full_attention_interval, or the 4
// llama.cpp took for qwen3next before the key was written; none for 0, which
// llama.cpp would divide by. One rule for the cache and for the state.
std::optional<std::size_t> full_attention_interval(const Metadata& meta, const std::string& arch) {
  const auto given = whole(meta, arch + ".full_attention_interval");
  if (given && *given > 0) return static_cast<std::size_t>(*given);
  if (arch == "qwen3next") return 4;
  return std::nullopt;
}

// Per layer, whether the layer attends and whether llama.cpp keeps a KV cache
// for it (llama-model.cpp's load_hparams and llama_hparams::has_kv,
// ggml-org/llama.cpp at 00342301d01add50835550e8a916f12097d94517;
// llama-hparams.cpp at 01b77b5793989e0a1508a2fe3757d4e743a7bbd1). A layer
// given 0 KV heads (the hybrids' per-layer attention.head_count_kv) does
// neither, through its heads.
struct AttentionLayers {
  std::vector<bool> attends, keeps;
};

AttentionLayers attention_layers_of(const Metadata& meta, const std::string& arch, std::int64_t layers) {
  const std::string a = arch + ".";
  const auto L = static_cast<std::size_t>(layers);
  AttentionLayers out{std::vector<bool>(L, !all_recurrent(arch)), {}};
  const auto given = [&](const std::string& key) { return whole(meta, a + key); };
  if (const auto interval = full_attention_interval(meta, arch)) {
    for (std::size_t l = 0; l < L; ++l) out.attends[l] = out.attends[l] && (l + 1) % *interval == 0;
  }
  // Layers past the first n_layer_kv_from_start keep no cache of their own.
  // Gemma 3n's after the first 20 (or block_count - attention.shared_kv_layers
  // where given) still attend, reading an earlier layer's cache (the graph's
  // "reuse KV cache of earlier layers"); the multi-token-prediction layers
  // (nextn_predict_layers) are not run by decode at all.
  std::optional<std::int64_t> from_start;
  std::int64_t runs = layers;
  if (arch == "gemma3n") from_start = 20;
  if (auto shared = given("attention.shared_kv_layers"); shared && *shared > 0) from_start = layers - *shared;
  if (auto nextn = given("nextn_predict_layers"); nextn && *nextn > 0) from_start = runs = layers - *nextn;
  out.keeps = out.attends;
  for (std::size_t l = 0; l < L; ++l) {
    const auto j = static_cast<std::int64_t>(l);
    out.attends[l] = out.attends[l] && j < runs;
    out.keeps[l] = out.attends[l] && (!from_start || j < *from_start);
  }
  return out;
}

// The state llama.cpp holds per sequence for the recurrent layers, F32
// (llama_hparams::n_embd_r and n_embd_s at the commit above, and which layers
// load_hparams marks recurrent): RWKV token_shift_count x n_embd and n_embd x
// wkv.head_size; LFM2's short convolution n_embd x (shortconv.l_cache - 1);
// an SSM or gated delta net (ssm.conv_kernel - 1) x (ssm.inner_size + 2 x
// ssm.group_count x ssm.state_size) and ssm.state_size x ssm.inner_size.
// Recurrent: every layer of Mamba, RWKV and Falcon-H1 (whose layers attend
// too); the layers a full_attention_interval skips; and in the other hybrids
// (Jamba, Granite 4 hybrid, PLaMo 2, LFM2) a layer given 0 KV heads, in
// Nemotron-H one given 0 KV heads and feed_forward_length 0 (else an MLP).
// Sets m.recurrent_layers (all 0 where there is no state) and returns the bytes.
double recurrent_state(const Metadata& meta, const std::string& arch, ModelInfo& m,
                       const std::vector<std::int64_t>& kv_heads) {
  const std::string a = arch + ".";
  const auto given = [&](const std::string& key) { return static_cast<double>(std::max<std::int64_t>(0, whole(meta, a + key).value_or(0))); };
  const auto n_embd = static_cast<double>(std::max<std::int64_t>(0, m.n_embd));
  double r = 0, s = 0;
  if (given("wkv.head_size") > 0) {
    const double shifts = whole(meta, a + "token_shift_count") ? given("token_shift_count") : 2;
    r = shifts * n_embd;
    s = n_embd * given("wkv.head_size");
  } else if (given("shortconv.l_cache") > 0) {
    r = n_embd * (given("shortconv.l_cache") - 1);
  } else {
    const double conv = given("ssm.conv_kernel"), inner = given("ssm.inner_size"), state = given("ssm.state_size");
    r = (conv > 0 ? conv - 1 : 0) * (inner + 2 * given("ssm.group_count") * state);
    s = state * inner;
  }
  const auto L = static_cast<std::size_t>(m.layers);
  m.recurrent_layers.assign(L, 0.0);
  if (r + s <= 0) return 0;
  const auto ff = per_layer(meta, a + "feed_forward_length", m.layers, m.feed_forward_length);
  const auto interval = full_attention_interval(meta, arch);
  double layers = 0;
  // The multi-token-prediction layers at the end hold no state: decode does
  // not run them, and llama.cpp marks them not recurrent (Qwen3.5's
  // load_hparams: recurrent only below n_layer - nextn_predict_layers).
  const std::int64_t runs = m.layers - m.nextn_predict_layers;
  for (std::size_t l = 0; l < L; ++l) {
    bool recurrent = false;
    if (static_cast<std::int64_t>(l) >= runs) {
      recurrent = false;
    } else if (all_recurrent(arch) || arch == "falcon-h1") {
      recurrent = true;
    } else if (interval) {
      recurrent = (l + 1) % *interval != 0;
    } else if (arch == "nemotron_h") {
      recurrent = kv_heads[l] == 0 && ff[l] == 0;
    } else {
      recurrent = kv_heads[l] == 0;
    }
    if (recurrent) layers += 1;
    m.recurrent_layers[l] = recurrent ? 1.0 : 0.0;
  }
  return layers * (r + s) * 4;  // F32
}

// How llama.cpp applies a sliding window to an architecture (load_hparams,
// at the commit above): layer j slides where j % period < period - 1
// (llama_hparams::set_swa_pattern; period 0: every layer), or, dense_first,
// where j % period != 0; `window` is the size llama.cpp takes when the file
// gives none (0: the file's own), and `forced` one it takes over the file's.
// Some slide only where the file gives a window above 0 (if_window), or at
// one size (only_layers: the layer count; 0 any); llama4's attention is
// chunked unless the file gives a window of 0 (off_at_zero).
struct SlidingRule {
  std::string_view arch;
  std::int64_t period, window = 0, forced = 0;
  bool dense_first = false, if_window = false, off_at_zero = false;
  std::int64_t only_layers = 0;
};

constexpr SlidingRule kSlidingRules[] = {
    {"gemma2", 2, 4096},                               // every other layer, from the first
    {"gemma3", 6},                                     // five sliding layers, then a global one
    {"gemma3n", 5},
    {"cohere2", 4},
    {"olmo2", 4, 0, 0, false, true},
    {"gpt-oss", 2},
    {"gptoss", 2},                                     // the same model as Ollama names its files
    {"llama4", 4, 0, 8192, false, false, true},        // chunks of 8,192 positions
    {"exaone4", 4, 4096, 0, false, false, false, 64},  // the 32B model
    {"smallthinker", 4, 0, 4096, true, true},
};

bool slides(std::int64_t j, std::int64_t period, bool dense_first) {
  if (period == 0) return true;
  return dense_first ? j % period != 0 : j % period < period - 1;
}

// Per layer, 1 where the layer slides (and m.sliding_window set to the window
// llama.cpp applies), by the file's attention.sliding_window_pattern where it
// gives one (a period, or a flag per layer), else by the architecture's rule;
// an architecture llama.cpp gives no window to slides nowhere.
Result<std::vector<double>> sliding_layers(const Metadata& meta, const std::string& arch, ModelInfo& m) {
  const std::string a = arch + ".";
  const auto L = static_cast<std::size_t>(m.layers);
  const std::string pattern_key = a + "attention.sliding_window_pattern";
  const auto given_window = whole(meta, a + "attention.sliding_window");
  const SlidingRule* rule = nullptr;
  for (const SlidingRule& r : kSlidingRules) {
    if (r.arch == arch) rule = &r;
  }
  auto pattern = meta.integers.find(pattern_key);
  // An array of any length is a flag list, even one the reader kept no items
  // of (empty, or longer than any model's layers), to be refused by its length.
  const auto array_length = meta.array_lengths.find(pattern_key);
  const bool flag_list = array_length != meta.array_lengths.end();
  const bool has_pattern = flag_list || (pattern != meta.integers.end() && !pattern->second.empty());
  std::int64_t window = given_window.value_or(0);
  if (rule != nullptr) {
    const bool off = (rule->if_window && window <= 0) || (rule->only_layers > 0 && m.layers != rule->only_layers) ||
                     (rule->off_at_zero && given_window && *given_window == 0);
    if (off) return std::vector<double>(L, 0.0);
    if (!given_window && rule->window > 0) window = rule->window;
    if (rule->forced > 0) window = rule->forced;
  } else if (!has_pattern) {
    return std::vector<double>(L, 0.0);
  }
  m.sliding_window = window;
  if (window <= 0) return std::vector<double>(L, 0.0);
  std::vector<double> out(L, 0.0);
  if (flag_list) {
    // A flag per layer; llama.cpp refuses an array of another length than block_count.
    if (array_length->second != static_cast<double>(L)) {
      return Error{ErrorCode::wrong_length, Field::sliding_layers, kWholeField, array_length->second, {},
                   static_cast<double>(L)};
    }
    const auto& flags = pattern->second;  // L <= kMaxPlanLayers items, integers or booleans: kept
    for (std::size_t l = 0; l < L; ++l) out[l] = flags[l] != 0 ? 1.0 : 0.0;
    return out;
  }
  std::int64_t period = rule != nullptr ? rule->period : 0;
  const bool dense_first = rule != nullptr && rule->dense_first;
  if (has_pattern) period = pattern->second.front();
  if (period < 0) {
    return Error{ErrorCode::negative, Field::sliding_layers, kWholeField, static_cast<double>(period), {}};
  }
  for (std::size_t l = 0; l < L; ++l) out[l] = slides(static_cast<std::int64_t>(l), period, dense_first) ? 1.0 : 0.0;
  return out;
}

Result<ModelInfo> facts(const Reader& r, std::size_t table_end) {
  const Metadata& meta = r.meta;
  ModelInfo m;
  auto arch = meta.strings.find("general.architecture");
  if (arch == meta.strings.end()) {
    return at(ErrorCode::missing_field, Field::gguf, table_end, 0, "general.architecture");
  }
  // Keys are looked up by the file's own bytes; the facts shown are UTF-8.
  m.architecture = as_utf8(arch->second);
  if (auto name = meta.strings.find("general.name"); name != meta.strings.end()) m.name = as_utf8(name->second);
  const std::string a = arch->second + ".";
  // Each fact is a whole number (or an array of them, per layer), as
  // llama.cpp reads it: another type is refused where it is given.
  for (const char* fact : {"block_count", "embedding_length", "attention.head_count", "attention.head_count_kv",
                           "context_length", "expert_count", "expert_used_count", "attention.key_length",
                           "attention.value_length", "feed_forward_length", "attention.sliding_window",
                           "vocab_size", "attention.key_length_mla", "attention.value_length_mla",
                           "full_attention_interval", "attention.shared_kv_layers", "nextn_predict_layers",
                           "attention.sliding_window_pattern", "ssm.conv_kernel", "ssm.inner_size",
                           "ssm.state_size", "ssm.group_count", "wkv.head_size", "token_shift_count",
                           "shortconv.l_cache"}) {
    auto type = meta.types.find(a + fact);
    // The sliding pattern may also be a flag per layer.
    const bool flags = std::string_view(fact) == "attention.sliding_window_pattern" && type != meta.types.end() &&
                       type->second.type == kBool && meta.array_lengths.count(a + fact) > 0;
    if (type != meta.types.end() && !is_integer(type->second.type) && !flags) {
      return at(ErrorCode::wrong_type, Field::value_type, type->second.at, type->second.type, a + fact);
    }
  }
  // A count stored as a uint64 past int64's range, which the facts cannot
  // hold, is refused as the checks refuse one past 2^53, quoting the value as
  // stored (it was held as int64's largest, and quoted as 9223372036854775808).
  for (auto [fact, field] : {std::pair{"embedding_length", Field::n_embd},
                             std::pair{"attention.head_count", Field::n_head},
                             std::pair{"attention.head_count_kv", Field::n_head_kv},
                             std::pair{"context_length", Field::context_length},
                             std::pair{"expert_count", Field::expert_count},
                             std::pair{"expert_used_count", Field::expert_used_count},
                             std::pair{"attention.key_length", Field::key_length},
                             std::pair{"attention.value_length", Field::value_length},
                             std::pair{"feed_forward_length", Field::feed_forward_length},
                             std::pair{"attention.sliding_window", Field::sliding_window},
                             std::pair{"vocab_size", Field::vocab_size},
                             std::pair{"nextn_predict_layers", Field::nextn_predict_layers}}) {
    auto past = meta.past_int64.find(a + fact);
    if (past == meta.past_int64.end()) continue;
    return Error{ErrorCode::too_large, field, kWholeField, static_cast<double>(past->second),
                 std::to_string(past->second), limits::kMaxModelCount};
  }
  const auto layers = whole(meta, a + "block_count");
  if (!layers || *layers < 1 || static_cast<double>(*layers) > static_cast<double>(limits::kMaxPlanLayers)) {
    if (!layers) return at(ErrorCode::missing_field, Field::gguf, table_end, 0, a + "block_count");
    Error e = at(ErrorCode::out_of_range, Field::layers, table_end, static_cast<double>(*layers), a + "block_count",
                 static_cast<double>(limits::kMaxPlanLayers));
    // The value as stored, exactly (a double rounds a count past 2^53).
    auto past = meta.past_int64.find(a + "block_count");
    e.typed = past != meta.past_int64.end() ? std::to_string(past->second) : std::to_string(*layers);
    return e;
  }
  m.layers = *layers;
  const auto get = [&](const std::string& key) { return whole(meta, key).value_or(0); };
  m.n_embd = get(a + "embedding_length");
  m.n_head = get(a + "attention.head_count");
  m.n_head_kv = whole(meta, a + "attention.head_count_kv") ? get(a + "attention.head_count_kv") : m.n_head;
  m.context_length = get(a + "context_length");
  m.nextn_predict_layers = get(a + "nextn_predict_layers");
  m.expert_count = get(a + "expert_count");
  m.expert_used_count = get(a + "expert_used_count");
  const std::int64_t head = m.n_head > 0 ? m.n_embd / m.n_head : 0;
  m.key_length = whole(meta, a + "attention.key_length") ? get(a + "attention.key_length") : head;
  m.value_length = whole(meta, a + "attention.value_length") ? get(a + "attention.value_length") : head;
  m.feed_forward_length = get(a + "feed_forward_length");
  m.sliding_window = get(a + "attention.sliding_window");
  m.vocab_size = get(a + "vocab_size");
  if (m.vocab_size == 0) {
    if (auto tokens = meta.array_lengths.find("tokenizer.ggml.tokens"); tokens != meta.array_lengths.end()) {
      m.vocab_size = static_cast<std::int64_t>(tokens->second);
    }
  }

  const auto L = static_cast<std::size_t>(m.layers);
  m.layer_bytes.assign(L, 0);
  m.active_layer_bytes.assign(L, 0);
  m.active_layer_params.assign(L, 0);
  const double used = m.expert_count > 0 ? static_cast<double>(std::min(m.expert_used_count, m.expert_count)) /
                                               static_cast<double>(m.expert_count)
                                         : 1;
  double token_embd = 0, output = 0, output_norm = 0;
  bool has_output = false;
  for (const Tensor& t : r.tensors) {
    const double layer = layer_of(t.name);
    if (layer >= 0) {
      if (layer >= static_cast<double>(m.layers)) {
        return at(ErrorCode::bad_tensor, Field::layers, table_end, layer, t.name, static_cast<double>(m.layers));
      }
      const auto l = static_cast<std::size_t>(layer);
      const double share = contains(t.name, "_exps") ? used : 1;
      m.layer_bytes[l] += t.bytes;
      m.active_layer_bytes[l] += t.bytes * share;
      m.active_layer_params[l] += t.elements * share;
    } else if (t.name == "token_embd.weight") {
      token_embd = t.bytes;
    } else if (t.name == "output.weight") {
      output = t.bytes;
      has_output = true;
    } else if (t.name == "output_norm.weight") {
      output_norm = t.bytes;
    }
  }
  m.embedding_bytes = token_embd;
  m.output_bytes = (has_output ? output : token_embd) + output_norm;
  const auto kv_heads = per_layer(meta, a + "attention.head_count_kv", m.layers, m.n_head_kv);
  const AttentionLayers attention = attention_layers_of(meta, arch->second, m.layers);
  // Multi-head latent attention, as llama.cpp runs it once a file gives both
  // attention.key_length_mla and .value_length_mla (llama_hparams::is_mla):
  // the file's K head is then the compressed latent and the rope part
  // (kv_lora_rank + rope dimensions), which llama.cpp caches as K alone, with
  // no V cache (pull request #19067, "kv-cache : support V-less cache").
  const bool mla = get(a + "attention.key_length_mla") > 0 && get(a + "attention.value_length_mla") > 0;
  const double per_head = static_cast<double>(m.key_length) + (mla ? 0.0 : static_cast<double>(m.value_length));
  m.attention_layers.assign(L, 0.0);
  m.kv_layers.assign(L, 0.0);
  for (std::size_t l = 0; l < L; ++l) {
    if (!attention.attends[l] || kv_heads[l] <= 0) continue;
    m.attention_layers[l] = 1.0;
    if (!attention.keeps[l]) continue;
    m.kv_layers[l] = 1.0;
    // F16: 2 bytes per element. In doubles: a file's counts may be anything up to 2^63, and their int64 sum
    // would overflow.
    m.kv_bytes_per_token += 2.0 * static_cast<double>(kv_heads[l]) * per_head;
  }
  m.recurrent_bytes_per_sequence = recurrent_state(meta, arch->second, m, kv_heads);
  auto sliding = sliding_layers(meta, arch->second, m);
  if (!sliding) return sliding.error();
  m.sliding_layers = std::move(sliding).value();
  return m;
}

}  // namespace

Result<GgufStep> read_gguf(std::string_view prefix, double file_size) {
  file_size = std::max(file_size, static_cast<double>(prefix.size()));
  Reader r(prefix, file_size);
  std::uint64_t tensor_count = 0, key_count = 0;
  const bool whole_table = r.header(tensor_count, key_count) && r.metadata(key_count) && r.tensor_table(tensor_count);
  if (r.error) return *r.error;
  if (!whole_table) {
    const OutOfBytes short_by = *r.c.short_by;
    const auto need = static_cast<double>(short_by.need);
    if (need > file_size) {
      return at(ErrorCode::truncated, Field::gguf, short_by.at, need, {}, file_size);
    }
    if (need > limits::kMaxGgufHeaderBytes) {
      return at(ErrorCode::too_large, Field::header_bytes, short_by.at, need, {}, limits::kMaxGgufHeaderBytes);
    }
    // Ask for at least twice as much each time, so a header takes few reads.
    const double ask = std::min({file_size, limits::kMaxGgufHeaderBytes,
                                 std::max({need, 2.0 * static_cast<double>(prefix.size()), limits::kGgufFirstRead})});
    return GgufStep{std::nullopt, ask};
  }
  const std::size_t table_end = r.c.offset();
  // ggml's spec: general.alignment, when given, is a nonzero power of two
  // (ggml refuses any other); an integer of another width is read as given.
  std::uint64_t alignment = kDefaultAlignment;
  if (r.meta.alignment_at) {
    if (!is_integer(r.meta.alignment_type)) {
      return at(ErrorCode::bad_alignment, Field::value_type, *r.meta.alignment_at, r.meta.alignment_type,
                "general.alignment");
    }
    if (r.meta.alignment_ok == 0) {
      return at(ErrorCode::bad_alignment, Field::gguf, *r.meta.alignment_at, r.meta.alignment, "general.alignment");
    }
    alignment = r.meta.alignment_ok;
  }
  const double data_start = std::ceil(static_cast<double>(table_end) / static_cast<double>(alignment)) *
                            static_cast<double>(alignment);
  for (std::size_t k = 0; k < r.tensors.size(); ++k) {
    if (data_start + r.data_ends[k] > file_size) {
      return at(ErrorCode::truncated, Field::gguf, table_end, data_start + r.data_ends[k], r.tensors[k].name,
                file_size);
    }
  }
  // ggml's spec: each tensor's data starts at a multiple of the alignment and
  // no two tensors' data share a byte. The facts never read the data, but a
  // file breaking either is damaged or hand-made, and ggml refuses to load it.
  for (const Tensor& t : r.tensors) {
    if (t.offset % alignment != 0) {
      return at(ErrorCode::unaligned_tensor, Field::gguf, t.offset_at, static_cast<double>(t.offset), t.name,
                static_cast<double>(alignment));
    }
  }
  std::vector<std::size_t> by_offset(r.tensors.size());
  for (std::size_t k = 0; k < by_offset.size(); ++k) by_offset[k] = k;
  std::sort(by_offset.begin(), by_offset.end(), [&](std::size_t a, std::size_t b) {
    return r.tensors[a].offset != r.tensors[b].offset ? r.tensors[a].offset < r.tensors[b].offset : a < b;
  });
  // The furthest end of the data so far, so a tensor inside a large one's data is caught past smaller ones.
  double furthest_end = 0;
  for (std::size_t k : by_offset) {
    const Tensor& t = r.tensors[k];
    if (t.bytes > 0 && static_cast<double>(t.offset) < furthest_end) {
      return at(ErrorCode::overlapping_tensors, Field::gguf, t.offset_at, static_cast<double>(t.offset), t.name,
                furthest_end);
    }
    furthest_end = std::max(furthest_end, r.data_ends[k]);
  }
  auto model = facts(r, table_end);
  if (!model) return model.error();
  return GgufStep{std::move(model).value(), 0};
}

}  // namespace heteropipe
