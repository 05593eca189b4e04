// VerifyFile (file_verifier.h), as its steps: collect the chunks the data section holds (format
// reference §2.4), then for each device of the index (§5, §6) each series' chunks: check the
// chunk's header against its ChunkMetadata, decode its pages (§8.1-§8.3) and check their time
// order, and compare what they hold (observed_values.h) with the page, chunk and series
// statistics (§4). With a memory budget (WalkOptions::memory_budget) step 2's reads are held to it
// too: each indexed chunk while it is verified, and the time pages' timestamps a device's aligned
// value chunks are checked against.
#include "tsread/check/file_verifier.h"

#include <cmath>
#include <iterator>
#include <map>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tsread/check/chunk_collector.h"
#include "tsread/check/data_section_walker.h"
#include "tsread/check/observed_values.h"
#include "tsread/common/utf8.h"
#include "tsread/io/status_macros.h"
#include "tsread/read/chunk_data.h"

namespace tsread {
namespace {

using check_internal::ChunkCollector;
using check_internal::Observed;

// Each page's timestamps of one time chunk, and those of every time chunk by its offset.
using PageTimes = std::vector<std::vector<int64_t>>;
using TimePagesByChunk = std::map<int64_t, PageTimes>;

bool SameFloat(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

// Whether the chunk's encoding is lossy for its type: its statistics may describe the values
// before encoding.
bool LossyEncoding(const ChunkHeader& header) {
  const bool floating = header.data_type == DataType::kFloat || header.data_type == DataType::kDouble;
  const std::optional<Encoding> encoding = EncodingFromByte(header.encoding_byte);
  return floating && encoding.has_value() && (*encoding == Encoding::kSprintz || *encoding == Encoding::kRlbe);
}

// The time chunk a value chunk belongs to: the last one written before it (§5).
const PageTimes* TimePagesFor(int64_t offset, const TimePagesByChunk& time_pages) {
  auto it = time_pages.lower_bound(offset);
  if (it == time_pages.begin()) return nullptr;
  return &std::prev(it)->second;
}

class Verifier {
 public:
  Verifier(const TsFileReader& reader, const ReadLimits& limits, size_t max_problems, const WalkOptions& walk)
      : reader_(reader), limits_(limits), max_problems_(max_problems), walk_(walk) {
    memory_.Attach(walk.memory_budget);
  }

  absl::StatusOr<VerifyReport> Run() {
    TSREAD_RETURN_IF_ERROR(CollectChunks());
    for (const TableIndex& index : reader_.metadata().table_index) {
      TSREAD_RETURN_IF_ERROR(VerifyTable(index));
      TSREAD_RETURN_IF_ERROR(over_budget_);
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

  // Step 1: where the data section's chunks are, by a walk that does not use the index. A chunk
  // over the memory budget stops verification: the file is not at fault.
  absl::Status CollectChunks() {
    ChunkCollector collector;
    if (absl::Status s = WalkDataSection(reader_, collector, walk_); !s.ok()) {
      if (s.code() == absl::StatusCode::kResourceExhausted) return s;
      Problem(0, "", "", absl::StrCat("data section: ", s.message()));
    }
    chunks_ = std::move(collector.chunks);
    return absl::OkStatus();
  }

  // Whether step 2 goes on: the report has room and the budget held.
  bool Going() const { return !report_.truncated && over_budget_.ok(); }

  // Accounts `bytes` more in the budget (none: nothing to do). A shared budget's other holders may
  // have the rest: then it waits for them. False (over_budget_ says why) when `bytes` and what is
  // held already exceed the budget by themselves: holding `what` takes them at once.
  bool Hold(uint64_t bytes, const std::string& what) {
    if (!memory_.enabled()) return true;
    if (bytes > memory_.limit() || memory_.used() > memory_.limit() - bytes) {
      over_budget_ = absl::ResourceExhaustedError(absl::StrCat(reader_.file().name(), ": holding ", what, " takes ",
                                                               memory_.used() + bytes, " bytes at once, more than the ",
                                                               "memory budget of ", memory_.limit(), " bytes"));
      return false;
    }
    if (IsMemoryBusy(memory_.Grow(bytes))) {
      const uint64_t total = memory_.wanted();
      memory_.WaitFor(total);
      return memory_.Grow(total).ok();
    }
    return true;
  }

  // Loads an indexed chunk (its bytes held in the budget until Shrink). The chunk fitted the walk's
  // window, but what the device's time pages hold comes on top; a load error is the chunk's.
  absl::StatusOr<ChunkData> LoadHeldChunk(const ChunkMetadata& meta) {
    absl::StatusOr<ChunkData> chunk = LoadChunk(reader_, meta.offset, &chunk_reads_);
    if (!chunk.ok()) return chunk;
    if (!Hold(chunk->bytes.size(), absl::StrCat("the chunk at offset ", meta.offset))) return over_budget_;
    return chunk;
  }

  // Step 2: every device of one table's index, until the report is full.
  absl::Status VerifyTable(const TableIndex& index) {
    TSREAD_ASSIGN_OR_RETURN(DeviceIterator devices, reader_.Devices(index.name));
    while (Going()) {
      absl::StatusOr<const DeviceEntry*> device = devices.Next();
      if (!device.ok()) {
        Problem(0, index.name, "", absl::StrCat("device index: ", device.status().message()));
        break;
      }
      if (*device == nullptr) break;
      VerifyDevice((*device)->id.ToString(), (*device)->location);
    }
    return absl::OkStatus();
  }

  // A device's series, the time column first: its pages' timestamps are the rows of the value
  // columns' pages.
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
    TimePagesByChunk time_pages;
    if (time != nullptr) VerifySeries(device, *time, nullptr, &time_pages);
    for (const TimeseriesMetadata& tsm : *series) {
      if (!tsm.is_time_column()) VerifySeries(device, tsm, time != nullptr ? &time_pages : nullptr, nullptr);
    }
    memory_.ReleaseAll();  // the time pages' timestamps
  }

  // One series: each of its chunks, then the series statistics' count.
  void VerifySeries(const std::string& device, const TimeseriesMetadata& tsm, const TimePagesByChunk* aligned_times,
                    TimePagesByChunk* time_pages_out) {
    const std::string column = tsm.is_time_column() ? "(time)" : tsm.measurement;
    Observed series_observed;
    for (const ChunkMetadata& meta : tsm.chunks) {
      if (!Going()) return;
      if (!ChunkMatchesIndex(device, column, tsm, meta)) continue;
      VerifyIndexedChunk(device, column, meta, aligned_times, time_pages_out, series_observed);
    }
    if (Going() && series_observed.count != tsm.statistics.count) {
      Problem(0, device, column, absl::StrCat("series statistics count ", tsm.statistics.count, ", the chunks hold ",
                                              series_observed.count));
    }
  }

  // Whether the walk found a chunk at the ChunkMetadata's offset, of the series' measurement and
  // type.
  bool ChunkMatchesIndex(const std::string& device, const std::string& column, const TimeseriesMetadata& tsm,
                         const ChunkMetadata& meta) {
    const uint64_t offset = static_cast<uint64_t>(meta.offset);
    auto found = chunks_.find(offset);
    if (found == chunks_.end()) {
      Problem(offset, device, column, "the index points at no chunk of the data section");
      return false;
    }
    if (found->second.measurement != tsm.measurement || found->second.type != tsm.data_type) {
      Problem(offset, device, column,
              absl::StrCat("the index says ", tsm.measurement, " ", ToAbsl(DataTypeName(tsm.data_type)),
                           ", the chunk is ", found->second.measurement, " ",
                           ToAbsl(DataTypeName(found->second.type))));
      return false;
    }
    return true;
  }

  // Loads the chunk a ChunkMetadata points at, verifies its pages and compares what they hold
  // with the chunk statistics; adds it to `series_observed`.
  void VerifyIndexedChunk(const std::string& device, const std::string& column, const ChunkMetadata& meta,
                          const TimePagesByChunk* aligned_times, TimePagesByChunk* time_pages_out,
                          Observed& series_observed) {
    const uint64_t offset = static_cast<uint64_t>(meta.offset);
    absl::StatusOr<ChunkData> chunk = LoadHeldChunk(meta);
    if (!chunk.ok()) {
      if (over_budget_.ok()) Problem(offset, device, column, std::string(chunk.status().message()));
      return;
    }
    // Given back once verified (the timestamps it adds to time_pages_out stay held until the device is done).
    struct Unhold {
      MemoryHold& memory;
      uint64_t bytes;
      ~Unhold() { memory.Shrink(bytes); }
    } unhold{memory_, memory_.enabled() ? chunk->bytes.size() : 0};
    ++report_.chunks;
    PageTimes* times_out = nullptr;
    if (time_pages_out != nullptr) times_out = &(*time_pages_out)[meta.offset];
    const PageTimes* times_in = aligned_times != nullptr ? TimePagesFor(meta.offset, *aligned_times) : nullptr;
    Observed chunk_observed;
    if (!VerifyChunk(device, column, meta, *chunk, times_in, times_out, chunk_observed)) return;
    CompareStatistics(offset, device, column, "chunk", meta.statistics, chunk_observed, LossyEncoding(chunk->header));
    series_observed.Merge(chunk_observed);
  }

  // Decodes and checks each page of a chunk (an aligned value chunk: as many pages as its time
  // chunk, `aligned_times`); false when one does not decode or is out of order.
  bool VerifyChunk(const std::string& device, const std::string& column, const ChunkMetadata& meta,
                   const ChunkData& chunk, const PageTimes* aligned_times, PageTimes* times_out, Observed& observed) {
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
      if (!time_column && !aligned_value && page.header.is_empty()) continue;
      std::vector<int64_t> times;
      ColumnVector values;
      if (absl::Status status = DecodePage(chunk, meta, k, aligned_times, times, values); !status.ok()) {
        Problem(page.header.offset, device, column, std::string(status.message()));
        return false;
      }
      Observed page_observed;
      if (!ObservePage(device, column, page, times, values, time_column || !aligned_value, page_observed)) {
        return false;
      }
      report_.values += page_observed.count;
      if (page.header.statistics.has_value()) {
        CompareStatistics(page.header.offset, device, column, "page", *page.header.statistics, page_observed,
                          LossyEncoding(chunk.header));
      }
      if (times_out != nullptr) {
        if (!Hold(times.size() * sizeof(int64_t), absl::StrCat("the timestamps of device ", device, "'s time pages"))) {
          return false;
        }
        times_out->push_back(std::move(times));
      }
      observed.Merge(page_observed);
    }
    return true;
  }

  // Decodes page `k` of the chunk into its rows' times and values: a time page, an aligned value
  // page (the rows of its time page, `aligned_times`) or a non-aligned page.
  absl::Status DecodePage(const ChunkData& chunk, const ChunkMetadata& meta, size_t k, const PageTimes* aligned_times,
                          std::vector<int64_t>& times, ColumnVector& values) {
    const PageRef& page = chunk.pages[k];
    if (chunk.header.is_time_column()) {
      const absl::Status status =
          DecodeTimePage(chunk.header, page, PageRowCount(page, meta.statistics), limits_, scratch_, times);
      values.type = DataType::kVector;  // the time column: every row present, no values to compare
      values.Resize(times.size());
      values.SetAllValid();
      return status;
    }
    if (aligned_times != nullptr) {
      times = (*aligned_times)[k];
      return DecodeValuePage(chunk.header, page, static_cast<uint32_t>(times.size()), limits_, scratch_, values);
    }
    return DecodeNonAlignedPage(chunk.header, page, PageRowCount(page, meta.statistics), limits_, scratch_, times,
                                values);
  }

  // Adds a decoded page's non-null rows to `observed`; with `check_order` (the page's own
  // timestamps) they must increase. False when they do not.
  bool ObservePage(const std::string& device, const std::string& column, const PageRef& page,
                   const std::vector<int64_t>& times, const ColumnVector& values, bool check_order,
                   Observed& observed) {
    int64_t previous = 0;
    bool first = true;
    for (size_t r = 0; r < times.size(); ++r) {
      if (check_order) {
        if (!first && times[r] <= previous) {
          Problem(page.header.offset, device, column,
                  absl::StrCat("timestamp ", times[r], " at row ", r, " does not increase (previous ", previous, ")"));
          return false;
        }
        previous = times[r];
        first = false;
      }
      if (!values.IsValid(r)) continue;
      observed.AddTime(times[r]);
      observed.AddValue(values, r);
    }
    NoticeInvalidUtf8(device, column, page, times, values);
    return true;
  }

  // A TEXT/STRING value that is not UTF-8 does not make the file corrupt (TsFile stores bytes),
  // but SQL and Python refuse it as a string: noticed once per page, with its row and time.
  void NoticeInvalidUtf8(const std::string& device, const std::string& column, const PageRef& page,
                         const std::vector<int64_t>& times, const ColumnVector& values) {
    if (values.type != DataType::kText && values.type != DataType::kString) return;
    for (size_t r = 0; r < values.size() && r < times.size(); ++r) {
      if (!values.IsValid(r) || IsValidUtf8(values.binary(r))) continue;
      Notice(page.header.offset, device, column,
             absl::StrCat(ToAbsl(DataTypeName(values.type)), " value at row ", r, " of the page (time ", times[r],
                          ") is not valid UTF-8: SQL and Python refuse it as a string (read it as bytes: ",
                          "binary_as_blob := true in SQL, invalid_utf8='bytes' in Python)"));
      return;
    }
  }

  // Compares what a page or chunk holds with its statistics: the count, then the time range and
  // min/max. A FLOAT/DOUBLE min/max of a lossy encoding that differs is a notice, not a problem.
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
  WalkOptions walk_;
  std::map<uint64_t, ChunkCollector::Found> chunks_;
  // Devices are verified in index order, their chunks mostly in file order: windowed reads.
  ReadAhead index_reads_;
  ReadAhead chunk_reads_;
  PageScratch scratch_;
  VerifyReport report_;
  MemoryHold memory_;          // step 2's share of walk_.memory_budget
  absl::Status over_budget_;   // ResourceExhausted once step 2 needed more than the budget
};

}  // namespace

absl::StatusOr<VerifyReport> VerifyFile(const TsFileReader& reader, const ReadLimits& limits, size_t max_problems,
                                        const WalkOptions& walk) {
  Verifier verifier(reader, limits, max_problems, walk);
  return verifier.Run();
}

}  // namespace tsread
