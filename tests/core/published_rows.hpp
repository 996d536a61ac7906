#pragma once

#include <vector>

#include <heteropipe/plan/estimate.hpp>
#include <heteropipe/plan/report.hpp>

// The fit set: published single-stream decode speeds of llama.cpp (layer
// split across the GPUs, -ngl all), for catalog ids, from six sources
// (docs/planner.md#held-out-validation says why these six). The
// estimator's constants were fitted to these rows.
//
// kPublishedRows: Xiongjie Dai, "GPU-Benchmarks-on-LLM-Inference", README.md,
// the LLaMA 3 overview table (average eval speed, tokens/s; text generation
// of 1024 tokens), commit 00dd2bd,
// https://github.com/XiongjieDai/GPU-Benchmarks-on-LLM-Inference, run on
// llama.cpp builds of spring 2024, before CUDA graphs. `count` identical
// GPUs; the multi-GPU rows ran on RunPod machines over PCIe.
//
// kRecentFitRows: the other five sources, each NVIDIA row marked with whether
// its CUDA build launched a token's kernels as one CUDA graph (llama.cpp pull
// request #6766, merged April 2024; every CUDA build since, on cards from
// Volta on). Rows before graphs pay kPreGraphLayerCost (plan/estimate.hpp).
// The Vulkan rows (source geerling) launch no CUDA kernels: they are current
// builds, marked true, and pay no kPreGraphLayerCost.
// A row's run as the estimator's input: `count` GPUs of one id, every layer
// on them, default links, context 512 (the estimate's default: the average
// position of a 1,024-token generation).
inline heteropipe::EstimateInput on(const char* model, const char* quant, const char* gpu, int count) {
  heteropipe::EstimateInput in;
  in.model = model;
  in.quant = quant;
  for (int k = 0; k < count; ++k) in.devices.push_back(heteropipe::DeviceChoice{gpu, {}, {}, {}, {}, {}, {}});
  return in;
}

struct PublishedRow {
  const char* model;
  const char* quant;
  const char* gpu;
  int count;
  double tokens_per_second;
};

inline const std::vector<PublishedRow> kPublishedRows = {
  {"llama-3-8b","Q4_K_M","rtx-3070",1,70.94},
  {"llama-3-8b","Q4_K_M","rtx-3080",1,106.40},
  {"llama-3-8b","Q4_K_M","rtx-4070-ti",1,82.21},
  {"llama-3-8b","Q4_K_M","rtx-4080",1,106.22},{"llama-3-8b","F16","rtx-4080",1,40.29},
  {"llama-3-8b","Q4_K_M","rtx-3090",1,111.74},{"llama-3-8b","F16","rtx-3090",1,46.51},
  {"llama-3-8b","Q4_K_M","rtx-4090",1,127.74},{"llama-3-8b","F16","rtx-4090",1,54.34},
  {"llama-3-8b","Q4_K_M","rtx-3090",2,108.07},{"llama-3-8b","F16","rtx-3090",2,47.15},{"llama-3-70b","Q4_K_M","rtx-3090",2,16.29},
  {"llama-3-8b","Q4_K_M","rtx-4090",2,122.56},{"llama-3-8b","F16","rtx-4090",2,53.27},{"llama-3-70b","Q4_K_M","rtx-4090",2,19.06},
  {"llama-3-8b","Q4_K_M","rtx-a6000",1,102.22},{"llama-3-8b","F16","rtx-a6000",1,40.25},{"llama-3-70b","Q4_K_M","rtx-a6000",1,14.58},
  {"llama-3-8b","Q4_K_M","l40s",1,113.60},{"llama-3-8b","F16","l40s",1,43.42},{"llama-3-70b","Q4_K_M","l40s",1,15.31},
  {"llama-3-8b","Q4_K_M","a100-80gb",1,133.38},{"llama-3-8b","F16","a100-80gb",1,53.18},{"llama-3-70b","Q4_K_M","a100-80gb",1,24.33},
  {"llama-3-8b","Q4_K_M","h100-pcie",1,144.49},{"llama-3-8b","F16","h100-pcie",1,67.79},{"llama-3-70b","Q4_K_M","h100-pcie",1,25.01},
  {"llama-3-8b","Q4_K_M","rtx-3090",4,104.94},{"llama-3-8b","F16","rtx-3090",4,46.40},{"llama-3-70b","Q4_K_M","rtx-3090",4,16.89},
  {"llama-3-8b","Q4_K_M","rtx-4090",4,117.61},{"llama-3-8b","F16","rtx-4090",4,52.69},{"llama-3-70b","Q4_K_M","rtx-4090",4,18.83},
  {"llama-3-8b","Q4_K_M","rtx-3090",6,101.07},{"llama-3-8b","F16","rtx-3090",6,45.55},{"llama-3-70b","Q4_K_M","rtx-3090",6,16.93},{"llama-3-70b","F16","rtx-3090",6,5.82},
  {"llama-3-8b","Q4_K_M","rtx-4090",8,116.13},{"llama-3-8b","F16","rtx-4090",8,52.12},{"llama-3-70b","Q4_K_M","rtx-4090",8,18.76},{"llama-3-70b","F16","rtx-4090",8,6.45},
  {"llama-3-8b","Q4_K_M","rtx-a6000",4,93.73},{"llama-3-8b","F16","rtx-a6000",4,38.87},{"llama-3-70b","Q4_K_M","rtx-a6000",4,14.32},{"llama-3-70b","F16","rtx-a6000",4,4.74},
  {"llama-3-8b","Q4_K_M","l40s",4,105.72},{"llama-3-8b","F16","l40s",4,42.48},{"llama-3-70b","Q4_K_M","l40s",4,14.99},{"llama-3-70b","F16","l40s",4,5.03},
  {"llama-3-8b","Q4_K_M","apple-m1-max",1,34.49},{"llama-3-8b","F16","apple-m1-max",1,18.43},{"llama-3-70b","Q4_K_M","apple-m1-max",1,4.09},
  {"llama-3-8b","Q4_K_M","apple-m2-ultra",1,76.28},{"llama-3-8b","F16","apple-m2-ultra",1,36.25},{"llama-3-70b","Q4_K_M","apple-m2-ultra",1,12.13},{"llama-3-70b","F16","apple-m2-ultra",1,4.71},
  {"llama-3-8b","Q4_K_M","apple-m3-max",1,50.74},{"llama-3-8b","F16","apple-m3-max",1,22.39},{"llama-3-70b","Q4_K_M","apple-m3-max",1,7.53},
};


