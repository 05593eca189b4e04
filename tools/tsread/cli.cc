#include "cli.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <iostream>
#include <variant>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/strings/ascii.h"
#include "time_parse.h"
#include "tsread/io/file_list.h"
#include "tsread/io/status_macros.h"
#include "tsread/read/predicate_text.h"
#include <sys/stat.h>

namespace tsread::cli {

std::optional<std::string> Args::Get(const std::string& flag) const {
  auto it = flags.find(flag);
  if (it == flags.end()) return std::nullopt;
  return it->second.back();
}

std::vector<std::string> Args::GetAll(const std::string& flag) const {
  auto it = flags.find(flag);
  return it == flags.end() ? std::vector<std::string>() : it->second;
}

std::optional<Args> ParseArgs(const std::vector<std::string>& argv, const std::vector<std::string>& value_flags,
                              const std::vector<std::string>& bool_flags) {
  Args args;
  auto contains = [](const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
  };
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    if (arg.size() < 2 || arg.compare(0, 2, "--") != 0) {
      args.positional.push_back(arg);
      continue;
    }
    std::string name = arg.substr(2);
    std::optional<std::string> value;
    if (size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    if (contains(bool_flags, name)) {
      if (value.has_value()) {
        UsageError("flag --" + name + " takes no value");
        return std::nullopt;
      }
      args.flags[name].push_back("");
    } else if (contains(value_flags, name)) {
      if (!value.has_value()) {
        if (i + 1 >= argv.size()) {
          UsageError("flag --" + name + " needs a value");
          return std::nullopt;
        }
        value = argv[++i];
      }
      args.flags[name].push_back(*value);
    } else {
      UsageError("unknown flag --" + name);
      return std::nullopt;
    }
  }
  return args;
}

absl::StatusOr<TimeRange> TimeRangeFromArgs(const Args& args) {
  TimeRange range;
  if (std::optional<std::string> start = args.Get("start")) {
    absl::StatusOr<int64_t> t = ParseTimeArg("start", *start);
    if (!t.ok()) return t.status();
    range.start = *t;
  }
  if (std::optional<std::string> end = args.Get("end")) {
    absl::StatusOr<int64_t> t = ParseTimeArg("end", *end);
    if (!t.ok()) return t.status();
    range.end = *t;
  }
  // An empty range is almost always swapped arguments, not a wish for no rows.
  if (range.start > range.end) {
    return absl::InvalidArgumentError(absl::StrCat("--start ", *args.Get("start"), " is after --end ", *args.Get("end")));
  }
  return range;
}

absl::StatusOr<int> ThreadsFromArgs(const Args& args) {
  std::optional<std::string> threads = args.Get("threads");
  if (!threads.has_value()) return 1;
  int n = 0;
  const auto r = std::from_chars(threads->data(), threads->data() + threads->size(), n);
  if (r.ec != std::errc() || r.ptr != threads->data() + threads->size() || n < 1 || n > 256) {
    return absl::InvalidArgumentError("--threads needs a number from 1 to 256");
  }
  return n;
}

absl::StatusOr<uint64_t> MemoryBudgetFromArgs(const Args& args) {
  std::optional<std::string> text = args.Get("memory-budget");
  if (!text.has_value()) return 0;
  std::string_view digits = *text;
  int shift = 0;
  if (!digits.empty()) {
    switch (digits.back()) {
      case 'K': case 'k': shift = 10; break;
      case 'M': case 'm': shift = 20; break;
      case 'G': case 'g': shift = 30; break;
      default: break;
    }
    if (shift > 0) digits.remove_suffix(1);
  }
  uint64_t value = 0;
  const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || r.ec != std::errc() || r.ptr != digits.data() + digits.size() || value == 0 ||
      value > (uint64_t{1} << (62 - shift))) {
    return absl::InvalidArgumentError(absl::StrCat("--memory-budget needs a positive size in bytes, optionally with K, M or G (",
                                                   "e.g. 64M), not \"", *text, "\""));
  }
  return value << shift;
}

absl::StatusOr<std::unique_ptr<MemoryBudget>> WalkBudgetFromArgs(const Args& args) {
  TSREAD_ASSIGN_OR_RETURN(uint64_t limit, MemoryBudgetFromArgs(args));
  if (limit == 0) return std::unique_ptr<MemoryBudget>();
  return std::make_unique<MemoryBudget>(limit);
}

