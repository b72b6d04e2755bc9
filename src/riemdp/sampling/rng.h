// Random generators for the samplers. Samplers take the generator as a
// template parameter with unif() in (0,1), norm() ~ N(0,1) and expo() ~ Exp(1).
// Xoshiro256++ is the fast generator; the glue seeds it from R's RNG at each
// call so that set.seed() reproduces every result.
#ifndef RIEMDP_SAMPLING_RNG_H
#define RIEMDP_SAMPLING_RNG_H

#include <cmath>
#include <cstdint>

namespace riemdp {

class Xoshiro256pp {
 public:
  // Seed from four 64-bit words (not all zero); mixed by splitmix64.
  explicit Xoshiro256pp(const std::uint64_t seed[4]) {
    for (int i = 0; i < 4; ++i) {
      std::uint64_t z = seed[i] + 0x9e3779b97f4a7c15ULL * (i + 1);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      s_[i] = z ^ (z >> 31);
    }
    if ((s_[0] | s_[1] | s_[2] | s_[3]) == 0) s_[0] = 1;
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[0] + s_[3], 23) + s_[0];
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform on the open interval (0, 1), 53 random bits.
  double unif() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53; }

  // Standard normal by Marsaglia's polar method (one spare kept).
  double norm() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    double u, v, s;
    do {
      u = 2.0 * unif() - 1.0;
      v = 2.0 * unif() - 1.0;
      s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    const double f = std::sqrt(-2.0 * std::log(s) / s);
    spare_ = v * f;
    has_spare_ = true;
    return u * f;
  }

  double expo() { return -std::log(unif()); }

  // Advance by 2^128 steps: non-overlapping streams for parallel work.
  void jump() {
    static const std::uint64_t J[] = {0x180ec6d33cfd0abaULL, 0xd5a61266f0c9392cULL, 0xa9582618e03fc9aaULL,
                                      0x39abdc4529b1661cULL};
    std::uint64_t t[4] = {0, 0, 0, 0};
    for (std::uint64_t j : J)
      for (int b = 0; b < 64; ++b) {
        if (j & (std::uint64_t{1} << b))
          for (int i = 0; i < 4; ++i) t[i] ^= s_[i];
        next();
      }
    for (int i = 0; i < 4; ++i) s_[i] = t[i];
    has_spare_ = false;
  }

 private:
  std::uint64_t s_[4];
  double spare_ = 0.0;
  bool has_spare_ = false;
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
};

}  // namespace riemdp

#endif
