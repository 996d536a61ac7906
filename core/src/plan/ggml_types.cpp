// ggml's tensor types: block size (elements) and type size (bytes per block).
// Ids are ggml's enum ggml_type (ggml/include/ggml.h); sizes are the block
// structs of ggml/src/ggml-common.h, as gguf-py lists them in
// GGML_QUANT_SIZES (https://github.com/ggml-org/llama.cpp/blob/master/
// gguf-py/gguf/constants.py). Ids 4, 5 and 31 to 38 were removed from ggml.
#include "heteropipe/plan/gguf.hpp"

#include <array>
#include <utility>

namespace heteropipe {
namespace {

constexpr std::int64_t QK_K = 256;  // the K-quants' and i-quants' super-block

constexpr std::array<GgmlType, 33> kTypes = {{
    {0, "F32", 1, 4},
    {1, "F16", 1, 2},
    {2, "Q4_0", 32, 2 + 16},
    {3, "Q4_1", 32, 2 + 2 + 16},
    {6, "Q5_0", 32, 2 + 4 + 16},
    {7, "Q5_1", 32, 2 + 2 + 4 + 16},
    {8, "Q8_0", 32, 2 + 32},
    {9, "Q8_1", 32, 4 + 32},
    {10, "Q2_K", QK_K, 2 + 2 + QK_K / 16 + QK_K / 4},
    {11, "Q3_K", QK_K, 2 + QK_K / 4 + QK_K / 8 + 12},
    {12, "Q4_K", QK_K, 2 + 2 + QK_K / 2 + 12},
    {13, "Q5_K", QK_K, 2 + 2 + QK_K / 2 + QK_K / 8 + 12},
    {14, "Q6_K", QK_K, 2 + QK_K / 16 + 3 * QK_K / 4},
    {15, "Q8_K", QK_K, 4 + QK_K + QK_K / 8},
    {16, "IQ2_XXS", QK_K, 2 + QK_K / 4},
    {17, "IQ2_XS", QK_K, 2 + QK_K / 4 + QK_K / 32},
    {18, "IQ3_XXS", QK_K, 2 + QK_K / 4 + QK_K / 8},
    {19, "IQ1_S", QK_K, 2 + QK_K / 8 + QK_K / 16},
    {20, "IQ4_NL", 32, 2 + 16},
    {21, "IQ3_S", QK_K, 2 + QK_K / 4 + QK_K / 8 + QK_K / 32 + 4},
    {22, "IQ2_S", QK_K, 2 + QK_K / 4 + QK_K / 16},
    {23, "IQ4_XS", QK_K, 2 + 2 + QK_K / 2 + QK_K / 64},
    {24, "I8", 1, 1},
    {25, "I16", 1, 2},
    {26, "I32", 1, 4},
    {27, "I64", 1, 8},
    {28, "F64", 1, 8},
    {29, "IQ1_M", QK_K, QK_K / 8 + QK_K / 16 + QK_K / 32},
    {30, "BF16", 1, 2},
    {34, "TQ1_0", QK_K, 2 + 4 * 13},
    {35, "TQ2_0", QK_K, 2 + 64},
    {39, "MXFP4", 32, 1 + 16},
    {40, "NVFP4", 64, 4 + 32},
}};

}  // namespace

std::optional<GgmlType> ggml_type(std::uint32_t id) {
  for (const GgmlType& t : kTypes) {
    if (t.id == id) return t;
  }
  return std::nullopt;
}

std::optional<GgmlType> ggml_type_named(std::string_view name) {
  for (const GgmlType& t : kTypes) {
    if (t.name == name) return t;
  }
  return std::nullopt;
}

// llama.cpp's tensor_type_fallback (src/llama-quant.cpp, ggml-org/llama.cpp
// at commit 007dbbf3fd17eefe9b47fee45f48f7ba5e62b714): a K-quant or i-quant
// needs rows of whole 256-weight super-blocks, and a matrix whose rows are
// not is quantized to the type this table names (each with 32-weight
// blocks). Types the table does not name (Q8_0, Q4_0, MXFP4, ...) have no
// fallback there: llama-quantize refuses such a matrix, and llama.cpp's
// converter (convert_hf_to_gguf.py) keeps it in F16, as does the quantizer
// where a fallback's blocks do not divide the row either.
GgmlType quantizer_row_type(const GgmlType& type, std::int64_t row) {
  if (row % type.block_size == 0) return type;
  constexpr std::pair<std::string_view, std::string_view> kFallback[] = {
      {"IQ1_S", "IQ4_NL"}, {"IQ1_M", "IQ4_NL"},   {"IQ2_XXS", "IQ4_NL"}, {"IQ2_XS", "IQ4_NL"},
      {"IQ2_S", "IQ4_NL"}, {"IQ3_XXS", "IQ4_NL"}, {"IQ3_S", "IQ4_NL"},   {"IQ4_XS", "IQ4_NL"},
      {"Q2_K", "Q4_0"},    {"Q3_K", "Q4_0"},      {"TQ1_0", "Q4_0"},     {"TQ2_0", "Q4_0"},
      {"Q4_K", "Q5_0"},    {"Q5_K", "Q5_1"},      {"Q6_K", "Q8_0"}};
  const GgmlType f16 = *ggml_type_named("F16");
  for (auto [from, to] : kFallback) {
    if (from != type.name) continue;
    const GgmlType fallback = *ggml_type_named(to);
    return row % fallback.block_size == 0 ? fallback : f16;
  }
  return f16;
}

}  // namespace heteropipe
