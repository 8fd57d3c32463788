# nlohmann-json for the Windows build: Debian's header-only library.
include(${CMAKE_CURRENT_LIST_DIR}/loopscope_stage_headers.cmake)
loopscope_header_target(nlohmann_json::nlohmann_json nlohmann)
set(nlohmann_json_FOUND TRUE)
