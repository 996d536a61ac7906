// Trace events to the measured pipeline: ranks, transfers paired across each
// link, clocks aligned, compute cut into micro-batches (docs/traces.md).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "classify.hpp"
#include "heteropipe/limits.hpp"
#include "heteropipe/parse.hpp"
#include "measured.hpp"

namespace heteropipe::trace_detail {
namespace {

// The most of the time a receiver computes between two micro-batches that
// it may spend between two receives of one micro-batch, which then stay one
// run (messages_per_microbatch).
constexpr double kRunWorkShare = 0.25;

struct Transfer {
  double start = 0, end = 0;
  Direction direction = Direction::unknown;
  bool ends_together = false;  // an NCCL kernel
  bool gloo = false;           // gloo's transport event (gloo:send, gloo:recv)
  std::int64_t stream = 0;
  // When the message's op began: the start of its wrapper (c10d::send, which
  // may hand the message over before the transport's event begins), else its own.
  double issued = 0;
  // When its wrapper ended, if it has one: a send to a waiting receiver has
  // handed the message over by then (gloo writes it inside c10d::send, and
  // an isend's transport event lasts until its wait, long after).
  std::optional<double> handed;
  // The peer's rank, when the trace names it (torch 2.x's "Dst Rank" of a
  // send, "Src Rank" of a receive) and the file names its own rank.
  std::optional<std::int64_t> peer;
};

struct Compute {
  double start = 0, end = 0;
  std::int64_t stream = 0;
};

struct Annotation {
  double start = 0, end = 0;
  std::optional<std::int64_t> number;
  bool device = false;  // Kineto's gpu_user_annotation: a host range's copy on the device
  std::int64_t stream = 0;  // its thread (tid)
};

struct RankEvents {
  TraceRank summary;
  std::set<std::int64_t> streams;
  std::vector<Compute> compute;
  std::vector<Transfer> transfers, wrappers;
  std::vector<Annotation> annotations;
  std::vector<Interval> collectives;
  bool host_clock = true;  // every file of the rank reads a host-wide clock
};

// Files that name no rank and share a pid (the CPU profiler's "CPU
// functions") are one rank each: the file's 0-based index. Otherwise an
// event's rank is its file's or its pid. Files of another profiler window
// (`left_out`) are no rank.
std::vector<std::optional<std::int64_t>> file_ranks(const TraceEvents& events, const std::vector<bool>& left_out) {
  const std::size_t n = events.files.size();
  std::vector<std::optional<std::int64_t>> out(n);
  auto kept = [&](std::size_t f) { return f >= left_out.size() || !left_out[f]; };
  for (std::size_t f = 0; f < n; ++f) {
    if (kept(f)) out[f] = events.files[f].rank;
  }
  std::map<std::int64_t, std::uint32_t> first_file;  // pid -> the first rank-less file with it
  bool shared = false;
  for (const TraceEvent& e : events.events) {
    if (e.file >= n || events.files[e.file].rank || !kept(e.file)) continue;
    const auto [it, added] = first_file.emplace(e.rank, e.file);
    if (!added && it->second != e.file) {
      shared = true;
      break;
    }
  }
  if (!shared) return out;
  for (std::size_t f = 0; f < n; ++f) {
    if (!out[f] && kept(f)) out[f] = static_cast<std::int64_t>(f);
  }
  return out;
}

// A pid given as a name (Chrome allows it; the reader files each name below
// every number's id) would show as a rank far below zero, one --stage-order
// could not name. Each such name, in the order the names first appear,
// becomes the smallest whole number no other rank of the run uses.
std::map<std::int64_t, std::int64_t> named_ranks(const TraceEvents& events,
                                                  const std::vector<std::optional<std::int64_t>>& given) {
  const auto lowest_number = -static_cast<std::int64_t>(limits::kMaxTraceId);
  std::set<std::int64_t> used;
  for (const auto& rank : given) {
    if (rank) used.insert(*rank);
  }
  std::vector<std::int64_t> names;
  std::set<std::int64_t> seen;
  std::optional<std::int64_t> last;  // a file's events run in one pid after another: look each run up once
  for (const TraceEvent& e : events.events) {
    if ((e.file < given.size() && given[e.file]) || last == e.rank) continue;
    last = e.rank;
    if (e.rank >= lowest_number) {
      used.insert(e.rank);
    } else if (seen.insert(e.rank).second) {
      names.push_back(e.rank);
    }
  }
  std::map<std::int64_t, std::int64_t> out;
  std::int64_t next = 0;
  for (const std::int64_t name : names) {
    while (used.count(next)) ++next;
    out[name] = next++;
  }
  return out;
}

// Each transport event's wrapper is the latest of its thread and direction
// that starts at or before it.
void issued_by_wrappers(std::vector<Transfer>& transports, std::vector<Transfer> wrappers) {
  auto order = [](const Transfer& a, const Transfer& b) {
    return std::tie(a.stream, a.direction, a.start) < std::tie(b.stream, b.direction, b.start);
  };
  std::sort(wrappers.begin(), wrappers.end(), order);
  for (Transfer& t : transports) {
    auto after = std::upper_bound(wrappers.begin(), wrappers.end(), t, order);
    if (after == wrappers.begin()) continue;
    const Transfer& w = *(after - 1);
    if (w.stream == t.stream && w.direction == t.direction) {
      t.issued = std::min(t.issued, w.start);
      t.handed = std::min(t.end, w.end);
      if (!t.peer) t.peer = w.peer;
    }
  }
}

// Intervals with overlaps merged, in total.
double union_length(std::vector<Interval> intervals) {
  if (intervals.empty()) return 0;
  std::sort(intervals.begin(), intervals.end());
  double total = 0, open = intervals.front().first, close = intervals.front().second;
  for (const Interval& k : intervals) {
    if (k.first > close) {
      total += close - open;
      open = k.first;
    }
    close = std::max(close, k.second);
  }
  return total + (close - open);
}

// On a CPU pipeline, host events that wholly contain a transfer of their
// thread (a profiler step, a Python function around a send) wait as well as
// compute: they are not compute. Events inside a transfer are not dropped,
// since an isend's transport event lasts until its wait, across later compute.
std::vector<Compute> without_wrappers(std::vector<Compute> compute, std::vector<Transfer> comms) {
  auto by_stream = [](const Transfer& a, const Transfer& b) {
    return a.stream != b.stream ? a.stream < b.stream : a.start < b.start;
  };
  std::sort(comms.begin(), comms.end(), by_stream);
  std::vector<Compute> kept;
  for (const Compute& c : compute) {
    const Transfer probe{c.start, c.start, Direction::unknown, false, false, c.stream, c.start, std::nullopt, std::nullopt};
    bool wraps = false;
    for (auto it = std::lower_bound(comms.begin(), comms.end(), probe, by_stream);
         it != comms.end() && it->stream == c.stream && it->start <= c.end; ++it) {
      if (it->end <= c.end) {
        wraps = true;
        break;
      }
    }
    if (!wraps) kept.push_back(c);
  }
  return kept;
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

// Whether the trace holds autograd's backward ops (torch names them
// "MmBackward0", "autograd::engine::evaluate_function: ..."): a training
// run, whose messages back are gradients.
bool has_autograd(const TraceEvents& events) {
  return std::any_of(events.names.begin(), events.names.end(), [](const std::string& name) {
    return name.find("Backward") != std::string::npos || name.rfind("autograd::engine", 0) == 0;
  });
}

// A training run's pass, by the pass's own ranges (docs/traces.md,
// "Training runs"): on each stage, a transfer is the pass's when a range of
// the pass holds it (starts inside it), or directly feeds or follows one: a
// receive outside the ranges feeds the next range to start when no other
// receive starts between them; a send outside them follows the latest range
// to end before it when no other send starts between them (a transfer that
// names no direction, when no transfer at all starts between). On a CPU
// pipeline, whose ops run in program order on the host thread, a range that
// holds a receive (or a send) of its own is fed (or followed) by no other:
// the one outside it is the other pass's. On a GPU the messages' kernels are
// queued ahead on their own streams, so a range may hold the next
// micro-batch's receive and that clause does not apply. So where the passes
// interleave (1F1B), each range claims its own input and output and the
// other pass's messages between them are left. The rest are the other
// pass's. Returns the pass's transfers in time order.
std::vector<Transfer> claim_pass(std::vector<Transfer> transfers, std::vector<Annotation> ranges, bool program_order) {
  if (ranges.empty()) return {};
  std::sort(ranges.begin(), ranges.end(), [](const Annotation& a, const Annotation& b) { return a.start < b.start; });
  std::sort(transfers.begin(), transfers.end(), [](const Transfer& a, const Transfer& b) { return a.start < b.start; });
  // The latest end among the ranges that start at or before each one, and
  // which range it is, so that the range holding a transfer, or the last to
  // end before it, is one search, not a scan.
  std::vector<double> latest_end;
  std::vector<std::size_t> latest;
  for (std::size_t k = 0; k < ranges.size(); ++k) {
    const bool later = latest.empty() || ranges[k].end > latest_end.back();
    latest.push_back(later ? k : latest.back());
    latest_end.push_back(later ? ranges[k].end : latest_end.back());
  }
  const std::size_t n = transfers.size();
  // Per transfer: how many ranges start at or before it (within the
  // resolution), and the range holding it, if one does.
  std::vector<std::size_t> starts_before(n);
  std::vector<std::optional<std::size_t>> holder(n);
  std::vector<bool> holds_recv(ranges.size(), false), holds_send(ranges.size(), false);
  for (std::size_t i = 0; i < n; ++i) {
    const double at = transfers[i].start + kTraceResolution;
    starts_before[i] = static_cast<std::size_t>(
        std::upper_bound(ranges.begin(), ranges.end(), at, [](double x, const Annotation& a) { return x < a.start; }) -
        ranges.begin());
    if (starts_before[i] > 0 && at < latest_end[starts_before[i] - 1]) {
      const std::size_t k = latest[starts_before[i] - 1];
      holder[i] = k;
      if (transfers[i].direction == Direction::recv) holds_recv[k] = true;
      if (transfers[i].direction == Direction::send) holds_send[k] = true;
    }
  }
  // The next receive's start after each transfer, and the next transfer's.
  std::vector<double> next_recv(n, INFINITY), next_any(n, INFINITY);
  for (std::size_t i = n; i-- > 1;) {
    next_any[i - 1] = transfers[i].start;
    next_recv[i - 1] = transfers[i].direction == Direction::recv ? transfers[i].start : next_recv[i];
  }
  std::vector<Transfer> kept;
  double last_send = -INFINITY, last_any = -INFINITY;  // the latest starts so far
  for (std::size_t i = 0; i < n; ++i) {
    const Transfer& t = transfers[i];
    bool claimed = holder[i].has_value();
    if (!claimed && t.direction != Direction::send && starts_before[i] < ranges.size()) {
      // The next range to start feeds on it.
      const std::size_t k = starts_before[i];
      const double next = t.direction == Direction::recv ? next_recv[i] : next_any[i];
      claimed = next + kTraceResolution >= ranges[k].start && !(program_order && holds_recv[k]);
    }
    if (!claimed && t.direction != Direction::recv && starts_before[i] > 0) {
      // It follows the last range to end before it.
      const std::size_t k = latest[starts_before[i] - 1];
      const double previous = t.direction == Direction::send ? last_send : last_any;
      claimed = previous < latest_end[starts_before[i] - 1] && !(program_order && holds_send[k]);
    }
    if (claimed) kept.push_back(t);
    last_any = t.start;
    if (t.direction == Direction::send) last_send = t.start;
  }
  return kept;
}

// A pass's first stage receives none of its messages and its last sends
// none, so on those stages the transfers the ranges claimed the other way
// are the other pass's (a 1F1B forward range on the last stage is followed
// by the backward's gradient). Which end is the pass's first is what its
// own messages say: of the two ways round, the one that leaves fewer of the
// claimed transfers out (the two ends together claim a message per
// micro-batch each of the pass's, and fewer of the other's: on 1F1B's
// first stage only the forwards after its warm-up are fed by a gradient).
// The order as given on a tie.
void keep_pass_ends(std::vector<Transfer>& first, std::vector<Transfer>& last) {
  auto count = [](const std::vector<Transfer>& v, Direction d) {
    return std::count_if(v.begin(), v.end(), [d](const Transfer& t) { return t.direction == d; });
  };
  const auto as_given = count(first, Direction::recv) + count(last, Direction::send);
  const auto reversed = count(first, Direction::send) + count(last, Direction::recv);
  const Direction first_drops = as_given <= reversed ? Direction::recv : Direction::send;
  const Direction last_drops = as_given <= reversed ? Direction::send : Direction::recv;
  auto drop = [](std::vector<Transfer>& v, Direction d) {
    v.erase(std::remove_if(v.begin(), v.end(), [d](const Transfer& t) { return t.direction == d; }), v.end());
  };
  drop(first, first_drops);
  drop(last, last_drops);
}

// When one host thread last finished something (an op, a range, or a send
// of its own, by its wrapper's return) within [from, to]. A receive posted
// ahead (an irecv waited on later) runs on a CPU trace from its post to its
// wait, so its end is when the receiver came to wait, not when the message
// came; nothing waited while the thread was busy.
class LastFinished {
 public:
  LastFinished(const RankEvents& r, std::int64_t thread) {
    for (const Compute& c : r.compute) {
      if (c.stream == thread) ends_.push_back(c.end);
    }
    for (const Transfer& t : r.transfers) {
      if (t.stream == thread && t.direction == Direction::send && t.handed) ends_.push_back(*t.handed);
    }
    for (const Annotation& a : r.annotations) {
      if (!a.device && a.stream == thread) ends_.push_back(a.end);
    }
    std::sort(ends_.begin(), ends_.end());
  }
  // -infinity when nothing finished within.
  double within(double from, double to) const {
    const auto after = std::upper_bound(ends_.begin(), ends_.end(), to);
    if (after == ends_.begin() || *std::prev(after) < from) return -INFINITY;
    return *std::prev(after);
  }

 private:
  std::vector<double> ends_;
};

// With micro-batch ranges, the messages a stage sent before its first range
// began (a warm-up iteration's, a first message of shapes or set-up) are no
// micro-batch's: how many of a link's leading pairs they are.
std::size_t sent_before_ranges(const std::vector<Transfer>& sends, const std::vector<Annotation>& ranges) {
  if (ranges.empty()) return 0;
  double first = INFINITY;
  for (const Annotation& a : ranges) first = std::min(first, a.start);
  std::size_t k = 0;
  while (k < sends.size() && sends[k].issued < first) ++k;
  return k;
}

// The stages' transfers by direction and link (docs/traces.md, "One pass, in
// order"). A transfer that names its peer is placed by it: a send to the next
// stage or a receive from the one before is the pipeline's; a send of the
// last stage to stage 0, or a receive of stage 0 from the last, a return;
// one against the links, backward; any other, elsewhere. The rest are placed
// by position (split_directions).
struct Placed {
  std::vector<std::vector<Transfer>> sends, recvs;  // per stage, in time order
  std::int64_t returns_sent = 0, returns_received = 0, backward = 0, elsewhere = 0, forward_named = 0;
  // The results returned: the last stage's sends to stage 0 and stage 0's
  // receives of them, in time order.
  std::vector<Transfer> returned_sends, returned_recvs;
};

Placed place_transfers(std::map<std::int64_t, RankEvents>& ranks, const std::vector<std::int64_t>& stage_rank) {
  const std::size_t S = stage_rank.size();
  std::map<std::int64_t, std::size_t> stage_of;
  for (std::size_t s = 0; s < S; ++s) stage_of[stage_rank[s]] = s;
  Placed p;
  p.sends.resize(S);
  p.recvs.resize(S);
  for (std::size_t s = 0; s < S; ++s) {
    RankEvents& r = ranks[stage_rank[s]];
    std::sort(r.transfers.begin(), r.transfers.end(), [](const Transfer& a, const Transfer& b) { return a.start < b.start; });
    std::vector<Transfer> unnamed;
    for (const Transfer& t : r.transfers) {
      const auto found = t.peer ? stage_of.find(*t.peer) : stage_of.end();
      if (!t.peer || t.direction == Direction::unknown) {
        unnamed.push_back(t);
      } else if (found == stage_of.end()) {
        ++p.elsewhere;
      } else if (t.direction == Direction::send) {
        const std::size_t to = found->second;
        if (to == s + 1) ++p.forward_named, p.sends[s].push_back(t);
        else if (s + 1 == S && to == 0) ++p.returns_sent, p.returned_sends.push_back(t);
        else if (to < s) ++p.backward;
        else ++p.elsewhere;
      } else {
        const std::size_t from = found->second;
        if (from + 1 == s) ++p.forward_named, p.recvs[s].push_back(t);
        else if (s == 0 && from + 1 == S) ++p.returns_received, p.returned_recvs.push_back(t);
        else if (from > s) ++p.backward;
        else ++p.elsewhere;
      }
    }
    std::vector<Transfer> sends, recvs;
    split_directions(unnamed, s == 0, s + 1 == S, sends, recvs);
    auto merge = [](std::vector<Transfer>& into, const std::vector<Transfer>& more) {
      into.insert(into.end(), more.begin(), more.end());
      std::sort(into.begin(), into.end(), [](const Transfer& a, const Transfer& b) { return a.start < b.start; });
    };
    merge(p.sends[s], sends);
    merge(p.recvs[s], recvs);
  }
  return p;
}

// One link's offset and bounds from its k-th sends and receives paired.
double pair_offset(const std::vector<Transfer>& out_of, const std::vector<Transfer>& into, bool host_clocks,
                   OffsetBounds& bounds) {
  const std::size_t pairs = std::min(out_of.size(), into.size());
  std::vector<PairSide> send_sides, recv_sides;
  bool ends_together = true, gloo = true;
  for (std::size_t k = 0; k < pairs; ++k) {
    send_sides.push_back({out_of[k].issued, out_of[k].end, out_of[k].handed, std::nullopt});
    recv_sides.push_back({into[k].start, into[k].end, std::nullopt, into[k].issued});
    ends_together = ends_together && out_of[k].ends_together && into[k].ends_together;
    // The rendezvous bounds a pair by when its receive was posted, which
    // only the receive's wrapper (c10d::recv_, begun before gloo posts the
    // buffer) tells: gloo's own event begins after the post, and a receive
    // from any source (gloo:recvAnySource) has no wrapper, its event begun
    // after its sender, which the post had let complete, had ended.
    gloo = gloo && out_of[k].gloo && into[k].gloo && into[k].handed;
  }
  return link_offset(send_sides, recv_sides, ends_together, host_clocks, gloo, bounds);
}

bool contradicts(const OffsetBounds& b) { return b.hi && b.lo > *b.hi + kTraceResolution; }

// A link whose one side holds more messages than the other pairs its k-th
// send with its k-th receive: the shorter side stopped early. A rank whose
// profiler started after the first messages holds fewer too, at the start:
// then the k-th pairs are a micro-batch apart or more, and where the
// pairs bound the clock from both sides they contradict. So when pairing
// from the start contradicts and pairing from the end (the longer side's
// first messages left without a partner) does not, the longer side's first
// messages are dropped from the link. A sender whose profiler started late
// contradicts nothing: each receive paired with a later send only moves
// the offset up, and a window that starts late looks like one that stops
// early with the receiver's clock shifted. When neither pairing
// contradicts and they place the receiver's clock apart, the link is
// ambiguous: returns the offsets from the start (kept) and from the end.
std::optional<std::pair<double, double>> pair_from_the_end_if_late(std::vector<Transfer>& sends,
                                                                   std::vector<Transfer>& recvs, bool host_clocks) {
  if (sends.size() == recvs.size()) return std::nullopt;
  OffsetBounds from_start, from_end;
  const double start_offset = pair_offset(sends, recvs, host_clocks, from_start);
  std::vector<Transfer>& longer = sends.size() > recvs.size() ? sends : recvs;
  const std::size_t extra = longer.size() - std::min(sends.size(), recvs.size());
  const std::vector<Transfer> trimmed(longer.begin() + static_cast<std::ptrdiff_t>(extra), longer.end());
  const double end_offset =
      pair_offset(&longer == &sends ? trimmed : sends, &longer == &recvs ? trimmed : recvs, host_clocks, from_end);
  if (contradicts(from_end)) return std::nullopt;
  if (contradicts(from_start)) {
    longer = trimmed;
    return std::nullopt;
  }
  // Both agree with every pair: ambiguous when either pairing's offset lies
  // outside the other's bounds (so the other rules it out).
  auto within = [](double offset, const OffsetBounds& b) {
    return offset + kTraceResolution >= b.lo && (!b.hi || offset <= *b.hi + kTraceResolution);
  };
  if (within(start_offset, from_end) && within(end_offset, from_start)) return std::nullopt;
  return std::pair{start_offset, end_offset};
}

// Rank-less files given with their middle stages out of order (4 stages in
// the order 0, 2, 1, 3) pass the first and last stages' test, and each link
// pairs one rank's sends with another's receives, M of each. Such pairs
// contradict each other about the clocks (rank 2's receives are bounded by
// rank 1's sends, not rank 0's), where the ranks' own links agree. So when
// a link of the given order contradicts and some other order of the middle
// stages has no link that does, the stages are out of order. Only
// unnamed transfers are placed by position alone, so only they are
// reordered; named peers place themselves. Each pair of stages is bounded
// once, then orders are searched through the pairs that agree, by the sets
// of middle stages placed (2^(S - 2) sets, not (S - 2)! orders).
bool middle_stages_swapped(const Placed& p, const std::vector<OffsetBounds>& given) {
  const std::size_t S = p.sends.size();
  if (S < 4 || S > kMaxStagesReordered || p.forward_named + p.backward + p.elsewhere > 0) return false;
  if (std::none_of(given.begin(), given.end(), contradicts)) return false;
  // agree[a][b]: stage a's sends and stage b's receives, paired, agree.
  std::vector<std::vector<bool>> agree(S, std::vector<bool>(S, false));
  for (std::size_t a = 0; a + 1 < S; ++a) {
    for (std::size_t b = 1; b < S; ++b) {
      if (a == b || p.sends[a].empty() || p.recvs[b].empty()) continue;
      OffsetBounds bounds;
      pair_offset(p.sends[a], p.recvs[b], false, bounds);
      agree[a][b] = !contradicts(bounds);
    }
  }
  // A path from stage 0 to the last through every middle stage once: over
  // the sets of middle stages placed (bit i: stage i + 1), ends[set] holds
  // the stages a path through that set can end at, as bits.
  const std::size_t middle = S - 2;
  std::vector<std::uint32_t> ends(std::size_t{1} << middle, 0);
  for (std::size_t i = 0; i < middle; ++i) {
    if (agree[0][i + 1]) ends[std::size_t{1} << i] |= std::uint32_t{1} << i;
  }
  for (std::size_t set = 1; set < ends.size(); ++set) {
    for (std::size_t i = 0; i < middle; ++i) {
      if (!(ends[set] >> i & 1)) continue;
      for (std::size_t j = 0; j < middle; ++j) {
        if (!(set >> j & 1) && agree[i + 1][j + 1]) ends[set | std::size_t{1} << j] |= std::uint32_t{1} << j;
      }
    }
  }
  for (std::size_t i = 0; i < middle; ++i) {
    if ((ends.back() >> i & 1) && agree[i + 1][S - 1]) return true;
  }
  return false;
}

// Results returned to stage 0 close the chain into a loop: the return
// link's pairs bound stage 0's clock against the last stage's, which the
// forward links' offsets sum to. A forward pipeline's messages bound each
// link from one side only, and a link where no pair provably waited (a
// receiver whose profiler started late finds every isend queued, and its
// sender's waits end together after the returns came) rests on loose
// bounds. When exactly one link is so and the return link is proven, that
// link takes what the loop leaves it, kept within its own bounds.
void close_the_loop(const Placed& p, bool host_clocks, const std::vector<OffsetBounds>& bounds,
                    std::vector<double>& link_offsets) {
  if (p.returned_sends.empty() || p.returned_recvs.empty()) return;
  OffsetBounds returned;
  // Stage 0's clock against the last stage's: minus the forward links' sum.
  const double back = pair_offset(p.returned_sends, p.returned_recvs, host_clocks, returned);
  if (!returned.proven || contradicts(returned)) return;
  std::size_t loose = bounds.size(), count = 0;
  for (std::size_t link = 0; link < bounds.size(); ++link) {
    if (!bounds[link].proven) loose = link, ++count;
  }
  if (count != 1 || contradicts(bounds[loose])) return;
  double rest = -back;
  for (std::size_t link = 0; link < bounds.size(); ++link) {
    if (link != loose) rest -= link_offsets[link];
  }
  // Bounds within the resolution of each other may cross: no std::clamp.
  link_offsets[loose] = std::min(std::max(rest, bounds[loose].lo), bounds[loose].hi.value_or(INFINITY));
}

bool links_agree(const std::vector<Transfer>& sends, const std::vector<Transfer>& recvs) {
  if (sends.empty() || recvs.empty()) return false;
  OffsetBounds bounds;
  pair_offset(sends, recvs, false, bounds);
  return !contradicts(bounds);
}

// A ring of stages that all send and receive (messages_chain, below).
std::optional<std::vector<std::size_t>> ring_order(const Placed& p) {
  const std::size_t S = p.sends.size();
  std::optional<std::size_t> first;
  for (std::size_t s = 0; s < S; ++s) {
    if (p.sends[s].empty() || p.recvs[s].empty()) return std::nullopt;
    auto issued = [](const std::vector<Transfer>& v) {
      double at = INFINITY;
      for (const Transfer& t : v) at = std::min(at, t.issued);
      return at;
    };
    if (issued(p.sends[s]) < issued(p.recvs[s])) {
      if (first) return std::nullopt;
      first = s;
    }
  }
  if (!first) return std::nullopt;
  std::vector<std::size_t> order;
  for (std::size_t k = 0; k < S; ++k) order.push_back((*first + k) % S);
  for (std::size_t k = 0; k < S; ++k) {
    if (!links_agree(p.sends[order[k]], p.recvs[order[(k + 1) % S]])) return std::nullopt;
  }
  return order;
}

// The stages in the messages' order, when the files' order is not it
// (docs/traces.md, "One pass, in order"): rank-less files are ranked by
// their place on the command line, and a directory's listing or
// tensorboard_trace_handler's HOST_PID names need not be rank order. Where
// no transfer names its peer and every one says its direction, the first
// stage is the one rank that sends and never receives, the last the one that
// receives and never sends, and every other both; the middle stages go in
// the order whose links' pairs agree about the clocks (the given order when
// it does; else the first found over the sets of middle stages placed, as
// middle_stages_swapped searches). Returns the stages' positions in the given
// order, or nothing when the messages name no chain (every stage sends and
// receives, as with results returned to stage 0; no order of four stages or
// more agrees). When every stage both sends and receives (results returned
// to stage 0 make a ring), stage 0 is the one rank whose first message op
// is a send, since every other stage receives before it sends (on its own
// clock, so no offset is needed), and the others follow it in the given
// order, from the rank after it round to the one before it, when every link
// of that ring agrees (a directory's listing of pids that wrapped).
std::optional<std::vector<std::size_t>> messages_chain(const Placed& p) {
  const std::size_t S = p.sends.size();
  if (S < 2 || S > kMaxStagesReordered || p.forward_named + p.backward + p.elsewhere > 0) return std::nullopt;
  std::optional<std::size_t> first, last;
  std::vector<std::size_t> middle;
  for (std::size_t s = 0; s < S; ++s) {
    for (const auto* list : {&p.sends[s], &p.recvs[s]}) {
      for (const Transfer& t : *list) {
        if (t.direction == Direction::unknown) return std::nullopt;
      }
    }
    const bool sends = !p.sends[s].empty(), recvs = !p.recvs[s].empty();
    if (sends && !recvs) {
      if (first) return std::nullopt;
      first = s;
    } else if (recvs && !sends) {
      if (last) return std::nullopt;
      last = s;
    } else if (sends && recvs) {
      middle.push_back(s);
    } else {
      return std::nullopt;
    }
  }
  if (!first && !last) return ring_order(p);
  if (!first || !last) return std::nullopt;
  std::vector<std::vector<bool>> agree(S, std::vector<bool>(S, false));
  for (std::size_t a = 0; a < S; ++a) {
    for (std::size_t b = 0; b < S; ++b) {
      if (a == b || p.sends[a].empty() || p.recvs[b].empty()) continue;
      OffsetBounds bounds;
      pair_offset(p.sends[a], p.recvs[b], false, bounds);
      agree[a][b] = !contradicts(bounds);
    }
  }
  std::vector<std::size_t> order{*first};
  order.insert(order.end(), middle.begin(), middle.end());
  order.push_back(*last);
  bool given_agrees = true;
  for (std::size_t s = 0; s + 1 < S; ++s) given_agrees = given_agrees && agree[order[s]][order[s + 1]];
  if (given_agrees || middle.size() <= 1) return order;
  // Paths from the first stage through sets of middle stages (bit i:
  // middle[i]): from[set][i], the middle stage before i on a path through
  // `set` that ends at i (n: the first stage), or none.
  const std::size_t n = middle.size(), none = n + 1;
  std::vector<std::vector<std::size_t>> from(std::size_t{1} << n, std::vector<std::size_t>(n, none));
  for (std::size_t i = 0; i < n; ++i) {
    if (agree[*first][middle[i]]) from[std::size_t{1} << i][i] = n;
  }
  for (std::size_t set = 1; set < from.size(); ++set) {
    for (std::size_t i = 0; i < n; ++i) {
      if (from[set][i] == none) continue;
      for (std::size_t j = 0; j < n; ++j) {
        const std::size_t next = set | std::size_t{1} << j;
        if (!(set >> j & 1) && agree[middle[i]][middle[j]] && from[next][j] == none) from[next][j] = i;
      }
    }
  }
  const std::size_t all = from.size() - 1;
  for (std::size_t i = 0; i < n; ++i) {
    if (from[all][i] == none || !agree[middle[i]][*last]) continue;
    std::vector<std::size_t> path{*last};
    for (std::size_t set = all, at = i; at != n;) {
      path.push_back(middle[at]);
      const std::size_t before = from[set][at];
      set &= ~(std::size_t{1} << at);
      at = before;
    }
    path.push_back(*first);
    std::reverse(path.begin(), path.end());
    return path;
  }
  return std::nullopt;
}

// Transfers that name no peer, when every stage both sends and receives: a
// forward pipeline whose last stage returns its results to stage 0 (each
// middle stage receives and sends about as many messages as stage 0 sends),
// or two-way traffic (a training run: autograd's ops are in the trace, or a
// middle stage carries both passes, about twice stage 0's sends). Returns
// the reason when it is two-way traffic; else sets the returns aside.
std::optional<NotPipeline> set_aside_returns(Placed& p, bool training) {
  const std::size_t S = p.sends.size();
  const bool first_receives = !p.recvs[0].empty(), last_sends = !p.sends[S - 1].empty();
  const bool everywhere =
      std::all_of(p.sends.begin(), p.sends.end(), [](const auto& v) { return !v.empty(); }) &&
      std::all_of(p.recvs.begin(), p.recvs.end(), [](const auto& v) { return !v.empty(); });
  if (first_receives && last_sends && everywhere) {
    const double out_of_first = static_cast<double>(p.sends[0].size());
    for (std::size_t s = 1; s + 1 < S; ++s) {
      // Halfway between one pass (M each way) and two (2M).
      if (static_cast<double>(std::max(p.sends[s].size(), p.recvs[s].size())) > 1.5 * out_of_first) {
        return NotPipeline::two_way_traffic;
      }
    }
    if (training) return NotPipeline::two_way_traffic;
    p.returns_sent += static_cast<std::int64_t>(p.sends[S - 1].size());
    p.returns_received += static_cast<std::int64_t>(p.recvs[0].size());
    p.returned_sends.insert(p.returned_sends.end(), p.sends[S - 1].begin(), p.sends[S - 1].end());
    p.returned_recvs.insert(p.returned_recvs.end(), p.recvs[0].begin(), p.recvs[0].end());
    p.sends[S - 1].clear();
    p.recvs[0].clear();
  }
  // Named peers: a message against the links is two-way traffic, and so is
  // a return in a training run (with two stages, a gradient goes where a
  // result would).
  if (p.backward > 0 || (training && p.returns_sent + p.returns_received > 0)) return NotPipeline::two_way_traffic;
  return std::nullopt;
}

// Micro-batch ranges that nest, as a pattern matching more than the
// micro-batches' own names finds them (a loose '_([0-9]+)' also matches a
// step_N or stageN range around them; '^microbatch_([0-9]+)' also matches
// sub-ranges "microbatch_3.layer0" inside microbatch_3): a range that holds
// a range of another number holds several micro-batches, or one and the
// stage's name, and is left out; ranges inside one of their own number are
// its parts, left out. Returns (containers, parts) left out.
std::pair<std::int64_t, std::int64_t> unnest_ranges(std::vector<Annotation>& ranges) {
  // By thread, then time: ranges nest on their own thread only.
  std::sort(ranges.begin(), ranges.end(), [](const Annotation& a, const Annotation& b) {
    if (a.stream != b.stream) return a.stream < b.stream;
    return a.start != b.start ? a.start < b.start : a.end > b.end;
  });
  const std::size_t n = ranges.size();
  std::vector<std::optional<std::size_t>> parent(n);
  std::vector<std::size_t> open;
  // Inside: from within its start (a range that begins as another ends,
  // within the resolution, only touches it) to no later than its end.
  auto inside = [&](std::size_t i, std::size_t p) {
    return ranges[i].stream == ranges[p].stream && ranges[i].start + kTraceResolution < ranges[p].end &&
           ranges[i].end <= ranges[p].end + kTraceResolution;
  };
  for (std::size_t i = 0; i < n; ++i) {
    while (!open.empty() && !inside(i, open.back())) open.pop_back();
    if (!open.empty()) parent[i] = open.back();
    open.push_back(i);
  }
  std::vector<bool> container(n, false), part(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    if (parent[i] && ranges[i].number != ranges[*parent[i]].number) container[*parent[i]] = true;
  }
  std::pair<std::int64_t, std::int64_t> left_out{0, 0};
  for (std::size_t i = 0; i < n; ++i) {
    if (container[i]) continue;
    // Inside a range of its own number (not one left out as a container).
    for (auto p = parent[i]; p; p = parent[*p]) {
      if (!container[*p]) {
        part[i] = true;
        break;
      }
    }
  }
  std::size_t kept = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (container[i]) {
      ++left_out.first;
    } else if (part[i]) {
      ++left_out.second;
    } else {
      ranges[kept++] = ranges[i];
    }
  }
  ranges.resize(kept);
  return left_out;
}

// A stage's ranges in time order, each with its micro-batch number: the
// pattern's group when it is a whole number, else its place in time.
std::vector<std::int64_t> number_ranges(std::vector<Annotation>& ranges) {
  std::sort(ranges.begin(), ranges.end(), [](const Annotation& a, const Annotation& b) { return a.start < b.start; });
  std::vector<std::int64_t> numbers;
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    numbers.push_back(ranges[i].number ? *ranges[i].number : static_cast<std::int64_t>(i));
  }
  return numbers;
}

// Ranges that repeat a micro-batch number on a stage (a step's names
// repeated, or a pattern whose first group is the stage) would merge
// different micro-batches into one: then every stage's ranges are numbered
// in time order instead, and m records the first such stage.
void number_repeats_in_time(std::map<std::int64_t, RankEvents>& ranks, const std::vector<std::int64_t>& stage_rank,
                            Measured& m) {
  for (std::size_t s = 0; s < stage_rank.size() && !m.repeated_stage; ++s) {
    std::vector<std::int64_t> numbers;
    for (const Annotation& a : ranks[stage_rank[s]].annotations) {
      if (a.number) numbers.push_back(*a.number);
    }
    std::sort(numbers.begin(), numbers.end());
    const auto distinct = std::unique(numbers.begin(), numbers.end()) - numbers.begin();
    if (distinct == static_cast<std::ptrdiff_t>(numbers.size())) continue;
    m.repeated_stage = static_cast<std::int64_t>(s);
    m.repeated_ranges = static_cast<std::int64_t>(numbers.size());
    m.repeated_distinct = static_cast<std::int64_t>(distinct);
  }
  if (!m.repeated_stage) return;
  for (const std::int64_t rank : stage_rank) {
    for (Annotation& a : ranks[rank].annotations) a.number.reset();
  }
}

// Compute kernels to micro-batches by annotation ranges: a kernel belongs to
// the latest range that starts at or before it and has not ended. `distinct`
// holds every stage's numbers, so a slot is the same micro-batch on every
// stage, empty where a stage has no range for it.
// `inputs`: on a CPU pipeline, the stage's receives. A range that holds one
// (it falls in the range as a kernel would and ends clearly before the range
// does: a backward range receiving its gradient, then computing) starts its
// micro-batch when the last of them ends; what ran before (allocating the
// buffer) is not its compute.
// On a CPU pipeline (`host_spans`) the range is the micro-batch's time, from
// its start (or its input's arrival) to its end (or the first send it holds
// after that): the host thread does nothing else in it, and work the
// profiler records no op for (Python code, a time.sleep standing in for a
// slower device, numpy) is the stage's service too. Each range so gets two
// marks of no length at those ends, which widen its span and add nothing to
// its busy time; a range with no op in it is a micro-batch still.
std::vector<std::vector<Interval>> by_annotations(const std::vector<Interval>& kernels,
                                                  std::vector<Annotation> ranges,
                                                  const std::vector<std::int64_t>& distinct,
                                                  const std::vector<Interval>& inputs,
                                                  const std::vector<double>& outputs, bool host_spans) {
  const std::vector<std::int64_t> numbers = number_ranges(ranges);
  // The range an interval falls in, as for kernels: the latest that starts at
  // or before it (boundaries within the trace's resolution touch).
  auto range_of = [&ranges](double start) -> std::ptrdiff_t {
    const auto after = std::upper_bound(ranges.begin(), ranges.end(), start + kTraceResolution,
                                        [](double t, const Annotation& a) { return t < a.start; });
    return (after - ranges.begin()) - 1;
  };
  std::vector<double> ready(ranges.size(), -INFINITY);  // per range: when its input had arrived
  for (const Interval& input : inputs) {
    const std::ptrdiff_t i = range_of(input.first);
    // A receive that ends at the range's end or later (within the
    // resolution) is the next one's input.
    if (i >= 0 && input.second + kTraceResolution < ranges[i].end) ready[i] = std::max(ready[i], input.second);
  }
  std::vector<std::vector<Interval>> out(distinct.size());
  for (const Interval& k : kernels) {
    const std::ptrdiff_t at = range_of(k.first);
    if (at < 0) continue;
    const auto i = static_cast<std::size_t>(at);
    if (ranges[i].end + kTraceResolution < k.first) continue;
    if (k.second <= ready[i] + kTraceResolution) continue;
    const auto slot = std::lower_bound(distinct.begin(), distinct.end(), numbers[i]) - distinct.begin();
    out[slot].push_back(k);
  }
  if (!host_spans) return out;
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    const double start = std::max(ranges[i].start, ready[i]);
    double end = ranges[i].end;
    // The first send issued inside the range after its start: a blocking
    // send waits for its receiver, which is no part of the stage's service.
    const auto send = std::upper_bound(outputs.begin(), outputs.end(), start);
    if (send != outputs.end() && *send < end) end = *send;
    if (end < start) continue;
    const auto slot = std::lower_bound(distinct.begin(), distinct.end(), numbers[i]) - distinct.begin();
    out[slot].emplace_back(start, start);
    out[slot].emplace_back(end, end);
  }
  return out;
}

