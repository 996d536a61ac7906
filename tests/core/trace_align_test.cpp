// The clock alignment's tie rule (core/src/trace/align_clocks.cpp,
// kTieDraws) at its boundary, on pairs written by hand: gloo's rendezvous,
// both bounds proven, one pair near each bound, and the side whose pairs
// provably waited at least four times as often as the other's wins; as
// often on each side, neither wins and the offset is the bounds' middle.
#include <doctest/doctest.h>

#include <vector>

#include "trace/measured.hpp"

using heteropipe::trace_detail::link_offset;
using heteropipe::trace_detail::OffsetBounds;
using heteropipe::trace_detail::PairSide;

namespace {

// One pair, 100 us after the last (so that every send ends alone): the
// receive posted at r = 100 k on the receiver's clock and lasting `receive`,
// the send issued d after r on the sender's and lasting `send`. No wrapper:
// every send bounds hi, and the receive is posted at its start.
void add_pair(std::vector<PairSide>& sends, std::vector<PairSide>& recvs, double d, double send, double receive) {
  const double r = 100.0 * static_cast<double>(recvs.size());
  sends.push_back({r + d, r + d + send, std::nullopt, std::nullopt});
  recvs.push_back({r, r + receive, std::nullopt, std::nullopt});
}

// lo_draws receivers and hi_draws senders that provably waited. Per pair,
// its lower bound is d - receive, its upper bound d + send; the receiver
// waited when d >= hi, the sender when d <= lo (its send not outlasting its
// receive by more than the shortest receive, 2).
//   near lo: d 12, send 2, receive 12: bounds 0 and 14, receiver waited;
//   near hi: d -2, send 12, receive 2: bounds -4 and 10, sender waited;
//   each further receiver: d 11, send 2, receive 20: bounds -9 and 13;
//   each further sender: d -1, send 20, receive 2: bounds -3 and 19.
// So lo = 0, hi = 10, near = (hi - lo) / 10 = 1: only the first pair lies
// within 1 of lo and only the second within 1 of hi, a tie. The shortest
// send or receive is 2: lo's estimate is lo + 2 = 2, hi's hi - 2 = 8.
double offset_of(int lo_draws, int hi_draws, OffsetBounds& bounds) {
  std::vector<PairSide> sends, recvs;
  add_pair(sends, recvs, 12, 2, 12);
  add_pair(sends, recvs, -2, 12, 2);
  for (int k = 1; k < lo_draws; ++k) add_pair(sends, recvs, 11, 2, 20);
  for (int k = 1; k < hi_draws; ++k) add_pair(sends, recvs, -1, 20, 2);
  return link_offset(sends, recvs, false, false, true, bounds);
}

}  // namespace

// Every tie here has the same bounds, [0, 10], both sides proven.
void check_bounds(const OffsetBounds& bounds) {
  CHECK(bounds.lo == 0);
  REQUIRE(bounds.hi);
  CHECK(*bounds.hi == 10);
  CHECK(bounds.proven);
}

TEST_CASE("trace align: a tie goes to hi when its senders waited exactly kTieDraws times as often, else to lo") {
  for (const int lo_draws : {1, 2}) {
    CAPTURE(lo_draws);
    OffsetBounds at_four;
    CHECK(offset_of(lo_draws, 4 * lo_draws, at_four) == 8);
    check_bounds(at_four);
    OffsetBounds at_three;
    CHECK(offset_of(lo_draws, 3 * lo_draws, at_three) == 2);
    check_bounds(at_three);
  }
  // One draw short of four times still goes to lo.
  OffsetBounds short_one;
  CHECK(offset_of(2, 7, short_one) == 2);
}

TEST_CASE("trace align: a tie with as many waiting pairs on each side takes the middle of its bounds") {
  for (const int draws : {1, 2, 3}) {
    CAPTURE(draws);
    OffsetBounds even;
    CHECK(offset_of(draws, draws, even) == 5);
    check_bounds(even);
  }
}
