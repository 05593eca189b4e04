// Run-time choice of a BMI2 build of a hot decoding loop. The library is compiled for baseline
// x86-64, where a shift by a variable count (`shl r, cl`) is three micro-ops; BMI2's shlx/shrx are
// one. GORILLA's loops shift by data-dependent amounts several times per value, so a copy of the
// same source compiled with BMI2 enabled is measurably faster (docs/benchmarks.md, Session 11).
// The two copies run the same C++ code: results cannot differ.
//
// Usage: a function marked TSREAD_TARGET_BMI2 that calls TSREAD_ALWAYS_INLINE templates gets
// them inlined and compiled with BMI2; CpuHasBmi2() picks that function or the baseline one.
#ifndef TSREAD_ENCODING_CPU_DISPATCH_H_
#define TSREAD_ENCODING_CPU_DISPATCH_H_

// -DTSREAD_NO_BMI2_DISPATCH builds only the baseline copies (to test or time them on a BMI2 CPU).
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(TSREAD_NO_BMI2_DISPATCH)
#define TSREAD_BMI2_DISPATCH 1
#define TSREAD_TARGET_BMI2 __attribute__((target("bmi2")))
#else
#define TSREAD_BMI2_DISPATCH 0
#define TSREAD_TARGET_BMI2
#endif

#if defined(__GNUC__) || defined(__clang__)
#define TSREAD_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define TSREAD_ALWAYS_INLINE inline
#endif

namespace tsread {

// True when the running CPU has BMI2 (reads the CPU model the compiler runtime fills in at start).
inline bool CpuHasBmi2() {
#if TSREAD_BMI2_DISPATCH
  return __builtin_cpu_supports("bmi2");
#else
  return false;
#endif
}

}  // namespace tsread

#endif  // TSREAD_ENCODING_CPU_DISPATCH_H_