// Nothing marks where stage 0's micro-batch 0 begins by the transfers: a
// stage whose work begins with no op (a time.sleep first) would start
// T_real late by it. The other micro-batches show how long their work ran
// before their first op (from send m - 1's return, `starts`); micro-batch 0
// is taken to have run as long before its own (their median), but never
// from before the profiler's clock began (`origin`, the CPU profiler's 0
// on the stage's clock) nor before the end of an op that ran before it.
// Returns where micro-batch 0 opens, or INFINITY for no mark.
double lead_of_first(const std::vector<std::vector<Interval>>& compute, const std::vector<double>& starts,
                     const std::vector<Interval>& ops, double origin) {
  if (compute.empty() || compute[0].empty()) return INFINITY;
  std::vector<double> leads;
  for (std::size_t mb = 1; mb < compute.size() && mb < starts.size(); ++mb) {
    if (compute[mb].empty()) continue;
    double first = INFINITY;
    for (const Interval& k : compute[mb]) first = std::min(first, k.first);
    leads.push_back(std::max(0.0, first - starts[mb]));
  }
  if (leads.empty()) return INFINITY;
  std::sort(leads.begin(), leads.end());
  const std::size_t n = leads.size();
  const double lead = n % 2 == 1 ? leads[n / 2] : (leads[n / 2 - 1] + leads[n / 2]) / 2;
  double first = INFINITY;
  for (const Interval& k : compute[0]) first = std::min(first, k.first);
  double open = std::max(first - lead, origin);
  for (const Interval& k : ops) {
    if (k.first >= first) break;
    if (k.second <= first) open = std::max(open, k.second);
  }
  return open < first ? open : INFINITY;
}

