// ConvertDates (date_values.h).
#include "date_values.h"

#include <cstring>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "tsread/common/calendar.h"
#include "tsread/dataset/dataset.h"
#include "tsread/io/status_macros.h"

namespace tsread::python {
namespace {

// The days (since 1970-01-01) a Python representation of DATE holds, and what reads the others.
struct DayRange {
  int64_t first;
  int64_t last;
  const char* holds;
  const char* instead;
};

// datetime64[ns] spans 1677-09-21 00:12:43 to 2262-04-11 23:47:16: whole days from 1677-09-22.
constexpr DayRange kDatetime64Days{DaysFromCivil(1677, 9, 22), DaysFromCivil(2262, 4, 11),
                                   "datetime64[ns] (1677-09-22 to 2262-04-11)", "date_as='date' or date_as='int'"};
constexpr DayRange kPythonDateDays{DaysFromCivil(1, 1, 1), DaysFromCivil(9999, 12, 31),
                                   "datetime.date (years 1 to 9999)", "date_as='int'"};

std::string AtTime(const ValueSite& site, size_t row) {
  return site.times == nullptr ? std::string() : absl::StrCat(" at time ", site.times[row]);
}

absl::Status NotADay(const ValueSite& site, size_t row, int32_t value) {
  return WithFileName(
      absl::DataLossError(absl::StrCat("column \"", ToAbsl(site.column), "\": DATE value ", value, AtTime(site, row),
                                       " names no calendar day (yyyyMMdd); invalid_dates='null' reads it as null, "
                                       "date_as='int' as the stored int")),
      site.file);
}

absl::Status OutOfItsRange(const ValueSite& site, size_t row, int32_t value, const DayRange& range) {
  return WithFileName(absl::OutOfRangeError(absl::StrCat("column \"", ToAbsl(site.column), "\": DATE value ", value,
                                                         AtTime(site, row), " lies outside ", range.holds,
                                                         ": read it with ", range.instead)),
                      site.file);
}

}  // namespace

absl::Status ConvertDates(const ColumnVector& values, const ConvertOptions& options, const ValueSite& site,
                          MarkNull mark_null, int32_t* to) {
  const size_t rows = values.length;
  const int32_t* from = values.int32s.data();
  if (options.date_as == DateAs::kInt) {
    if (rows > 0) std::memcpy(to, from, rows * sizeof(int32_t));
    return absl::OkStatus();
  }
  const DayRange& range = options.date_as == DateAs::kDatetime64 ? kDatetime64Days : kPythonDateDays;
  const bool all_valid = values.null_count == 0;
  for (size_t r = 0; r < rows; ++r) {
    if (!all_valid && !values.IsValid(r)) {
      to[r] = 0;  // a null slot: masked in Python
      continue;
    }
    const std::optional<int32_t> days = DaysFromYyyyMmDd(from[r]);
    if (!days.has_value()) {
      if (!options.invalid_dates_null) return NotADay(site, r, from[r]);
      mark_null(r);
      to[r] = 0;
      continue;
    }
    if (*days < range.first || *days > range.last) return OutOfItsRange(site, r, from[r], range);
    to[r] = *days;
  }
  return absl::OkStatus();
}

}  // namespace tsread::python
