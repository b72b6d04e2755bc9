// Lanes of doubles for branch-free batch kernels (GCC and clang vector
// extensions), so that a kernel is written once and compiled for several
// instruction sets: 2-lane vectors (SSE2 on x86-64, NEON on arm64) and, on
// x86-64, 4-lane vectors in functions compiled for AVX2 (target attribute),
// chosen at run time by the CPU. Twin<V> pairs two vectors and applies every
// operation to both halves in turn: independent instructions side by side,
// which the out-of-order core overlaps (a kernel of long dependent chains --
// polynomials, square root, division -- is bound by their latency, not by
// the number of instructions). Every operation is IEEE (AVX2 without FMA, so
// nothing is contracted) and sums run in lane order, so all variants give the
// same bits (checked in test-kng-fused.R).
#ifndef RIEMDP_LANES_H
#define RIEMDP_LANES_H

#include <cmath>
#include <cstring>
#include <type_traits>

// The AVX2 variant pays only where the kernel is inlined into the function
// compiled for AVX2 (flatten; out of line it would run as default-target
// code): it is built only where inlining is on, and not on Windows, where
// GCC cannot align the stack for AVX spills (GCC bug 54412).
#if defined(__GNUC__)
#define RIEMDP_LANES 1
#if defined(__SSE2__)
#include <immintrin.h>
#endif
#if defined(__x86_64__) && defined(__OPTIMIZE__) && !defined(__NO_INLINE__) && !defined(_WIN32) && \
    !defined(RIEMDP_NO_DISPATCH)
#define RIEMDP_LANES_DISPATCH 1
#endif
#endif

namespace riemdp {
namespace lanes {

// Plain doubles as one lane, so that a formula written on lanes serves scalar
// code too (chord_angle_core).
template <class T>
struct lane_count {
  static constexpr int value = sizeof(T) / sizeof(double);
};
inline bool lt(double a, double b) { return a < b; }
inline bool le(double a, double b) { return a <= b; }
inline double select(bool m, double a, double b) { return m ? a : b; }
struct ScalarOps {
  static double sqrt(double a) { return std::sqrt(a); }
};

}  // namespace lanes
}  // namespace riemdp

