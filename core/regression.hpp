// The regression gate against history: is a new run's figure worse than the baseline runs of
// the same labels, beyond a tolerance and beyond what run-to-run variation explains?
//
// The method (docs/history.md): the baseline is n >= 2 earlier runs' values of the figure, with
// mean m and sample standard deviation s. Each run's figure already carries its own
// frame-to-frame noise, so s measures the variation of whole runs, which is what a new run
// differs by when nothing changed. Under no change, a new run's value x and the baseline mean
// differ by a normal variable of variance s^2 (1 + 1/n), so (x - m) / (s sqrt(1 + 1/n)) follows
// Student's t with n - 1 degrees of freedom (the prediction interval of one new run). The 95 %
// interval of the change is x - m +- t(0.975, n - 1) s sqrt(1 + 1/n); the run has regressed
// when the whole interval lies on the worse side beyond the tolerance.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "core/figures.hpp"

namespace loopscope {

struct RegressionCheck {
    std::string text;       // as written: "p99_ms:5%"
    std::string figure;     // a key of the catalogue with a direction
    double tolerance = 0;   // in the figure's unit, or a fraction when relative
    bool relative = false;  // "5%": a fraction of the baseline mean
};

// Student's t quantile for probability 0.975 with `df` >= 1 degrees of freedom.
double student_t_975(std::size_t df);

struct RegressionResult {
    RegressionCheck check;
    double value = 0;               // the new run's
    std::size_t baseline_runs = 0;  // n
    double baseline_mean = 0;
    double baseline_sd = 0;
    double change = 0;                       // value - baseline mean
    double change_low = 0, change_high = 0;  // its 95 % interval
    double tolerance = 0;                    // in the figure's unit
    bool regressed = false;
    // "p99_ms regressed: 20.125 ms against a baseline of 16.102 ms (5 runs, sd 0.210): change
    // +4.023 ms, 95 % interval [+3.411, +4.635] beyond the tolerance 0"
    std::string message;
};

// Needs baseline.size() >= 2 (the caller says why not).
RegressionResult test_regression(const RegressionCheck& check, double value,
                                 std::span<const double> baseline);

}  // namespace loopscope
