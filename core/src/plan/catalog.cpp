// The catalog's entries. Every number is a vendor's or a model card's
// published fact; each entry's source says where it is written.
#include "heteropipe/plan/catalog.hpp"

#include <string>

#include "heteropipe/parse.hpp"
#include "heteropipe/plan/gguf.hpp"

namespace heteropipe {
namespace {

constexpr double GiB = 1024.0 * 1024.0 * 1024.0;
constexpr double GBps = 1e9;     // memory and link bandwidths are quoted in decimal GB/s
constexpr double TFLOPS = 1e12;

// GeForce tensor throughput is quoted with FP32 accumulate (half the FP16
// accumulate rate on GeForce, equal on the workstation and data-centre
// parts), so every NVIDIA entry is on the same footing.
constexpr std::string_view kAmpere =
    "NVIDIA Ampere GA102 GPU architecture whitepaper (https://www.nvidia.com/content/PDF/"
    "nvidia-ampere-ga-102-gpu-architecture-whitepaper-v2.pdf), appendix tables: memory, bandwidth, "
    "peak FP16 Tensor TFLOPS with FP32 accumulate (dense)";
constexpr std::string_view kAda =
    "NVIDIA Ada GPU architecture whitepaper (https://images.nvidia.com/aem-dam/Solutions/geforce/ada/"
    "nvidia-ada-gpu-architecture.pdf), appendix tables: memory, bandwidth, peak FP16 Tensor TFLOPS with "
    "FP32 accumulate (dense)";
constexpr std::string_view kBlackwell =
    "NVIDIA RTX Blackwell GPU architecture whitepaper (https://images.nvidia.com/aem-dam/Solutions/"
    "geforce/blackwell/nvidia-rtx-blackwell-gpu-architecture.pdf): 32 GB GDDR7, 1792 GB/s, peak FP16 "
    "Tensor TFLOPS with FP32 accumulate (dense)";

// NVIDIA's product pages quote GeForce tensor throughput as "AI TOPS": FP8
// with sparsity on Ada, FP4 with sparsity on Blackwell. Dense FP16 with FP32
// accumulate is 1/8 of the Ada figure and 1/16 of the Blackwell one (each
// halving: sparsity, the narrower format, FP32 accumulate), which gives the
// whitepapers' 165.2 for the 4090's 1,321 and 209.5 for the 5090's 3,352.
constexpr std::string_view kAdaTops =
    "https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/ (specs: memory, memory interface and "
    "speed; AI TOPS, FP8 with sparsity, / 8 for dense FP16 with FP32 accumulate)";
constexpr std::string_view kBlackwellTops =
    "https://www.nvidia.com/en-us/geforce/graphics-cards/50-series/ (specs: memory, bandwidth; AI TOPS, FP4 "
    "with sparsity, / 16 for dense FP16 with FP32 accumulate)";
constexpr std::string_view kTuring =
    "NVIDIA Turing GPU architecture whitepaper (https://images.nvidia.com/aem-dam/en-zz/Solutions/design-"
    "visualization/technologies/turing-architecture/NVIDIA-Turing-Architecture-Whitepaper.pdf), appendix A: "
    "RTX 2080 Ti 11 GB, 616 GB/s, peak FP16 Tensor TFLOPS with FP32 accumulate 53.8 (reference clocks)";
// Apple quotes no tensor rate; the GPU's FP16 rate equals its FP32 rate
// (cores x 128 ALUs x 2 FLOP x clock). Memory is the largest configuration.
// AMD's figure is its quoted peak FP16 (RDNA 3 counts dual issue, as its
// WMMA rate; RDNA 4's matrix rate is quoted only with sparsity).

const std::vector<GpuSpec> kGpus = {
    {"rtx-2080-ti", "GeForce RTX 2080 Ti", DeviceClass::nvidia_gddr, 11 * GiB, 616 * GBps, 53.8 * TFLOPS, kTuring},
    {"titan-rtx", "NVIDIA TITAN RTX", DeviceClass::nvidia_gddr, 24 * GiB, 672 * GBps, 130 * TFLOPS,
     "https://www.nvidia.com/en-us/deep-learning-ai/products/titan-rtx/ (24 GB GDDR6, 672 GB/s, 130 Tensor "
     "TFLOPS: TITAN accumulates in FP32 at the full rate)"},
    {"rtx-3060-12gb", "GeForce RTX 3060 12GB", DeviceClass::nvidia_gddr, 12 * GiB, 360 * GBps, 25.4 * TFLOPS,
     "https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3060-3060ti/ (12 GB, 360 GB/s); "
     "tensor rate: 28 SMs x 1.777 GHz x 512 FLOP/clk, the GA10x rate of the Ampere GA102 whitepaper"},
    {"rtx-3070", "GeForce RTX 3070", DeviceClass::nvidia_gddr, 8 * GiB, 448 * GBps, 40.6 * TFLOPS, kAmpere},
    {"rtx-3080", "GeForce RTX 3080 10GB", DeviceClass::nvidia_gddr, 10 * GiB, 760 * GBps, 59.5 * TFLOPS, kAmpere},
    {"rtx-3090", "GeForce RTX 3090", DeviceClass::nvidia_gddr, 24 * GiB, 936 * GBps, 71 * TFLOPS, kAmpere},
    {"rtx-3090-ti", "GeForce RTX 3090 Ti", DeviceClass::nvidia_gddr, 24 * GiB, 1008 * GBps, 80 * TFLOPS,
     "https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3090-3090ti/ (24 GB GDDR6X, 384-bit at "
     "21 Gbps = 1,008 GB/s); tensor rate: 84 SMs x 1.86 GHz x 512 FLOP/clk, the GA10x rate of the Ampere "
     "GA102 whitepaper"},
    // The 4060 Ti's rate from NVIDIA's AI TOPS, as for the SUPER cards: 353 / 8
    // = 44.1, which 34 SMs x 2.535 GHz x 512 FLOP/clk (the Ada rate that gives
    // the 4090's 165.2) confirms.
    {"rtx-4060-ti-8gb", "GeForce RTX 4060 Ti 8GB", DeviceClass::nvidia_gddr, 8 * GiB, 288 * GBps, 44.1 * TFLOPS,
     kAdaTops},  // 8 GB GDDR6, 128-bit at 18 Gbps; 353 AI TOPS
    {"rtx-4060-ti-16gb", "GeForce RTX 4060 Ti 16GB", DeviceClass::nvidia_gddr, 16 * GiB, 288 * GBps, 44.1 * TFLOPS,
     kAdaTops},  // 16 GB GDDR6, 128-bit at 18 Gbps; 353 AI TOPS
    {"rtx-4070", "GeForce RTX 4070", DeviceClass::nvidia_gddr, 12 * GiB, 504 * GBps, 58.3 * TFLOPS,
     "https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4070-family/ (12 GB GDDR6X, 504 GB/s; "
     "466 AI TOPS, FP8 with sparsity: 58.3 dense FP16 with FP32 accumulate)"},
    {"rtx-4070-ti", "GeForce RTX 4070 Ti", DeviceClass::nvidia_gddr, 12 * GiB, 504 * GBps, 80.2 * TFLOPS, kAda},
    {"rtx-4070-ti-super", "GeForce RTX 4070 Ti SUPER", DeviceClass::nvidia_gddr, 16 * GiB, 672 * GBps,
     88.2 * TFLOPS, kAdaTops},  // 16 GB GDDR6X, 256-bit at 21 Gbps; 706 AI TOPS
    {"rtx-4080", "GeForce RTX 4080", DeviceClass::nvidia_gddr, 16 * GiB, 716.8 * GBps, 97.5 * TFLOPS, kAda},
    {"rtx-4080-super", "GeForce RTX 4080 SUPER", DeviceClass::nvidia_gddr, 16 * GiB, 736 * GBps, 104.5 * TFLOPS,
     kAdaTops},  // 16 GB GDDR6X, 256-bit at 23 Gbps; 836 AI TOPS
    {"rtx-4090", "GeForce RTX 4090", DeviceClass::nvidia_gddr, 24 * GiB, 1008 * GBps, 165.2 * TFLOPS, kAda},
    {"rtx-5060-ti-16gb", "GeForce RTX 5060 Ti 16GB", DeviceClass::nvidia_gddr, 16 * GiB, 448 * GBps,
     47.4 * TFLOPS, kBlackwellTops},  // 16 GB GDDR7, 128-bit at 28 Gbps; 759 AI TOPS
    {"rtx-5070-ti", "GeForce RTX 5070 Ti", DeviceClass::nvidia_gddr, 16 * GiB, 896 * GBps, 87.9 * TFLOPS,
     kBlackwellTops},  // 16 GB GDDR7, 256-bit at 28 Gbps; 1,406 AI TOPS
    {"rtx-5080", "GeForce RTX 5080", DeviceClass::nvidia_gddr, 16 * GiB, 960 * GBps, 112.6 * TFLOPS,
     kBlackwellTops},  // 16 GB GDDR7, 256-bit at 30 Gbps; 1,801 AI TOPS
    {"rtx-5090", "GeForce RTX 5090", DeviceClass::nvidia_gddr, 32 * GiB, 1792 * GBps, 209.5 * TFLOPS, kBlackwell},
    {"rtx-a6000", "NVIDIA RTX A6000", DeviceClass::nvidia_gddr, 48 * GiB, 768 * GBps, 154.8 * TFLOPS,
     "NVIDIA RTX A6000 datasheet (https://www.nvidia.com/content/dam/en-zz/Solutions/design-visualization/"
     "quadro-product-literature/proviz-print-nvidia-rtx-a6000-datasheet-us-nvidia-1454980-r9-web.pdf): "
     "48 GB GDDR6, 768 GB/s, 309.7 TFLOPS FP16 tensor with sparsity (half dense)"},
    {"l40s", "NVIDIA L40S", DeviceClass::nvidia_gddr, 48 * GiB, 864 * GBps, 362.05 * TFLOPS,
     "https://www.nvidia.com/en-us/data-center/l40s/ (48 GB GDDR6, 864 GB/s, 733 TFLOPS FP16 tensor with "
     "sparsity: 362.05 dense)"},
    {"a40", "NVIDIA A40", DeviceClass::nvidia_gddr, 48 * GiB, 696 * GBps, 149.7 * TFLOPS,
     "NVIDIA A40 datasheet (https://images.nvidia.com/content/Solutions/data-center/a40/nvidia-a40-datasheet.pdf): "
     "48 GB GDDR6, 696 GB/s, peak BF16 Tensor TFLOPS with FP32 accumulate 149.7 (299.4 with sparsity)"},
    {"l4", "NVIDIA L4", DeviceClass::nvidia_gddr, 24 * GiB, 300 * GBps, 121 * TFLOPS,
     "https://www.nvidia.com/en-us/data-center/l4/ (24 GB GDDR6, 300 GB/s, 242 TFLOPS FP16 tensor with "
     "sparsity: 121 dense)"},
    // NVIDIA publishes no datasheet for AWS's A10G. Its memory and bandwidth
    // are the A10's; its tensor rate is taken at half the A10's FP16 rate,
    // the GeForce convention for GA102 with FP32 accumulate, since the A10G
    // trades tensor rate for CUDA-core rate. Prefill's arithmetic reads that
    // rate, and so does the unpacking of quantized weights (kDequantFlops).
    {"a10g", "NVIDIA A10G", DeviceClass::nvidia_gddr, 24 * GiB, 600 * GBps, 62.5 * TFLOPS,
     "https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-deadline-fleet-"
     "acceleratorselection.html (a10g: 24 GiB); https://www.baseten.co/blog/nvidia-a10-vs-a10g-for-ml-model-"
     "inference/ (A10 and A10G: 24 GB GDDR6 at 600 GB/s; the A10G has less tensor compute than the A10); "
     "NVIDIA A10 datasheet (https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a10/pdf/"
     "a10-datasheet.pdf): 125 TFLOPS FP16 tensor, halved for FP32 accumulate"},
    {"t4", "NVIDIA T4", DeviceClass::nvidia_gddr, 16 * GiB, 320 * GBps, 65 * TFLOPS,
     "https://www.nvidia.com/en-us/data-center/tesla-t4/ (16 GB GDDR6, 320 GB/s, 65 TFLOPS mixed precision "
     "FP16/FP32)"},
    {"a100-40gb", "NVIDIA A100 40GB SXM", DeviceClass::nvidia_hbm, 40 * GiB, 1555 * GBps, 312 * TFLOPS,
     "https://www.nvidia.com/en-us/data-center/a100/ (40 GB HBM2, 1,555 GB/s, FP16 tensor 312 TFLOPS dense)"},
    {"a100-80gb", "NVIDIA A100 80GB SXM", DeviceClass::nvidia_hbm, 80 * GiB, 2039 * GBps, 312 * TFLOPS,
     "https://www.nvidia.com/en-us/data-center/a100/ (80 GB HBM2e, 2,039 GB/s, FP16 tensor 312 TFLOPS dense)"},
    {"h100-pcie", "NVIDIA H100 PCIe", DeviceClass::nvidia_hbm, 80 * GiB, 2000 * GBps, 756.5 * TFLOPS,
     "https://www.nvidia.com/en-us/data-center/h100/ (H100 PCIe: 80 GB, 2 TB/s, 1,513 TFLOPS FP16 tensor "
     "with sparsity: 756.5 dense)"},
    {"h100-sxm", "NVIDIA H100 SXM", DeviceClass::nvidia_hbm, 80 * GiB, 3350 * GBps, 989.4 * TFLOPS,
     "https://www.nvidia.com/en-us/data-center/h100/ (H100 SXM: 80 GB, 3.35 TB/s, 1,979 TFLOPS FP16 tensor "
     "with sparsity: 989.4 dense)"},
    {"h200", "NVIDIA H200 SXM", DeviceClass::nvidia_hbm, 141 * GiB, 4800 * GBps, 989.4 * TFLOPS,
     "https://www.nvidia.com/en-us/data-center/h200/ (H200 SXM: 141 GB HBM3e, 4.8 TB/s, 1,979 TFLOPS FP16 "
     "tensor with sparsity: 989.4 dense, the H100 SXM's)"},
    {"b200", "NVIDIA B200 (HGX)", DeviceClass::nvidia_hbm, 180 * GiB, 8000 * GBps, 2250 * TFLOPS,
     "https://www.nvidia.com/en-us/data-center/hgx/ (HGX B200, eight GPUs: 1.4 TB HBM3e in all, 180 GB each, "
     "8 TB/s each, FP16/BF16 tensor 36 PFLOPS with sparsity: 2.25 PFLOPS dense each)"},
    {"tesla-v100", "NVIDIA Tesla V100 SXM2 32GB", DeviceClass::nvidia_hbm, 32 * GiB, 900 * GBps, 125 * TFLOPS,
     "https://www.nvidia.com/en-us/data-center/v100/ (V100 SXM2: 32 GB HBM2, 900 GB/s, 125 TFLOPS tensor)"},
    // GP100, unlike the P40's GP102, runs FP16 at twice its FP32 rate. Both
    // are Pascal: llama.cpp enables CUDA graphs from Volta on (the gate in
    // ggml_cuda_graph_set_enabled, widened to Volta by pull request #25749,
    // https://github.com/ggml-org/llama.cpp/pull/25749; Pascal's, pull request
    // #27721, https://github.com/ggml-org/llama.cpp/pull/27721, is open), so
    // `cuda_graphs` is false.
    {"tesla-p100", "NVIDIA Tesla P100 PCIe 16GB", DeviceClass::nvidia_hbm, 16 * GiB, 732 * GBps, 18.7 * TFLOPS,
     "NVIDIA Tesla P100 datasheet (https://images.nvidia.com/content/tesla/pdf/nvidia-tesla-p100-PCIe-datasheet"
     ".pdf): P100 for PCIe 16 GB CoWoS HBM2, 732 GB/s, 18.7 TFLOPS half precision", false},
    // Pascal runs FP16 arithmetic at 1/64 rate and llama.cpp computes in
    // FP32 there, so its FP32 rate is the throughput that counts.
    {"tesla-p40", "NVIDIA Tesla P40", DeviceClass::nvidia_gddr, 24 * GiB, 346 * GBps, 11.76 * TFLOPS,
     "NVIDIA Tesla P40 datasheet (https://images.nvidia.com/content/pdf/tesla/184427-Tesla-P40-Datasheet-"
     "NV-Final-Letter-Web.pdf): 24 GB GDDR5, 346 GB/s; FP32 from its 3,840 CUDA cores x 2 FLOP x 1.531 GHz "
     "boost = 11.76 TFLOPS (FP16 runs at 1/64 of it)", false},
    {"rx-7900-xtx", "AMD Radeon RX 7900 XTX", DeviceClass::amd_gddr, 24 * GiB, 960 * GBps, 122.8 * TFLOPS,
     "https://www.amd.com/en/products/graphics/desktops/radeon/7000-series/amd-radeon-rx-7900xtx.html (24 GB "
     "GDDR6, 960 GB/s, peak half precision (FP16) 122.8 TFLOPS)"},
    {"rx-9070-xt", "AMD Radeon RX 9070 XT", DeviceClass::amd_gddr, 16 * GiB, 640 * GBps, 97.3 * TFLOPS,
     "https://www.amd.com/en/products/graphics/desktops/radeon/9000-series/amd-radeon-rx-9070xt.html (16 GB "
     "GDDR6, 256-bit at 20 Gbps = 640 GB/s, peak half precision (FP16) 97.3 TFLOPS)"},
    {"mi300x", "AMD Instinct MI300X", DeviceClass::amd_hbm, 192 * GiB, 5300 * GBps, 1307.4 * TFLOPS,
     "https://www.amd.com/en/products/accelerators/instinct/mi300/mi300x.html (192 GB HBM3, 5.3 TB/s, peak FP16 "
     "1,307.4 TFLOPS dense, 2,614.9 with sparsity)"},
    // Intel quotes no XMX FP16 rate that we could find; the vector FP16
    // rate (4,096 ALUs x 2 FLOP x 2 lanes of FP16 x 2.1 GHz) stands in, a
    // lower bound (read by prefill's arithmetic and the unpacking of
    // quantized weights, kDequantFlops).
    {"arc-a770", "Intel Arc A770 16GB", DeviceClass::intel_gddr, 16 * GiB, 560 * GBps, 34.4 * TFLOPS,
     "https://www.svethardware.cz/intel-zverejnil-oficialni-specifikace-grafickych-karet-arc/58344 (Intel's "
     "official Arc specifications: A770, 32 Xe-cores, 2,100 MHz, 16 GB GDDR6 on 256 bits at 560 GB/s); "
     "https://fpsbench.com/compare/gpu/intel-arc-a770-vs-nvidia-tesla-m40 (4,096 shading units, FP16 2:1)"},
    {"apple-m1-ultra", "Apple M1 Ultra (64-core GPU)", DeviceClass::apple, 128 * GiB, 800 * GBps, 21 * TFLOPS,
     "https://www.apple.com/newsroom/2022/03/apple-unveils-m1-ultra-the-worlds-most-powerful-chip-for-a-"
     "personal-computer/ (up to 128 GB, 800 GB/s, 64-core GPU, 21 TFLOPS)"},
    {"apple-m1-max", "Apple M1 Max (32-core GPU)", DeviceClass::apple, 64 * GiB, 400 * GBps, 10.4 * TFLOPS,
     "https://www.apple.com/newsroom/2021/10/introducing-m1-pro-and-m1-max-the-most-powerful-chips-apple-has-"
     "ever-built/ (up to 64 GB, 400 GB/s, 10.4 TFLOPS)"},
    {"apple-m2-max", "Apple M2 Max (38-core GPU)", DeviceClass::apple, 96 * GiB, 400 * GBps, 13.6 * TFLOPS,
     "https://www.apple.com/newsroom/2023/01/apple-unveils-m2-pro-and-m2-max-next-generation-chips-for-next-"
     "level-workflows/ (up to 96 GB, 400 GB/s, 38-core GPU); 38 cores x 128 ALUs x 2 x 1.398 GHz, the M2 Ultra's "
     "clock"},
    {"apple-m2-ultra", "Apple M2 Ultra (76-core GPU)", DeviceClass::apple, 192 * GiB, 800 * GBps, 27.2 * TFLOPS,
     "https://www.apple.com/newsroom/2023/06/apple-introduces-m2-ultra/ (up to 192 GB, 800 GB/s); 76 cores x "
     "128 ALUs x 2 x 1.398 GHz = 27.2 TFLOPS"},
    {"apple-m3-max", "Apple M3 Max (40-core GPU)", DeviceClass::apple, 128 * GiB, 400 * GBps, 16.4 * TFLOPS,
     "https://www.apple.com/newsroom/2023/10/apple-unveils-m3-m3-pro-and-m3-max-the-most-advanced-chips-for-a-"
     "personal-computer/ (up to 128 GB, 400 GB/s on the 40-core GPU); 40 cores x 128 ALUs x 2 x 1.6 GHz"},
    {"apple-m3-ultra", "Apple M3 Ultra (80-core GPU)", DeviceClass::apple, 512 * GiB, 819 * GBps, 32.8 * TFLOPS,
     "https://www.apple.com/newsroom/2025/03/apple-reveals-m3-ultra-taking-apple-silicon-to-a-new-extreme/ (two "
     "M3 Max dies: up to 512 GB, 80-core GPU, over 800 GB/s; 819 GB/s on the Mac Studio's tech specs); 80 cores "
     "x 128 ALUs x 2 x 1.6 GHz, the M3 Max's"},
    {"apple-m4-max", "Apple M4 Max (40-core GPU)", DeviceClass::apple, 128 * GiB, 546 * GBps, 16.2 * TFLOPS,
     "https://www.apple.com/newsroom/2024/10/new-macbook-pro-features-m4-family-of-chips-and-apple-"
     "intelligence/ (up to 128 GB, 546 GB/s, 40-core GPU); 40 cores x 128 ALUs x 2 x 1.578 GHz, the M4 GPU's "
     "clock as https://hmc-tech.com/gpu/apple-8-core-m4-fl-vs-apple-24-core-m1-max lists it"},
};

const std::vector<ModelSpec> kModels = {
    {"llama-2-7b", "Llama 2 7B", 32, 4096, 11008, 32, 32, 32000, false,
     "https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json"},
    {"llama-2-13b", "Llama 2 13B", 40, 5120, 13824, 40, 40, 32000, false,
     "https://huggingface.co/meta-llama/Llama-2-13b-hf/blob/main/config.json"},
    {"llama-2-70b", "Llama 2 70B", 80, 8192, 28672, 64, 8, 32000, false,
     "https://huggingface.co/meta-llama/Llama-2-70b-hf/blob/main/config.json"},
    {"llama-3-8b", "Llama 3 8B", 32, 4096, 14336, 32, 8, 128256, false,
     "https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json"},
    {"llama-3-70b", "Llama 3 70B", 80, 8192, 28672, 64, 8, 128256, false,
     "https://huggingface.co/meta-llama/Meta-Llama-3-70B/blob/main/config.json"},
    // config.json gives sliding_window 4096, which llama.cpp does not apply
    // to this model: it converts and runs it as a llama model, with full
    // attention (llama.cpp issues #3371 and #3377 asked for the window), so
    // the entry has none, as the runtime it estimates holds the cache.
    {"mistral-7b", "Mistral 7B v0.1", 32, 4096, 14336, 32, 8, 32000, false,
     "https://huggingface.co/mistralai/Mistral-7B-v0.1/blob/main/config.json"},
    {"qwen2.5-7b", "Qwen2.5 7B", 28, 3584, 18944, 28, 4, 152064, false,
     "https://huggingface.co/Qwen/Qwen2.5-7B/blob/main/config.json"},
    {"qwen2.5-14b", "Qwen2.5 14B", 48, 5120, 13824, 40, 8, 152064, false,
     "https://huggingface.co/Qwen/Qwen2.5-14B/blob/main/config.json"},
    {"qwen2.5-32b", "Qwen2.5 32B", 64, 5120, 27648, 40, 8, 152064, false,
     "https://huggingface.co/Qwen/Qwen2.5-32B/blob/main/config.json"},
    {"qwen2.5-72b", "Qwen2.5 72B", 80, 8192, 29568, 64, 8, 152064, false,
     "https://huggingface.co/Qwen/Qwen2.5-72B/blob/main/config.json"},
    {"llama-3.1-8b", "Llama 3.1 8B", 32, 4096, 14336, 32, 8, 128256, false,
     "https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json"},
    {"llama-3.1-70b", "Llama 3.1 70B", 80, 8192, 28672, 64, 8, 128256, false,
     "https://huggingface.co/meta-llama/Llama-3.1-70B/blob/main/config.json"},
    {"llama-3.1-405b", "Llama 3.1 405B", 126, 16384, 53248, 128, 8, 128256, false,
     "https://huggingface.co/meta-llama/Llama-3.1-405B/blob/main/config.json"},
    {"llama-3.3-70b", "Llama 3.3 70B Instruct", 80, 8192, 28672, 64, 8, 128256, false,
     "https://huggingface.co/meta-llama/Llama-3.3-70B-Instruct/blob/main/config.json"},
    {"deepseek-r1-distill-llama-70b", "DeepSeek R1 Distill Llama 70B", 80, 8192, 28672, 64, 8, 128256, false,
     "https://huggingface.co/deepseek-ai/DeepSeek-R1-Distill-Llama-70B/blob/main/config.json"},
    {"codellama-34b", "Code Llama 34B", 48, 8192, 22016, 64, 8, 32000, false,
     "https://huggingface.co/codellama/CodeLlama-34b-hf/blob/main/config.json"},
    {"mistral-small-24b", "Mistral Small 3 24B (2501)", 40, 5120, 32768, 32, 8, 131072, false,
     "https://huggingface.co/mistralai/Mistral-Small-24B-Base-2501/blob/main/config.json (head_dim 128)", 128},
    {"mixtral-8x7b", "Mixtral 8x7B v0.1", 32, 4096, 14336, 32, 8, 32000, false,
     "https://huggingface.co/mistralai/Mixtral-8x7B-v0.1/blob/main/config.json (num_local_experts 8, "
     "num_experts_per_tok 2)",
     0, 8, 2},
    {"qwen3-8b", "Qwen3 8B", 36, 4096, 12288, 32, 8, 151936, false,
     "https://huggingface.co/Qwen/Qwen3-8B/blob/main/config.json"},
    {"qwen3-14b", "Qwen3 14B", 40, 5120, 17408, 40, 8, 151936, false,
     "https://huggingface.co/Qwen/Qwen3-14B/blob/main/config.json"},
    {"qwen3-32b", "Qwen3 32B", 64, 5120, 25600, 64, 8, 151936, false,
     "https://huggingface.co/Qwen/Qwen3-32B/blob/main/config.json (head_dim 128)", 128},
    {"qwen3-30b-a3b", "Qwen3 30B-A3B", 48, 2048, 768, 32, 4, 151936, false,
     "https://huggingface.co/Qwen/Qwen3-30B-A3B/blob/main/config.json (head_dim 128, num_experts 128, "
     "num_experts_per_tok 8, moe_intermediate_size 768)",
     128, 128, 8},
    {"gemma-2-27b", "Gemma 2 27B", 46, 4608, 36864, 32, 16, 256000, true,
     "https://huggingface.co/google/gemma-2-27b/blob/main/config.json (head_dim 128, sliding_window 4096 on "
     "every other layer, from the first)",
     128, 0, 0, 4096, 2},
    {"gemma-3-27b", "Gemma 3 27B", 62, 5376, 21504, 32, 16, 262208, true,
     "https://huggingface.co/google/gemma-3-27b-pt/blob/main/config.json, text_config (head_dim 128, "
     "sliding_window 1024, sliding_window_pattern 6: five sliding layers, then a global one)",
     128, 0, 0, 1024, 6},
    {"phi-4", "Phi-4 14B", 40, 5120, 17920, 40, 10, 100352, false,
     "https://huggingface.co/microsoft/phi-4/blob/main/config.json"},
    {"gpt-oss-20b", "gpt-oss-20b", 24, 2880, 2880, 64, 8, 201088, false,
     "https://huggingface.co/openai/gpt-oss-20b/blob/main/config.json (head_dim 64, num_local_experts 32, "
     "experts_per_token 4, sliding_window 128 on every other layer, from the first)",
     64, 32, 4, 128, 2},
    {"gpt-oss-120b", "gpt-oss-120b", 36, 2880, 2880, 64, 8, 201088, false,
     "https://huggingface.co/openai/gpt-oss-120b/blob/main/config.json (head_dim 64, num_local_experts 128, "
     "experts_per_token 4, sliding_window 128 on every other layer, from the first)",
     64, 128, 4, 128, 2},
};

// The K-quant mixes' averages come from llama.cpp's own table of bits per
// weight; the block formats' from their block layouts. That table is no
// longer in the README on master (its Llama 3.1 8B table replaced it), so
// the link names a commit that holds it.
constexpr std::string_view kQuantTable =
    "llama.cpp examples/quantize/README.md, bits per weight of Llama 2 7B "
    "(https://github.com/ggml-org/llama.cpp/blob/02240912ff3621da378ed62cb5d0f279f17fc9d1/examples/quantize/"
    "README.md)";
// The i-quant mixes are not in that table; the README's later table, for
// Llama 3.1 8B, lists them.
constexpr std::string_view kQuantTable31 =
    "llama.cpp tools/quantize/README.md, bits/weight of meta-llama/Llama-3.1-8B "
    "(https://github.com/ggml-org/llama.cpp/blob/master/tools/quantize/README.md)";

// Listed from the largest to the smallest.
const std::vector<QuantSpec> kQuants = {
    {"F16", "F16", 2.0, "IEEE half precision: 16 bits per weight"},
    {"BF16", "BF16", 2.0, "bfloat16 (ggml GGML_TYPE_BF16): 16 bits per weight"},
    {"Q8_0", "Q8_0", 34.0 / 32,
     "llama.cpp ggml/src/ggml-common.h block_q8_0: 32 int8 weights and one fp16 scale = 34 bytes per 32 weights "
     "(8.5 bits)"},
    {"Q6_K", "Q6_K", 6.56 / 8, kQuantTable},
    {"Q5_K_M", "Q5_K", 5.68 / 8, kQuantTable},
    {"Q5_K_S", "Q5_K", 5.52 / 8, kQuantTable},
    {"Q4_K_M", "Q4_K", 4.84 / 8, kQuantTable},
    {"Q4_K_S", "Q4_K", 4.58 / 8, kQuantTable},
    {"Q4_0", "Q4_0", 18.0 / 32,
     "llama.cpp ggml/src/ggml-common.h block_q4_0: 32 4-bit weights and one fp16 scale = 18 bytes per 32 weights "
     "(4.5 bits)"},
    {"IQ4_XS", "IQ4_XS", 4.4597 / 8, kQuantTable31},
    // llama.cpp's MXFP4 files keep OpenAI's MXFP4 for the expert tensors
    // only; attention and both embeddings are Q8_0 (the router, the norms
    // and the biases F32: under 0.3 % of the weights, counted here at Q8_0).
    {"MXFP4", "MXFP4", 17.0 / 32,
     "llama.cpp ggml/src/ggml-common.h block_mxfp4: 32 4-bit weights and one E8M0 scale = 17 bytes per 32 weights "
     "(4.25 bits), for the feed-forward (expert) tensors; every other matrix Q8_0 (34 bytes per 32 weights), as "
     "ggml-org/gpt-oss-20b-GGUF's gpt-oss-20b-mxfp4.gguf holds them (llama.cpp's loader: \"type f32: 289 tensors, "
     "type q8_0: 98 tensors, type mxfp4: 72 tensors\", file type MXFP4 MoE, 11.27 GiB for 20.91 B parameters; "
     "https://github.com/ikawrakow/ik_llama.cpp/issues/822); gpt-oss 120B MXFP4 MoE is 59.02 GiB for 116.83 B "
     "(llama-bench, https://github.com/ggml-org/llama.cpp/pull/19922)",
     34.0 / 32},
    {"Q3_K_M", "Q3_K", 3.91 / 8, kQuantTable},
    {"Q2_K", "Q2_K", 3.35 / 8, kQuantTable},
    {"IQ2_XXS", "IQ2_XXS", 2.3824 / 8, kQuantTable31},
};

// Bandwidths are the standards' one-direction data rates; latencies are
// typical one-way times for a small transfer, which no standard fixes.
const std::vector<LinkSpec> kLinks = {
    {"pcie3-x16", "PCIe 3.0 x16", 10e-6, 15.75 * GBps,
     "PCI-SIG PCIe 3.0: 8 GT/s per lane, 128b/130b encoding (https://pcisig.com/specifications)"},
    {"pcie4-x16", "PCIe 4.0 x16", 10e-6, 31.5 * GBps,
     "PCI-SIG PCIe 4.0: 16 GT/s per lane, 128b/130b encoding (https://pcisig.com/specifications)"},
    {"pcie4-x4", "PCIe 4.0 x4", 10e-6, 7.88 * GBps,
     "PCI-SIG PCIe 4.0: 16 GT/s per lane, 128b/130b encoding (https://pcisig.com/specifications)"},
    {"nvlink-3090", "NVLink bridge (RTX 3090)", 5e-6, 56.25 * GBps,
     "Ampere GA102 whitepaper (https://www.nvidia.com/content/PDF/nvidia-ampere-ga-102-gpu-architecture-"
     "whitepaper-v2.pdf): four x4 NVLink links, 112.5 GB/s in both directions together"},
    {"ethernet-1g", "Ethernet 1 Gb/s", 100e-6, 0.125 * GBps, "IEEE 802.3ab, 1000BASE-T: 1 Gb/s"},
    {"ethernet-10g", "Ethernet 10 Gb/s", 50e-6, 1.25 * GBps, "IEEE 802.3an, 10GBASE-T: 10 Gb/s"},
    {"ethernet-25g", "Ethernet 25 Gb/s", 25e-6, 3.125 * GBps, "IEEE 802.3by, 25 Gb/s Ethernet"},
    {"thunderbolt-4", "Thunderbolt 4", 50e-6, 5 * GBps,
     "https://www.intel.com/content/www/us/en/architecture-and-technology/thunderbolt/thunderbolt-4-brief.html "
     "(40 Gb/s)"},
};

// An id is a typed name: read without the blanks around it (typed_value), as
// the input's objective or phase is.
template <class Entry>
Result<Entry> find(const std::vector<Entry>& entries, std::string_view typed, Field field, std::int64_t index) {
  const std::string_view id = typed_value(typed);
  for (const Entry& e : entries) {
    if (e.id == id) return e;
  }
  return Error{ErrorCode::unknown_id, field, index, 0.0, std::string(id)};
}

}  // namespace

const std::vector<GpuSpec>& catalog_gpus() { return kGpus; }
const std::vector<ModelSpec>& catalog_models() { return kModels; }
const std::vector<QuantSpec>& catalog_quants() { return kQuants; }
const std::vector<LinkSpec>& catalog_links() { return kLinks; }

Result<GpuSpec> find_gpu(std::string_view id, std::int64_t index) { return find(kGpus, id, Field::devices, index); }
Result<ModelSpec> find_model(std::string_view id) { return find(kModels, id, Field::model, kWholeField); }
Result<QuantSpec> find_quant(std::string_view id) { return find(kQuants, id, Field::quant, kWholeField); }
Result<LinkSpec> find_link(std::string_view id, std::int64_t index) { return find(kLinks, id, Field::links, index); }

std::int64_t quant_block(const QuantSpec& q) { return ggml_type_named(q.type)->block_size; }

double stored_bytes_per_weight(const QuantSpec& q, double rate, std::int64_t row) {
  const GgmlType type = *ggml_type_named(q.type);
  const GgmlType stored = quantizer_row_type(type, row);
  if (stored.id == type.id) return rate;
  return static_cast<double>(stored.type_size) / static_cast<double>(stored.block_size);
}

// llama_tensor_get_type_impl (src/llama-quant.cpp, ggml-org/llama.cpp at
// commit 007dbbf3fd17eefe9b47fee45f48f7ba5e62b714) gives output.weight Q8_0
// where its rows are no whole number of the asked type's blocks.
double lm_head_bytes_per_weight(const QuantSpec& q, std::int64_t row) {
  if (row % quant_block(q) == 0) return non_ffn_bytes_per_weight(q);
  const GgmlType stored = quantizer_row_type(*ggml_type_named("Q8_0"), row);
  return static_cast<double>(stored.type_size) / static_cast<double>(stored.block_size);
}

}  // namespace heteropipe
