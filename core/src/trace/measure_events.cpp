// Trace events to the measured pipeline: ranks, transfers paired across each
// link, clocks aligned, compute cut into micro-batches (docs/traces.md).
#include <algorithm>
#include <map>
#include <set>

#include "classify.hpp"
#include "heteropipe/limits.hpp"
#include "measured.hpp"

namespace heteropipe::trace_detail {
namespace {

struct Transfer {
  double start = 0, end = 0;
  Direction direction = Direction::unknown;
};

struct Annotation {
  double start = 0, end = 0;
  std::optional<std::int64_t> number;
};

struct RankEvents {
  TraceRank summary;
  std::set<std::int64_t> streams;
  std::vector<Interval> compute;
  std::vector<Transfer> transfers;
  std::vector<Annotation> annotations;
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// A stage's sends and receives in time order. A transfer whose direction
// the trace does not say is a send on the first stage, a receive on the
// last, and on a middle stage alternately a receive and a send (each
// micro-batch comes in before it goes out).
void split_directions(const std::vector<Transfer>& all, bool first, bool last, std::vector<Transfer>& sends,
                      std::vector<Transfer>& recvs) {
  bool next_is_recv = true;
  for (const Transfer& t : all) {
    Direction d = t.direction;
    if (d == Direction::unknown) {
      d = first ? Direction::send : last ? Direction::recv : next_is_recv ? Direction::recv : Direction::send;
      if (!first && !last) next_is_recv = !next_is_recv;
    }
    (d == Direction::send ? sends : recvs).push_back(t);
  }
}

// Compute kernels to micro-batches by annotation ranges: a kernel belongs to
// the latest range that starts at or before it and has not ended.
std::vector<std::vector<Interval>> by_annotations(const std::vector<Interval>& kernels,
                                                  std::vector<Annotation> ranges) {
  std::sort(ranges.begin(), ranges.end(), [](const Annotation& a, const Annotation& b) { return a.start < b.start; });
  std::vector<std::int64_t> numbers;
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    numbers.push_back(ranges[i].number ? *ranges[i].number : static_cast<std::int64_t>(i));
  }
  std::vector<std::int64_t> distinct = numbers;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  std::vector<std::vector<Interval>> out(distinct.size());
  for (const Interval& k : kernels) {
    auto after = std::upper_bound(ranges.begin(), ranges.end(), k.first,
                                  [](double t, const Annotation& a) { return t < a.start; });
    if (after == ranges.begin()) continue;
    const std::size_t i = static_cast<std::size_t>(after - ranges.begin()) - 1;
    if (ranges[i].end < k.first) continue;
    const auto slot = std::lower_bound(distinct.begin(), distinct.end(), numbers[i]) - distinct.begin();
    out[slot].push_back(k);
  }
  return out;
}

// Compute kernels to micro-batches by the transfers: micro-batch m ends by
// the start of its send (`closes`) and begins after its receive ends
// (`opens`). The last stage sends nothing, and when it is the bottleneck its
// work queues and runs back to back, so no gap marks where m ends: there the
// kernels after the first receive are cut into `count` runs of equal length
// when they divide evenly (each micro-batch runs the same kernels), else m is
// what starts after receive m and before receive m + 1.
std::vector<std::vector<Interval>> by_transfers(const std::vector<Interval>& kernels, const std::vector<double>& opens,
                                                const std::vector<double>& closes, std::size_t count) {
  std::vector<std::vector<Interval>> out(count);
  if (count == 0) return out;
  if (closes.empty()) {
    std::vector<Interval> after_first;
    for (const Interval& k : kernels) {
      if (k.first >= opens[0]) after_first.push_back(k);
    }
    if (!after_first.empty() && after_first.size() % count == 0) {
      const std::size_t each = after_first.size() / count;
      for (std::size_t m = 0; m < count; ++m) {
        out[m].assign(after_first.begin() + static_cast<std::ptrdiff_t>(m * each),
                      after_first.begin() + static_cast<std::ptrdiff_t>((m + 1) * each));
      }
      return out;
    }
  }
  for (const Interval& k : kernels) {
    std::size_t m = 0;
    if (!closes.empty()) {
      m = static_cast<std::size_t>(std::lower_bound(closes.begin(), closes.end(), k.second) - closes.begin());
      if (m >= count) continue;
      if (!opens.empty() && k.first < opens[m]) continue;
    } else {
      const auto after = std::upper_bound(opens.begin(), opens.end(), k.first);
      if (after == opens.begin()) continue;
      m = static_cast<std::size_t>(after - opens.begin()) - 1;
    }
    out[m].push_back(k);
  }
  return out;
}

}  // namespace

Result<Classified> measure_events(const TraceEvents& events, const TraceOptions& options) {
  auto classifier = Classifier::create(options);
  if (!classifier) return classifier.error();
  Classifier c = std::move(classifier).value();

  std::map<std::int64_t, RankEvents> ranks;
  for (const TraceFile& f : events.files) {
    if (f.rank) ranks[*f.rank].summary.rank = *f.rank;
  }
  bool any_transfer = false, any_collective = false;
  for (const TraceEvent& e : events.events) {
    const Role role = c.role(events, e);
    const bool kernel = c.is_kernel(events, e);
    if (role == Role::other && !kernel) continue;
    if (role == Role::annotation) {
      ranks[e.rank].annotations.push_back({e.start, e.end, c.microbatch_number(events.names[e.name])});
      continue;
    }
    RankEvents& r = ranks[e.rank];
    r.summary.rank = e.rank;
    r.summary.kernels += kernel ? 1 : 0;
    r.streams.insert(e.stream);
    const double length = e.end - e.start;
    if (role == Role::compute) {
      ++r.summary.compute_kernels;
      r.summary.compute_time += length;
      r.compute.emplace_back(e.start, e.end);
    } else if (role == Role::transfer) {
      any_transfer = true;
      ++r.summary.transfer_kernels;
      r.summary.communication_time += length;
      r.transfers.push_back({e.start, e.end, c.direction(events, e)});
    } else if (role == Role::collective) {
      any_collective = true;
      ++r.summary.collective_kernels;
      r.summary.communication_time += length;
    }
  }
  // A rank seen only through annotations ran nothing.
  for (auto it = ranks.begin(); it != ranks.end();) {
    const bool has_file = std::any_of(events.files.begin(), events.files.end(),
                                      [&](const TraceFile& f) { return f.rank && *f.rank == it->first; });
    const TraceRank& s = it->second.summary;
    if (!has_file && s.compute_kernels + s.transfer_kernels + s.collective_kernels + s.kernels == 0) {
      it = ranks.erase(it);
    } else {
      ++it;
    }
  }

  if (static_cast<std::int64_t>(ranks.size()) > limits::kMaxTraceRanks) {
    return Error{ErrorCode::too_many, Field::rank, kWholeField, static_cast<double>(ranks.size()), {},
                 static_cast<double>(limits::kMaxTraceRanks)};
  }
  Classified out;
  std::vector<std::int64_t> found;
  for (auto& [rank, r] : ranks) {
    r.summary.streams = static_cast<std::int64_t>(r.streams.size());
    found.push_back(rank);
  }
  auto order = stage_ranks(found, options);
  if (!order) return order.error();
  const std::vector<std::int64_t>& stage_rank = order.value();
  for (std::size_t s = 0; s < stage_rank.size(); ++s) ranks[stage_rank[s]].summary.stage = static_cast<std::int64_t>(s);
  for (const auto& [rank, r] : ranks) out.ranks.push_back(r.summary);

  if (ranks.size() < 2) out.reason = NotPipeline::one_rank;
  else if (!any_transfer) out.reason = any_collective ? NotPipeline::collectives_only : NotPipeline::no_transfers;
  if (out.reason) return out;

  const std::size_t S = stage_rank.size();
  std::vector<std::vector<Transfer>> sends(S), recvs(S);
  for (std::size_t s = 0; s < S; ++s) {
    RankEvents& r = ranks[stage_rank[s]];
    std::sort(r.transfers.begin(), r.transfers.end(), [](const Transfer& a, const Transfer& b) { return a.start < b.start; });
    split_directions(r.transfers, s == 0, s + 1 == S, sends[s], recvs[s]);
  }
  Measured& m = out.measured;
  m.stage_rank = stage_rank;
  m.offsets.assign(S, 0.0);
  m.transfers.resize(S - 1);
  m.unmatched.resize(S - 1);
  for (std::size_t link = 0; link + 1 < S; ++link) {
    const auto& out_of = sends[link];
    const auto& into = recvs[link + 1];
    const std::size_t pairs = std::min(out_of.size(), into.size());
    m.unmatched[link] = static_cast<std::int64_t>(std::max(out_of.size(), into.size()) - pairs);
    if (pairs == 0) {
      out.reason = NotPipeline::unpaired_link;
      return out;
    }
    // A matched pair ends together, so the difference of its ends is the
    // difference of the two clocks.
    std::vector<double> skew(pairs);
    for (std::size_t k = 0; k < pairs; ++k) skew[k] = out_of[k].end - into[k].end;
    m.offsets[link + 1] = m.offsets[link] + median(skew);
    for (std::size_t k = 0; k < pairs; ++k) {
      const double send_start = out_of[k].start + m.offsets[link];
      const double recv_start = into[k].start + m.offsets[link + 1];
      m.transfers[link].push_back({std::max(send_start, recv_start), into[k].end + m.offsets[link + 1]});
    }
  }

  m.compute.resize(S);
  for (std::size_t s = 0; s < S; ++s) {
    RankEvents& r = ranks[stage_rank[s]];
    for (Interval& k : r.compute) {
      k.first += m.offsets[s];
      k.second += m.offsets[s];
    }
    std::sort(r.compute.begin(), r.compute.end());
    if (!options.microbatch_regex.empty()) {
      for (Annotation& a : r.annotations) {
        a.start += m.offsets[s];
        a.end += m.offsets[s];
      }
      m.compute[s] = by_annotations(r.compute, r.annotations);
      continue;
    }
    std::vector<double> opens, closes;
    if (s > 0) {
      for (const Transfer& t : recvs[s]) opens.push_back(t.end + m.offsets[s]);
    }
    if (s + 1 < S) {
      for (const Transfer& t : sends[s]) closes.push_back(t.start + m.offsets[s]);
    }
    const std::size_t count = std::min(s > 0 ? m.transfers[s - 1].size() : SIZE_MAX,
                                       s + 1 < S ? m.transfers[s].size() : SIZE_MAX);
    std::sort(opens.begin(), opens.end());
    std::sort(closes.begin(), closes.end());
    opens.resize(std::min(opens.size(), count));
    m.compute[s] = by_transfers(r.compute, opens, closes, count);
  }
  return out;
}

}  // namespace heteropipe::trace_detail
