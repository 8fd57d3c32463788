// Screenshots of the viewer: the current back buffer read out of OpenGL and written as a PNG
// (stb_image_write), for tests and for the pictures in the documentation.
#pragma once

#include <string>

namespace loopscope {

// Reads width x height pixels of the back buffer and writes them to `path` as an RGB PNG,
// replacing the file only once it is complete. Throws UsageError when it cannot be written.
void write_back_buffer_png(const std::string& path, int width, int height);

}  // namespace loopscope
