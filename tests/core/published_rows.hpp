#pragma once

#include <vector>

#include <heteropipe/plan/estimate.hpp>

// Published single-stream decode speeds of llama.cpp (layer split across
// the GPUs, -ngl all), for catalog ids: Xiongjie Dai, "GPU-Benchmarks-on-LLM-
// Inference", README.md, the LLaMA 3 overview table (average eval speed,
// tokens/s; text generation of 1024 tokens), commit 00dd2bd,
// https://github.com/XiongjieDai/GPU-Benchmarks-on-LLM-Inference.
// `count` identical GPUs; the multi-GPU rows ran on RunPod machines over PCIe.
// The fit set: the estimator's constants were fitted to these rows, which ran
// on llama.cpp builds of spring 2024 (the held-out rows' eras are in
// tests/core/held_out_rows.hpp).
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
