// The ranks' clocks, aligned link by link from the pairs' causality
// (docs/traces.md, "Clock offsets").
#include <algorithm>
#include <cmath>

#include "measured.hpp"

namespace heteropipe::trace_detail {
namespace {

// How many times the other side's pairs that waited one side needs to win a
// tie of pairs near the bounds: in real runs two or three senders that
// waited against one receiver were as often the worse side as the better,
// seven against one the far better (docs/benchmarks.md, "Forwarding
// stages, mixed send modes, M from 1 to 64").
constexpr std::int64_t kTieDraws = 4;

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// The offset from lo: the tightest pair's receiver waited until the message
// came, so it ended one hand-over after the send was issued.
double after_lo(const std::vector<PairSide>& sends, const std::vector<PairSide>& recvs, std::size_t pairs,
                double lo) {
  // A send's hand-over is from its
  // issue to when its wrapper returned (gloo writes the message to a waiting
  // receiver inside c10d::send). One pair's hand-over is fragile: a sender
  // descheduled after handing over returns late, and the offset would
  // overshoot. Descheduling only lengthens a hand-over, so the link's
  // shortest hand-over to a waiting receiver is its time to write a message,
  // and lo plus it stays between the causal bound and the tightest pair's
  // own hand-over. A receive posted before the send was issued, on lo's
  // alignment, waited (every truly waiting pair passes: offset >= lo).
  double handover = INFINITY;
  for (std::size_t k = 0; k < pairs; ++k) {
    if (sends[k].handed && recvs[k].start + lo <= sends[k].start) {
      handover = std::min(handover, *sends[k].handed - sends[k].start);
    }
  }
  if (std::isfinite(handover)) return lo + std::max(0.0, handover);
  // With no wrapper, the trace shows the transport alone: its shortest send
  // or receive is the link's transfer time (a send handed to a waiting
  // receiver, or a receive of a message already there).
  double transfer = INFINITY;
  for (std::size_t k = 0; k < pairs; ++k) {
    transfer = std::min({transfer, sends[k].end - sends[k].start, recvs[k].end - recvs[k].start});
  }
  return lo + std::max(0.0, transfer);
}

}  // namespace

double link_offset(const std::vector<PairSide>& sends, const std::vector<PairSide>& recvs, bool ends_together,
                   bool host_clocks, bool rendezvous, OffsetBounds& bounds) {
  const std::size_t pairs = std::min(sends.size(), recvs.size());
  // A message is not received before it is sent: recv_end + offset >=
  // send_start, on every pair. The tightest pair gives lo.
  bounds.lo = -INFINITY;
  for (std::size_t k = 0; k < pairs; ++k) bounds.lo = std::max(bounds.lo, sends[k].start - recvs[k].end);
  bounds.hi.reset();
  if (ends_together) {
    // An NCCL send kernel cannot finish before its receive kernel starts.
    double hi = INFINITY;
    for (std::size_t k = 0; k < pairs; ++k) hi = std::min(hi, sends[k].end - recvs[k].start);
    bounds.hi = hi;
    bounds.proven = true;
    std::vector<double> skew(pairs);
    for (std::size_t k = 0; k < pairs; ++k) skew[k] = sends[k].end - recvs[k].end;
    const double offset = median(skew);
    return bounds.lo <= hi ? std::clamp(offset, bounds.lo, hi) : offset;
  }
  bounds.proven = false;
  if (host_clocks && bounds.lo <= kTraceResolution) {
    bounds.proven = true;
    return 0;
  }
  const double from_lo = after_lo(sends, recvs, pairs, bounds.lo);
  if (!rendezvous) return from_lo;
  // gloo's rendezvous: a send completes only after its receive was posted,
  // so send_end - recv_posted bounds the offset from above, tightly on the
  // pairs whose sender waited, as lo is on those whose receiver waited. A
  // send that waited does so in its transport event, after its wrapper
  // (c10d::send) returned; one that ended within its wrapper was handed to
  // a receiver already waiting, or waited outside the trace (an isend whose
  // wait came after the profiler stopped records only its launch), and
  // bounds nothing.
  auto waited = [&sends](std::size_t k) {
    return !sends[k].handed || sends[k].end > *sends[k].handed + kTraceResolution;
  };
  double hi = INFINITY;
  for (std::size_t k = 0; k < pairs; ++k) {
    if (waited(k)) hi = std::min(hi, sends[k].end - recvs[k].posted.value_or(recvs[k].start));
  }
  if (!std::isfinite(hi)) return from_lo;
  bounds.hi = hi;
  if (hi < bounds.lo) return from_lo;  // contradicting bounds: the result warns
  // Each side's estimate is as tight as its best pair's wake-up was short, so
  // take the side more pairs support: a pair supports lo when its own lower
  // bound lies within a tenth of the bounds' width of lo, and hi likewise.
  // From hi, the offset is hi less the link's shortest receive (the time to
  // deliver a message once the receive is posted and the sender is there).
  //
  // A side's estimate holds only where its pairs truly waited, which the
  // bounds can prove: a receive posted before its send was issued at every
  // offset up to hi (the receiver waited: lo's side), or a send issued before
  // its receive was posted at every offset from lo (the sender waited: hi's
  // side). Pairs near a bound need not have waited: a receiver that starts
  // behind its sender (its profiler started later, or it is the slower stage)
  // finds every message queued, its pairs' lower bounds all loose by the
  // queue, and the shortest queue supports lo with its neighbours. So when
  // one side's supporting pairs include one that provably waited and the
  // other side's none, that side is taken whatever the counts. A send that
  // ended with another (within the link's shortest receive) ended at a wait
  // over several isends, not at its own receive's posting, so it proves
  // nothing of hi.
  const double near = (hi - bounds.lo) / 10;
  double receive = INFINITY;
  std::vector<double> ends(pairs);
  for (std::size_t k = 0; k < pairs; ++k) {
    receive = std::min(receive, recvs[k].end - recvs[k].start);
    ends[k] = sends[k].end;
  }
  std::sort(ends.begin(), ends.end());
  auto ended_alone = [&ends, receive](double end) {
    const auto at = std::lower_bound(ends.begin(), ends.end(), end);
    const bool after = at != ends.begin() && end - *(at - 1) <= receive;
    const bool before = at + 1 != ends.end() && *(at + 1) - end <= receive;
    return !after && !before;
  };
  std::int64_t at_lo = 0, at_hi = 0;
  // Pairs anywhere in the bounds that provably waited, on each side: each is
  // one draw of that side's wake-up, and its bound is the quickest of them.
  std::int64_t lo_draws = 0, hi_draws = 0;
  bool lo_waited = false, hi_waited = false;
  for (std::size_t k = 0; k < pairs; ++k) {
    const double posted = recvs[k].posted.value_or(recvs[k].start);
    const bool near_lo = sends[k].start - recvs[k].end >= bounds.lo - near;
    const bool near_hi = waited(k) && sends[k].end - posted <= hi + near;
    at_lo += near_lo ? 1 : 0;
    at_hi += near_hi ? 1 : 0;
    const bool receiver_waited = posted + hi <= sends[k].start;
    lo_draws += receiver_waited ? 1 : 0;
    lo_waited = lo_waited || (near_lo && receiver_waited);
    // Or the pair says so itself, on each side's own clock: in a
    // rendezvous the side that came first waits for the other and both end
    // about together, so a send that lasted longer than its receive, by
    // more than a delivery, was issued first. Where the one pair sets both
    // bounds (a receiver that started behind finds every isend queued but
    // the last, whose sender then waits), lo is loose by that pair's whole
    // receive, and "issued before posted at every offset from lo" fails by
    // it; the durations do not.
    const bool send_outlasted =
        sends[k].end - sends[k].start > recvs[k].end - posted + std::max(0.0, receive);
    const bool sender_waited =
        waited(k) && (sends[k].start <= posted + bounds.lo || send_outlasted) && ended_alone(sends[k].end);
    hi_draws += sender_waited ? 1 : 0;
    hi_waited = hi_waited || (near_hi && sender_waited);
  }
  const double from_hi = hi - std::max(0.0, receive);
  // Both sides proven and as many pairs near each bound: the side with
  // kTieDraws times the other's pairs that waited at all, else lo. A
  // receiver that waited only for micro-batch 0 (its sender the faster
  // stage, as a stage with no compute of its own is) woke once, and late on
  // a busy host, where the senders that waited for each later receive woke
  // many times, the quickest of them soon.
  const bool tie = lo_waited && hi_waited && at_lo == at_hi;
  // A tie whose sides also drew as many wake-ups (one each on a run of two
  // micro-batches: the receiver waited for the first alone, the sender for
  // the last) holds nothing that favours either side's estimate, and either
  // may sit a whole late wake-up from the truth, which can be most of the
  // bounds' width. The causal bounds are then all that is known, and their
  // middle misses no offset inside them by more than half their width, the
  // least any one point can promise.
  if (tie && lo_draws == hi_draws) {
    bounds.proven = true;
    return (bounds.lo + hi) / 2;
  }
  const bool use_lo = lo_waited != hi_waited ? lo_waited
                      : !tie                 ? at_lo >= at_hi
                                             : hi_draws < kTieDraws * lo_draws;
  bounds.proven = use_lo ? lo_waited : hi_waited;
  return std::clamp(use_lo ? from_lo : from_hi, bounds.lo, hi);
}

}  // namespace heteropipe::trace_detail