struct FitSource {
  const char* name;
  const char* era;  // when the llama.cpp build it ran was current
  const char* citation;
};

struct RecentFitRow {
  const char* source;  // a short name, cited in full in kFitSources
  const char* model;
  const char* quant;
  const char* gpu;
  int count;
  double tokens_per_second;
  bool cuda_graphs;  // false: a CUDA build from before pull request #6766
};

inline const std::vector<FitSource> kFitSources = {
  {"dai", "2024-05",
   "Xiongjie Dai, GPU-Benchmarks-on-LLM-Inference, README.md, LLaMA 3 overview table, commit 00dd2bd "
   "(https://github.com/XiongjieDai/GPU-Benchmarks-on-LLM-Inference)"},
  {"pr-6766", "2024-04",
   "llama.cpp pull request #6766, \"Introduction of CUDA Graphs to LLama.cpp\", JohannesGaessler's comment of "
   "2024-04-19 (https://github.com/ggml-org/llama.cpp/pull/6766): LLaMA 2 7b q4_0, ./main tg, columns t/s master "
   "(before graphs) and t/s PR (graphs)"},
  {"issue-6763", "2024-04",
   "llama.cpp issue #6763, \"New optimization from NVIDIA to use CUDA Graphs in llama.cpp\", agray3 "
   "(https://github.com/ggml-org/llama.cpp/issues/6763): llama-2-7b.Q4_K_M on H100-PCIe, --n-gpu-layers 100 -n 128, "
   "143.35 before and 163.83 tokens/s with graphs"},
  {"cuda-scoreboard", "2025-26",
   "llama.cpp discussion #15013, \"Performance of llama.cpp with CUDA\" "
   "(https://github.com/ggml-org/llama.cpp/discussions/15013): llama 7B Q4_0, llama-bench -ngl 99, tg128"},
  {"metal-2917", "2023-08",
   "llama.cpp pull request #2917, \"metal : slight speed-up for add and mul kernels\", ggerganov's M2 Ultra tables "
   "of 2023-08-30 (https://github.com/ggml-org/llama.cpp/pull/2917): LLaMA 7B Q8_0 and Q4_0, Metal, llama-bench "
   "tg 128, the master table"},
  {"geerling", "2025-12 to 2026-02",
   "Jeff Geerling, geerlingguy/ai-benchmarks, README.md, table \"DeepSeek R1 14b\", column Eval Rate (llama-bench "
   "tg128 of DeepSeek-R1-Distill-Qwen-14B-Q4_K_M.gguf, the shape of Qwen2.5 14B), commit 022fb93 "
   "(https://github.com/geerlingguy/ai-benchmarks): the Intel 265K PC's NVIDIA cards under llama.cpp's Vulkan "
   "backend (issues #40, #43, #45, #46), the M3 Ultra (issue #42) and the M1 Ultra, 64-core GPU, Metal (issue #48)"},
};

