#include "column_details.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli.h"
#include "tsread/read/chunk_data.h"
#include "value_format.h"

namespace tsread::cli {
namespace {

void MergeStatistics(const Statistics& s, ColumnDetail& d) {
  if (s.count == 0) return;
  if (!d.has_statistics) {
    d.statistics = s;
    d.has_statistics = true;
    return;
  }
  Statistics& m = d.statistics;
  m.count += s.count;
  m.start_time = std::min(m.start_time, s.start_time);
  m.end_time = std::max(m.end_time, s.end_time);
  m.int_min = std::min(m.int_min, s.int_min);
  m.int_max = std::max(m.int_max, s.int_max);
  m.float_min = std::min(m.float_min, s.float_min);
  m.float_max = std::max(m.float_max, s.float_max);
}

// Adds one series (all its chunks) of a device to `d`.
absl::Status AddSeries(const TsFileReader& reader, const TimeseriesMetadata& tsm, ReadAhead& ahead, ColumnDetail& d) {
  d.type = tsm.data_type;
  MergeStatistics(tsm.statistics, d);
  for (const ChunkMetadata& meta : tsm.chunks) {
    absl::StatusOr<ChunkData> chunk = LoadChunk(reader, meta.offset, &ahead);
    if (!chunk.ok()) return chunk.status();
    ++d.chunks;
    d.encodings.insert(EncodingText(chunk->header.encoding_byte));
    d.compressions.insert(CodecText(chunk->header.compression_byte));
    for (const PageRef& page : chunk->pages) {
      ++d.pages;
      d.compressed_bytes += page.header.compressed_size;
      d.uncompressed_bytes += page.header.uncompressed_size;
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<TableDetails> CollectIndex(const TsFileReader& reader, const std::string& index, bool tree) {
  std::map<std::string, ColumnDetail> columns;
  ReadAhead ahead;
  absl::Status status = reader.ForEachDevice(index, [&](const DeviceEntry& device) {
    return reader.ForEachTimeseries(device.location, [&](TimeseriesMetadata&& tsm) {
      // "" sorts first: the time column leads.
      ColumnDetail& d = columns[tsm.measurement];
      d.name = tsm.is_time_column() ? "time" : tsm.measurement;
      return AddSeries(reader, tsm, ahead, d);
    });
  });
  if (!status.ok()) return status;
  TableDetails details{tree ? "" : index, tree, {}};
  for (auto& [name, d] : columns) details.columns.push_back(std::move(d));
  return details;
}

std::string Extreme(const ColumnDetail& d, bool min) {
  if (!d.has_statistics) return "";
  if (IsIntegerType(d.type)) return absl::StrCat(min ? d.statistics.int_min : d.statistics.int_max);
  if (!IsFloatType(d.type)) return "";
  std::string text;
  const double v = min ? d.statistics.float_min : d.statistics.float_max;
  if (d.type == DataType::kFloat) {
    AppendFloat(text, static_cast<float>(v));
  } else {
    AppendDouble(text, v);
  }
  return text;
}

}  // namespace

absl::StatusOr<std::vector<TableDetails>> CollectColumnDetails(const TsFileReader& reader) {
  std::vector<TableDetails> all;
  for (const TableSchema* schema : reader.Tables()) {
    if (reader.metadata().FindIndex(schema->name) == nullptr) continue;
    absl::StatusOr<TableDetails> d = CollectIndex(reader, schema->name, false);
    if (!d.ok()) return d.status();
    all.push_back(std::move(*d));
  }
  TableDetails tree{"", true, {}};
  for (const std::string& index : reader.TreeIndexNames()) {
    absl::StatusOr<TableDetails> d = CollectIndex(reader, index, true);
    if (!d.ok()) return d.status();
    for (ColumnDetail& c : d->columns) tree.columns.push_back(std::move(c));
  }
  if (!tree.columns.empty()) all.push_back(std::move(tree));
  return all;
}

void PrintDetailsText(const std::vector<TableDetails>& details, std::ostream& out) {
  for (const TableDetails& t : details) {
    out << (t.tree ? std::string("tree model columns:") : "table " + t.table + " columns:") << "\n";
    out << "  column\ttype\tencoding\tcompression\tchunks\tpages\tcompressed\tuncompressed\tcount\tstart\tend\tmin\tmax\n";
    for (const ColumnDetail& c : t.columns) {
      out << "  " << c.name << "\t" << DataTypeName(c.type) << "\t" << absl::StrJoin(c.encodings, "+") << "\t"
          << absl::StrJoin(c.compressions, "+") << "\t" << c.chunks << "\t" << c.pages << "\t" << c.compressed_bytes
          << "\t" << c.uncompressed_bytes << "\t" << c.statistics.count << "\t";
      if (c.has_statistics) out << c.statistics.start_time << "\t" << c.statistics.end_time;
      else out << "\t";
      out << "\t" << Extreme(c, true) << "\t" << Extreme(c, false) << "\n";
    }
  }
}

void PrintDetailsJson(const std::vector<TableDetails>& details, std::ostream& out) {
  out << "\"columns_detail\": {";
  for (size_t t = 0; t < details.size(); ++t) {
    const TableDetails& table = details[t];
    out << (t ? ",\n  " : "\n  ") << JsonString(table.tree ? "(tree)" : table.table) << ": [";
    for (size_t i = 0; i < table.columns.size(); ++i) {
      const ColumnDetail& c = table.columns[i];
      auto list = [](const std::set<std::string>& s) {
        std::string text = "[";
        for (const std::string& v : s) absl::StrAppend(&text, text.size() > 1 ? ", " : "", JsonString(v));
        return text + "]";
      };
      out << (i ? ",\n    " : "\n    ") << "{\"name\": " << JsonString(c.name) << ", \"type\": \"" << DataTypeName(c.type)
          << "\", \"encodings\": " << list(c.encodings) << ", \"compressions\": " << list(c.compressions)
          << ", \"chunks\": " << c.chunks << ", \"pages\": " << c.pages << ", \"compressed_bytes\": " << c.compressed_bytes
          << ", \"uncompressed_bytes\": " << c.uncompressed_bytes << ", \"count\": " << c.statistics.count;
      if (c.has_statistics) {
        out << ", \"start_time\": " << c.statistics.start_time << ", \"end_time\": " << c.statistics.end_time;
        const std::string min = Extreme(c, true), max = Extreme(c, false);
        // NaN/infinite float extremes have no JSON spelling: left out.
        if (!min.empty() && min.find_first_of("NI") == std::string::npos) out << ", \"min\": " << min;
        if (!max.empty() && max.find_first_of("NI") == std::string::npos) out << ", \"max\": " << max;
      }
      out << "}";
    }
    out << "]";
  }
  out << "}";
}

}  // namespace tsread::cli
