// Writing output files whole or not at all (see output_file.hpp).
#include "common/output_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/errors.hpp"
#include "common/platform.hpp"

namespace loopscope {

namespace {

// The temporary files being written, so that a Ctrl+C or SIGTERM removes them instead of
// leaving OUT.tmp.PID behind. Plain atomic slots: the signal handler may only read them.
constexpr std::size_t kTemporarySlots = 64;
std::array<std::atomic<const char*>, kTemporarySlots> g_temporaries{};

void remove_temporaries() {
    for (auto& slot : g_temporaries) {
        if (const char* path = slot.load())
            remove_file_in_handler(path);
    }
}

void register_temporary(const char* path) {
    static const bool installed = (on_interrupt(remove_temporaries), true);
    (void)installed;
    for (auto& slot : g_temporaries) {
        const char* empty = nullptr;
        if (slot.compare_exchange_strong(empty, path))
            return;
    }
    // More files open at once than slots: this one is only removed on a normal exit.
}

void unregister_temporary(const char* path) {
    for (auto& slot : g_temporaries) {
        const char* mine = path;
        if (slot.compare_exchange_strong(mine, nullptr))
            return;
    }
}

// The file a path finally names: a symbolic link is followed (also a chain of them, and one whose
// target does not exist yet), so that the output replaces the link's target and the link stays.
std::filesystem::path final_target(const std::filesystem::path& path) {
    std::filesystem::path p = path;
    for (int hops = 0; hops < 40; ++hops) {
        std::error_code ec;
        if (!std::filesystem::is_symlink(std::filesystem::symlink_status(p, ec)) || ec)
            return p;
        const std::filesystem::path target = std::filesystem::read_symlink(p, ec);
        if (ec)
            return p;
        p = target.is_absolute() ? target : p.parent_path() / target;
    }
    return p;  // a loop of links: the open below fails and names the path
}

// A size for a message: "256 MiB", "1.5 MiB", "12 KiB", "300 bytes".
std::string size_text(std::uint64_t bytes) {
    if (bytes >= (std::uint64_t{1} << 20))
        return fmt::format("{:.4g} MiB", static_cast<double>(bytes) / (1 << 20));
    if (bytes >= 1024)
        return fmt::format("{:.4g} KiB", static_cast<double>(bytes) / 1024);
    return fmt::format("{} bytes", bytes);
}

}  // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
    if (is_stdout()) {
        file_ = stdout;
        return;
    }
    // A device or a pipe (/dev/null, a FIFO, /dev/stdout) is written in place: renaming over
    // it would replace it with a plain file (and a half-written stream cannot be taken back).
    std::error_code ec;
    const auto status = std::filesystem::status(path_, ec);
    if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status) &&
        !std::filesystem::is_directory(status)) {
        direct_ = true;
        file_ = std::fopen(path_.c_str(), "wb");
        if (!file_) {
            throw UsageError(fmt::format("cannot write '{}': {}", path_, std::strerror(errno)));
        }
        return;
    }
    // A link is written through: the temporary replaces the file it names, not the link.
    target_path_ = final_target(path_).string();
    // The temporary sits in the target's folder so that the rename stays on one file system.
    tmp_path_ = fmt::format("{}.tmp.{}", target_path_, current_process_id());
    register_temporary(tmp_path_.c_str());
    file_ = std::fopen(tmp_path_.c_str(), "wb");
    if (!file_) {
        unregister_temporary(tmp_path_.c_str());
        throw UsageError(fmt::format("cannot write '{}': {}", path_, std::strerror(errno)));
    }
}

OutputFile::~OutputFile() {
    if (is_stdout() || committed_)
        return;
    if (file_)
        std::fclose(file_);
    if (direct_)
        return;
    std::error_code ec;
    std::filesystem::remove(tmp_path_, ec);
    unregister_temporary(tmp_path_.c_str());
}

void OutputFile::write(std::string_view text) {
    if (!text.empty() && std::fwrite(text.data(), 1, text.size(), file_) != text.size() &&
        write_errno_ == 0) {
        write_errno_ = errno != 0 ? errno : EIO;
    }
}

void OutputFile::commit() {
    if (committed_)
        return;
    if (is_stdout()) {
        // A full disk or a closed pipe behind standard output is an error like a file's.
        if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0)
            throw UsageError(
                fmt::format("cannot write to standard output: {}", std::strerror(errno)));
        committed_ = true;
        return;
    }
    const bool write_failed = std::ferror(file_) != 0;
    errno = 0;
    const bool close_failed = std::fclose(file_) != 0;
    const int close_errno = errno;
    file_ = nullptr;
    if (write_failed || close_failed) {
        // The reason of the first write that failed (a full disk: "No space left on device"),
        // else of the flush on closing.
        const int reason = write_errno_ != 0 ? write_errno_ : close_errno != 0 ? close_errno : EIO;
        throw UsageError(fmt::format("cannot write '{}': {}", path_, std::strerror(reason)));
    }
    if (direct_) {
        committed_ = true;
        return;
    }
    std::error_code ec;
    // A file that is replaced keeps its permissions (a report kept private stays private).
    const auto existing = std::filesystem::status(target_path_, ec);
    if (!ec && std::filesystem::is_regular_file(existing)) {
        keep_file_owner(target_path_.c_str(), tmp_path_.c_str());
        // After the owner: chown may clear the set-user-ID and set-group-ID bits.
        std::filesystem::permissions(tmp_path_, existing.permissions(),
                                     std::filesystem::perm_options::replace, ec);
    }
    ec.clear();
    std::filesystem::rename(tmp_path_, target_path_, ec);
    unregister_temporary(tmp_path_.c_str());
    if (ec)
        throw UsageError(fmt::format("cannot write '{}': {}", path_, ec.message()));
    committed_ = true;
}

