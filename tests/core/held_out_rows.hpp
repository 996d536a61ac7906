#pragma once

#include <vector>

// Published single-stream llama.cpp decode speeds that the estimator's
// constants were NOT fitted on (docs/planner.md#validation, "Held out"):
// each from a source other than the fit set's (tests/core/published_rows.hpp),
// for catalog ids only. `count` identical GPUs, layers split across them
// (-sm layer, the default since llama.cpp's ggml-backend integration).
// "llama 7B" in llama-bench is LLaMA 1/2 7B, the shape of `llama-2-7b`;
// "llama 8B" Llama 3 or 3.1 8B; "llama 70B" is taken as `llama-3-70b`
// (Llama 2 70B differs only in its vocabulary, 1.5 % of the bytes read).
// Each source says the era of the llama.cpp build it ran; the fit set's
// sources (tests/core/published_rows.hpp) say theirs. The era decides, as in
// the fit set, whether a CUDA build launched a token's kernels as one CUDA
// graph (llama.cpp pull request #6766, April 2024): a held-out row from a
// CUDA build before it is estimated as its build ran, with
// kPreGraphLayerCost on every layer (fit_estimate, published_rows.hpp),
// like the fit set's rows of that era. Metal, Vulkan and ROCm builds launch
// no CUDA kernels and are current builds for the estimate.
struct HeldOutRow {
  const char* source;  // a short name, cited in full in kHeldOutSources
  const char* model;
  const char* quant;
  const char* gpu;
  int count;
  double tokens_per_second;
};

struct HeldOutSource {
  const char* name;
  const char* era;  // when the llama.cpp build it ran was current
  bool cuda_graphs;  // false: a CUDA build from before pull request #6766
  const char* citation;
};

