# Builds and runs tests/consumer, a game-like project that links loopscope::recorder, three ways:
# through find_package on an installed loopscope (cmake --install of a recorder-only build),
# through add_subdirectory on the source tree, and through FetchContent from the source tree's
# git repository (file://, offline; the committed HEAD, so a change must be committed to be seen
# this way). Each time it checks that loopscope left the parent's cache alone (no build type
# forced into it) and pulled in none of the tool's dependencies (GoogleTest, Google Benchmark,
# SDL2, Dear ImGui, fmt), then builds (-j2) and runs the program with recording on (C++17 and
# C++20) and off. With LOOPSCOPE_EXE, the C++17 program's trace (the README's FixedStep snippet)
# must give `loopscope report` the loop's verdict and headroom. Run as
#   cmake -DSOURCE_DIR=... -DWORK_DIR=... -DCXX=... -DGENERATOR=... [-DLAUNCHER=ccache] \
#         [-DLOOPSCOPE_EXE=...] -P check_consumer.cmake
foreach(var SOURCE_DIR WORK_DIR CXX GENERATOR)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "check_consumer.cmake needs -D${var}=...")
    endif()
endforeach()
set(common_args -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX})
if(LAUNCHER)
    list(APPEND common_args -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()

function(run what)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "${what} failed (${rc}):\n${out}")
    endif()
    set(run_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

# The package: a recorder-only build (the recorder's library alone, no dependency) installed to a
# prefix.
run("configuring loopscope for installation"
    ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/loopscope-build ${common_args}
    -DLOOPSCOPE_RECORDER_ONLY=ON -DCMAKE_BUILD_TYPE=Release)
run("building loopscope's recorder" ${CMAKE_COMMAND} --build ${WORK_DIR}/loopscope-build -j2)
run("installing loopscope"
    ${CMAKE_COMMAND} --install ${WORK_DIR}/loopscope-build --prefix ${WORK_DIR}/prefix)
foreach(file include/loopscope/recorder.hpp lib/cmake/loopscope/loopscopeConfig.cmake
             lib/cmake/loopscope/loopscopeConfigVersion.cmake)
    if(NOT EXISTS ${WORK_DIR}/prefix/${file})
        message(FATAL_ERROR "cmake --install did not install ${file}")
    endif()
endforeach()

execute_process(COMMAND git -C ${SOURCE_DIR} rev-parse HEAD RESULT_VARIABLE git_rc
                OUTPUT_VARIABLE git_head OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)

set(modes package subdirectory fetchcontent)
set(args_package -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
set(args_subdirectory -DLOOPSCOPE_SOURCE_DIR=${SOURCE_DIR})
set(args_fetchcontent -DLOOPSCOPE_GIT_URL=file://${SOURCE_DIR} -DLOOPSCOPE_GIT_TAG=${git_head}
    -DFETCHCONTENT_FULLY_DISCONNECTED=OFF -DFETCHCONTENT_UPDATES_DISCONNECTED=ON)
if(NOT git_rc EQUAL 0)
    # A source tree outside git (an unpacked archive) has nothing to fetch from.
    message(STATUS "fetchcontent: skipped, ${SOURCE_DIR} is not a git checkout")
    list(REMOVE_ITEM modes fetchcontent)
endif()

foreach(mode IN LISTS modes)
    set(dir ${WORK_DIR}/${mode})
    run("configuring the consumer project (${mode})"
        ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer -B ${dir} ${common_args}
        -DLOOPSCOPE_CONSUME=${mode} ${args_${mode}})
    file(STRINGS ${dir}/CMakeCache.txt cache)
    foreach(line IN LISTS cache)
        if(line MATCHES "^CMAKE_BUILD_TYPE:[A-Z]+=(.+)$")
            message(FATAL_ERROR "${mode}: loopscope set the parent's CMAKE_BUILD_TYPE to "
                                "'${CMAKE_MATCH_1}'")
        endif()
        if(line MATCHES "^(GTest|benchmark|SDL2|fmt|nlohmann_json|CLI11|FastFloat)_DIR:"
           OR line MATCHES "^IMGUI_")
            message(FATAL_ERROR "${mode}: loopscope looked for a dependency of the tool: ${line}")
        endif()
    endforeach()
    run("building the consumer project (${mode})" ${CMAKE_COMMAND} --build ${dir} -j2)
    foreach(program consumer consumer20 consumer_off)
        run("running ${program} (${mode})" ${dir}/${program} ${dir}/${program}-trace.csv)
        string(STRIP "${run_output}" line)
        message(STATUS "${mode}: ${line}")
    endforeach()
    if(LOOPSCOPE_EXE)
        run("loopscope report of the consumer's trace (${mode})"
            ${LOOPSCOPE_EXE} report ${dir}/consumer-trace.csv --format json)
        # The loop's verdict (ok, saturated, spiral) and a number for its headroom.
        foreach(figure "\"verdict\": {[^}]*\"state\": \"(ok|saturated|spiral)\""
                       "\"headroom_ms\": -?[0-9]")
            if(NOT run_output MATCHES "${figure}")
                message(FATAL_ERROR "${mode}: the report of the consumer's trace has no ${figure}:\n"
                                    "${run_output}")
            endif()
        endforeach()
    endif()
endforeach()
file(REMOVE_RECURSE ${WORK_DIR})
