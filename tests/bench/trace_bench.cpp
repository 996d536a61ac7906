// Trace import: reading about 100 MB of Kineto-shaped JSON (its time and the
// reader's peak memory beyond the text), about 100 MB in the CPU profiler's
// form (recovered by the CPU-pipeline rules), and recovering the model from
// about 1e6 events. Figures go to docs/benchmarks.md.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include "../core/trace_support.hpp"

using namespace heteropipe;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Processor time as well: the machine is shared, and wall time counts the waits.
double cpu_seconds_since(std::clock_t start) { return static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC; }

// Peak resident memory (VmHWM) in bytes, and a way to restart it.
double peak_bytes() {
  std::ifstream status("/proc/self/status");
  std::string key;
  double kb = 0;
  while (status >> key) {
    if (key == "VmHWM:") {
      status >> kb;
      break;
    }
  }
  return kb * 1024;
}

void reset_peak() { std::ofstream("/proc/self/clear_refs") << "5"; }

double resident_bytes() {
  std::ifstream status("/proc/self/status");
  std::string key;
  double kb = 0;
  while (status >> key) {
    if (key == "VmRSS:") {
      status >> kb;
      break;
    }
  }
  return kb * 1024;
}

std::vector<std::string> rank_texts(std::int64_t M, int kernels) {
  testing::SyntheticRun run;
  run.tau = {1000, 2500, 1500, 2000};
  run.d = {200, 300, 100};
  run.M = M;
  run.kernels = kernels;
  run.clock = {0, 12345, -777, 4242};
  const Timeline t = testing::synthetic_timeline(run);
  std::vector<std::string> texts;
  for (std::int64_t r = 0; r < t.S; ++r) texts.push_back(testing::synthetic_rank(run, t, r));
  return texts;
}

// Two ranks in the CPU profiler's form (torch without Kineto, as
// examples/torch-pipeline writes them): bare arrays whose events share the
// pid "CPU functions", host ops nested inside record_function ranges, and
// each message as a c10d:: wrapper and a gloo: transport event. Read and
// recovered by the CPU-pipeline rules: compute is every other event, its
// intervals merged, and each wrapper's hand-over times the clocks.
std::vector<std::string> cpu_rank_texts(std::int64_t M, int ops) {
  std::string r0 = "[", r1 = "[";
  char line[256];
  auto event = [&](std::string& out, const char* name, double ts, double dur) {
    std::snprintf(line, sizeof line,
                  "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s\", \"pid\": \"CPU functions\", "
                  "\"tid\": 1, \"ts\": %.3f, \"dur\": %.3f, \"args\": {}}",
                  out.size() > 1 ? ",\n" : "", name, ts, dur);
    out += line;
  };
  const double tau0 = 1000, tau1 = 1100, write = 40, step = tau0 / ops;
  double free0 = 10, free1 = 10;
  for (std::int64_t m = 0; m < M; ++m) {
    const std::string range = "microbatch_" + std::to_string(m);
    event(r0, range.c_str(), free0, tau0);
    for (int k = 0; k < ops; ++k) {
      event(r0, "aten::matmul", free0 + k * step, step - 1);
      event(r0, "aten::mm", free0 + k * step + 0.5, step - 2);
    }
    const double send = free0 + tau0, arrival = send + write;
    event(r0, "c10d::send", send, write + 1);
    event(r0, "gloo:send", arrival - 0.5, 2);
    free0 = arrival + 2;
    const double post = free1, got = std::max(post + 2, arrival);
    event(r1, "c10d::recv_", post - 300, 1);
    event(r1, "gloo:recv", post + 1 - 300, got - post - 1);
    event(r1, range.c_str(), got + 5 - 300, tau1);
    for (int k = 0; k < ops; ++k) event(r1, "aten::mm", got + 5 - 300 + k * tau1 / ops, tau1 / ops - 1);
    free1 = got + 5 + tau1;
  }
  return {r0 + "]", r1 + "]"};
}

void read_all(const std::vector<std::string>& texts, TraceEvents& events) {
  for (std::size_t r = 0; r < texts.size(); ++r) {
    if (read_chrome_trace(texts[r], "rank-" + std::to_string(r), events)) std::abort();
  }
}

}  // namespace

int main() {
  {
    const std::vector<std::string> texts = rank_texts(7800, 20);
    double bytes = 0;
    for (const std::string& t : texts) bytes += static_cast<double>(t.size());
    for (int round = 0; round < 3; ++round) {
      reset_peak();
      const double before = resident_bytes();
      const auto start = std::chrono::steady_clock::now();
      const std::clock_t cpu_start = std::clock();
      TraceEvents events;
      read_all(texts, events);
      const double read_s = seconds_since(start), read_cpu = cpu_seconds_since(cpu_start);
      // Freed memory stays resident for later rounds, so only the first
      // round's peak is the reader's own.
      const double peak = round == 0 ? peak_bytes() - before : 0;
      const auto recover_start = std::chrono::steady_clock::now();
      const auto result = recover_model(events, {});
      const double recover_s = seconds_since(recover_start);
      std::printf("read %.1f MB (%zu events) in %.3f s (cpu %.3f s); recovery %.3f s (tau[1] = %g)\n",
                  bytes / 1e6, events.events.size(), read_s, read_cpu, recover_s, result.value().tau[1]);
      if (round == 0) {
        std::printf("  peak memory beyond the text: %.1f MB; text + reader: %.2fx the text\n", peak / 1e6,
                    (peak + bytes) / bytes);
      }
    }
  }
  {
    const std::vector<std::string> texts = cpu_rank_texts(21000, 10);
    double bytes = 0;
    for (const std::string& t : texts) bytes += static_cast<double>(t.size());
    TraceOptions by_ranges;
    by_ranges.microbatch_regex = "^microbatch_([0-9]+)$";
    for (int round = 0; round < 3; ++round) {
      const auto start = std::chrono::steady_clock::now();
      const std::clock_t cpu_start = std::clock();
      TraceEvents events;
      read_all(texts, events);
      const double read_s = seconds_since(start), read_cpu = cpu_seconds_since(cpu_start);
      const auto recover_start = std::chrono::steady_clock::now();
      const std::clock_t recover_cpu = std::clock();
      const auto result = recover_model(events, by_ranges);
      std::printf("CPU form: read %.1f MB (%zu events) in %.3f s (cpu %.3f s); recovery %.3f s (cpu %.3f s, M = %lld, "
                  "tau %g %g, offset %g)\n",
                  bytes / 1e6, events.events.size(), read_s, read_cpu, seconds_since(recover_start),
                  cpu_seconds_since(recover_cpu), static_cast<long long>(result.value().M), result.value().tau[0],
                  result.value().tau[1], result.value().clock_offsets[1]);
    }
  }
  {
    const std::vector<std::string> texts = rank_texts(20000, 10);
    TraceEvents events;
    read_all(texts, events);
    for (int round = 0; round < 5; ++round) {
      const auto start = std::chrono::steady_clock::now();
      const std::clock_t cpu_start = std::clock();
      const auto result = recover_model(events, {});
      std::printf("recover the model from %zu events: %.3f s (cpu %.3f s, M = %lld)\n", events.events.size(),
                  seconds_since(start), cpu_seconds_since(cpu_start), static_cast<long long>(result.value().M));
    }
  }
}
