// Run-time choice of a build of a hot loop for a newer CPU. The library is compiled for baseline
// x86-64, where a shift by a variable count (`shl r, cl`) is three micro-ops (BMI2's shlx/shrx are
// one: GORILLA's loops shift by data-dependent amounts several times per value, docs/benchmarks.md
// Session 11), and where vectors have no 64-bit compare nor 32-bit min/max (AVX2 has them: the
// reductions of aggregate/run_reduce.cc). The copies run the same C++ code: results cannot differ.
//
// Usage: a function marked TSREAD_TARGET_BMI2 (TSREAD_TARGET_AVX2) that calls TSREAD_ALWAYS_INLINE
// templates gets them inlined and compiled for that CPU; CpuHasBmi2() (CpuHasAvx2()) picks that
// function or the baseline one.
#ifndef TSREAD_COMMON_CPU_DISPATCH_H_
#define TSREAD_COMMON_CPU_DISPATCH_H_

// -DTSREAD_NO_BMI2_DISPATCH builds only the baseline copies (to test or time them on a BMI2 CPU).
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(TSREAD_NO_BMI2_DISPATCH)
#define TSREAD_BMI2_DISPATCH 1
#define TSREAD_TARGET_BMI2 __attribute__((target("bmi2")))
// BMI2 and LZCNT (a leading-zero count in one cycle on AMD, where baseline BSR takes four).
#define TSREAD_TARGET_BMI2_LZCNT __attribute__((target("bmi2,lzcnt")))
#else
#define TSREAD_BMI2_DISPATCH 0
#define TSREAD_TARGET_BMI2
#define TSREAD_TARGET_BMI2_LZCNT
#endif

// -DTSREAD_NO_AVX2_DISPATCH likewise for the AVX2 copies (and the AVX-512VL ones);
// -DTSREAD_NO_AVX512_DISPATCH for the AVX-512VL copies alone (the AVX2 ones run instead).
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(TSREAD_NO_AVX2_DISPATCH)
#define TSREAD_AVX2_DISPATCH 1
#define TSREAD_TARGET_AVX2 __attribute__((target("avx2")))
#define TSREAD_TARGET_AVX512VL __attribute__((target("avx2,avx512f,avx512vl")))
#else
#define TSREAD_AVX2_DISPATCH 0
#define TSREAD_TARGET_AVX2
#define TSREAD_TARGET_AVX512VL
#endif

// AVX-512 with byte permutes across a 64-byte vector (VBMI): the GORILLA and TS_2DIFF blocks
// (encoding/gorilla_blocks.h, ts2diff_blocks.h), written with intrinsics; off with either flag above.
#if TSREAD_AVX2_DISPATCH && !defined(TSREAD_NO_AVX512_DISPATCH)
#define TSREAD_AVX512_VBMI_DISPATCH 1
#define TSREAD_TARGET_AVX512_VBMI __attribute__((target("avx512f,avx512bw,avx512dq,avx512vbmi")))
#else
#define TSREAD_AVX512_VBMI_DISPATCH 0
#define TSREAD_TARGET_AVX512_VBMI
#endif

#if TSREAD_BMI2_DISPATCH
#include <cpuid.h>
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

// True when the running CPU has BMI2 and LZCNT. Every BMI2 CPU has LZCNT, but a hypervisor may
// report them apart, and without LZCNT its encoding runs as BSR, which counts from the other end.
// LZCNT is read from CPUID leaf 0x80000001 (ECX bit 5, "ABM") because clang's
// __builtin_cpu_supports knows no name for it; the answer is computed once (a constant after that:
// CPUID traps to the hypervisor on a VM and costs microseconds).
inline bool CpuHasBmi2AndLzcnt() {
#if TSREAD_BMI2_DISPATCH
  static const bool has = [] {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (__get_cpuid(0x80000001u, &eax, &ebx, &ecx, &edx) == 0) return false;
    return __builtin_cpu_supports("bmi2") && (ecx & (1u << 5)) != 0;
  }();
  return has;
#else
  return false;
#endif
}

// True when the running CPU (and the OS, which must save the AVX-512 registers) has AVX-512F and
// AVX-512VL: AVX-512 instructions on 32-byte vectors. Dispatched with the AVX2 builds.
inline bool CpuHasAvx512Vl() {
#if TSREAD_AVX2_DISPATCH && !defined(TSREAD_NO_AVX512_DISPATCH)
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
#else
  return false;
#endif
}

// True when the running CPU (and the OS) has AVX-512 F, BW, DQ and VBMI.
inline bool CpuHasAvx512Vbmi() {
#if TSREAD_AVX512_VBMI_DISPATCH
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vbmi");
#else
  return false;
#endif
}

// True when the running CPU has AVX2.
inline bool CpuHasAvx2() {
#if TSREAD_AVX2_DISPATCH
  return __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

}  // namespace tsread

#endif  // TSREAD_COMMON_CPU_DISPATCH_H_
