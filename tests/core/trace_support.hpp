#pragma once

// Test-only: Kineto-shaped trace text written from the exact engine's
// timeline, one JSON text per rank, so that recovery can be held to the
// tau, d, M and T_real the timeline was made from.
#include <heteropipe/heteropipe.hpp>
#include <heteropipe/trace/model.hpp>

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace heteropipe::testing {

struct SyntheticRun {
  std::vector<double> tau, d;     // microseconds, whole numbers divisible by `kernels`
  std::int64_t M = 8;
  int kernels = 4;                // compute kernels per micro-batch
  std::vector<double> clock;      // per rank: added to its timestamps
  double recv_wait = 7;           // a receive kernel starts this long before its send
  std::int64_t base = 1682725898000000;  // Kineto's epoch microseconds
  bool annotate = false;          // a gpu_user_annotation range "microbatch_<m>" around each micro-batch
  // With annotate, the host's own range of each record_function too (Kineto's
  // user_annotation on the CPU thread, of which gpu_user_annotation is the
  // device's copy): the host enqueues each micro-batch's kernels ahead of
  // the device, in ranges of 20 us every 30 us from the trace's start.
  bool host_ranges = false;
  // torch 2.x's args: each send names its "Dst Rank", each receive its "Src Rank".
  bool peers = false;
  // The last stage sends each micro-batch's output back to stage 0, which
  // receives them all after its own work: results returned, no link.
  bool returns = false;
  // After the forward pass, each stage s > 0 sends each micro-batch's
  // gradient to stage s - 1: a GPipe training run's backward messages.
  bool gradients = false;
  // autograd's backward ops (CPU ops), as any training trace holds.
  bool autograd = false;
  // Each stage also sends one message to this rank (a rank of another group).
  std::int64_t elsewhere = -1;
};

#ifdef DOCTEST_LIBRARY_INCLUDED  // the suites' (the trace benchmark includes this file too)
// A run with something set aside (results returned to stage 0, another
// profiler step, events that are no op) gives the plain run's numbers, every one.
inline void check_same(const TraceResult& with, const TraceResult& plain) {
  REQUIRE(with.pipeline);
  REQUIRE(plain.pipeline);
  CHECK(with.tau == plain.tau);
  CHECK(with.d == plain.d);
  CHECK(with.M == plain.M);
  CHECK(with.T_real == plain.T_real);
  CHECK(with.clock_offsets == plain.clock_offsets);
  REQUIRE(with.explain.size() == plain.explain.size());
  for (std::size_t i = 0; i < with.explain.size(); ++i) CHECK(with.explain[i].time == plain.explain[i].time);
  REQUIRE(with.links.size() == plain.links.size());
  for (std::size_t l = 0; l < with.links.size(); ++l) CHECK(with.links[l].pairs == plain.links[l].pairs);
}
#endif

// The result's warning of this code, or null when it has none.
inline const TraceWarning* warning_of(const TraceResult& r, TraceWarningCode code) {
  const auto found = std::find_if(r.warnings.begin(), r.warnings.end(), [&](const TraceWarning& w) { return w.code == code; });
  return found == r.warnings.end() ? nullptr : &*found;
}

inline Timeline synthetic_timeline(const SyntheticRun& run) {
  return timeline(Pipeline::create(run.tau, run.d).value(), static_cast<double>(run.M), Regime::async).value();
}

// One event of the legacy CPU profiler's Chrome trace (every rank's pid is
// "CPU functions"), comma-separated from the previous one.
inline void cpu_event(std::ostringstream& out, const std::string& name, double ts, double dur) {
  if (out.tellp() > 1) out << ",\n";
  out << R"({"name": ")" << name << R"(", "ph": "X", "ts": )" << ts << R"(, "dur": )" << dur
      << R"(, "tid": 1, "pid": "CPU functions", "args": {}})";
}

inline void kernel(std::ostringstream& out, const char* name, int rank, int stream, double ts, double dur,
                   const char* collective = nullptr, std::int64_t peer = -1) {
  out << ",\n{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" << name << "\",\"pid\":" << rank << ",\"tid\":" << stream
      << ",\"ts\":" << ts << ",\"dur\":" << dur << ",\"args\":{\"device\":" << rank << ",\"stream\":" << stream;
  if (collective) out << ",\"Collective name\":\"" << collective << "\",\"Process Group Ranks\":[0,1]";
  // torch 2.x's names and form (torch/csrc/profiler/util.cpp, saveNcclMeta).
  if (peer >= 0) out << ",\"" << (collective && collective[0] == 's' ? "Dst" : "Src") << " Rank\":" << peer;
  out << "}}";
}

// The JSON text of rank r's trace.
inline std::string synthetic_rank(const SyntheticRun& run, const Timeline& t, std::int64_t r) {
  std::ostringstream out;
  out.precision(17);
  const std::int64_t S = t.S;
  const double shift = static_cast<double>(run.base) + (run.clock.empty() ? 0.0 : run.clock[r]);
  out << "{\"schemaVersion\":1,\"deviceProperties\":[{\"id\":0,\"name\":\"GPU\",\"totalGlobalMem\":1}],"
      << "\"distributedInfo\":{\"backend\":\"nccl\",\"rank\":" << r << ",\"world_size\":" << S << "},\n"
      << "\"traceEvents\":[\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << r
      << ",\"tid\":0,\"args\":{\"name\":\"python\"}}";
  out << ",\n{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":4000,\"tid\":1,\"ts\":" << shift
      << ",\"dur\":3,\"args\":{\"External id\":1}}";
  for (std::int64_t m = 0; m < t.M; ++m) {
    const std::size_t cell = static_cast<std::size_t>(m * S + r);
    const double start = t.compute_start[cell], length = t.compute_finish[cell] - start;
    if (run.annotate) {
      out << ",\n{\"ph\":\"X\",\"cat\":\"gpu_user_annotation\",\"name\":\"microbatch_" << m << "\",\"pid\":" << r
          << ",\"tid\":7,\"ts\":" << shift + start << ",\"dur\":" << length << "}";
    }
    if (run.annotate && run.host_ranges) {
      out << ",\n{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"microbatch_" << m
          << "\",\"pid\":4000,\"tid\":1,\"ts\":" << shift + 30.0 * static_cast<double>(m) << ",\"dur\":20}";
    }
    for (int k = 0; k < run.kernels; ++k) {
      kernel(out, "void gemm_kernel<128>(float*)", static_cast<int>(r), 7, shift + start + length * k / run.kernels,
             length / run.kernels);
    }
    const char* sendrecv = "ncclDevKernel_SendRecv(ncclDevComm*)";
    const std::int64_t next = run.peers ? r + 1 : -1, before = run.peers ? r - 1 : -1;
    if (r + 1 < S) {
      const std::size_t link = static_cast<std::size_t>(m * (S - 1) + r);
      kernel(out, sendrecv, static_cast<int>(r), 84, shift + t.transfer_start[link],
             t.transfer_finish[link] - t.transfer_start[link], "send", next);
    }
    if (r > 0) {
      const std::size_t link = static_cast<std::size_t>(m * (S - 1) + r - 1);
      const double begin = t.transfer_start[link] - run.recv_wait;
      kernel(out, sendrecv, static_cast<int>(r), 85, shift + begin, t.transfer_finish[link] - begin, "recv", before);
    }
    // A result goes back from the last stage as its micro-batch ends; stage
    // 0 takes them after the whole run.
    const std::size_t last = static_cast<std::size_t>(m * S + S - 1);
    if (run.returns && r + 1 == S) {
      kernel(out, sendrecv, static_cast<int>(r), 86, shift + t.compute_finish[last], 3, "send", run.peers ? 0 : -1);
    }
    if (run.returns && r == 0) {
      kernel(out, sendrecv, static_cast<int>(r), 87, shift + t.makespan + 20 + 4.0 * m, 3, "recv",
             run.peers ? S - 1 : -1);
    }
    const double back = t.makespan + 1000 + 50.0 * m;
    if (run.gradients && r > 0) kernel(out, sendrecv, static_cast<int>(r), 88, shift + back, 5, "send", before);
    if (run.gradients && r + 1 < S) {
      kernel(out, sendrecv, static_cast<int>(r), 89, shift + back - 1, 7, "recv", run.peers ? r + 1 : -1);
    }
    if (run.autograd) {
      out << ",\n{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"autograd::engine::evaluate_function: MmBackward0\","
          << "\"pid\":4000,\"tid\":2,\"ts\":" << shift + back - 20 << ",\"dur\":10}";
    }
  }
  if (run.elsewhere >= 0) {
    kernel(out, "ncclDevKernel_SendRecv(ncclDevComm*)", static_cast<int>(r), 91, shift + t.makespan + 5, 2, "send",
           run.elsewhere);
  }
  kernel(out, "ncclDevKernel_AllReduce_Sum_f32(ncclDevComm*)", static_cast<int>(r), 90, shift + t.makespan + 10, 5);
  out << "\n]}";
  return out.str();
}

inline TraceEvents read_synthetic(const SyntheticRun& run) {
  const Timeline t = synthetic_timeline(run);
  TraceEvents events;
  for (std::int64_t r = 0; r < t.S; ++r) {
    const auto problem = read_chrome_trace(synthetic_rank(run, t, r), "rank-" + std::to_string(r) + ".json", events);
    if (problem) throw std::runtime_error("synthetic trace did not read");
  }
  return events;
}

// The timeline as a schedule CSV (what an exported schedule holds).
inline std::string timeline_csv(const Timeline& t) {
  std::ostringstream out;
  out.precision(17);
  out << "stage,microbatch,kind,start,end\n";
  for (std::int64_t m = 0; m < t.M; ++m) {
    for (std::int64_t s = 0; s < t.S; ++s) {
      const std::size_t cell = static_cast<std::size_t>(m * t.S + s);
      out << s << ',' << m << ",compute," << t.compute_start[cell] << ',' << t.compute_finish[cell] << '\n';
      if (s + 1 < t.S) {
        const std::size_t link = static_cast<std::size_t>(m * (t.S - 1) + s);
        out << s << ',' << m << ",transfer," << t.transfer_start[link] << ',' << t.transfer_finish[link] << '\n';
      }
    }
  }
  return out.str();
}

}  // namespace heteropipe::testing
