// A libFuzzer target: LOOPSCOPE_FUZZ_TARGET names the entry point of fuzz_inputs.hpp it drives.
// Built by tests/fuzz/CMakeLists.txt with clang's -fsanitize=fuzzer,address,undefined; run by
// scripts/fuzz.sh.
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/fuzz_inputs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    loopscope::fuzz::run_target(LOOPSCOPE_FUZZ_TARGET, {data, size});
    return 0;
}