// On a CPU pipeline, micro-batch m by the transfers runs from the arrival of
// its input (receive m's end) to the issue of its output (send m's wrapper
// start), or on the last stage to the issue of receive m + 1: one host thread
// does nothing else between them, so work the profiler records no op for (a
// time.sleep standing in for a slower device, Python code) is its service
// too. Each gets marks of no length there, which widen its span and add
// nothing to its busy time. A mark never reaches into the micro-batch before
// or after (an irecv posted ahead arrives during the one before).
void widen_to_messages(std::vector<std::vector<Interval>>& compute, const std::vector<double>& opens,
                       const std::vector<double>& ends) {
  double previous_end = -INFINITY;
  for (std::size_t mb = 0; mb < compute.size(); ++mb) {
    std::vector<Interval>& ops = compute[mb];
    if (ops.empty()) continue;
    double first = INFINITY, last = -INFINITY;
    for (const Interval& k : ops) {
      first = std::min(first, k.first);
      last = std::max(last, k.second);
    }
    double next_start = INFINITY;
    for (std::size_t later = mb + 1; later < compute.size(); ++later) {
      if (compute[later].empty()) continue;
      for (const Interval& k : compute[later]) next_start = std::min(next_start, k.first);
      break;
    }
    if (mb < opens.size() && opens[mb] < first) {
      const double open = std::max(opens[mb], previous_end);
      ops.emplace_back(open, open);
    }
    if (mb < ends.size() && ends[mb] > last) {
      const double close = std::min(ends[mb], next_start);
      ops.emplace_back(close, close);
    }
    previous_end = std::max(last, mb < ends.size() && ends[mb] > last ? std::min(ends[mb], next_start) : last);
  }
}

