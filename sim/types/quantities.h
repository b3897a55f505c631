// Seconds, bytes and rates as types at the model's boundaries (the cluster's links, the collective
// model's inputs), after ns-3's Time and DataRate: a rate is never passed where a time is meant.
#pragma once

#include <compare>

namespace scalecast {

class Rate;

// A duration. Inside: seconds.
class Seconds {
 public:
  constexpr Seconds() = default;
  constexpr explicit Seconds(double seconds) : s_(seconds) {}
  constexpr double s() const { return s_; }

  constexpr Seconds operator+(Seconds o) const { return Seconds(s_ + o.s_); }
  constexpr Seconds operator-(Seconds o) const { return Seconds(s_ - o.s_); }
  constexpr Seconds operator*(double k) const { return Seconds(s_ * k); }
  constexpr Seconds operator/(double k) const { return Seconds(s_ / k); }
  constexpr double operator/(Seconds o) const { return s_ / o.s_; }
  constexpr Seconds& operator+=(Seconds o) { return s_ += o.s_, *this; }
  constexpr auto operator<=>(const Seconds&) const = default;

 private:
  double s_ = 0;
};

// An amount of data. Inside: bytes.
class Bytes {
 public:
  constexpr Bytes() = default;
  constexpr explicit Bytes(double bytes) : b_(bytes) {}
  constexpr double bytes() const { return b_; }

  constexpr Bytes operator+(Bytes o) const { return Bytes(b_ + o.b_); }
  constexpr Bytes operator-(Bytes o) const { return Bytes(b_ - o.b_); }
  constexpr Bytes operator*(double k) const { return Bytes(b_ * k); }
  constexpr Bytes operator/(double k) const { return Bytes(b_ / k); }
  constexpr double operator/(Bytes o) const { return b_ / o.b_; }
  constexpr Seconds operator/(Rate r) const;
  constexpr auto operator<=>(const Bytes&) const = default;

 private:
  double b_ = 0;
};

// A data rate, one direction. Inside: bytes per second.
class Rate {
 public:
  constexpr Rate() = default;
  constexpr explicit Rate(double bytes_per_s) : bps_(bytes_per_s) {}
  constexpr double bytes_per_s() const { return bps_; }

  constexpr Rate operator+(Rate o) const { return Rate(bps_ + o.bps_); }
  constexpr Rate operator*(double k) const { return Rate(bps_ * k); }
  constexpr Rate operator/(double k) const { return Rate(bps_ / k); }
  constexpr double operator/(Rate o) const { return bps_ / o.bps_; }
  constexpr Bytes operator*(Seconds t) const { return Bytes(bps_ * t.s()); }
  constexpr auto operator<=>(const Rate&) const = default;

 private:
  double bps_ = 0;
};

constexpr Seconds Bytes::operator/(Rate r) const { return Seconds(b_ / r.bytes_per_s()); }

}  // namespace scalecast
