// Seconds, bytes and rates as types at the model's boundaries (the cluster's links, the collective
// model's inputs), after ns-3's Time and DataRate: a rate is never passed where a time is meant.
#pragma once

#include <compare>

namespace scalecast {

// What every quantity shares: sums and differences of its own unit, scaling by a number, the
// ratio of two, order. Each operation is the one double operation it stands for.
template <class Q>
class Quantity {
 public:
  constexpr Quantity() = default;
  constexpr explicit Quantity(double value) : v_(value) {}

  constexpr Q operator+(Q o) const { return Q(v_ + o.v_); }
  constexpr Q operator-(Q o) const { return Q(v_ - o.v_); }
  constexpr Q operator*(double k) const { return Q(v_ * k); }
  constexpr Q operator/(double k) const { return Q(v_ / k); }
  constexpr double operator/(Q o) const { return v_ / o.v_; }
  constexpr Q& operator+=(Q o) { return v_ += o.v_, static_cast<Q&>(*this); }
  constexpr auto operator<=>(const Quantity&) const = default;

 protected:
  double v_ = 0;
};

class Rate;

// A duration. Inside: seconds.
class Seconds : public Quantity<Seconds> {
 public:
  using Quantity::Quantity;
  constexpr double s() const { return v_; }
};

// An amount of data. Inside: bytes.
class Bytes : public Quantity<Bytes> {
 public:
  using Quantity::Quantity;
  constexpr double bytes() const { return v_; }
  using Quantity::operator/;
  constexpr Seconds operator/(Rate r) const;
};

// A data rate, one direction. Inside: bytes per second.
class Rate : public Quantity<Rate> {
 public:
  using Quantity::Quantity;
  constexpr double bytes_per_s() const { return v_; }
  using Quantity::operator*;
  constexpr Bytes operator*(Seconds t) const { return Bytes(v_ * t.s()); }
};

constexpr Seconds Bytes::operator/(Rate r) const { return Seconds(v_ / r.bytes_per_s()); }

}  // namespace scalecast
