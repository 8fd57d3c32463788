# `cmake --install` of a whole build (not a recorder-only subproject) puts the program beside the
# recorder's header and CMake package: BUILD_DIR is installed into PREFIX (emptied first), and
# PREFIX/bin/loopscope must be there and run.
#   cmake -DBUILD_DIR=... -DPREFIX=... -P check_install.cmake
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX}
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "cmake --install ${BUILD_DIR} failed (${status}):\n${out}")
endif()
set(program ${PREFIX}/bin/loopscope${CMAKE_EXECUTABLE_SUFFIX})
foreach(file ${program} ${PREFIX}/include/loopscope/recorder.hpp)
    if(NOT EXISTS ${file})
        message(FATAL_ERROR "cmake --install did not install ${file}; it installed:\n${out}")
    endif()
endforeach()
file(GLOB_RECURSE config ${PREFIX}/*/loopscopeConfig.cmake)
if(NOT config)
    message(FATAL_ERROR "cmake --install did not install loopscopeConfig.cmake:\n${out}")
endif()
execute_process(COMMAND ${program} --version RESULT_VARIABLE status OUTPUT_VARIABLE version
                ERROR_VARIABLE version)
if(NOT status EQUAL 0 OR NOT version MATCHES "^loopscope ")
    message(FATAL_ERROR "the installed ${program} --version exited ${status}: ${version}")
endif()
message(STATUS "installed ${program}: ${version}")
