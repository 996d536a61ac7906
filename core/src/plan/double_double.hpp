#pragma once

// Sums carried as an unevaluated pair hi + lo (double-double), so that a
// difference of two long prefix sums keeps the small terms: with a layer time
// of 1e14 in a prefix, a plain double's rounding unit there is about 0.016,
// larger than the stage times being compared. Error-free transformations
// (Knuth's TwoSum, Dekker's FastTwoSum) need only + and - (no FMA, and the
// build keeps -ffp-contract=off), so every host gets the same bits.
// Internal to the core.
namespace heteropipe::plan_detail {

struct DoubleDouble {
  double hi = 0, lo = 0;  // |lo| <= half a unit in the last place of hi
};

// a + b exactly, as the rounded sum and its error.
inline DoubleDouble two_sum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}

// The same, given |a| >= |b| (or a == 0).
inline DoubleDouble fast_two_sum(double a, double b) {
  const double s = a + b;
  return {s, b - (s - a)};
}

inline DoubleDouble add(DoubleDouble x, double y) {
  DoubleDouble s = two_sum(x.hi, y);
  s.lo += x.lo;
  return fast_two_sum(s.hi, s.lo);
}

inline DoubleDouble add(DoubleDouble x, DoubleDouble y) {
  DoubleDouble s = two_sum(x.hi, y.hi);
  const DoubleDouble t = two_sum(x.lo, y.lo);
  s.lo += t.hi;
  s = fast_two_sum(s.hi, s.lo);
  s.lo += t.lo;
  return fast_two_sum(s.hi, s.lo);
}

inline DoubleDouble negated(DoubleDouble x) { return {-x.hi, -x.lo}; }

// Orders normalized pairs as their exact values.
inline bool less(DoubleDouble a, DoubleDouble b) { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo); }

}  // namespace heteropipe::plan_detail
