// The catalog's entries. Every number is a vendor's or a model card's
// published fact; each entry's source says where it is written.
#include "heteropipe/plan/catalog.hpp"

#include <string>

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

const std::vector<GpuSpec> kGpus = {
    {"rtx-3060-12gb", "GeForce RTX 3060 12GB", DeviceClass::nvidia_gddr, 12 * GiB, 360 * GBps, 25.4 * TFLOPS,
     "https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3060-3060ti/ (12 GB, 360 GB/s); "
     "tensor rate: 28 SMs x 1.777 GHz x 512 FLOP/clk, the GA10x rate of the Ampere GA102 whitepaper"},
    {"rtx-3070", "GeForce RTX 3070", DeviceClass::nvidia_gddr, 8 * GiB, 448 * GBps, 40.6 * TFLOPS, kAmpere},
    {"rtx-3080", "GeForce RTX 3080 10GB", DeviceClass::nvidia_gddr, 10 * GiB, 760 * GBps, 59.5 * TFLOPS, kAmpere},
    {"rtx-3090", "GeForce RTX 3090", DeviceClass::nvidia_gddr, 24 * GiB, 936 * GBps, 71 * TFLOPS, kAmpere},
    {"rtx-4060-ti-16gb", "GeForce RTX 4060 Ti 16GB", DeviceClass::nvidia_gddr, 16 * GiB, 288 * GBps, 44.2 * TFLOPS,
     kAda},
    {"rtx-4070-ti", "GeForce RTX 4070 Ti", DeviceClass::nvidia_gddr, 12 * GiB, 504 * GBps, 80.2 * TFLOPS, kAda},
    {"rtx-4080", "GeForce RTX 4080", DeviceClass::nvidia_gddr, 16 * GiB, 716.8 * GBps, 97.5 * TFLOPS, kAda},
    {"rtx-4090", "GeForce RTX 4090", DeviceClass::nvidia_gddr, 24 * GiB, 1008 * GBps, 165.2 * TFLOPS, kAda},
    {"rtx-5090", "GeForce RTX 5090", DeviceClass::nvidia_gddr, 32 * GiB, 1792 * GBps, 209.5 * TFLOPS, kBlackwell},
    {"rtx-a6000", "NVIDIA RTX A6000", DeviceClass::nvidia_gddr, 48 * GiB, 768 * GBps, 154.8 * TFLOPS,
     "NVIDIA RTX A6000 datasheet (https://www.nvidia.com/content/dam/en-zz/Solutions/design-visualization/"
     "quadro-product-literature/proviz-print-nvidia-rtx-a6000-datasheet-us-nvidia-1454980-r9-web.pdf): "
     "48 GB GDDR6, 768 GB/s, 309.7 TFLOPS FP16 tensor with sparsity (half dense)"},
    {"l40s", "NVIDIA L40S", DeviceClass::nvidia_gddr, 48 * GiB, 864 * GBps, 362.05 * TFLOPS,
     "https://www.nvidia.com/en-us/data-center/l40s/ (48 GB GDDR6, 864 GB/s, 733 TFLOPS FP16 tensor with "
     "sparsity: 362.05 dense)"},
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
    {"tesla-v100", "NVIDIA Tesla V100 SXM2 32GB", DeviceClass::nvidia_hbm, 32 * GiB, 900 * GBps, 125 * TFLOPS,
     "https://www.nvidia.com/en-us/data-center/v100/ (V100 SXM2: 32 GB HBM2, 900 GB/s, 125 TFLOPS tensor)"},
    // Pascal runs FP16 arithmetic at 1/64 rate and llama.cpp computes in
    // FP32 there, so its FP32 rate is the throughput that counts.
    {"tesla-p40", "NVIDIA Tesla P40", DeviceClass::nvidia_gddr, 24 * GiB, 347 * GBps, 11.76 * TFLOPS,
     "NVIDIA Tesla P40 datasheet (https://images.nvidia.com/content/pdf/tesla/184427-Tesla-P40-Datasheet-"
     "NV-Final-Letter-Web.pdf): 24 GB GDDR5, 346 GB/s, 11.76 TFLOPS FP32 (FP16 runs at 1/64 of it)"},
    // Apple quotes no tensor rate; the GPU's FP16 rate equals its FP32 rate
    // (cores x 128 ALUs x 2 FLOP x clock). Memory is the largest configuration.
    {"apple-m1-max", "Apple M1 Max (32-core GPU)", DeviceClass::apple, 64 * GiB, 400 * GBps, 10.4 * TFLOPS,
     "https://www.apple.com/newsroom/2021/10/introducing-m1-pro-and-m1-max-the-most-powerful-chips-apple-has-"
     "ever-built/ (up to 64 GB, 400 GB/s, 10.4 TFLOPS)"},
    {"apple-m2-ultra", "Apple M2 Ultra (76-core GPU)", DeviceClass::apple, 192 * GiB, 800 * GBps, 27.2 * TFLOPS,
     "https://www.apple.com/newsroom/2023/06/apple-introduces-m2-ultra/ (up to 192 GB, 800 GB/s); 76 cores x "
     "128 ALUs x 2 x 1.398 GHz = 27.2 TFLOPS"},
    {"apple-m3-max", "Apple M3 Max (40-core GPU)", DeviceClass::apple, 128 * GiB, 400 * GBps, 16.4 * TFLOPS,
     "https://www.apple.com/newsroom/2023/10/apple-unveils-m3-m3-pro-and-m3-max-the-most-advanced-chips-for-a-"
     "personal-computer/ (up to 128 GB, 400 GB/s on the 40-core GPU); 40 cores x 128 ALUs x 2 x 1.6 GHz"},
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
};

// The K-quant mixes' averages come from llama.cpp's own table of bits per
// weight; the block formats' from their block layouts.
constexpr std::string_view kQuantTable =
    "llama.cpp tools/quantize/README.md, bits per weight of Llama 2 7B "
    "(https://github.com/ggml-org/llama.cpp/blob/master/tools/quantize/README.md)";

const std::vector<QuantSpec> kQuants = {
    {"F16", 2.0, "IEEE half precision: 16 bits per weight"},
    {"Q8_0", 34.0 / 32, "llama.cpp ggml/src/ggml-common.h block_q8_0: 32 int8 weights and one fp16 scale = "
                        "34 bytes per 32 weights (8.5 bits)"},
    {"Q6_K", 6.56 / 8, kQuantTable},
    {"Q5_K_M", 5.68 / 8, kQuantTable},
    {"Q4_K_M", 4.84 / 8, kQuantTable},
    {"Q4_0", 18.0 / 32, "llama.cpp ggml/src/ggml-common.h block_q4_0: 32 4-bit weights and one fp16 scale = "
                        "18 bytes per 32 weights (4.5 bits)"},
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

template <class Entry>
Result<Entry> find(const std::vector<Entry>& entries, std::string_view id, Field field, std::int64_t index) {
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

}  // namespace heteropipe