// Nothing opens stage 0's micro-batch 0 by the transfers, so its span would
// reach back over the run's set-up: a collective before the loop (a driver
// broadcasting a config, a barrier) waits on every rank, and what the stage
// ran before it is no micro-batch's. When no later micro-batch holds a
// collective (between its send and the next), the collectives that end
// before send 0 are set-up, and micro-batch 0 opens after the last of them.
// Where every micro-batch holds one, they are the micro-batch's own work.
// Returns that end, or -INFINITY for none.
double end_of_set_up(const std::vector<Interval>& collectives, const std::vector<double>& closes) {
  if (closes.empty()) return -INFINITY;
  double end = -INFINITY;
  for (const Interval& c : collectives) {
    if (c.first >= closes.front()) {
      if (c.first < closes.back()) return -INFINITY;
      continue;
    }
    if (c.second <= closes.front()) end = std::max(end, c.second);
  }
  return end;
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
      if (k.first + kTraceResolution >= opens[0]) after_first.push_back(k);
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
      // Boundaries within the trace's resolution touch.
      m = static_cast<std::size_t>(std::lower_bound(closes.begin(), closes.end(), k.second - kTraceResolution) -
                                   closes.begin());
      if (m >= count) continue;
      if (!opens.empty() && k.first + kTraceResolution < opens[m]) continue;
    } else {
      const auto after = std::upper_bound(opens.begin(), opens.end(), k.first + kTraceResolution);
      if (after == opens.begin()) continue;
      m = static_cast<std::size_t>(after - opens.begin()) - 1;
    }
    out[m].push_back(k);
  }
  // On the first stage nothing opens micro-batch 0, so it would take all
  // the compute before its send: a rank's own set-up inside the profiler (a
  // first forward, building the model) would count as its span and move
  // T_real's start. Each micro-batch runs the same ops, so when the others
  // agree on their count and micro-batch 0 has more, its own are the last
  // of them, and what ran before is outside every one. An op or two more
  // than the others (a first call's allocation) is taken as micro-batch
  // 0's own: set-up is half a micro-batch's ops or more. With M = 2 the
  // other micro-batch alone gives the count, and the set-up, left in,
  // would be half of the stage's p50.
  if (opens.empty() && count >= 2) {
    const std::size_t each = out[1].size();
    const bool agree = each > 0 && std::all_of(out.begin() + 1, out.end(),
                                               [&](const std::vector<Interval>& ops) { return ops.size() == each; });
    if (agree && 2 * out[0].size() >= 3 * each) {
      out[0].erase(out[0].begin(), out[0].end() - static_cast<std::ptrdiff_t>(each));
    }
  }
  return out;
}

