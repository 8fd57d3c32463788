// SDL2 + OpenGL 3 + Dear ImGui set-up for the viewer (see window.hpp).
#include "tool/viewer/window.hpp"

#include <SDL.h>
#include <SDL_opengl.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <imgui.h>

#include <stdexcept>
#include <string_view>

#include "common/errors.hpp"

namespace loopscope {

namespace {

[[noreturn]] void fail(const char* what) {
    throw std::runtime_error(std::string(what) + ": " + SDL_GetError());
}

}  // namespace

ViewerWindow::ViewerWindow(const std::string& title, int width, int height, bool hidden) {
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
        throw UsageError(std::string("view: cannot start SDL video (") + SDL_GetError() +
                         "): without a display, render headless with --screenshot FILE.png");
    }
    // Without a display SDL falls back to a driver that shows nothing, and an interactive
    // viewer would then run unseen until killed: refuse at once and say the way out.
    const std::string_view driver = SDL_GetCurrentVideoDriver() ? SDL_GetCurrentVideoDriver() : "";
    if (!hidden && (driver == "offscreen" || driver == "dummy")) {
        SDL_Quit();
        throw UsageError(
            "view: no display to show a window on (SDL's video driver is '" + std::string(driver) +
            "'; DISPLAY or WAYLAND_DISPLAY names a display): render headless with --screenshot "
            "FILE.png, which works without a display (SDL_VIDEODRIVER=offscreen)");
    }
    // OpenGL 3.0 matches the "#version 130" shaders of the ImGui OpenGL3 backend and is what
    // Mesa's llvmpipe offers headless through EGL.
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 0);
    SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 8);
    Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;
    if (hidden) {
        flags |= SDL_WINDOW_HIDDEN;
    }
    window_ = SDL_CreateWindow(title.c_str(), SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, width,
                               height, flags);
    if (!window_) {
        SDL_Quit();
        fail("cannot open a window");
    }
    gl_context_ = SDL_GL_CreateContext(window_);
    if (!gl_context_) {
        SDL_DestroyWindow(window_);
        SDL_Quit();
        fail("cannot create an OpenGL 3 context");
    }
    SDL_GL_MakeCurrent(window_, gl_context_);
    set_vsync(true);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // the layout is fixed; leave no imgui.ini behind in the cwd
    ImGui::StyleColorsDark();
    ImGui_ImplSDL2_InitForOpenGL(window_, gl_context_);
    ImGui_ImplOpenGL3_Init("#version 130");
}

ViewerWindow::~ViewerWindow() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
    SDL_GL_DeleteContext(gl_context_);
    SDL_DestroyWindow(window_);
    SDL_Quit();
}

void ViewerWindow::set_vsync(bool on) {
    if (on != vsync_ || gl_context_) {
        SDL_GL_SetSwapInterval(on ? 1 : 0);
        vsync_ = on;
    }
}

bool ViewerWindow::poll_events(std::vector<std::string>& dropped_files) {
    bool open = true;
    SDL_Event event;
    while (SDL_PollEvent(&event)) {
        ImGui_ImplSDL2_ProcessEvent(&event);
        if (event.type == SDL_QUIT) {
            open = false;
        } else if (event.type == SDL_WINDOWEVENT && event.window.event == SDL_WINDOWEVENT_CLOSE &&
                   event.window.windowID == SDL_GetWindowID(window_)) {
            open = false;
        } else if (event.type == SDL_DROPFILE && event.drop.file) {
            dropped_files.emplace_back(event.drop.file);
            SDL_free(event.drop.file);
        }
    }
    return open;
}

void ViewerWindow::push_drop_event(const std::string& path) {
    SDL_Event event{};
    event.type = SDL_DROPFILE;
    event.drop.file = SDL_strdup(path.c_str());  // freed by poll_events, as SDL's own drops are
    event.drop.windowID = SDL_GetWindowID(window_);
    if (SDL_PushEvent(&event) != 1) {
        SDL_free(event.drop.file);
        fail("cannot queue a file drop");
    }
}

void ViewerWindow::begin_frame() {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    ImGui::NewFrame();
}

void ViewerWindow::render() {
    ImGui::Render();
    glViewport(0, 0, drawable_width(), drawable_height());
    glClearColor(0.08f, 0.08f, 0.09f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void ViewerWindow::present() {
    SDL_GL_SwapWindow(window_);
}

int ViewerWindow::drawable_width() const {
    int w = 0, h = 0;
    SDL_GL_GetDrawableSize(window_, &w, &h);
    return w;
}

int ViewerWindow::drawable_height() const {
    int w = 0, h = 0;
    SDL_GL_GetDrawableSize(window_, &w, &h);
    return h;
}

}  // namespace loopscope
