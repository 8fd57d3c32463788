# Writes a C++ source holding files as byte arrays, so the program carries them (the chart
# library of the HTML pages opens offline, on every platform the program is built for).
# cmake -DOUTPUT=file.cpp -DNAMES="name;..." -DFILES="path;..." -P embed_files.cmake
# Each name becomes `extern const std::string_view loopscope::embedded::NAME`.
list(LENGTH NAMES count)
math(EXPR last "${count} - 1")
set(text "// Generated at build time by writers/embed_files.cmake; edit the files it names.\n")
string(APPEND text "#include <string_view>\n\nnamespace loopscope::embedded {\n")
foreach(i RANGE ${last})
    list(GET NAMES ${i} name)
    list(GET FILES ${i} path)
    file(READ "${path}" hex HEX)
    string(LENGTH "${hex}" digits)
    math(EXPR bytes "${digits} / 2")
    string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," hex "${hex}")
    string(APPEND text "// ${path}\nstatic const char k_${name}[] = {\n${hex}'\\0'};\n")
    string(APPEND text "extern const std::string_view ${name}{k_${name}, ${bytes}};\n\n")
endforeach()
string(APPEND text "}  // namespace loopscope::embedded\n")
file(WRITE "${OUTPUT}.tmp" "${text}")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