// How many messages each micro-batch sends on a link: g > 1 when the
// receiver takes its first `pairs` receives in runs of exactly g (a stage
// that sends an output and a mask, or a tuple of tensors, one after
// another), else 1. Between runs the receiver computes; within a run it
// computes nothing, or only a little: fewer ops than between any two runs,
// and under kRunWorkShare of their time (the next buffer allocated,
// torch.empty, between two receives), as a stage that runs the same ops
// between every two receives never does. A run of another length, or a
// receiver with no compute between any of its receives (a stage that only
// forwards), is no such shape. Nor is one that computed while a receive was
// outstanding: it posted that receive ahead (an irecv waited on later), so
// no compute between its receives says nothing, and a loop that prefetches
// within each of several iterations takes its receives in runs of one
// length, an iteration's each.
std::size_t messages_per_microbatch(const std::vector<Transfer>& recvs, std::size_t pairs,
                                    const std::vector<Compute>& compute) {
  if (pairs < 2) return 1;
  std::vector<Compute> ops = compute;
  std::sort(ops.begin(), ops.end(), [](const Compute& a, const Compute& b) { return a.start < b.start; });
  auto first_from = [&](double t) {
    return std::lower_bound(ops.begin(), ops.end(), t, [](const Compute& c, double x) { return c.start < x; });
  };
  for (std::size_t k = 0; k < pairs; ++k) {
    const auto next = std::upper_bound(ops.begin(), ops.end(), recvs[k].issued,
                                       [](double x, const Compute& c) { return x < c.start; });
    if (next != ops.end() && next->start < recvs[k].end) return 1;
  }
  // The receiver's ops between receive k - 1's end and receive k's op (its
  // wrapper's start), k >= 1: how many, and their time.
  std::vector<std::size_t> count(pairs, 0);
  std::vector<double> work(pairs, 0.0);
  for (std::size_t k = 1; k < pairs; ++k) {
    const double resumed = std::max(recvs[k].issued, recvs[k - 1].end);
    for (auto op = first_from(recvs[k - 1].end); op != ops.end() && op->start < resumed; ++op) {
      ++count[k];
      work[k] += op->end - op->start;
    }
  }
  if (std::all_of(count.begin(), count.end(), [](std::size_t n) { return n == 0; })) return 1;
  // Runs of exactly g: every receive k with k % g == 0 opens a run.
  auto runs_of = [&](std::size_t g) {
    if (pairs % g != 0) return false;
    std::size_t most_within = 0, fewest_between = std::numeric_limits<std::size_t>::max();
    double longest_within = 0, shortest_between = INFINITY;
    for (std::size_t k = 1; k < pairs; ++k) {
      if (k % g == 0) {
        fewest_between = std::min(fewest_between, count[k]);
        shortest_between = std::min(shortest_between, work[k]);
      } else {
        most_within = std::max(most_within, count[k]);
        longest_within = std::max(longest_within, work[k]);
      }
    }
    if (fewest_between == 0) return false;
    return most_within == 0 || (most_within < fewest_between && longest_within < kRunWorkShare * shortest_between);
  };
  // Two lengths are tried, each found in one pass, so the work stays linear
  // in the receives: the first receive with ops before it (runs computing
  // nothing within), and the first after receive 1 whose ops before it
  // outnumber, and outlast by 1 / kRunWorkShare, all the ops between the
  // receives before it (the first run's end, when its receives allocate).
  std::size_t first_computed = 0, first_standing_out = 0, most = 0;
  double longest = 0;
  for (std::size_t k = 1; k < pairs; ++k) {
    if (first_computed == 0 && count[k] > 0) first_computed = k;
    if (k >= 2 && first_standing_out == 0 && count[k] > most && kRunWorkShare * work[k] > longest) {
      first_standing_out = k;
    }
    most = std::max(most, count[k]);
    longest = std::max(longest, work[k]);
  }
  for (std::size_t g : {first_computed, first_standing_out}) {
    if (g >= 2 && 2 * g <= pairs && runs_of(g)) return g;
  }
  return 1;
}

}  // namespace