#if defined(RIEMDP_LANES)
namespace riemdp {
namespace lanes {

typedef double V2 __attribute__((vector_size(16)));

#if defined(RIEMDP_LANES_DISPATCH)
// 4 lanes: no function of its own takes or returns one by value (the AVX ABI
// differs from the default target's, and these helpers are compiled for the
// default target): Twin<V4> works on its halves in place (below).
typedef double V4 __attribute__((vector_size(32)));
#endif

// ---- Twin<V>: two vectors, every operation on both halves -----------------
// A Twin of vectors works on its halves as vector expressions in place (no
// call passing a vector by value); a Twin of Twins recurses. Twins are
// aggregates of more than 16 bytes: passed in memory under the x86-64 ABI
// whatever the target (arm64, with one target, passes them in registers).
template <class V>
struct Twin {
  V lo, hi;
  Twin& operator+=(const Twin& b) {
    lo += b.lo;
    hi += b.hi;
    return *this;
  }
};
template <class V>
struct is_twin : std::false_type {};
template <class V>
struct is_twin<Twin<V>> : std::true_type {};
// the mask type of a lane type: a vector of 64-bit integers, or a Twin of them
template <class V>
struct mask_of {
  typedef decltype(V{} < V{}) type;
};
template <class V>
struct mask_of<Twin<V>> {
  typedef Twin<typename mask_of<V>::type> type;
};
template <class V>
struct lane_count<Twin<V>> {
  static constexpr int value = 2 * lane_count<V>::value;
};
template <class V>
inline Twin<V> operator-(const Twin<V>& a) {
  return {-a.lo, -a.hi};
}
#define RIEMDP_TWIN_BINARY(OP)                                                  \
  template <class V>                                                            \
  inline Twin<V> operator OP(const Twin<V>& a, const Twin<V>& b) {              \
    return {a.lo OP b.lo, a.hi OP b.hi};                                        \
  }                                                                             \
  template <class V>                                                            \
  inline Twin<V> operator OP(const Twin<V>& a, double b) {                      \
    return {a.lo OP b, a.hi OP b};                                              \
  }                                                                             \
  template <class V>                                                            \
  inline Twin<V> operator OP(double a, const Twin<V>& b) {                      \
    return {a OP b.lo, a OP b.hi};                                              \
  }
RIEMDP_TWIN_BINARY(+)
RIEMDP_TWIN_BINARY(-)
RIEMDP_TWIN_BINARY(*)
RIEMDP_TWIN_BINARY(/)
#undef RIEMDP_TWIN_BINARY

template <class V>
inline Twin<V> load(const Twin<V>*, const double* p) {
  Twin<V> t;
  if constexpr (is_twin<V>::value) {
    const V* tag = nullptr;
    t.lo = load(tag, p);
    t.hi = load(tag, p + lane_count<V>::value);
  } else {
    std::memcpy(&t.lo, p, sizeof(V));
    std::memcpy(&t.hi, p + lane_count<V>::value, sizeof(V));
  }
  return t;
}
template <class V>
inline Twin<V> splat(const Twin<V>*, double v) {
  if constexpr (is_twin<V>::value) {
    const V* tag = nullptr;
    return {splat(tag, v), splat(tag, v)};
  } else {
    return {V{} + v, V{} + v};
  }
}
// the lanes as doubles (masks: nonzero where true, 0 where false)
template <class V>
inline double lane(const Twin<V>& a, int k) {
  constexpr int h = lane_count<V>::value;
  if constexpr (is_twin<V>::value) return k < h ? lane(a.lo, k) : lane(a.hi, k - h);
  else return static_cast<double>(k < h ? a.lo[k] : a.hi[k - h]);
}
template <class V>
inline void set_lane(Twin<V>& a, int k, double v) {
  constexpr int h = lane_count<V>::value;
  if constexpr (is_twin<V>::value) {
    if (k < h) set_lane(a.lo, k, v);
    else set_lane(a.hi, k - h, v);
  } else {
    if (k < h) a.lo[k] = v;
    else a.hi[k - h] = v;
  }
}
#define RIEMDP_TWIN_COMPARE(NAME, OP)                                                           \
  template <class V>                                                                            \
  inline typename mask_of<Twin<V>>::type NAME(const Twin<V>& a, const Twin<V>& b) {             \
    if constexpr (is_twin<V>::value) return {NAME(a.lo, b.lo), NAME(a.hi, b.hi)};               \
    else return {a.lo OP b.lo, a.hi OP b.hi};                                                   \
  }
RIEMDP_TWIN_COMPARE(lt, <)
RIEMDP_TWIN_COMPARE(le, <=)
RIEMDP_TWIN_COMPARE(eq, ==)
#undef RIEMDP_TWIN_COMPARE
template <class M>
inline Twin<M> both(const Twin<M>& a, const Twin<M>& b) {
  if constexpr (is_twin<M>::value) return {both(a.lo, b.lo), both(a.hi, b.hi)};
  else return {a.lo & b.lo, a.hi & b.hi};
}
template <class M>
inline Twin<M> either(const Twin<M>& a, const Twin<M>& b) {
  if constexpr (is_twin<M>::value) return {either(a.lo, b.lo), either(a.hi, b.hi)};
  else return {a.lo | b.lo, a.hi | b.hi};
}
template <class M>
inline Twin<M> negate(const Twin<M>& a) {
  if constexpr (is_twin<M>::value) return {negate(a.lo), negate(a.hi)};
  else return {~a.lo, ~a.hi};
}
template <class M>
inline long long fold(const Twin<M>& m) {
  if constexpr (is_twin<M>::value) {
    return fold(m.lo) | fold(m.hi);
  } else {
    long long r = 0;
    for (int k = 0; k < lane_count<M>::value; ++k) r |= m.lo[k] | m.hi[k];
    return r;
  }
}
template <class M, class V>
inline Twin<V> select(const Twin<M>& m, const Twin<V>& a, const Twin<V>& b) {
  if constexpr (is_twin<V>::value) {
    return {select(m.lo, a.lo, b.lo), select(m.hi, a.hi, b.hi)};
  } else {
    return {(V)(((M)a.lo & m.lo) | ((M)b.lo & ~m.lo)), (V)(((M)a.hi & m.hi) | ((M)b.hi & ~m.hi))};
  }
}
template <class V>
inline Twin<V> abs(const Twin<V>& a) {
  if constexpr (is_twin<V>::value) {
    return {abs(a.lo), abs(a.hi)};
  } else {
    typedef typename mask_of<V>::type M;
    return {(V)((M)a.lo & 0x7fffffffffffffffLL), (V)((M)a.hi & 0x7fffffffffffffffLL)};
  }
}

// ---- square roots: the one operation the vector extensions lack -----------
struct Ops2 {
  static inline V2 sqrt(const V2& a) {
#if defined(__SSE2__)
    return _mm_sqrt_pd(a);
#else
    return V2{std::sqrt(a[0]), std::sqrt(a[1])};
#endif
  }
};
template <class Ops>
struct TwinOps {
  template <class V>
  static inline Twin<V> sqrt(const Twin<V>& a) {
    return {Ops::sqrt(a.lo), Ops::sqrt(a.hi)};
  }
};
#if defined(RIEMDP_LANES_DISPATCH)
struct TwinOps4Avx2 {
  __attribute__((target("avx2"))) static inline Twin<V4> sqrt(const Twin<V4>& a) {
    return {_mm256_sqrt_pd(a.lo), _mm256_sqrt_pd(a.hi)};
  }
};
#endif

// ---- helpers on any lane type ---------------------------------------------
template <class M>
inline bool any(const M& m) {
  return fold(m) != 0;
}
template <class T>
inline T constant(double v) {
  return splat(static_cast<const T*>(nullptr), v);
}
// Sum of the lanes in lane order (the same bits for every type).
template <class T>
inline double sum(const T& a) {
  double s = lane(a, 0);
  for (int k = 1; k < lane_count<T>::value; ++k) s += lane(a, k);
  return s;
}

// The instruction sets of the kernels: 0 the compiler's default (2-lane
// vectors: SSE2 on x86-64), 1 AVX2; the best the CPU (and the OS) supports,
// or a lower one forced by the tests (forced_isa() = k, -1 to reset).
inline int& forced_isa() {
  static int k = -1;
  return k;
}
inline int best_isa() {
#if defined(RIEMDP_LANES_DISPATCH)
  static const int k = __builtin_cpu_supports("avx2") ? 1 : 0;
  return k;
#else
  return 0;
#endif
}
inline int isa() {
  const int f = forced_isa();
  return f >= 0 && f < best_isa() ? f : best_isa();
}

}  // namespace lanes
}  // namespace riemdp
#endif  // RIEMDP_LANES

#endif
