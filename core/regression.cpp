// The regression gate's statistic (see regression.hpp).
#include "core/regression.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>

namespace loopscope {

double student_t_975(std::size_t df) {
    // The quantiles for 1-30 degrees of freedom (standard tables); beyond, the Cornish-Fisher
    // expansion around the normal quantile, within 1e-4 of the exact value there.
    static constexpr std::array<double, 30> kTable = {
        12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
        2.2010,  2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
        2.0796,  2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423};
    if (df == 0)
        df = 1;
    if (df <= kTable.size())
        return kTable[df - 1];
    const double z = 1.959963984540054;
    const double n = static_cast<double>(df);
    const double z3 = z * z * z;
    const double z5 = z3 * z * z;
    return z + (z3 + z) / (4 * n) + (5 * z5 + 16 * z3 + 3 * z) / (96 * n * n);
}

RegressionResult test_regression(const RegressionCheck& check, double value,
                                 std::span<const double> baseline) {
    RegressionResult r;
    r.check = check;
    r.value = value;
    r.baseline_runs = baseline.size();
    const double n = static_cast<double>(baseline.size());
    double sum = 0;
    for (const double v : baseline)
        sum += v;
    r.baseline_mean = sum / n;
    double ss = 0;
    for (const double v : baseline)
        ss += (v - r.baseline_mean) * (v - r.baseline_mean);
    r.baseline_sd = baseline.size() > 1 ? std::sqrt(ss / (n - 1)) : 0.0;
    r.change = value - r.baseline_mean;
    const double half =
        student_t_975(baseline.size() - 1) * r.baseline_sd * std::sqrt(1.0 + 1.0 / n);
    r.change_low = r.change - half;
    r.change_high = r.change + half;
    r.tolerance = check.relative ? check.tolerance * std::abs(r.baseline_mean) : check.tolerance;
    const Figure* figure = find_figure(check.figure);
    const bool higher_better = figure != nullptr && figure_better(*figure) == Better::higher;
    // The change in the worse direction, as a positive number when worse.
    const double worse_bound = higher_better ? -r.change_high : r.change_low;
    r.regressed = worse_bound > r.tolerance;
    // Built by append: GCC 12 at -O3 takes `" " + std::string(...)` for an overlapping copy
    // (a false -Wrestrict).
    std::string unit;
    if (figure != nullptr && !figure->unit.empty())
        unit.append(" ").append(figure->unit);
    r.message = fmt::format(
        "{} {}: {:.4g}{} against a baseline of {:.4g}{} ({} runs, sd {:.3g}): change {:+.4g}{}, "
        "95 % interval [{:+.4g}, {:+.4g}], tolerance {:.4g}{} ({} is better)",
        check.figure, r.regressed ? "regressed" : "within the baseline", value, unit,
        r.baseline_mean, unit, baseline.size(), r.baseline_sd, r.change, unit, r.change_low,
        r.change_high, r.tolerance, unit, higher_better ? "higher" : "lower");
    return r;
}

}  // namespace loopscope
