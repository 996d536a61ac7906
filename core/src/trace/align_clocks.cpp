// The ranks' clocks, aligned link by link from the pairs' causality
// (docs/traces.md, "Clock offsets").
#include <algorithm>
#include <cmath>

#include "measured.hpp"

namespace heteropipe::trace_detail {
namespace {

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

double link_offset(const std::vector<PairSide>& sends, const std::vector<PairSide>& recvs, bool ends_together,
                   bool host_clocks, OffsetBounds& bounds) {
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
    std::vector<double> skew(pairs);
    for (std::size_t k = 0; k < pairs; ++k) skew[k] = sends[k].end - recvs[k].end;
    const double offset = median(skew);
    return bounds.lo <= hi ? std::clamp(offset, bounds.lo, hi) : offset;
  }
  if (host_clocks && bounds.lo <= kTraceResolution) return 0;
  // The tightest pair's receiver waited until the message came: it ended
  // one hand-over after the send was issued. A send's hand-over is from its
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
    if (sends[k].handed && recvs[k].start + bounds.lo <= sends[k].start) {
      handover = std::min(handover, *sends[k].handed - sends[k].start);
    }
  }
  if (std::isfinite(handover)) return bounds.lo + std::max(0.0, handover);
  // With no wrapper, the trace shows the transport alone: its shortest send
  // or receive is the link's transfer time (a send handed to a waiting
  // receiver, or a receive of a message already there).
  double transfer = INFINITY;
  for (std::size_t k = 0; k < pairs; ++k) {
    transfer = std::min({transfer, sends[k].end - sends[k].start, recvs[k].end - recvs[k].start});
  }
  return bounds.lo + std::max(0.0, transfer);
}

}  // namespace heteropipe::trace_detail
