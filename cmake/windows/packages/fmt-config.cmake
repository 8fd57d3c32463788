# fmt for the Windows build: Debian's headers in header-only mode (FMT_HEADER_ONLY), since
# libfmt-dev ships no mingw library.
include(${CMAKE_CURRENT_LIST_DIR}/loopscope_stage_headers.cmake)
loopscope_header_target(fmt::fmt fmt)
set_target_properties(fmt::fmt PROPERTIES INTERFACE_COMPILE_DEFINITIONS FMT_HEADER_ONLY=1)
set(fmt_FOUND TRUE)
