// `tsread info FILE [--json]` (cli-contract.md): version, tables with columns, devices and rows,
// and the tree-model devices/series/points, from metadata only.
#include <iostream>
#include <memory>

#include "cli.h"
#include "tsread/read/file_summary.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread::cli {
namespace {

void PrintJson(const FileSummary& summary, std::ostream& out) {
  out << "{\"version\": " << static_cast<int>(summary.version) << ",\n \"tables\": [";
  for (size_t t = 0; t < summary.tables.size(); ++t) {
    const TableSummary& table = summary.tables[t];
    out << (t ? ",\n  " : "\n  ") << "{\"name\": " << JsonString(table.schema->name) << ", \"columns\": [";
    for (size_t c = 0; c < table.schema->columns.size(); ++c) {
      const ColumnSchema& column = table.schema->columns[c];
      out << (c ? ", " : "") << "{\"name\": " << JsonString(column.name) << ", \"category\": \""
          << ColumnCategoryName(column.category) << "\", \"type\": \"" << DataTypeName(column.data_type) << "\"}";
    }
    out << "], \"devices\": " << table.devices << ", \"rows\": " << table.rows;
    if (table.rows > 0) out << ", \"start_time\": " << table.start_time << ", \"end_time\": " << table.end_time;
    out << "}";
  }
  out << (summary.tables.empty() ? "]" : "\n ]");
  if (summary.tree.has_value()) {
    out << ",\n \"tree\": {\"devices\": " << summary.tree->devices << ", \"series\": " << summary.tree->series
        << ", \"points\": " << summary.tree->points << "}";
  }
  out << "}\n";
}

void PrintText(const std::string& path, const FileSummary& summary, std::ostream& out) {
  out << "file: " << path << "\nversion: " << static_cast<int>(summary.version) << "\n";
  for (const TableSummary& table : summary.tables) {
    out << "table " << table.schema->name << ": " << table.devices << " devices, " << table.rows << " rows";
    if (table.rows > 0) out << ", time " << table.start_time << " .. " << table.end_time;
    out << "\n";
    for (const ColumnSchema& column : table.schema->columns) {
      out << "  " << column.name << "  " << ColumnCategoryName(column.category) << "  "
          << DataTypeName(column.data_type) << "\n";
    }
  }
  if (summary.tree.has_value()) {
    out << "tree model: " << summary.tree->devices << " devices, " << summary.tree->series << " series, "
        << summary.tree->points << " points\n";
  }
}

}  // namespace

int RunInfo(const Args& args) {
  const std::string& path = args.positional[0];
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(path);
  if (!reader.ok()) return Fail(reader.status());
  absl::StatusOr<FileSummary> summary = SummarizeFile(**reader);
  if (!summary.ok()) return Fail(summary.status());
  if (args.Has("json")) {
    PrintJson(*summary, std::cout);
  } else {
    PrintText(path, *summary, std::cout);
  }
  return kOk;
}

}  // namespace tsread::cli
