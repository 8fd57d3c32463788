# Configures, builds and runs tests/consumer (a project that takes loopscope in with
# add_subdirectory) in a fresh folder, with the compiler and generator of the build that runs
# the test, and checks that loopscope left the parent's cache alone: no build type forced into
# it, tests, benchmarks and viewer off. Run as
#   cmake -DSOURCE_DIR=... -DWORK_DIR=... -DCXX=... -DGENERATOR=... -P check_consumer.cmake
foreach(var SOURCE_DIR WORK_DIR CXX GENERATOR)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "check_consumer.cmake needs -D${var}=...")
    endif()
endforeach()

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
execute_process(
    COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer -B ${WORK_DIR} -G ${GENERATOR}
            -DCMAKE_CXX_COMPILER=${CXX} -DLOOPSCOPE_SOURCE_DIR=${SOURCE_DIR}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "configuring the consumer project failed:\n${out}")
endif()

file(STRINGS ${WORK_DIR}/CMakeCache.txt cache)
foreach(line IN LISTS cache)
    if(line MATCHES "^CMAKE_BUILD_TYPE:[A-Z]+=(.+)$")
        message(FATAL_ERROR "loopscope set the parent's CMAKE_BUILD_TYPE to '${CMAKE_MATCH_1}'")
    endif()
    if(line MATCHES "^LOOPSCOPE_(TESTS|VIEWER|EXAMPLES):BOOL=(.*)$" AND NOT CMAKE_MATCH_2 STREQUAL "OFF")
        message(FATAL_ERROR "LOOPSCOPE_${CMAKE_MATCH_1} defaults to ${CMAKE_MATCH_2} in a subproject")
    endif()
endforeach()

execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR} -j2
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "building the consumer project failed:\n${out}")
endif()

execute_process(COMMAND ${WORK_DIR}/consumer ${WORK_DIR}/trace.csv
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the consumer program failed (${rc}):\n${out}")
endif()
message(STATUS "${out}")
file(REMOVE_RECURSE ${WORK_DIR})