inline const std::vector<RecentFitRow> kRecentFitRows = {
  {"pr-6766","llama-2-7b","Q4_0","rtx-3090",1,116.31,false},
  {"pr-6766","llama-2-7b","Q4_0","rtx-3090",1,128.27,true},
  {"pr-6766","llama-2-7b","Q4_0","rtx-4090",1,138.31,false},
  {"pr-6766","llama-2-7b","Q4_0","rtx-4090",1,146.81,true},
  {"issue-6763","llama-2-7b","Q4_K_M","h100-pcie",1,143.35,false},
  {"issue-6763","llama-2-7b","Q4_K_M","h100-pcie",1,163.83,true},
  {"cuda-scoreboard","llama-2-7b","Q4_0","rtx-5090",1,300.4,true},
  {"cuda-scoreboard","llama-2-7b","Q4_0","rtx-4090",1,189.0,true},
  {"cuda-scoreboard","llama-2-7b","Q4_0","h100-sxm",1,280.7,true},
  {"cuda-scoreboard","llama-2-7b","Q4_0","rtx-5080",1,184.7,true},
  {"cuda-scoreboard","llama-2-7b","Q4_0","a100-80gb",1,200.9,true},
  {"cuda-scoreboard","llama-2-7b","Q4_0","rtx-3090",1,158.2,true},
  {"cuda-scoreboard","llama-2-7b","Q4_0","rtx-3060-12gb",1,75.6,true},
  {"metal-2917","llama-2-7b","Q8_0","apple-m2-ultra",1,62.05,true},
  {"metal-2917","llama-2-7b","Q4_0","apple-m2-ultra",1,88.54,true},
  {"geerling","qwen2.5-14b","Q4_K_M","rtx-4090",1,92.49,true},
  {"geerling","qwen2.5-14b","Q4_K_M","rtx-4070-ti",1,49.74,true},
  {"geerling","qwen2.5-14b","Q4_K_M","rtx-2080-ti",1,45.06,true},
  {"geerling","qwen2.5-14b","Q4_K_M","rtx-3060-12gb",1,29.77,true},
  {"geerling","qwen2.5-14b","Q4_K_M","apple-m3-ultra",1,51.85,true},
  {"geerling","qwen2.5-14b","Q4_K_M","apple-m1-ultra",1,41.51,true},
};

// A fit-set row's estimate as its build ran: the estimate (current builds),
// and for an NVIDIA row whose CUDA build predates CUDA graphs,
// kPreGraphLayerCost (plan/estimate.hpp) more on every layer, unless the
// estimate already charges it (a card without graphs); one token crosses
// every layer in turn, so at M = 1 the time per token grows by layers x that
// cost.
inline double fit_estimate(const char* model, const char* quant, const char* gpu, int count, bool cuda_graphs) {
  heteropipe::EstimateInput in = on(model, quant, gpu, count);
  in.context = 512;  // the average position of a 1,024-token generation
  const double now = heteropipe::tokens_per_second(heteropipe::make_plan(heteropipe::estimate(in).value()).value(), 1);
  const heteropipe::GpuSpec spec = heteropipe::find_gpu(gpu, 0).value();
  const heteropipe::DeviceClass c = spec.device_class;
  const bool nvidia = c == heteropipe::DeviceClass::nvidia_gddr || c == heteropipe::DeviceClass::nvidia_hbm;
  if (cuda_graphs || !nvidia || !spec.cuda_graphs) return now;
  const auto layers = static_cast<double>(heteropipe::find_model(model).value().layers);
  return 1 / (1 / now + layers * heteropipe::kPreGraphLayerCost);
}

