#include "tsread/check/file_verifier.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "tsread/io/status_macros.h"
#include "tsread/read/chunk_data.h"
#include "tsread/check/data_section_walker.h"

namespace tsread {
namespace {

// Chunk offsets found by the sequential walk, with their measurement and type.
class ChunkCollector : public DataSectionVisitor {
 public:
  struct Found {
    std::string measurement;
    DataType type;
  };
  std::map<uint64_t, Found> chunks;

  absl::Status OnChunkGroup(uint64_t, const DeviceIdView&) override { return absl::OkStatus(); }
  absl::Status OnChunk(const ChunkHeader& chunk) override {
    chunks[chunk.offset] = Found{std::string(chunk.measurement), chunk.data_type};
    return absl::OkStatus();
  }
  absl::Status OnPage(const ChunkHeader&, const PageHeader&, uint64_t, std::string_view) override {
    return absl::OkStatus();
  }
  absl::Status OnOperationIndexRange(uint64_t, int64_t, int64_t) override { return absl::OkStatus(); }
  absl::Status OnSeparator(uint64_t) override { return absl::OkStatus(); }
};

// What the decoded values of a page or chunk add up to, to compare with Statistics.
struct Observed {
  uint64_t count = 0;
  int64_t start_time = 0, end_time = 0;
  bool has_int = false, has_float = false;
  int64_t int_min = 0, int_max = 0;
  double float_min = 0, float_max = 0;

  void AddTime(int64_t t) {
    if (count == 0 || t < start_time) start_time = t;
    if (count == 0 || t > end_time) end_time = t;
    ++count;
  }
  void AddInt(int64_t v) {
    int_min = has_int ? std::min(int_min, v) : v;
    int_max = has_int ? std::max(int_max, v) : v;
    has_int = true;
  }
  // Java's FloatStatistics/DoubleStatistics: the first value starts min and max (even NaN), later
  // values replace them only when a comparison says so — which NaN never does.
  void AddFloat(double v) {
    if (!has_float) {
      float_min = float_max = v;
      has_float = true;
      return;
    }
    if (v < float_min) float_min = v;
    if (v > float_max) float_max = v;
  }
  void Merge(const Observed& o) {
    if (o.count == 0) return;
    if (count == 0 || o.start_time < start_time) start_time = o.start_time;
    if (count == 0 || o.end_time > end_time) end_time = o.end_time;
    count += o.count;
    if (o.has_int) {
      AddInt(o.int_min);
      AddInt(o.int_max);
    }
    if (o.has_float) {
      AddFloat(o.float_min);
      AddFloat(o.float_max);
    }
  }
};

class Verifier {
 public:
  Verifier(const TsFileReader& reader, const ReadLimits& limits, size_t max_problems)
      : reader_(reader), limits_(limits), max_problems_(max_problems) {}

  absl::StatusOr<VerifyReport> Run() {
    ChunkCollector collector;
    if (absl::Status s = WalkDataSection(reader_, collector); !s.ok()) {
      Problem(0, "", "", absl::StrCat("data section: ", s.message()));
    }
    chunks_ = std::move(collector.chunks);
    for (const TableIndex& index : reader_.metadata().table_index) {
      TSREAD_ASSIGN_OR_RETURN(DeviceIterator devices, reader_.Devices(index.name));
      while (!report_.truncated) {
        absl::StatusOr<const DeviceEntry*> device = devices.Next();
        if (!device.ok()) {
          Problem(0, index.name, "", absl::StrCat("device index: ", device.status().message()));
          break;
        }
        if (*device == nullptr) break;
        VerifyDevice((*device)->id.ToString(), (*device)->location);
      }
    }
    return std::move(report_);
  }

 private:
  static std::string Where(uint64_t offset, const std::string& device, const std::string& column) {
    return absl::StrCat("offset ", offset, ", device ", device.empty() ? "-" : device, ", column ",
                        column.empty() ? "-" : column, ": ");
  }

  void Problem(uint64_t offset, const std::string& device, const std::string& column, std::string what) {
    if (report_.problems.size() >= max_problems_) {
      report_.truncated = true;
      return;
    }
    report_.problems.push_back(absl::StrCat(Where(offset, device, column), what));
  }

  void Notice(uint64_t offset, const std::string& device, const std::string& column, std::string what) {
    if (report_.notices.size() < max_problems_) report_.notices.push_back(absl::StrCat(Where(offset, device, column), what));
  }

