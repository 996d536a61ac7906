// The engine with shared links. Every time but a shared medium's is a max-plus
// function of times already known, so each stage runs ahead as far as its
// inputs allow. When no stage can move, the medium whose next transfer would
// start earliest serves its queue's earliest-ready transfer (ties: the lower
// link). Any transfer not yet ready can only become ready after some pending
// transfer starts, so none can overtake it: the order is first come, first
// served by ready time. Each medium keeps its links' first pending transfers
// ordered, and the media are ordered by when each could start its next, so a
// transfer costs O(log S) to pick whatever the groups' sizes.
#include <deque>
#include <set>
#include <utility>

#include "engine.hpp"

namespace heteropipe::sim::detail {
namespace {

double later(double a, double b) { return a > b ? a : b; }

struct Pending {
  double ready;
  std::int64_t m;
};

class EventEngine {
 public:
  EventEngine(const Setup& su, Draws& draws, Recorder* rec)
      : su_(su), draws_(draws), rec_(rec), n_(static_cast<std::size_t>(su.S)) {
    next_.assign(n_, 0);
    phase_.assign(n_, Phase::start);
    free_at_.assign(n_, 0.0);
    start_.assign(n_, 0.0);
    finish_.assign(n_, 0.0);
    service_.assign(n_, 0.0);
    released_.assign(n_, 0);
    arrivals_.resize(n_);
    pending_.resize(n_);
    link_free_.assign(n_, 0.0);
    medium_free_.assign(static_cast<std::size_t>(su.groups), 0.0);
    heads_.resize(static_cast<std::size_t>(su.groups));
    medium_key_.assign(static_cast<std::size_t>(su.groups), kNone);
    history_.resize(n_);
    for (std::int64_t s = 1; s < su.S; ++s) {
      if (su.room[s - 1] >= 0) history_[s].assign(static_cast<std::size_t>(su.room[s - 1]) + 1, 0.0);
    }
    queued_.assign(n_, 0);
  }

  double run() {
    for (std::int64_t s = su_.S - 1; s >= 0; --s) wake(s);
    for (;;) {
      while (!work_.empty()) {
        const std::int64_t s = work_.back();
        work_.pop_back();
        queued_[s] = 0;
        advance(s);
      }
      if (next_[n_ - 1] == su_.M || !serve_one()) break;
    }
    return free_at_[n_ - 1];
  }

 private:
  enum class Phase { start, leave, held };

  // How long a blocking sender not held since its service ended is busy,
  // its transfer taking x: p + x, or with fixed times Setup::held (the
  // recurrence's sigma under the tie rule), as in the row engine.
  double held(std::int64_t s, double x) const { return su_.held.empty() ? service_[s] + x : su_.held[s]; }

  void wake(std::int64_t s) {
    if (s < 0 || s >= su_.S || queued_[s]) return;
    queued_[s] = 1;
    work_.push_back(s);
  }

  // Stage s's release of micro-batch `m`, once known.
  bool released(std::int64_t s, std::int64_t m, double& time) const {
    if (released_[s] <= m) return false;
    const std::vector<double>& h = history_[s];
    time = h[static_cast<std::size_t>(m) % h.size()];
    return true;
  }

  void release(std::int64_t s, double time) {
    const std::int64_t m = next_[s];
    if (rec_) rec_->cell(m, s, free_at_[s], start_[s], service_[s], finish_[s], time);
    if (!history_[s].empty()) history_[s][static_cast<std::size_t>(m) % history_[s].size()] = time;
    ++released_[s];
    free_at_[s] = time;
    ++next_[s];
    phase_[s] = Phase::start;
    wake(s - 1);
  }

