# Makes one header library of /usr/include visible to the Windows build on its own: a folder
# <build>/windows-include holding a link to /usr/include/<library> and nothing else, so the
# include path gains that library but none of glibc's headers. Returns the folder in `out`.
function(loopscope_stage_headers library out)
    set(staged ${CMAKE_BINARY_DIR}/windows-include)
    if(NOT EXISTS /usr/include/${library})
        message(FATAL_ERROR "/usr/include/${library} is missing: run scripts/setup.sh")
    endif()
    if(NOT EXISTS ${staged}/${library})
        file(MAKE_DIRECTORY ${staged})
        file(CREATE_LINK /usr/include/${library} ${staged}/${library} SYMBOLIC)
    endif()
    set(${out} ${staged} PARENT_SCOPE)
endfunction()

# An imported interface target for a header library staged as above.
function(loopscope_header_target target library)
    if(TARGET ${target})
        return()
    endif()
    loopscope_stage_headers(${library} staged)
    add_library(${target} INTERFACE IMPORTED)
    set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${staged})
endfunction()