inline const std::vector<HeldOutSource> kHeldOutSources = {
  {"apple-scoreboard", "2023-26", true,
   "llama.cpp discussion #4167, \"Performance of llama.cpp on Apple Silicon M-series\" "
   "(https://github.com/ggml-org/llama.cpp/discussions/4167): llama 7B, tg128 (F16, Q8_0, Q4_0)"},
  {"gaessler-4766", "2024-01", false,
   "llama.cpp pull request #4766, \"llama : ggml-backend integration\", JohannesGaessler's table of "
   "RTX 3090, P40 and 3x P40 runs (https://github.com/ggml-org/llama.cpp/pull/4766): llama 7B, tg128, column t/s PR "
   "(the layer split); and the thread's first table of 1, 2 and 3 P40s on llama 7B Q4_0 (the runs issue 24 "
   "quotes)"},
  {"vulkan-21024", "2026-05", true,
   "llama.cpp pull request #21024, \"Vulkan Repack PoC\", 0cc4m's RTX 3090 table "
   "(https://github.com/ggml-org/llama.cpp/pull/21024): Vulkan backend, tg128, column t/s (before)"},
  {"vulkan-14903", "2025-07", true,
   "llama.cpp pull request #14903, \"Vulkan: Add Integer Dot Product mul_mat_vec shader for legacy quants\", "
   "0cc4m's RTX 3090 table (https://github.com/ggml-org/llama.cpp/pull/14903): Vulkan backend, llama 7B Q4_0, "
   "fa 0, tg128, column t/s (after)"},
  {"dmatora-10", "2024-05", true,
   "dmatora/LLM-inference-speed-benchmarks issue #10, \"llama3 8b Q6 RTX 4090 llama.cpp\", jggc, 2024-05-27 "
   "(https://github.com/dmatora/LLM-inference-speed-benchmarks/issues/10): the llama.cpp server's log from a cold "
   "start, \"Generation speed : 93 tokens per second\" (Llama 3 8B, Q6 taken as Q6_K, llama.cpp's only 6-bit "
   "format; the build is not stated: its era is the post's date, after CUDA graphs)"},
  {"dmatora-12", "2024-08", true,
   "dmatora/LLM-inference-speed-benchmarks issue #12, \"Llama 3.1 8B Q4_K_M NVIDIA RTX 3080\" "
   "(https://github.com/dmatora/LLM-inference-speed-benchmarks/issues/12): llama-bench token generation"},
  {"normiebench-40", "2026-03", true,
   "brand-o/normiebench issue #40, \"MacBook Pro M1 Max / 46.2 t/s\" "
   "(https://github.com/brand-o/normiebench/issues/40): llama 3.1 8b q4_k_m, Metal, tg128"},
  {"tp-19378", "2026-02", true,
   "llama.cpp pull request #19378, \"ggml: backend-agnostic tensor parallelism (experimental)\", JohannesGaessler's "
   "4x RTX 4090 table of 2026-02-07 (https://github.com/ggml-org/llama.cpp/pull/19378): llama 70B Q4_K - Medium, "
   "tg128, column t/s -sm layer"},
  {"hip-26284", "2026", true,
   "llama.cpp pull request #26284, \"HIP: tune rdna 3 mmq configs\", IMbackK's RX 7900 XTX table "
   "(https://github.com/ggml-org/llama.cpp/pull/26284): ROCm/HIP backend, llama 8B Q4_K_M, tg64 (the table's only "
   "decode test), microbatch 512, first t/s column (master); Q4_K_M and Q5_K_M"},
  {"ik-1106", "2026-01", true,
   "ikawrakow/ik_llama.cpp pull request #1106, \"Split mode graph for Qwen3\", ikawrakow's 2x RTX 3090 table "
   "\"ik_llama.cpp, split mode 'layer'\" (https://github.com/ikawrakow/ik_llama.cpp/pull/1106): Qwen3-14B Q4_0, "
   "llama-sweep-bench, S_TG t/s of TG 128 at N_KV 0 (the fork ik_llama.cpp, CUDA, layer split)"},
  {"vulkanforge", "2026-06", true,
   "maeddesg/vulkanforge wiki, \"Benchmarks\", the v0.7.0 matrix (https://github.com/maeddesg/vulkanforge/wiki/Benchmarks): "
   "AMD Radeon RX 9070 XT, llama.cpp b9174 Vulkan backend, -fa 1 -ngl 99, column \"llama decode\" (Mistral-7B-v0.3's "
   "vocabulary is 2.4 % larger than the catalog's mistral-7b; DeepSeek-R1-Distill-Llama-8B, Llama 3.1 8B's shape, "
   "left out as a duplicate)"},
  {"gemv-16715", "2025-10", true,
   "llama.cpp pull request #16715, \"CUDA: General GEMV fusion\", JohannesGaessler's table of 2025-10-26 "
   "(https://github.com/ggml-org/llama.cpp/pull/16715): Tesla P40, gpt-oss 20B MXFP4 MoE, tg128, column t/s 5cca2542a "
   "(master)"},
  {"gpuext-5090", "2025-11", true,
   "crupest/gpu_ext, workloads/REPRODUCTION_LOG.md, commit 5f81ed0, \"Test 2a: Normal Mode (20B model, fits in VRAM)\" "
   "(https://github.com/crupest/gpu_ext/blob/5f81ed0d26b5311c88cd96160a61d1644e059a68/workloads/REPRODUCTION_LOG.md): "
   "RTX 5090, CUDA 12.9, the project's llama.cpp submodule built without VMM (build f92e406b (7100)), llama-bench, "
   "ggml-org's gpt-oss-20b-mxfp4.gguf (gpt-oss 20B MXFP4 MoE, 11.27 GiB), tg128"},
  {"ferrum-m1max", "2026-04", true,
   "sizzlecar/ferrum-infer-rs, the status note \"M1 Max Qwen3-MoE ... llama.cpp (2026-04-30)\", section 1, the llama.cpp "
   "baseline table (https://github.com/sizzlecar/ferrum-infer-rs): Apple M1 Max 32 GB, llama-bench (build 27aef3d), "
   "Metal, qwen3moe 30B.A3B Q4_K - Medium (17.28 GiB), tg128 (the same repository's decode note of that date, "
   "docs/qwen3-moe-decode-status-2026-04-30.md, quotes a baseline of 44 t/s without a table)"},
  {"continuum-1627", "2026-06", true,
   "CambrianTech/continuum pull request #1627 (https://github.com/CambrianTech/continuum/pull/1627): RTX 5090, "
   "Docker Model Runner's llama.cpp-cuda under WSL2, qwen3-8B Q4_K_M fully in VRAM, 221.7 tokens/s generation"},
  {"kquants-2707", "2023-08", false,
   "llama.cpp pull request #2707, \"Quantization improvements for k_quants\", Cebtenzzre's Tesla P40 table of "
   "2023-08-23 (https://github.com/ggml-org/llama.cpp/pull/2707): 7b, tg128, column t/s PR (the K-quant mixes that "
   "merged; the column before it is the Q2_K mix they replaced); the table's rows from q4_0 to q5_K_S, "
   "the catalog's formats among them (Q3_K_S and Q3_K_L are not catalog formats)"},
};

