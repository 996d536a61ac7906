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
  // send_start, on every pair.
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
  // The pair whose receiver waited longest received its message as soon as
  // it was sent, after the link's transfer time: the shortest of the pairs'
  // sends and receives, which is the transport's own time (a send handed
  // to a waiting receiver, or a receive of a message already there).
  double transfer = INFINITY;
  for (std::size_t k = 0; k < pairs; ++k) {
    transfer = std::min({transfer, sends[k].end - sends[k].start, recvs[k].end - recvs[k].start});
  }
  return bounds.lo + std::max(0.0, transfer);
}

}  // namespace heteropipe::trace_detail
