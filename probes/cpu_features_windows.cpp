// What CPUID says about the processor (see system_info.hpp), through <intrin.h>'s __cpuid as
// both MSVC and mingw-w64 offer it: x86 only; other processors report no TSC.
#include "probes/system_info.hpp"

#include <cstring>

#include "common/text.hpp"

#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64) || defined(_M_IX86)
#include <intrin.h>
#define LOOPSCOPE_X86 1
#endif

namespace loopscope {

#ifdef LOOPSCOPE_X86
namespace {

struct CpuidLeaf {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
};

CpuidLeaf cpuid(unsigned leaf) {
    int r[4] = {};
    __cpuid(r, static_cast<int>(leaf));
    return {static_cast<unsigned>(r[0]), static_cast<unsigned>(r[1]), static_cast<unsigned>(r[2]),
            static_cast<unsigned>(r[3])};
}

bool bit(unsigned value, int n) {
    return (value >> n) & 1u;
}

}  // namespace
#endif

CpuFeatures read_cpu_features() {
    CpuFeatures f;
#ifdef LOOPSCOPE_X86
    f.x86 = true;
    // Leaf 0 and 0x80000000 give the highest standard and extended leaves.
    if (cpuid(0).eax >= 1) {
        const CpuidLeaf l1 = cpuid(1);
        f.has_tsc = bit(l1.edx, 4);
        f.hypervisor = bit(l1.ecx, 31);
    }
    const unsigned max_ext = cpuid(0x80000000u).eax;
    if (max_ext >= 0x80000001u)
        f.has_rdtscp = bit(cpuid(0x80000001u).edx, 27);
    if (max_ext >= 0x80000007u)
        f.invariant_tsc = bit(cpuid(0x80000007u).edx, 8);
    if (max_ext >= 0x80000004u) {
        char brand[49] = {};
        for (unsigned i = 0; i < 3; ++i) {
            const CpuidLeaf l = cpuid(0x80000002u + i);
            const unsigned words[4] = {l.eax, l.ebx, l.ecx, l.edx};
            std::memcpy(brand + 16 * i, words, 16);
        }
        f.brand = std::string(trim(brand));  // Intel pads the brand string with spaces
    }
    if (f.hypervisor) {
        // Leaf 0x40000000 is the hypervisor's own: its signature is in EBX, ECX, EDX.
        const CpuidLeaf h = cpuid(0x40000000u);
        const unsigned words[3] = {h.ebx, h.ecx, h.edx};
        char sig[13] = {};
        std::memcpy(sig, words, 12);
        f.hypervisor_vendor = sig;
    }
#endif
    return f;
}

}  // namespace loopscope
