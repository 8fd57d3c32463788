// Output that never leaves a half-written file: text goes to a temporary file beside the target,
// which is renamed over it only when commit() is called. If the program fails before that, the
// destructor removes the temporary file. The path "-" writes to standard output instead, and a
// path that names a device or a pipe (/dev/null, a FIFO) is written in place. A path that is a
// symbolic link replaces the file the link names (the link stays), and a file replaced keeps its
// permissions, and its owner and group where the process may set them (as root may).
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace loopscope {

class OutputFile {
  public:
    // Throws UsageError when the file cannot be created (names the path and the OS's reason).
    explicit OutputFile(std::string path);
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    void write(std::string_view text);
    std::FILE* stream() { return file_; }
    bool is_stdout() const { return path_ == "-"; }
    const std::string& path() const { return path_; }

    // Flushes, closes and renames into place. Throws UsageError on a write error (disk full).
    void commit();

  private:
    std::string path_;
    std::string target_path_;  // path_, or the file it names through symbolic links
    std::string tmp_path_;
    std::FILE* file_ = nullptr;
    bool committed_ = false;
    bool direct_ = false;  // a device or pipe, written in place (no temporary, no rename)
    int write_errno_ = 0;  // the first failed write's reason
};

// Throws UsageError when `output` (an option's value, named by `option`) is the same file as one
// of `inputs`, also through a link: a report must never replace the capture it reads.
void refuse_output_over_input(const std::string& output, std::span<const std::string> inputs,
                              std::string_view option = "-o");

// A temporary copy of an input that cannot be read more than once (standard input as "-", a pipe,
// a FIFO, a character device): the readers open a capture several times (format detection, then
// the reader), so such an input is copied once, in blocks, into a file in the temporary folder.
// A regular file is used in place. The copy is removed on destruction and on Ctrl+C / SIGTERM.
// The most an input read from a pipe is copied (1 GiB: a PresentMon log of hours).
inline constexpr std::uint64_t kSpooledInputMaxBytes = std::uint64_t{1} << 30;

class SpooledInput {
  public:
    // Throws InputError naming `path` when it cannot be opened or read. `check_head`, when given,
    // sees the first block (up to 64 KiB) before anything is copied and may throw to refuse the
    // input: an endless device such as /dev/zero is refused there instead of filling the disk.
    // The copy stops, with an InputError that says so, before a block would leave the temporary
    // folder's file system with less than `keep_free_bytes` free; by default the smaller of
    // 256 MiB and 5 % of that file system, so a long input never fills the folder others use.
    // It stops too past `max_copy_bytes` (kSpooledInputMaxBytes by default): an input without
    // end (`yes 16.6 | loopscope report -`) is refused after that much, not after taking all the
    // room there is.
    explicit SpooledInput(std::string path,
                          const std::function<void(std::string_view head)>& check_head = {},
                          std::optional<std::uint64_t> keep_free_bytes = std::nullopt,
                          std::uint64_t max_copy_bytes = kSpooledInputMaxBytes);
    ~SpooledInput();
    SpooledInput(const SpooledInput&) = delete;
    SpooledInput& operator=(const SpooledInput&) = delete;

    // The file to open: the copy, or `path` itself.
    const std::string& path() const { return spooled_ ? copy_path_ : path_; }
    bool spooled() const { return spooled_; }

  private:
    std::string path_;
    std::string copy_path_;
    bool spooled_ = false;
};

// Writes a whole text at once through OutputFile.
void write_file_atomically(const std::string& path, std::string_view text);

}  // namespace loopscope
