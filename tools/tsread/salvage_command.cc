// `tsread salvage IN [OUT] [--schema-from FILE] [--json] [--force]`: what the data section of an
// unsealed file still holds (tsread::SalvageDataSection), and with OUT a sealed copy of it
// (tsread::WriteSealedCopy). The rule is in docs/robustness.md, "Unsealed files".
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli.h"
#include "tsread/check/salvage.h"
#include "tsread/check/sealed_copy.h"
#include "tsread/write/output_sink.h"

namespace tsread::cli {
namespace {

void PrintText(const std::string& path, const SalvageReport& report, std::ostream& out) {
  out << absl::StrFormat("salvage %s: version %d, %d bytes, %s\n", path, report.version, report.file_size,
                         report.sealed ? "sealed (its tail is valid; salvage keeps what the walk confirms)"
                                       : "unsealed (no valid tail)");
  out << absl::StrFormat("kept: %d chunk groups, %d devices, %d rows, %d points, %d bytes (data section [7, %d))\n",
                         report.groups_kept, report.devices.size(), report.rows, report.points, report.bytes_kept(),
                         report.data_end);
  out << absl::StrFormat("stopped at offset %d: %s\n", report.stop_offset, report.stop_reason);
  for (const SalvagedDevice& device : report.devices) {
    out << absl::StrFormat("  %s: %s, %d groups, ", device.id.ToString(), device.aligned ? "aligned" : "non-aligned",
                           device.groups);
    if (device.aligned) out << device.rows << " rows, ";
    uint64_t points = 0;
    for (const SalvagedSeries& series : device.series) points += series.points;
    out << device.series.size() << " series, " << points << " points\n";
  }
}

void PrintJson(const std::string& path, const SalvageReport& report, const SealedCopyResult* copy,
               const std::string& out_path, std::ostream& out) {
  out << "{\"file\": " << JsonString(path) << ", \"version\": " << int{report.version}
      << ", \"size\": " << report.file_size << ", \"sealed\": " << (report.sealed ? "true" : "false")
      << ", \"groups_kept\": " << report.groups_kept << ", \"devices\": " << report.devices.size()
      << ", \"rows\": " << report.rows << ", \"points\": " << report.points
      << ", \"bytes_kept\": " << report.bytes_kept() << ", \"stop_offset\": " << report.stop_offset
      << ", \"stop_reason\": " << JsonString(report.stop_reason) << ",\n \"device_list\": [";
  for (size_t d = 0; d < report.devices.size(); ++d) {
    const SalvagedDevice& device = report.devices[d];
    out << (d == 0 ? "" : ",") << "\n  {\"device\": " << JsonString(device.id.ToString())
        << ", \"aligned\": " << (device.aligned ? "true" : "false") << ", \"groups\": " << device.groups
        << ", \"rows\": " << device.rows << ", \"series\": [";
    for (size_t s = 0; s < device.series.size(); ++s) {
      const SalvagedSeries& series = device.series[s];
      out << (s == 0 ? "" : ", ") << "{\"name\": " << JsonString(series.name) << ", \"type\": \""
          << DataTypeName(series.type) << "\", \"points\": " << series.points << "}";
    }
    out << "]}";
  }
  out << "]";
  if (copy != nullptr) {
    out << ",\n \"output\": {\"path\": " << JsonString(out_path) << ", \"bytes\": " << copy->bytes_written
        << "}, \"warnings\": [";
    for (size_t w = 0; w < copy->warnings.size(); ++w) out << (w == 0 ? "" : ", ") << JsonString(copy->warnings[w]);
    out << "]";
  }
  out << "}\n";
}

// Table schemas from another (sealed) file of the same tables.
absl::StatusOr<std::vector<TableSchema>> SchemasFrom(const std::string& path) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(path);
  if (!reader.ok()) return WithFileName(reader.status(), path);
  return (*reader)->metadata().table_schemas;
}

}  // namespace

int RunSalvage(const Args& args) {
  if (args.positional.empty() || args.positional.size() > 2) return UsageError("salvage takes IN [OUT]");
  const std::string& path = args.positional[0];
  const bool json = args.Has("json");
  absl::StatusOr<std::unique_ptr<MemoryBudget>> budget = WalkBudgetFromArgs(args);
  if (!budget.ok()) return Fail(budget.status());
  WalkOptions walk;
  walk.memory_budget = budget->get();
  if (args.positional.size() == 1) {
    if (args.Has("schema-from") || args.Has("force")) return UsageError("--schema-from and --force need OUT");
    absl::StatusOr<std::unique_ptr<RandomAccessFile>> file = OpenFile(path);
    if (!file.ok()) return Fail(WithFileName(file.status(), path));
    SalvageOptions options;
    options.walk = walk;
    absl::StatusOr<SalvageReport> report = SalvageDataSection(**file, options);
    if (!report.ok()) return Fail(WithFileName(report.status(), path));
    if (json) {
      PrintJson(path, *report, nullptr, "", std::cout);
    } else {
      PrintText(path, *report, std::cout);
    }
    return kOk;
  }

  const std::string& out_path = args.positional[1];
  std::error_code error;
  if (std::filesystem::exists(out_path, error)) {
    if (std::filesystem::equivalent(path, out_path, error)) return UsageError(out_path + ": is IN itself");
    if (!args.Has("force")) return UsageError(out_path + ": exists (--force overwrites it)");
  }
  SealedCopyOptions options;
  options.walk = walk;
  if (std::optional<std::string> schema_path = args.Get("schema-from")) {
    absl::StatusOr<std::vector<TableSchema>> schemas = SchemasFrom(*schema_path);
    if (!schemas.ok()) return Fail(schemas.status());
    options.schemas = *std::move(schemas);
  }
  absl::StatusOr<std::unique_ptr<RandomAccessFile>> file = OpenFile(path);
  if (!file.ok()) return Fail(WithFileName(file.status(), path));
  absl::StatusOr<std::unique_ptr<OutputSink>> sink = FileOutputSink(out_path);
  if (!sink.ok()) return Fail(WithFileName(sink.status(), out_path));
  absl::StatusOr<SealedCopyResult> copy = WriteSealedCopy(**file, **sink, options);
  if (!copy.ok()) {
    std::filesystem::remove(out_path, error);  // never leave a half-written copy behind
    return Fail(WithFileName(copy.status(), path));
  }
  for (const std::string& warning : copy->warnings) std::cerr << "tsread: warning: " << warning << "\n";
  if (json) {
    PrintJson(path, copy->report, &*copy, out_path, std::cout);
  } else {
    PrintText(path, copy->report, std::cout);
    std::cout << absl::StrFormat("wrote %s: %d bytes (%d of data section kept, then a new index and tail)\n",
                                 out_path, copy->bytes_written, copy->report.bytes_kept());
  }
  return kOk;
}

}  // namespace tsread::cli