  // Whether the chunk's encoding is lossy for its type: its statistics may describe the values
  // before encoding.
  static bool LossyEncoding(const ChunkHeader& header) {
    const bool floating = header.data_type == DataType::kFloat || header.data_type == DataType::kDouble;
    const std::optional<Encoding> encoding = EncodingFromByte(header.encoding_byte);
    return floating && encoding.has_value() && (*encoding == Encoding::kSprintz || *encoding == Encoding::kRlbe);
  }

  void VerifyDevice(const std::string& device, const DeviceLocation& location) {
    absl::StatusOr<std::vector<TimeseriesMetadata>> series = reader_.ReadTimeseries(location, &index_reads_);
    if (!series.ok()) {
      Problem(static_cast<uint64_t>(location.measurement_root_offset), device, "", std::string(series.status().message()));
      return;
    }
    const TimeseriesMetadata* time = nullptr;
    for (const TimeseriesMetadata& tsm : *series) {
      if (tsm.is_time_column()) time = &tsm;
    }
    // Timestamps of each time chunk's pages, for the aligned value chunks of the same group.
    std::map<int64_t, std::vector<std::vector<int64_t>>> time_pages;
    if (time != nullptr) VerifySeries(device, *time, nullptr, &time_pages);
    for (const TimeseriesMetadata& tsm : *series) {
      if (!tsm.is_time_column()) VerifySeries(device, tsm, time != nullptr ? &time_pages : nullptr, nullptr);
    }
  }

  // The time chunk a value chunk belongs to: the last one written before it (§5).
  const std::vector<std::vector<int64_t>>* TimePagesFor(
      int64_t offset, const std::map<int64_t, std::vector<std::vector<int64_t>>>& time_pages) {
    auto it = time_pages.lower_bound(offset);
    if (it == time_pages.begin()) return nullptr;
    return &std::prev(it)->second;
  }

  void VerifySeries(const std::string& device, const TimeseriesMetadata& tsm,
                    const std::map<int64_t, std::vector<std::vector<int64_t>>>* aligned_times,
                    std::map<int64_t, std::vector<std::vector<int64_t>>>* time_pages_out) {
    const std::string column = tsm.is_time_column() ? "(time)" : tsm.measurement;
    Observed series_observed;
    for (const ChunkMetadata& meta : tsm.chunks) {
      if (report_.truncated) return;
      const uint64_t offset = static_cast<uint64_t>(meta.offset);
      auto found = chunks_.find(offset);
      if (found == chunks_.end()) {
        Problem(offset, device, column, "the index points at no chunk of the data section");
        continue;
      }
      if (found->second.measurement != tsm.measurement || found->second.type != tsm.data_type) {
        Problem(offset, device, column,
                absl::StrCat("the index says ", tsm.measurement, " ", ToAbsl(DataTypeName(tsm.data_type)),
                             ", the chunk is ", found->second.measurement, " ",
                             ToAbsl(DataTypeName(found->second.type))));
        continue;
      }
      absl::StatusOr<ChunkData> chunk = LoadChunk(reader_, meta.offset, &chunk_reads_);
      if (!chunk.ok()) {
        Problem(offset, device, column, std::string(chunk.status().message()));
        continue;
      }
      ++report_.chunks;
      std::vector<std::vector<int64_t>>* times_out = nullptr;
      if (time_pages_out != nullptr) times_out = &(*time_pages_out)[meta.offset];
      const std::vector<std::vector<int64_t>>* times_in =
          aligned_times != nullptr ? TimePagesFor(meta.offset, *aligned_times) : nullptr;
      Observed chunk_observed;
      if (!VerifyChunk(device, column, meta, *chunk, times_in, times_out, chunk_observed)) continue;
      CompareStatistics(offset, device, column, "chunk", meta.statistics, chunk_observed, LossyEncoding(chunk->header));
      series_observed.Merge(chunk_observed);
    }
    if (!report_.truncated && series_observed.count != tsm.statistics.count) {
      Problem(0, device, column, absl::StrCat("series statistics count ", tsm.statistics.count, ", the chunks hold ",
                                              series_observed.count));
    }
  }

