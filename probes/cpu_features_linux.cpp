// What CPUID says about the processor (see system_info.hpp), with GCC's and Clang's <cpuid.h>:
// x86 only; other processors report no TSC. A compiler without <cpuid.h> (MSVC, in a
// cpu_features_windows.cpp) reads the same leaves through __cpuid in <intrin.h>.
#include "probes/system_info.hpp"

#include <cstring>

#include "common/text.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define LOOPSCOPE_X86 1
#endif

namespace loopscope {

CpuFeatures read_cpu_features() {
    CpuFeatures f;
#ifdef LOOPSCOPE_X86
    f.x86 = true;
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (__get_cpuid(1, &a, &b, &c, &d)) {
        f.has_tsc = (d >> 4) & 1u;
        f.hypervisor = (c >> 31) & 1u;
    }
    const unsigned max_ext = __get_cpuid_max(0x80000000u, nullptr);
    if (max_ext >= 0x80000001u && __get_cpuid(0x80000001u, &a, &b, &c, &d)) {
        f.has_rdtscp = (d >> 27) & 1u;
    }
    if (max_ext >= 0x80000007u && __get_cpuid(0x80000007u, &a, &b, &c, &d)) {
        f.invariant_tsc = (d >> 8) & 1u;
    }
    if (max_ext >= 0x80000004u) {
        char brand[49] = {};
        for (unsigned i = 0; i < 3; ++i) {
            unsigned r[4];
            __cpuid(0x80000002u + i, r[0], r[1], r[2], r[3]);
            std::memcpy(brand + 16 * i, r, 16);
        }
        f.brand = std::string(trim(brand));  // Intel pads the brand string with spaces
    }
    if (f.hypervisor) {
        // Leaf 0x40000000 is the hypervisor's own; __get_cpuid would refuse it as out of range.
        unsigned r[4];
        __cpuid(0x40000000u, r[0], r[1], r[2], r[3]);
        char sig[13] = {};
        std::memcpy(sig, &r[1], 4);
        std::memcpy(sig + 4, &r[2], 4);
        std::memcpy(sig + 8, &r[3], 4);
        f.hypervisor_vendor = sig;
    }
#endif
    return f;
}

}  // namespace loopscope