std::optional<Error> clock_offsets_error(const TraceOptions& options, std::size_t S) {
  if (!options.clock_offsets.empty() && options.clock_offsets.size() != S) {
    return Error{ErrorCode::wrong_length, Field::clock_offsets, kWholeField,
                 static_cast<double>(options.clock_offsets.size()), {}, static_cast<double>(S)};
  }
  for (std::size_t s = 0; s < options.clock_offsets.size(); ++s) {
    // A finite offset past the trace's time limit is too large, in the unit it was given in.
    const double x = options.clock_offsets[s], unit = microseconds_in(options.unit);
    const auto stage = static_cast<std::int64_t>(s);
    if (!std::isfinite(x)) {
      return Error{ErrorCode::not_finite, Field::clock_offsets, stage, 0.0, std::isnan(x) ? "nan" : x > 0 ? "inf" : "-inf"};
    }
    // A subnormal (5e-324) is too_small at its stage, as the same offset typed as text is.
    if (auto e = subnormal_error(x, Field::clock_offsets, stage, {})) return *e;
    if (!(std::fabs(x * unit) <= limits::kMaxTraceTime)) {
      return Error{ErrorCode::too_large, Field::clock_offsets, stage, x, {}, limits::kMaxTraceTime / unit};
    }
  }
  return std::nullopt;
}