void refuse_output_over_input(const std::string& output, std::span<const std::string> inputs,
                              std::string_view option) {
    if (output.empty() || output == "-")
        return;
    for (const std::string& input : inputs) {
        std::error_code ec;
        // equivalent() follows links and compares the files themselves, so a symlink or
        // another spelling of the input's path is caught too; a missing output is no clash.
        if (std::filesystem::equivalent(output, input, ec) && !ec) {
            throw UsageError(fmt::format(
                "{} '{}' is the input '{}': writing there would replace the capture with the "
                "output; give another file",
                option, output, input));
        }
    }
}

SpooledInput::SpooledInput(std::string path,
                           const std::function<void(std::string_view head)>& check_head,
                           std::optional<std::uint64_t> keep_free_bytes,
                           std::uint64_t max_copy_bytes)
    : path_(std::move(path)) {
    std::FILE* in = nullptr;
    if (path_ == "-") {
        in = stdin;
    } else {
        std::error_code ec;
        const auto status = std::filesystem::status(path_, ec);
        if (ec || !std::filesystem::exists(status) || std::filesystem::is_regular_file(status) ||
            std::filesystem::is_directory(status)) {
            return;  // read in place; the reader reports a missing file or a folder
        }
        in = std::fopen(path_.c_str(), "rb");
        if (!in)
            throw InputError(path_, fmt::format("cannot open: {}", std::strerror(errno)));
    }
    static std::atomic<int> count{0};
    std::error_code ec;
    const auto folder = std::filesystem::temp_directory_path(ec);
    copy_path_ = ((ec ? std::filesystem::path(".") : folder) /
                  fmt::format("loopscope-input.{}.{}", current_process_id(), count++))
                     .string();
    register_temporary(copy_path_.c_str());
    spooled_ = true;  // from here the destructor removes the copy
    std::FILE* out = std::fopen(copy_path_.c_str(), "wb");
    const auto discard = [&] {
        if (out)
            std::fclose(out);
        if (in != stdin)
            std::fclose(in);
        std::filesystem::remove(copy_path_, ec);
        unregister_temporary(copy_path_.c_str());
        spooled_ = false;
    };
    const auto fail = [&](const std::string& what) {
        discard();
        throw InputError(path_, what);
    };
    if (!out) {
        fail(fmt::format("cannot copy it into '{}' to read it: {}", copy_path_,
                         std::strerror(errno)));
    }
    const std::filesystem::path copy_folder = std::filesystem::path(copy_path_).parent_path();
    const auto space_of_folder = [&] {
        std::error_code space_ec;
        const std::filesystem::space_info space = std::filesystem::space(copy_folder, space_ec);
        return space_ec ? std::optional<std::filesystem::space_info>()
                        : std::optional<std::filesystem::space_info>(space);
    };
    std::uint64_t keep_free = 0;
    if (keep_free_bytes) {
        keep_free = *keep_free_bytes;
    } else if (const auto space = space_of_folder()) {
        keep_free = std::min<std::uint64_t>(std::uint64_t{256} << 20, space->capacity / 20);
    }
    std::uint64_t copied_bytes = 0;
    std::array<char, 1 << 16> block;
    for (bool first = true;; first = false) {
        const std::size_t n = std::fread(block.data(), 1, block.size(), in);
        if (first && check_head) {
            try {
                check_head(std::string_view(block.data(), n));
            } catch (...) {
                discard();
                throw;
            }
        }
        // Checked before each block, so the copy stops while the folder still has room; a file
        // system that cannot say how much is free is written until a write fails.
        if (const auto space = n > 0 ? space_of_folder() : std::nullopt;
            space && space->available < keep_free + n) {
            fail(fmt::format(
                "stopped copying it after {:.1f} MiB: the temporary folder '{}' {}; give the "
                "capture as a file (read in place), or set TMPDIR (TMP on Windows) to a folder "
                "with room",
                static_cast<double>(copied_bytes) / (1 << 20), copy_folder.string(),
                keep_free == 0
                    ? fmt::format("has no room for the next {}", size_text(n))
                    : fmt::format("would have less than {} free", size_text(keep_free))));
        }
        if (copied_bytes + n > max_copy_bytes) {
            fail(fmt::format(
                "stopped copying it after {:.1f} MiB, the most an input read from a pipe may "
                "hold (it is copied to be read; docs/input-formats.md): give the capture as a "
                "file (read in place)",
                static_cast<double>(copied_bytes) / (1 << 20)));
        }
        copied_bytes += n;
        if (n > 0 && std::fwrite(block.data(), 1, n, out) != n) {
            fail(fmt::format("cannot copy it into '{}' to read it: {}", copy_path_,
                             std::strerror(errno)));
        }
        if (n < block.size())
            break;
    }
    if (std::ferror(in))
        fail(fmt::format("cannot read: {}", std::strerror(errno)));
    if (std::fclose(out) != 0) {
        out = nullptr;
        fail(fmt::format("cannot copy it into '{}' to read it: {}", copy_path_,
                         std::strerror(errno)));
    }
    if (in != stdin)
        std::fclose(in);
}

SpooledInput::~SpooledInput() {
    if (!spooled_)
        return;
    std::error_code ec;
    std::filesystem::remove(copy_path_, ec);
    unregister_temporary(copy_path_.c_str());
}

void write_file_atomically(const std::string& path, std::string_view text) {
    OutputFile out(path);
    out.write(text);
    out.commit();
}

}  // namespace loopscope