inline const std::vector<HeldOutRow> kHeldOutRows = {
  {"apple-scoreboard","llama-2-7b","F16","apple-m1-max",1,23.03},
  {"apple-scoreboard","llama-2-7b","Q8_0","apple-m1-max",1,40.2},
  {"apple-scoreboard","llama-2-7b","Q4_0","apple-m1-max",1,61.19},
  {"apple-scoreboard","llama-2-7b","Q4_0","apple-m1-ultra",1,83.7},
  {"apple-scoreboard","llama-2-7b","Q4_0","apple-m2-ultra",1,94.3},
  {"apple-scoreboard","llama-2-7b","Q4_0","apple-m3-ultra",1,92.1},
  {"apple-scoreboard","llama-2-7b","Q4_0","apple-m4-max",1,83.1},
  {"gaessler-4766","llama-2-7b","Q4_0","tesla-p40",1,56.29},
  {"gaessler-4766","llama-2-7b","Q4_K_S","tesla-p40",1,53.71},
  {"gaessler-4766","llama-2-7b","Q2_K","tesla-p40",1,33.36},
  {"gaessler-4766","llama-2-7b","Q4_K_S","tesla-p40",3,52.43},
  {"gaessler-4766","llama-2-7b","Q5_K_S","tesla-p40",3,42.45},
  {"gaessler-4766","llama-2-7b","Q4_0","tesla-p40",2,49.92},
  {"gaessler-4766","llama-2-7b","Q4_0","tesla-p40",3,47.91},
  {"gaessler-4766","llama-2-7b","F16","rtx-3090",1,48.09},
  {"gaessler-4766","llama-2-7b","Q4_0","rtx-3090",1,119.90},
  {"gaessler-4766","llama-2-7b","Q2_K","rtx-3090",1,91.62},
  {"vulkan-21024","llama-3-8b","Q4_0","rtx-3090",1,146.73},
  {"vulkan-21024","llama-3-8b","Q8_0","rtx-3090",1,95.05},
  {"vulkan-21024","gpt-oss-20b","MXFP4","rtx-3090",1,181.32},
  {"vulkan-14903","llama-2-7b","Q4_0","rtx-3090",1,146.23},
  {"dmatora-10","llama-3-8b","Q6_K","rtx-4090",1,93},
  {"dmatora-12","llama-3.1-8b","Q4_K_M","rtx-3080",1,111.95},
  {"normiebench-40","llama-3.1-8b","Q4_K_M","apple-m1-max",1,46.2},
  {"tp-19378","llama-3-70b","Q4_K_M","rtx-4090",4,21.23},
  {"hip-26284","llama-3-8b","Q4_K_M","rx-7900-xtx",1,105.75},
  {"hip-26284","llama-3-8b","Q5_K_M","rx-7900-xtx",1,100.63},
  {"ik-1106","qwen3-14b","Q4_0","rtx-3090",2,95.54},
  {"vulkanforge","qwen3-8b","Q4_K_M","rx-9070-xt",1,114.9},
  {"vulkanforge","llama-3.1-8b","Q4_K_M","rx-9070-xt",1,119.6},
  {"vulkanforge","mistral-7b","Q4_K_M","rx-9070-xt",1,127.5},
  {"gemv-16715","gpt-oss-20b","MXFP4","tesla-p40",1,72.42},
  {"gpuext-5090","gpt-oss-20b","MXFP4","rtx-5090",1,362.59},
  {"ferrum-m1max","qwen3-30b-a3b","Q4_K_M","apple-m1-max",1,51.03},
  {"continuum-1627","qwen3-8b","Q4_K_M","rtx-5090",1,221.7},
  {"kquants-2707","llama-2-7b","Q4_0","tesla-p40",1,55.91},
  {"kquants-2707","llama-2-7b","Q2_K","tesla-p40",1,33.38},
  {"kquants-2707","llama-2-7b","Q3_K_M","tesla-p40",1,37.20},
  {"kquants-2707","llama-2-7b","Q4_K_S","tesla-p40",1,53.32},
  {"kquants-2707","llama-2-7b","Q4_K_M","tesla-p40",1,49.13},
  {"kquants-2707","llama-2-7b","Q5_K_S","tesla-p40",1,42.90},
};