absl::StatusOr<std::vector<std::string>> ColumnsFromArgs(const Args& args) {
  std::optional<std::string> columns = args.Get("columns");
  if (!columns.has_value()) return std::vector<std::string>();
  std::vector<std::string> names;
  for (absl::string_view name : absl::StrSplit(*columns, ',')) {
    name = absl::StripAsciiWhitespace(name);  // "a, b" as typed by people
    // The time column always comes first; naming it is allowed and changes nothing.
    if (name != "time") names.emplace_back(name);
  }
  // An empty projection means every column, which is not what `--columns time` asks for.
  if (names.empty()) return absl::InvalidArgumentError("--columns needs at least one column besides time");
  return names;
}

std::vector<std::string> ListFromFlag(const Args& args, const std::string& flag) {
  std::vector<std::string> items;
  for (const std::string& value : args.GetAll(flag)) {
    for (absl::string_view item : absl::StrSplit(value, ',')) {
      item = absl::StripAsciiWhitespace(item);
      if (!item.empty()) items.emplace_back(item);
    }
  }
  return items;
}

absl::StatusOr<TimeFormat> TimeFormatFromArgs(const Args& args) {
  std::optional<std::string> text = args.Get("time-format");
  if (!text.has_value()) return TimeFormat::kEpoch;
  const std::string f = absl::AsciiStrToLower(*text);
  if (f == "epoch") return TimeFormat::kEpoch;
  if (f == "iso") return TimeFormat::kIso;
  return absl::InvalidArgumentError(absl::StrCat("--time-format must be epoch or iso, got \"", *text, "\""));
}

std::string TimeText(int64_t ms, TimeFormat format, bool json) {
  if (format == TimeFormat::kEpoch) return absl::StrCat(ms);
  return json ? absl::StrCat("\"", FormatIsoMillis(ms), "\"") : FormatIsoMillis(ms);
}

absl::StatusOr<std::vector<PredicateExpr>> PredicatesFromArgs(const Args& args) {
  std::vector<PredicateExpr> predicates;
  for (const std::string& where : args.GetAll("where")) {
    absl::StatusOr<std::vector<PredicateExpr>> parsed = ParsePredicates(where);
    if (!parsed.ok()) return absl::InvalidArgumentError(absl::StrCat("--where: ", parsed.status().message()));
    for (PredicateExpr& p : *parsed) predicates.push_back(std::move(p));
  }
  return predicates;
}

void WarnOfDeletions(std::string_view tsfile_path, const std::optional<DeletionFile>& deletions) {
  if (deletions.has_value()) std::fprintf(stderr, "tsread: warning: %s\n", DeletionWarning(tsfile_path, *deletions).c_str());
}

absl::StatusOr<std::unique_ptr<Dataset>> OpenInputs(const Args& args) {
  absl::StatusOr<std::unique_ptr<Dataset>> dataset = Dataset::Open(args.positional);
  if (dataset.ok()) {
    for (const DatasetFile& f : (*dataset)->files()) WarnOfDeletions(f.path, f.deletions);
  }
  return dataset;
}

bool IsSingleFile(const Args& args) {
  if (args.positional.size() != 1 || IsGlob(args.positional[0])) return false;
  struct stat st;
  return ::stat(args.positional[0].c_str(), &st) != 0 || !S_ISDIR(st.st_mode);
}

int Fail(const absl::Status& status) {
  std::cerr << "tsread: " << status.message() << "\n";
  switch (status.code()) {
    case absl::StatusCode::kNotFound:
    case absl::StatusCode::kPermissionDenied:
    case absl::StatusCode::kUnavailable:
    case absl::StatusCode::kFailedPrecondition:
      return kIoError;
    case absl::StatusCode::kInvalidArgument:
      return kUsage;
    default:
      return kCorrupt;
  }
}

int UsageError(std::string_view message) {
  std::cerr << "tsread: " << message << "\n";
  return kUsage;
}

std::string JsonString(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned char>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += "\"";
  return out;
}

}  // namespace tsread::cli
