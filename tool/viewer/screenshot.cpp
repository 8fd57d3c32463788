// Back buffer to PNG (see screenshot.hpp). libstb carries stb_image_write's implementation, so
// only its header is included here.
#include "tool/viewer/screenshot.hpp"

#include <SDL_opengl.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "common/output_file.hpp"

namespace loopscope {

namespace {

void append_bytes(void* context, void* data, int size) {
    auto* out = static_cast<std::string*>(context);
    out->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
}

}  // namespace

void write_back_buffer_png(const std::string& path, int width, int height) {
    const auto w = static_cast<std::size_t>(width);
    const auto h = static_cast<std::size_t>(height);
    std::vector<std::uint8_t> pixels(w * h * 3);
    glReadBuffer(GL_BACK);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
    // OpenGL's rows run bottom-up, PNG's top-down.
    std::vector<std::uint8_t> flipped(pixels.size());
    for (std::size_t y = 0; y < h; ++y) {
        std::copy_n(pixels.data() + (h - 1 - y) * w * 3, w * 3, flipped.data() + y * w * 3);
    }
    std::string png;
    if (!stbi_write_png_to_func(append_bytes, &png, width, height, 3, flipped.data(),
                                static_cast<int>(w * 3))) {
        throw UsageError("cannot encode the screenshot " + path + " as PNG");
    }
    write_file_atomically(path, png);
}

}  // namespace loopscope
