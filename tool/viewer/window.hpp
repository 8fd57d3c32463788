// The viewer's SDL window with its OpenGL 3 context and Dear ImGui bound to both. One object owns
// the whole set-up and tears it down in reverse order; the main loop sees only begin/end frame.
#pragma once

#include <string>
#include <vector>

struct SDL_Window;

namespace loopscope {

class ViewerWindow {
  public:
    // Throws std::runtime_error with SDL's reason when no window or GL context can be made.
    ViewerWindow(const std::string& title, int width, int height, bool hidden);
    ~ViewerWindow();
    ViewerWindow(const ViewerWindow&) = delete;
    ViewerWindow& operator=(const ViewerWindow&) = delete;

    // Vsync on saves the CPU when browsing; the live harness turns it off to pace itself.
    void set_vsync(bool on);
    // Pumps events into ImGui; collects dropped file paths; false once the window was closed.
    bool poll_events(std::vector<std::string>& dropped_files);
    // Queues a file drop onto this window, as the OS would deliver it (scripted input for tests).
    void push_drop_event(const std::string& path);
    void begin_frame();
    // Renders ImGui's draw data into the back buffer (not yet presented).
    void render();
    void present();
    int drawable_width() const;
    int drawable_height() const;

  private:
    SDL_Window* window_ = nullptr;
    void* gl_context_ = nullptr;
    bool vsync_ = true;
};

}  // namespace loopscope
