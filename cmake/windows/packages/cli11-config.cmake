# CLI11 for the Windows build: Debian's header-only library.
include(${CMAKE_CURRENT_LIST_DIR}/loopscope_stage_headers.cmake)
loopscope_header_target(CLI11::CLI11 CLI)
set(CLI11_FOUND TRUE)