  bool VerifyChunk(const std::string& device, const std::string& column, const ChunkMetadata& meta,
                   const ChunkData& chunk, const std::vector<std::vector<int64_t>>* aligned_times,
                   std::vector<std::vector<int64_t>>* times_out, Observed& observed) {
    const bool time_column = chunk.header.is_time_column();
    const bool aligned_value = aligned_times != nullptr;
    if (aligned_value && !chunk.pages.empty() && aligned_times->size() != chunk.pages.size()) {
      Problem(chunk.header.offset, device, column,
              absl::StrCat(chunk.pages.size(), " pages, its time chunk ", aligned_times->size()));
      return false;
    }
    for (size_t k = 0; k < chunk.pages.size(); ++k) {
      const PageRef& page = chunk.pages[k];
      ++report_.pages;
      std::vector<int64_t> times;
      ColumnVector values;
      absl::Status status;
      if (time_column) {
        status = DecodeTimePage(chunk.header, page, PageRowCount(page, meta.statistics), limits_, scratch_, times);
        values.type = DataType::kVector;  // the time column: every row present, no values to compare
        values.Resize(times.size());
        values.SetAllValid();
      } else if (aligned_value) {
        times = (*aligned_times)[k];
        status = DecodeValuePage(chunk.header, page, static_cast<uint32_t>(times.size()), limits_, scratch_, values);
      } else {
        if (page.header.is_empty()) continue;
        status = DecodeNonAlignedPage(chunk.header, page, PageRowCount(page, meta.statistics), limits_, scratch_,
                                      times, values);
      }
      if (!status.ok()) {
        Problem(page.header.offset, device, column, std::string(status.message()));
        return false;
      }
      Observed page_observed;
      int64_t previous = 0;
      bool first = true;
      for (size_t r = 0; r < times.size(); ++r) {
        if (time_column || !aligned_value) {
          if (!first && times[r] <= previous) {
            Problem(page.header.offset, device, column,
                    absl::StrCat("timestamp ", times[r], " at row ", r, " does not increase (previous ", previous, ")"));
            return false;
          }
          previous = times[r];
          first = false;
        }
        if (!values.IsValid(r)) continue;
        page_observed.AddTime(times[r]);
        AddValue(values, r, page_observed);
      }
      report_.values += page_observed.count;
      if (page.header.statistics.has_value()) {
        CompareStatistics(page.header.offset, device, column, "page", *page.header.statistics, page_observed,
                          LossyEncoding(chunk.header));
      }
      if (times_out != nullptr) times_out->push_back(std::move(times));
      observed.Merge(page_observed);
    }
    return true;
  }

  static bool SameFloat(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

  static void AddValue(const ColumnVector& values, size_t r, Observed& observed) {
    switch (values.type) {
      case DataType::kInt32:
      case DataType::kDate: observed.AddInt(values.int32s[r]); break;
      case DataType::kInt64:
      case DataType::kTimestamp: observed.AddInt(values.int64s[r]); break;
      case DataType::kFloat: observed.AddFloat(values.floats[r]); break;
      case DataType::kDouble: observed.AddFloat(values.doubles[r]); break;
      default: break;
    }
  }

  void CompareStatistics(uint64_t offset, const std::string& device, const std::string& column, const char* what,
                         const Statistics& s, const Observed& o, bool lossy) {
    if (s.count != o.count) {
      Problem(offset, device, column, absl::StrCat(what, " statistics count ", s.count, ", decoded ", o.count));
      return;
    }
    if (o.count == 0) return;
    if (s.start_time != o.start_time || s.end_time != o.end_time) {
      Problem(offset, device, column,
              absl::StrCat(what, " statistics time range [", s.start_time, ", ", s.end_time, "], decoded [",
                           o.start_time, ", ", o.end_time, "]"));
    }
    if (o.has_int && (s.int_min != o.int_min || s.int_max != o.int_max)) {
      Problem(offset, device, column,
              absl::StrCat(what, " statistics min/max ", s.int_min, "/", s.int_max, ", decoded ", o.int_min, "/",
                           o.int_max));
    }
    if (o.has_float && (!SameFloat(s.float_min, o.float_min) || !SameFloat(s.float_max, o.float_max))) {
      std::string text = absl::StrCat(what, " statistics min/max ", s.float_min, "/", s.float_max, ", decoded ",
                                      o.float_min, "/", o.float_max);
      if (lossy) {
        Notice(offset, device, column, absl::StrCat(text, " (lossy encoding: statistics of the values before encoding)"));
      } else {
        Problem(offset, device, column, std::move(text));
      }
    }
  }

  const TsFileReader& reader_;
  ReadLimits limits_;
  size_t max_problems_;
  std::map<uint64_t, ChunkCollector::Found> chunks_;
  // Devices are verified in index order, their chunks mostly in file order: windowed reads.
  ReadAhead index_reads_;
  ReadAhead chunk_reads_;
  PageScratch scratch_;
  VerifyReport report_;
};

}  // namespace

absl::StatusOr<VerifyReport> VerifyFile(const TsFileReader& reader, const ReadLimits& limits, size_t max_problems) {
  Verifier verifier(reader, limits, max_problems);
  return verifier.Run();
}

}  // namespace tsread
