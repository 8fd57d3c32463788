# fast_float for the Windows build: Debian's header-only library.
include(${CMAKE_CURRENT_LIST_DIR}/loopscope_stage_headers.cmake)
loopscope_header_target(FastFloat::fast_float fast_float)
set(FastFloat_FOUND TRUE)