  void advance(std::int64_t s) {
    while (next_[s] < su_.M) {
      const std::int64_t m = next_[s];
      if (phase_[s] == Phase::start) {
        double arrival = 0;
        if (s > 0) {
          if (arrivals_[s].empty()) return;
          arrival = arrivals_[s].front();
          arrivals_[s].pop_front();
        }
        start_[s] = later(arrival, free_at_[s]);
        service_[s] = draws_.stage(m, s);
        finish_[s] = start_[s] + service_[s];
        phase_[s] = Phase::leave;
      }
      if (phase_[s] == Phase::held) return;
      if (s + 1 == su_.S) {
        release(s, finish_[s]);
        continue;
      }
      double leave = finish_[s];
      const std::int64_t room = su_.room[s];
      if (room >= 0 && m > room) {
        double freed = 0;
        if (!released(s + 1, m - room - 1, freed)) return;
        leave = later(leave, freed);
      }
      if (su_.group[s] >= 0) {
        pending_[s].push_back(Pending{leave, m});
        if (pending_[s].size() == 1) {
          heads_[su_.group[s]].insert({leave, s});
          update_medium(su_.group[s]);
        }
        if (su_.block) {
          phase_[s] = Phase::held;
          return;
        }
        release(s, leave);
        continue;
      }
      const double begin = su_.server[s] ? later(leave, link_free_[s]) : leave;
      const double x = draws_.link(m, s);
      // As in the row engine: a blocking sender not held since its service
      // ended releases at start + (p + x), the blocking recurrence's bits.
      const double end = su_.block && begin == finish_[s] ? start_[s] + held(s, x) : begin + x;
      link_free_[s] = end;
      if (rec_) rec_->transfer(m, s, begin, end);
      arrivals_[s + 1].push_back(end);
      wake(s + 1);
      release(s, su_.block ? end : leave);
    }
  }

  // Starts the transfer that comes next on the medium able to start one
  // earliest; false when no transfer waits. A medium serves its earliest-ready
  // head (ties: the lower link); among media the earliest start wins (ties:
  // the lower group).
  bool serve_one() {
    if (media_.empty()) return false;
    const double best_begin = media_.begin()->first;
    const std::int64_t g = media_.begin()->second;
    const std::int64_t best_link = heads_[g].begin()->second;
    heads_[g].erase(heads_[g].begin());
    const Pending p = pending_[best_link].front();
    pending_[best_link].pop_front();
    if (!pending_[best_link].empty()) heads_[g].insert({pending_[best_link].front().ready, best_link});
    const double x = draws_.link(p.m, best_link);
    // A blocking sender is held on this micro-batch, its times still current.
    const bool unheld = su_.block && best_begin == finish_[best_link];
    const double end = unheld ? start_[best_link] + held(best_link, x) : best_begin + x;
    medium_free_[g] = end;
    update_medium(g);
    if (rec_) rec_->transfer(p.m, best_link, best_begin, end);
    arrivals_[best_link + 1].push_back(end);
    wake(best_link + 1);
    if (su_.block) {
      release(best_link, end);
      wake(best_link);
    }
    return true;
  }

  // Medium g's place in media_: when it could start its next transfer, or
  // out of it while none of its links has one pending.
  void update_medium(std::int64_t g) {
    const double key = heads_[g].empty() ? kNone : later(heads_[g].begin()->first, medium_free_[g]);
    if (key == medium_key_[g]) return;
    if (medium_key_[g] != kNone) media_.erase({medium_key_[g], g});
    medium_key_[g] = key;
    if (key != kNone) media_.insert({key, g});
  }

  // No start time: below every time (all are at least 0).
  static constexpr double kNone = -1;

  const Setup& su_;
  Draws& draws_;
  Recorder* rec_;
  std::size_t n_;
  std::vector<std::int64_t> next_, released_, work_;
  std::vector<Phase> phase_;
  std::vector<double> free_at_, start_, service_, finish_, link_free_, medium_free_;
  std::vector<std::deque<double>> arrivals_;
  std::vector<std::deque<Pending>> pending_;
  // Per medium, (ready, link) of each of its links' first pending transfer;
  // and (start, medium) of each medium with one.
  std::vector<std::set<std::pair<double, std::int64_t>>> heads_;
  std::set<std::pair<double, std::int64_t>> media_;
  std::vector<double> medium_key_;
  std::vector<std::vector<double>> history_;
  std::vector<char> queued_;
};

}  // namespace

double event_engine(const Setup& setup, Draws& draws, Recorder* rec) {
  return EventEngine(setup, draws, rec).run();
}

}  // namespace heteropipe::sim::detail
