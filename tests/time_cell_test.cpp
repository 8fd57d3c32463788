// parse_time_ns reads plain decimal time cells to nanoseconds in integers and everything else
// through a double (fast_float, a product with a power of ten, round_to_int64). Captures read
// before and after must give the same nanoseconds, so these tests hold the integer path to the
// double path itself, on random cells of every length PresentMon, MangoHud and OCAT write, and on
// the cells built to sit next to a half nanosecond where the two could part.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <string>

#include "common/errors.hpp"
#include "readers/csv_scanner.hpp"

namespace loopscope {
namespace {

const std::string kPath = "cells.csv";
const LinePlace kPlace{&kPath, 3};

double pow10(int digits) {
    double scale = 1;
    for (int i = 0; i < digits; ++i)
        scale *= 10;
    return scale;
}

// The nanoseconds, or the error's message.
template <typename Read>
std::string outcome(Read&& read) {
    try {
        return std::to_string(read());
    } catch (const InputError& e) {
        return e.what();
    }
}

// The double path alone, as the readers had it, against parse_time_ns.
void expect_same(const std::string& text, int ns_digits) {
    const Field f{text, 7};
    const std::string by_double = outcome([&] {
        return scaled_to_ns(parse_non_negative(f, kPlace, "t"), pow10(ns_digits), f, kPlace);
    });
    EXPECT_EQ(outcome([&] { return parse_time_ns(f, kPlace, "t", ns_digits); }), by_double)
        << "'" << text << "' at 10^" << ns_digits << " ns";
}

std::string digits_of(std::mt19937_64& rng, int count) {
    std::string s;
    for (int i = 0; i < count; ++i)
        s += static_cast<char>('0' + rng() % 10);
    return s;
}

TEST(TimeCell, RandomPlainCellsGiveTheDoublePathsNanosecond) {
    std::mt19937_64 rng(11);
    int integer_path = 0;
    for (int i = 0; i < 400000; ++i) {
        const int ns_digits = std::array{0, 3, 6, 9}[rng() % 4];
        const int whole_digits = 1 + static_cast<int>(rng() % 12);
        const int fraction_digits = static_cast<int>(rng() % 17);
        std::string text = digits_of(rng, whole_digits);
        if (fraction_digits > 0)
            text.append(".").append(digits_of(rng, fraction_digits));
        std::int64_t ns = 0;
        integer_path += plain_decimal_to_ns(text, ns_digits, ns) ? 1 : 0;
        expect_same(text, ns_digits);
        if (HasFailure())
            return;
    }
    // Most cells of this shape are read in integers (the rest are too long or too large).
    EXPECT_GT(integer_path, 200000);
}

TEST(TimeCell, EveryShortCellGivesTheDoublePathsNanosecondOrError) {
    // Every cell of one to six bytes from digits, a point, a letter and a space (short cells are
    // read digit by digit, below the word-wide reading), at every unit.
    const std::string alphabet = "09.x ";
    std::string text;
    const auto each = [&](const auto& self, std::size_t left) -> void {
        if (!text.empty()) {
            for (const int ns_digits : {0, 3, 6, 9})
                expect_same(text, ns_digits);
        }
        if (left == 0 || HasFailure())
            return;
        for (const char c : alphabet) {
            text.push_back(c);
            self(self, left - 1);
            text.pop_back();
        }
    };
    each(each, 6);
    // Seven bytes, the longest read digit by digit, and eight, the shortest read a word at a time.
    std::mt19937_64 rng(13);
    for (int i = 0; i < 20000 && !HasFailure(); ++i) {
        std::string cell = digits_of(rng, 7 + static_cast<int>(rng() % 2));
        cell[rng() % cell.size()] = '.';
        expect_same(cell, std::array{0, 3, 6, 9}[rng() % 4]);
    }
}

TEST(TimeCell, CellsNextToAHalfNanosecondGiveTheDoublePathsNanosecond) {
    // Sub-nanosecond digits of 4999...9x and 5000...0x: a half, and a few units in the last
    // place either side of it, where a double's rounding could tip the result.
    std::mt19937_64 rng(12);
    for (int i = 0; i < 100000; ++i) {
        const int ns_digits = std::array{0, 6, 9}[rng() % 3];
        const int whole_ns_digits = 1 + static_cast<int>(rng() % 14);
        const std::string ns_text = digits_of(rng, whole_ns_digits);
        const int extra = 1 + static_cast<int>(rng() % 8);  // digits below the nanosecond
        // Built by append: GCC 12 at -O3 warns (-Wrestrict, falsely) on "5" + std::string(...).
        const bool half_up = rng() % 2 != 0;
        std::string below(1, half_up ? '5' : '4');
        below.append(static_cast<std::size_t>(extra - 1), half_up ? '0' : '9');
        const int nudge = static_cast<int>(rng() % 5) - 2;  // -2 .. 2 units in the last place
        for (int k = 0; k < std::abs(nudge); ++k) {
            // Step the last digit by one, carrying as needed.
            for (int at = extra - 1; at >= 0; --at) {
                char& c = below[static_cast<std::size_t>(at)];
                if (nudge > 0 ? c != '9' : c != '0') {
                    c = static_cast<char>(c + (nudge > 0 ? 1 : -1));
                    break;
                }
                c = nudge > 0 ? '0' : '9';
            }
        }
        // Place the point so that `ns_digits` digits of `ns_text` sit after it.
        std::string all = ns_text;
        while (static_cast<int>(all.size()) <= ns_digits)
            all.insert(all.begin(), '0');
        const std::size_t point = all.size() - static_cast<std::size_t>(ns_digits);
        const std::string text = all.substr(0, point) + "." + all.substr(point) + below;
        expect_same(text, ns_digits);
        if (HasFailure())
            return;
    }
}

TEST(TimeCell, ExactHalvesAndOtherShapesTakeTheDoublePath) {
    std::int64_t ns = 0;
    EXPECT_FALSE(plain_decimal_to_ns("0.0000005", 6, ns));  // 0.5 ns: a tie
    EXPECT_FALSE(plain_decimal_to_ns("0.0000015", 6, ns));
    EXPECT_FALSE(plain_decimal_to_ns(" 16.6", 6, ns));
    EXPECT_FALSE(plain_decimal_to_ns("16.", 6, ns));
    EXPECT_FALSE(plain_decimal_to_ns(".5", 6, ns));
    EXPECT_FALSE(plain_decimal_to_ns("+1", 6, ns));
    EXPECT_FALSE(plain_decimal_to_ns("-0", 6, ns));
    EXPECT_FALSE(plain_decimal_to_ns("1e3", 6, ns));
    EXPECT_FALSE(plain_decimal_to_ns("NA", 6, ns));
    EXPECT_FALSE(plain_decimal_to_ns("", 6, ns));
    EXPECT_FALSE(plain_decimal_to_ns("12345678901234567890", 0, ns));  // 20 digits
    EXPECT_FALSE(plain_decimal_to_ns("1000000000", 6, ns));            // 10^15 ns
    // A byte just outside '0'..'9' anywhere in a run of digits, inside or outside the eight
    // read at once, in a long cell and in the short shapes read a word a part (the whole
    // digits, those down to the nanosecond, those below it).
    for (const std::string cell : {"123456789.123456789", "16.66670000000000", "1.01040000",
                                   "1234567.1234567890123", "0.00000001"}) {
        const std::size_t point = cell.find('.');
        for (std::size_t at = 0; at < cell.size(); ++at) {
            for (const char bad : {'/', ':', '?', '@', ' ', 'a', '.', '\x80', '\xff', '\0'}) {
                if (at == point)
                    continue;
                std::string text = cell;
                text[at] = bad;
                for (const int ns_digits : {0, 6, 9})
                    EXPECT_FALSE(plain_decimal_to_ns(text, ns_digits, ns)) << text;
            }
        }
    }
    // Each still reads as before (or fails as before).
    for (const char* text : {"0.0000005", "0.0000015", " 16.6", "16.", ".5", "+1", "-0", "1e3",
                             "999999999.9999994", "123456789012.34567"}) {
        expect_same(text, 6);
    }
    ASSERT_TRUE(plain_decimal_to_ns("16.66670000000000", 6, ns));
    EXPECT_EQ(ns, 16'666'700);
    ASSERT_TRUE(plain_decimal_to_ns("0.01661700", 9, ns));
    EXPECT_EQ(ns, 16'617'000);
    ASSERT_TRUE(plain_decimal_to_ns("0.0000016", 6, ns));
    EXPECT_EQ(ns, 2);
    ASSERT_TRUE(plain_decimal_to_ns("0.0000014", 6, ns));
    EXPECT_EQ(ns, 1);
}

TEST(TimeCell, BadCellsFailAsBeforeNamingTheColumn) {
    for (const char* text : {"abc", "-3.5", "1.2.3", "nan", "inf", "1e400"}) {
        const Field f{text, 7};
        try {
            parse_time_ns(f, kPlace, "MsBetweenPresents", 6);
            ADD_FAILURE() << "no error for '" << text << "'";
        } catch (const InputError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("cells.csv:3:7"), std::string::npos) << what;
        }
    }
}

}  // namespace
}  // namespace loopscope