Result<Classified> measure_events(const TraceEvents& events, const TraceOptions& options) {
  auto classifier = Classifier::create(options);
  if (!classifier) return classifier.error();
  Classifier c = std::move(classifier).value();
  const bool cpu_run = std::none_of(events.events.begin(), events.events.end(),
                                    [&](const TraceEvent& e) { return c.is_kernel(events, e); });
  c.set_cpu_run(cpu_run);
  auto found_steps = profiler_steps(events, options, c);
  if (!found_steps) return found_steps.error();
  const ProfilerSteps& steps = found_steps.value();
  const std::vector<std::optional<std::int64_t>> given = file_ranks(events, steps.left_out);
  const std::map<std::int64_t, std::int64_t> named = named_ranks(events, given);
  auto rank_of = [&](const TraceEvent& e) {
    if (e.file < given.size() && given[e.file]) return *given[e.file];
    const auto name = named.find(e.rank);
    return name == named.end() ? e.rank : name->second;
  };
  auto peer_of = [&](std::ptrdiff_t index) -> std::optional<std::int64_t> {
    const auto i = static_cast<std::uint32_t>(index);
    const auto found = std::lower_bound(events.peers.begin(), events.peers.end(), std::make_pair(i, std::int64_t{0}),
                                        [](const auto& a, const auto& b) { return a.first < b.first; });
    if (found == events.peers.end() || found->first != i) return std::nullopt;
    return found->second;
  };

  std::map<std::int64_t, RankEvents> ranks;
  for (const auto& rank : given) {
    if (rank) ranks[*rank].summary.rank = *rank;
  }
  bool any_collective = false;
  for (const TraceEvent& e : events.events) {
    if (!steps.keeps(e)) continue;
    const Role role = c.role(events, e);
    const bool kernel = c.is_kernel(events, e);
    if (role == Role::other && !kernel) continue;
    const std::int64_t rank = rank_of(e);
    RankEvents& r = ranks[rank];
    if (e.file < events.files.size()) r.host_clock = r.host_clock && events.files[e.file].host_clock;
    if (role == Role::annotation) {
      r.annotations.push_back({e.start, e.end, c.microbatch_number(events, e), c.is_device_range(events, e),
                               e.stream});
      continue;
    }
    r.summary.rank = rank;
    r.summary.kernels += kernel ? 1 : 0;
    r.streams.insert(e.stream);
    const double length = e.end - e.start;
    if (role == Role::compute) {
      ++r.summary.compute_kernels;
      r.compute.push_back({e.start, e.end, e.stream});
    } else if (role == Role::transfer) {
      const bool gloo = !kernel && events.names[e.name].rfind("gloo:", 0) == 0;
      Transfer t{e.start, e.end, c.direction(events, e), kernel && c.is_nccl(events, e), gloo, e.stream, e.start,
                 std::nullopt, std::nullopt};
      // A peer is a global rank, so it names a stage only where the file
      // names its own rank.
      if (e.file < events.files.size() && events.files[e.file].rank) t.peer = peer_of(&e - events.events.data());
      (c.is_wrapper(events, e) ? r.wrappers : r.transfers).push_back(t);
    } else if (role == Role::collective) {
      any_collective = true;
      ++r.summary.collective_kernels;
      r.collectives.emplace_back(e.start, e.end);
      r.summary.communication_time += length;
    }
  }
  if (auto slow = c.too_slow()) return *slow;
  bool any_transfer = false;
  for (auto& [rank, r] : ranks) {
    if (cpu_run) {
      std::vector<Transfer> comms = r.transfers;
      comms.insert(comms.end(), r.wrappers.begin(), r.wrappers.end());
      r.compute = without_wrappers(std::move(r.compute), std::move(comms));
      r.summary.compute_kernels = static_cast<std::int64_t>(r.compute.size());
    }
    // One message often shows as a wrapper (c10d::) and the transport's
    // event (gloo:): the transport's times are the message's, and the
    // wrapper's start is when it was issued.
    if (r.transfers.empty()) {
      r.transfers = std::move(r.wrappers);
    } else {
      issued_by_wrappers(r.transfers, std::move(r.wrappers));
    }
    std::vector<Interval> busy;
    for (const Compute& k : r.compute) busy.emplace_back(k.start, k.end);
    r.summary.compute_time = union_length(std::move(busy));
    r.summary.transfer_kernels = static_cast<std::int64_t>(r.transfers.size());
    for (const Transfer& t : r.transfers) r.summary.communication_time += t.end - t.start;
    any_transfer = any_transfer || !r.transfers.empty();
  }
  // On a GPU, Kineto writes each record_function range twice, with one
  // name: the host's, as it enqueues the kernels (user_annotation), and the
  // device's around them (gpu_user_annotation). A rank's kernels run in the
  // device's copies, so where a rank has them, they are its ranges.
  for (auto& [rank, r] : ranks) {
    const bool device = std::any_of(r.annotations.begin(), r.annotations.end(),
                                    [](const Annotation& a) { return a.device; });
    if (device) {
      r.annotations.erase(std::remove_if(r.annotations.begin(), r.annotations.end(),
                                         [](const Annotation& a) { return !a.device; }),
                          r.annotations.end());
    }
  }
  std::optional<std::int64_t> nested_rank;
  std::int64_t containers = 0, parts = 0;
  for (auto& [rank, r] : ranks) {
    // A host thread's ranges nest as its program does. A device's copies
    // may overlap without nesting in the program (a range whose last kernel,
    // on another stream, ends after the next range's), so they are left be.
    const bool device = std::any_of(r.annotations.begin(), r.annotations.end(),
                                    [](const Annotation& a) { return a.device; });
    if (device) continue;
    const auto [outer, inner] = unnest_ranges(r.annotations);
    if (outer + inner > 0 && !nested_rank) nested_rank = rank;
    containers += outer;
    parts += inner;
  }
  // A rank seen only through annotations ran nothing.
  for (auto it = ranks.begin(); it != ranks.end();) {
    const bool has_file = std::any_of(given.begin(), given.end(),
                                      [&](const std::optional<std::int64_t>& f) { return f && *f == it->first; });
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
  out.steps = steps;
  out.measured.nested_rank = nested_rank;
  out.measured.nested_containers = containers;
  out.measured.nested_parts = parts;
  std::vector<std::int64_t> found;
  for (auto& [rank, r] : ranks) {
    r.summary.streams = static_cast<std::int64_t>(r.streams.size());
    found.push_back(rank);
  }
  auto order = stage_ranks(found, options);
  if (!order) return order.error();
  std::vector<std::int64_t> stage_rank = order.value();
  for (std::size_t s = 0; s < stage_rank.size(); ++s) ranks[stage_rank[s]].summary.stage = static_cast<std::int64_t>(s);
  for (const auto& [rank, r] : ranks) out.ranks.push_back(r.summary);

  if (stage_rank.size() < 2) out.reason = NotPipeline::one_rank;
  else if (!any_transfer) out.reason = any_collective ? NotPipeline::collectives_only : NotPipeline::no_transfers;
  if (out.reason) return out;

  const std::size_t S = stage_rank.size();
  if (auto e = clock_offsets_error(options, S)) return *e;
  // A training run imported by one pass's ranges (forward or backward): the
  // pass's own transfers, the other pass's set aside.
  const bool training = has_autograd(events);
  const bool one_pass = training && !options.microbatch_regex.empty();
  std::int64_t other_pass = 0, pass_transfers = 0;
  if (one_pass) {
    for (const std::int64_t rank : stage_rank) {
      RankEvents& r = ranks[rank];
      other_pass += static_cast<std::int64_t>(r.transfers.size());
      r.transfers = claim_pass(std::move(r.transfers), r.annotations, cpu_run);
    }
    keep_pass_ends(ranks[stage_rank.front()].transfers, ranks[stage_rank.back()].transfers);
    for (const std::int64_t rank : stage_rank) pass_transfers += static_cast<std::int64_t>(ranks[rank].transfers.size());
    other_pass -= pass_transfers;
  }
  Placed placed = place_transfers(ranks, stage_rank);
  // A pipeline's messages flow from stage 0 to the last: the first stage
  // sends, the last receives. A first stage that only receives (or a last
  // that only sends) means the stages are not in the messages' order, as
  // when rank-less files come in another order; so do named peers that all
  // point against the links.
  auto out_of_order = [&placed, S] {
    return (!placed.recvs[0].empty() && placed.sends[0].empty()) ||
           (!placed.sends[S - 1].empty() && placed.recvs[S - 1].empty()) ||
           (placed.backward > 0 && placed.forward_named == 0);
  };
  // One pass of a training run may be the backward one, which runs the chain
  // from the last stage to the first: its stages are the order reversed.
  bool reversed = false;
  if (one_pass && out_of_order()) {
    std::reverse(stage_rank.begin(), stage_rank.end());
    placed = place_transfers(ranks, stage_rank);
    reversed = true;
    for (TraceRank& rank : out.ranks) {
      if (rank.stage >= 0) rank.stage = static_cast<std::int64_t>(S) - 1 - rank.stage;
    }
  }
  // Rank-less files given in another order than the messages flow: the
  // stages are the messages' chain.
  bool reordered = false;
  if (!one_pass && options.stage_order.empty()) {
    if (const auto chain = messages_chain(placed)) {
      std::vector<std::int64_t> chained;
      for (const std::size_t s : *chain) chained.push_back(stage_rank[s]);
      if (chained != stage_rank) {
        stage_rank = chained;
        placed = place_transfers(ranks, stage_rank);
        reordered = true;
        for (TraceRank& rank : out.ranks) {
          const auto at = std::find(stage_rank.begin(), stage_rank.end(), rank.rank);
          if (at != stage_rank.end()) rank.stage = at - stage_rank.begin();
        }
      }
    }
  }
  const std::vector<std::vector<Transfer>>& sends = placed.sends;
  const std::vector<std::vector<Transfer>>& recvs = placed.recvs;
  if (out_of_order()) {
    out.reason = NotPipeline::stages_out_of_order;
    return out;
  }
  // A pass by its ranges whose middle stage still carries both passes'
  // messages (ranges that claim the other's too) is two-way traffic.
  if (auto two_way = set_aside_returns(placed, training)) {
    out.reason = two_way;
    return out;
  }
  Measured& m = out.measured;
  m.stage_rank = stage_rank;
  m.returns_sent = placed.returns_sent;
  m.returns_received = placed.returns_received;
  m.set_aside = placed.elsewhere;
  m.other_pass = other_pass;
  m.pass_transfers = pass_transfers;
  m.reversed = reversed;
  m.reordered = reordered;
  // Offsets given by hand follow the order they were given in: a reversed
  // pass takes them reversed.
  std::vector<double> given_offsets = options.clock_offsets;
  if (reversed) std::reverse(given_offsets.begin(), given_offsets.end());
  m.offsets.assign(S, 0.0);
  m.bounds.resize(S - 1);
  m.transfers.resize(S - 1);
  m.unmatched.resize(S - 1);
  m.ambiguous_pairing.resize(S - 1);
  std::vector<double> link_offsets(S - 1, 0.0);
  for (std::size_t link = 0; link + 1 < S; ++link) {
    const auto& out_of = sends[link];
    const auto& into = recvs[link + 1];
    const std::size_t pairs = std::min(out_of.size(), into.size());
    m.unmatched[link] = static_cast<std::int64_t>(std::max(out_of.size(), into.size()) - pairs);
    if (pairs == 0) {
      out.reason = NotPipeline::unpaired_link;
      return out;
    }
    const bool host_clocks = ranks[stage_rank[link]].host_clock && ranks[stage_rank[link + 1]].host_clock;
    if (given_offsets.empty()) {
      m.ambiguous_pairing[link] = pair_from_the_end_if_late(placed.sends[link], placed.recvs[link + 1], host_clocks);
    }
    link_offsets[link] = pair_offset(out_of, into, host_clocks, m.bounds[link]);
  }
  close_the_loop(placed, ranks[stage_rank.front()].host_clock && ranks[stage_rank.back()].host_clock, m.bounds,
                 link_offsets);
  for (std::size_t link = 0; link + 1 < S; ++link) {
    m.offsets[link + 1] = given_offsets.empty() ? m.offsets[link] + link_offsets[link]
                                                : given_offsets[link + 1] * microseconds_in(options.unit);
  }
  if (options.stage_order.empty() && middle_stages_swapped(placed, m.bounds)) {
    out.reason = NotPipeline::stages_out_of_order;
    return out;
  }
  if (!given_offsets.empty()) m.offsets[0] = given_offsets[0] * microseconds_in(options.unit);
  std::vector<std::size_t> warm_up(S, 0);  // by link: the leading pairs sent before the ranges
  m.sends_never_block = cpu_run;
  for (std::size_t link = 0; link + 1 < S; ++link) {
    const auto& out_of = sends[link];
    const auto& into = recvs[link + 1];
    if (!options.microbatch_regex.empty()) {
      // Only when some pair is left: messages that all precede the ranges say nothing of them.
      const std::size_t before = sent_before_ranges(out_of, ranks[stage_rank[link]].annotations);
      if (before < std::min(out_of.size(), into.size())) warm_up[link] = before;
    }
    std::map<std::int64_t, LastFinished> receiver, sender;  // by thread
    auto thread_of = [](std::map<std::int64_t, LastFinished>& threads, const RankEvents& r, std::int64_t stream) {
      auto found = threads.find(stream);
      return found != threads.end() ? found : threads.emplace(stream, LastFinished(r, stream)).first;
    };
    // A send held its stage unless its thread finished something else after
    // the send returned and before its message was delivered.
    auto held_its_stage = [&](const Transfer& sent) {
      if (!sent.handed) return true;
      const LastFinished& thread = thread_of(sender, ranks[stage_rank[link]], sent.stream)->second;
      return thread.within(*sent.handed, sent.end) <= *sent.handed;
    };
    const std::size_t pairs = std::min(out_of.size(), into.size());
    for (std::size_t k = warm_up[link]; k < pairs; ++k) {
      // The link's last send holds no later micro-batch (a loop waits on its
      // isends after the last, with nothing left to run).
      if (m.sends_never_block && k + 1 < pairs && held_its_stage(out_of[k])) m.sends_never_block = false;
      // Both sides were there once both ops had begun: the send's and the
      // receive's wrappers (gloo moves a message inside c10d::send and
      // c10d::recv_, before the transport's events begin). A receive that
      // ended before then took no time.
      const double send_start = out_of[k].issued + m.offsets[link];
      const double recv_start = into[k].issued + m.offsets[link + 1];
      const double end = into[k].end + m.offsets[link + 1];
      double waited = std::max(send_start, recv_start);
      if (cpu_run) {
        const LastFinished& thread = thread_of(receiver, ranks[stage_rank[link + 1]], into[k].stream)->second;
        waited = std::max(waited, thread.within(into[k].issued, into[k].end) + m.offsets[link + 1]);
      }
      m.transfers[link].push_back({std::min(waited, end), end});
    }
  }
  // Several messages a micro-batch on a link are its one transfer, from its
  // first message's start to its last's end; the micro-batches open at a
  // run's last receive and close at its first send.
  // Only host receives are judged so: on a device, a receive for the next
  // micro-batch is often posted on its own stream before this one's compute
  // begins (prefetched), so no compute between receives says nothing there.
  std::vector<std::size_t> per_microbatch(S, 1);  // by link
  for (std::size_t link = 0; cpu_run && link + 1 < S; ++link) {
    const std::vector<Transfer> in_ranges(recvs[link + 1].begin() + static_cast<std::ptrdiff_t>(warm_up[link]),
                                          recvs[link + 1].end());
    const std::size_t g =
        messages_per_microbatch(in_ranges, m.transfers[link].size(), ranks[stage_rank[link + 1]].compute);
    if (g == 1) continue;
    per_microbatch[link] = g;
    std::vector<MeasuredTransfer> grouped;
    for (std::size_t k = 0; k + g <= m.transfers[link].size(); k += g) {
      grouped.push_back({m.transfers[link][k].start, m.transfers[link][k + g - 1].end});
    }
    m.transfers[link] = std::move(grouped);
  }

  // Every stage's micro-batch numbers, so that a slot is one micro-batch on
  // all of them.
  std::vector<std::int64_t> distinct;
  if (!options.microbatch_regex.empty()) {
    number_repeats_in_time(ranks, stage_rank, m);
    // A stage none of whose names match (a pattern that names one stage, as
    // '^stage0_mb([0-9]+)$') has no micro-batch: say so, not only that it
    // has no compute in one.
    std::set<std::int64_t> unmatched;
    for (std::size_t s = 0; s < S; ++s) {
      const std::vector<std::int64_t> numbers = number_ranges(ranks[stage_rank[s]].annotations);
      if (numbers.empty()) unmatched.insert(stage_rank[s]);
      distinct.insert(distinct.end(), numbers.begin(), numbers.end());
    }
    if (!unmatched.empty()) {
      // The names those stages' ranges do have, so that the user can write
      // the pattern from them.
      std::vector<std::int64_t> counts(events.names.size(), 0);
      for (const TraceEvent& e : events.events) {
        if (steps.keeps(e) && unmatched.count(rank_of(e)) > 0 && names_range(events, e)) ++counts[e.name];
      }
      out.range_names = frequent_range_names(events, counts);
      out.reason = NotPipeline::no_microbatch_ranges;
      return out;
    }
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    m.numbered = true;
  }
  m.compute.resize(S);
  for (std::size_t s = 0; s < S; ++s) {
    RankEvents& r = ranks[stage_rank[s]];
    std::vector<Interval> kernels;
    for (const Compute& k : r.compute) kernels.emplace_back(k.start + m.offsets[s], k.end + m.offsets[s]);
    std::sort(kernels.begin(), kernels.end());
    if (!options.microbatch_regex.empty()) {
      for (Annotation& a : r.annotations) {
        a.start += m.offsets[s];
        a.end += m.offsets[s];
      }
      std::vector<Interval> inputs;
      std::vector<double> outputs;
      if (cpu_run && s > 0) {
        for (const Transfer& t : recvs[s]) inputs.emplace_back(t.start + m.offsets[s], t.end + m.offsets[s]);
      }
      if (cpu_run && s + 1 < S) {
        for (const Transfer& t : sends[s]) outputs.push_back(t.issued + m.offsets[s]);
        std::sort(outputs.begin(), outputs.end());
      }
      m.compute[s] = by_annotations(kernels, r.annotations, distinct, inputs, outputs, cpu_run);
      continue;
    }
    std::vector<double> opens, closes;
    // What the stage ran between one micro-batch's messages on a link (the
    // second tensor's slice copied out between its sends, the next buffer
    // made between its receives) is no micro-batch's compute: it would
    // stretch a span across the messages' waits.
    std::vector<Interval> between;
    if (s > 0) {
      const std::size_t g = per_microbatch[s - 1];
      for (std::size_t k = g - 1; k < recvs[s].size(); k += g) {
        opens.push_back(recvs[s][k].end + m.offsets[s]);
        if (g > 1) between.emplace_back(recvs[s][k + 1 - g].start + m.offsets[s], recvs[s][k].start + m.offsets[s]);
      }
    }
    if (s + 1 < S) {
      const std::size_t g = per_microbatch[s];
      for (std::size_t k = 0; k < sends[s].size(); k += g) {
        closes.push_back(sends[s][k].start + m.offsets[s]);
        if (g > 1 && k + g <= sends[s].size()) {
          between.emplace_back(sends[s][k].start + m.offsets[s], sends[s][k + g - 1].start + m.offsets[s]);
        }
      }
    }
    if (!between.empty()) {
      // Both in time order: one pass.
      std::sort(between.begin(), between.end());
      std::size_t at = 0;
      std::vector<Interval> kept;
      for (const Interval& i : kernels) {
        while (at < between.size() && between[at].second < i.first) ++at;
        if (at < between.size() && i.first >= between[at].first && i.second <= between[at].second) continue;
        kept.push_back(i);
      }
      kernels = std::move(kept);
    }
    const std::size_t count = std::min(s > 0 ? m.transfers[s - 1].size() : SIZE_MAX,
                                       s + 1 < S ? m.transfers[s].size() : SIZE_MAX);
    std::sort(opens.begin(), opens.end());
    std::sort(closes.begin(), closes.end());
    opens.resize(std::min(opens.size(), count));
    double set_up_end = -INFINITY;
    if (s == 0) {
      std::vector<Interval> collectives;
      for (const Interval& c : r.collectives) collectives.emplace_back(c.first + m.offsets[s], c.second + m.offsets[s]);
      set_up_end = end_of_set_up(collectives, closes);
      kernels.erase(std::remove_if(kernels.begin(), kernels.end(),
                                   [&](const Interval& k) { return k.first + kTraceResolution < set_up_end; }),
                    kernels.end());
    }
    m.compute[s] = by_transfers(kernels, opens, closes, count);
    if (cpu_run) {
      // Where each micro-batch's output is issued: its (first) send's
      // wrapper start, or on the last stage the next receive's.
      std::vector<double> ends;
      if (s + 1 < S) {
        for (std::size_t k = 0; k < sends[s].size(); k += per_microbatch[s]) {
          ends.push_back(sends[s][k].issued + m.offsets[s]);
        }
      } else {
        const std::size_t g = per_microbatch[s - 1];
        for (std::size_t k = g; k < recvs[s].size(); k += g) ends.push_back(recvs[s][k].issued + m.offsets[s]);
      }
      std::sort(ends.begin(), ends.end());
      // Nothing opens stage 0's micro-batches by the transfers, but on one
      // host thread micro-batch m starts when send m - 1 has returned (its
      // transport's end: a blocking send's, or an isend waited on at once;
      // one waited on later ends inside the next micro-batch, and the
      // marks never reach there). Micro-batch 0 stays opened by its first op.
      std::vector<double> starts = opens;
      if (s == 0 && S > 1) {
        const std::size_t g = per_microbatch[0];
        starts.assign(1, INFINITY);  // no mark
        for (std::size_t k = g - 1; k + g < sends[0].size(); k += g) starts.push_back(sends[0][k].end + m.offsets[0]);
        starts[0] = lead_of_first(m.compute[0], starts, kernels, std::max(m.offsets[0], set_up_end));
      }
      widen_to_messages(m.compute[s], starts, ends);
    }
  }
  return out;
}

}  // namespace heteropipe::trace_detail
