# Cross-compiling loopscope for 64-bit Windows on Debian with mingw-w64 (scripts/build-windows.sh
# passes this file as CMAKE_TOOLCHAIN_FILE). The -posix compilers: the default win32 thread model
# of Debian's mingw-w64 has no std::thread or std::mutex. Everything is linked statically so that
# loopscope.exe and the test binary need no DLL beside them (libstdc++, libgcc, winpthreads).
#
# The header-only libraries come from the same Debian packages as the Linux build, through the
# package files in cmake/windows/packages/: those point at /usr/include/<library> alone, never at
# /usr/include itself, whose glibc headers would shadow mingw-w64's C library.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(LOOPSCOPE_MINGW_TRIPLET x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${LOOPSCOPE_MINGW_TRIPLET}-gcc-posix)
set(CMAKE_CXX_COMPILER ${LOOPSCOPE_MINGW_TRIPLET}-g++-posix)
set(CMAKE_RC_COMPILER ${LOOPSCOPE_MINGW_TRIPLET}-windres)

# Libraries and packages only from the mingw-w64 sysroot (and the files named below); programs
# (pkg-config, git) from the build machine.
set(CMAKE_FIND_ROOT_PATH /usr/${LOOPSCOPE_MINGW_TRIPLET})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# No host .pc file may leak into the Windows build (there is no mingw SDL2 or Dear ImGui).
set(ENV{PKG_CONFIG_LIBDIR} "")

set(CMAKE_EXE_LINKER_FLAGS_INIT "-static -static-libgcc -static-libstdc++")

# The header-only dependencies: found through these package files, not the Debian ones (which
# name /usr/include as their include folder).
set(LOOPSCOPE_WINDOWS_PACKAGES ${CMAKE_CURRENT_LIST_DIR}/packages)
set(fmt_DIR ${LOOPSCOPE_WINDOWS_PACKAGES})
set(nlohmann_json_DIR ${LOOPSCOPE_WINDOWS_PACKAGES})
set(CLI11_DIR ${LOOPSCOPE_WINDOWS_PACKAGES})
set(FastFloat_DIR ${LOOPSCOPE_WINDOWS_PACKAGES})
