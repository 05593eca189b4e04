#include "tsread/check/salvage.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tsread/encoding/time_stream_count.h"
#include "tsread/format/file_layout.h"
#include "tsread/format/tsfile_metadata.h"
#include "tsread/io/byte_stream.h"
#include "tsread/io/status_macros.h"
#include "tsread/read/chunk_data.h"
#include "tsread/check/data_section_walker.h"

namespace tsread {
namespace {

absl::Status Corrupt(uint64_t offset, std::string_view what) {
  return absl::DataLossError(absl::StrCat("at offset ", offset, ": ", ToAbsl(what)));
}

// A map key that tells every two device ids apart (ToString prints a null segment as "null").
std::string DeviceKey(const DeviceId& id) {
  std::string key(1, id.is_plain() ? 'p' : 's');
  for (const std::optional<std::string>& segment : id.segments()) {
    if (!segment.has_value()) {
      key.append("\x00n", 2);
      continue;
    }
    key.push_back('\x01');
    key.append(absl::StrCat(segment->size(), ":"));
    key.append(*segment);
  }
  return key;
}

// Whether the file has a tail whose TsFileMetadata parses (§1, §7): then it is sealed.
bool HasValidTail(const RandomAccessFile& file) {
  absl::StatusOr<FileLayout> layout = ReadFileLayout(file);
  if (!layout.ok()) return false;
  absl::StatusOr<Buffer> bytes = file.Read(layout->metadata_offset, layout->metadata_size);
  if (!bytes.ok()) return false;
  absl::StatusOr<TsFileMetadata> metadata =
      ReadTsFileMetadata(bytes->bytes(), layout->metadata_offset, layout->version);
  if (!metadata.ok() || metadata->meta_offset < kHeadSize || metadata->meta_offset >= layout->metadata_offset) {
    return false;
  }
  absl::StatusOr<Buffer> separator = file.Read(metadata->meta_offset, 1);
  return separator.ok() && static_cast<uint8_t>(separator->data()[0]) == kSeparatorMarker;
}

// Times of one page must increase strictly (§8; J: the writers reject anything else).
absl::Status CheckIncreasing(const std::vector<int64_t>& times, const PageHeader& page) {
  for (size_t r = 1; r < times.size(); ++r) {
    if (times[r] <= times[r - 1]) {
      return Corrupt(page.offset, absl::StrCat("page timestamp ", times[r], " at row ", r,
                                               " does not increase (previous ", times[r - 1], ")"));
    }
  }
  return absl::OkStatus();
}

// A multi-page chunk's page statistics must describe what the page decodes to: the count and the
// time range of its non-null values (the rest is checked by `tsread verify` on the sealed copy).
absl::Status CheckPageStatistics(const PageHeader& page, const std::vector<int64_t>& times,
                                 const ColumnVector* values) {
  if (!page.statistics.has_value()) return absl::OkStatus();
  uint64_t count = 0;
  int64_t first = 0, last = 0;
  for (size_t r = 0; r < times.size(); ++r) {
    if (values != nullptr && !values->IsValid(r)) continue;
    if (count == 0) first = times[r];
    last = times[r];
    ++count;
  }
  const Statistics& s = *page.statistics;
  if (s.count != count) {
    return Corrupt(page.offset, absl::StrCat("page statistics count ", s.count, ", the page decodes to ", count));
  }
  if (count > 0 && (s.start_time != first || s.end_time != last)) {
    return Corrupt(page.offset, absl::StrCat("page statistics time range [", s.start_time, ", ", s.end_time,
                                             "], the page decodes to [", first, ", ", last, "]"));
  }
  return absl::OkStatus();
}

class SalvageWalker : public DataSectionVisitor {
 public:
  SalvageWalker(const SalvageOptions& options, const KeptGroupFn& on_kept, SalvageReport& report)
      : options_(options), on_kept_(on_kept), report_(report) {}

  bool callback_failed() const { return callback_failed_; }

  absl::Status OnMarker(uint64_t offset, uint8_t marker) override {
    last_marker_ = offset;
    if (marker == kChunkGroupHeaderMarker || marker == kOperationIndexRangeMarker || marker == kSeparatorMarker) {
      // The marker that follows a group is in the file: the group is complete (if it decoded).
      if (group_.has_value()) return FinishGroup(offset);
    } else if (IsChunkMarker(marker) && !group_.has_value()) {
      return Corrupt(offset, "a chunk header outside any chunk group");
    }
    return absl::OkStatus();
  }

  absl::Status OnChunkGroup(uint64_t offset, const DeviceIdView& device) override {
    group_.emplace();
    group_->offset = offset;
    group_->device = device.ToOwned();
    time_pages_.clear();
    decoded_times_.clear();
    pending_time_.reset();
    consumed_end_ = 0;
    return absl::OkStatus();
  }

  absl::Status OnChunk(const ChunkHeader& header) override {
    SalvagedGroup& group = *group_;
    ChunkRole role = ChunkRole::kNonAligned;
    if (header.is_time_column()) {
      if (!group.chunks.empty()) return Corrupt(header.offset, "a time chunk that is not the first chunk of its group");
      role = ChunkRole::kTime;
      group.aligned = true;
    } else if (group.aligned) {
      role = ChunkRole::kValue;
    }
    for (const SalvagedChunk& other : group.chunks) {
      if (other.role != ChunkRole::kTime && other.measurement == header.measurement) {
        return Corrupt(header.offset, absl::StrCat("a second chunk of measurement ", ToAbsl(header.measurement),
                                                   " in one chunk group"));
      }
    }
    TSREAD_RETURN_IF_ERROR(CheckAgainstEarlierGroups(header, role));
    SalvagedChunk& chunk = group.chunks.emplace_back();
    chunk.offset = header.offset;
    chunk.role = role;
    chunk.measurement = std::string(header.measurement);
    chunk.type = header.data_type;
    chunk.marker = header.marker;
    chunk.encoding_byte = header.encoding_byte;
    chunk.compression_byte = header.compression_byte;
    consumed_end_ = header.offset + header.header_size + header.data_size;
    return absl::OkStatus();
  }

  absl::Status OnPage(const ChunkHeader& header, const PageHeader& page, uint64_t body_offset,
                      std::string_view body) override {
    SalvagedChunk& chunk = group_->chunks.back();
    const PageRef ref{page, body};
    const size_t k = chunk.page_count++;
    switch (chunk.role) {
      case ChunkRole::kTime: TSREAD_RETURN_IF_ERROR(OnTimePage(header, ref, chunk)); break;
      case ChunkRole::kValue: TSREAD_RETURN_IF_ERROR(OnValuePage(header, ref, k, chunk)); break;
      case ChunkRole::kNonAligned: TSREAD_RETURN_IF_ERROR(OnNonAlignedPage(header, ref, chunk)); break;
    }
    consumed_end_ = body_offset + body.size();
    return absl::OkStatus();
  }

  absl::Status OnOperationIndexRange(uint64_t offset, int64_t, int64_t) override {
    // Java's recovery keeps a complete record (TsFileSequenceReader.selfCheck); so does salvage.
    report_.data_end = offset + 17;
    return absl::OkStatus();
  }

  absl::Status OnSeparator(uint64_t offset) override {
    report_.stop_offset = offset;
    report_.stop_reason = absl::StrCat("the separator (0x02) at offset ", offset, " ends the data section");
    return absl::OkStatus();
  }

  // Fills in where and why the walk stopped, from the walk's result.
  void Finish(const absl::Status& walk, uint64_t file_size) {
    if (walk.ok()) return;  // OnSeparator said it
    const std::string message(walk.message());
    if (group_.has_value()) {
      report_.stop_offset = group_->offset;
      const std::string group = absl::StrCat("the chunk group at offset ", group_->offset, " (device ",
                                             group_->device.ToString(), ")");
      if (consumed_end_ == file_size && !group_->chunks.empty()) {
        report_.stop_reason = absl::StrCat(group, " is the last thing in the file: nothing confirms that it is "
                                           "complete (more of its chunks may have been lost)");
      } else {
        report_.stop_reason = absl::StrCat(group, " is not kept: ", message);
      }
    } else {
      report_.stop_offset = last_marker_;
      report_.stop_reason = message;
    }
  }

 private:
  // A device keeps one shape across its groups: aligned or not, one type per measurement (§5: the
  // index lists one TimeseriesMetadata per measurement).
  absl::Status CheckAgainstEarlierGroups(const ChunkHeader& header, ChunkRole role) {
    auto found = device_index_.find(DeviceKey(group_->device));
    if (found == device_index_.end()) return absl::OkStatus();
    const SalvagedDevice& device = report_.devices[found->second];
    if (device.aligned != (role != ChunkRole::kNonAligned)) {
      return Corrupt(header.offset, absl::StrCat("device ", group_->device.ToString(), " was ",
                                                 device.aligned ? "aligned" : "non-aligned",
                                                 " in its earlier chunk groups"));
    }
    if (role == ChunkRole::kTime) return absl::OkStatus();
    for (const SalvagedSeries& series : device.series) {
      if (series.name == header.measurement && series.type != header.data_type) {
        return Corrupt(header.offset, absl::StrCat("measurement ", series.name, " is ",
                                                   ToAbsl(DataTypeName(header.data_type)), " here but ",
                                                   ToAbsl(DataTypeName(series.type)), " in an earlier chunk group"));
      }
    }
    return absl::OkStatus();
  }

  absl::Status DecodeTimes(const ChunkHeader& header, const PageRef& page, uint64_t count,
                           std::vector<int64_t>& times) {
    if (count > options_.limits.max_page_rows) {
      return Corrupt(page.header.offset, absl::StrCat(count, " rows in one page, over the limit"));
    }
    TSREAD_RETURN_IF_ERROR(
        DecodeTimePage(header, page, static_cast<uint32_t>(count), options_.limits, scratch_, times));
    TSREAD_RETURN_IF_ERROR(CheckIncreasing(times, page.header));
    return CheckPageStatistics(page.header, times, nullptr);
  }

  absl::StatusOr<Encoding> EncodingOf(const ChunkHeader& header) {
    std::optional<Encoding> encoding = EncodingFromByte(header.encoding_byte);
    if (!encoding.has_value()) return Corrupt(header.offset, absl::StrCat("unknown encoding ", header.encoding_byte));
    return *encoding;
  }

  absl::Status OnTimePage(const ChunkHeader& header, const PageRef& page, SalvagedChunk& chunk) {
    if (page.header.is_empty()) return Corrupt(page.header.offset, "an empty page in a time chunk");
    std::optional<uint64_t> count;
    if (page.header.statistics.has_value()) {
      count = page.header.statistics->count;
    } else {
      TSREAD_ASSIGN_OR_RETURN(Encoding encoding, EncodingOf(header));
      TSREAD_ASSIGN_OR_RETURN(std::string_view stream, UncompressPage(header, page, options_.limits, scratch_));
      count = TimeStreamCount(encoding, stream, options_.limits.max_page_rows);
    }
    if (options_.keep_values) chunk.pages.emplace_back();
    if (!count.has_value()) {
      // The stream does not say: the value pages' stored row count will (§8.3).
      if (!time_pages_.empty()) return Corrupt(page.header.offset, "a time chunk with several pages but no statistics");
      pending_time_.emplace(PendingTimePage{header, std::string(page.body), page.header});
      pending_time_->chunk.measurement = {};  // the view dies with the walk's call
      time_pages_.emplace_back();
      return absl::OkStatus();
    }
    std::vector<int64_t> times;
    TSREAD_RETURN_IF_ERROR(DecodeTimes(header, page, *count, times));
    AddTimePage(std::move(times), chunk, time_pages_.size());
    time_pages_.emplace_back(time_pages_.size());
    return absl::OkStatus();
  }

  // Records a decoded time page as page `k` of the group's time chunk.
  void AddTimePage(std::vector<int64_t> times, SalvagedChunk& time_chunk, size_t k) {
    time_chunk.points += times.size();
    group_->rows += times.size();
    if (options_.keep_values) time_chunk.pages[k].times = times;
    decoded_times_.resize(std::max(decoded_times_.size(), k + 1));
    decoded_times_[k] = std::move(times);
  }

  // Decodes the pending single time page with `rows` rows, which a value page states.
  absl::Status ResolvePendingTime(uint32_t rows) {
    const PendingTimePage pending = std::move(*pending_time_);
    pending_time_.reset();
    const PageRef page{pending.page, pending.body};
    std::vector<int64_t> times;
    TSREAD_RETURN_IF_ERROR(DecodeTimes(pending.chunk, page, rows, times));
    AddTimePage(std::move(times), group_->chunks.front(), 0);
    time_pages_[0] = 0;
    return absl::OkStatus();
  }

  absl::Status OnValuePage(const ChunkHeader& header, const PageRef& page, size_t k, SalvagedChunk& chunk) {
    if (k >= time_pages_.size()) {
      return Corrupt(page.header.offset, absl::StrCat("value chunk ", ToAbsl(header.measurement),
                                                      " has more pages than its time chunk (", time_pages_.size(),
                                                      ")"));
    }
    if (!time_pages_[k].has_value()) {
      if (page.header.is_empty()) {
        return Corrupt(page.header.offset, "an empty value page before any page states how many rows the time "
                                           "page holds");
      }
      TSREAD_ASSIGN_OR_RETURN(std::string_view bytes, UncompressPage(header, page, options_.limits, scratch_));
      ByteStream in(bytes, 0);
      TSREAD_ASSIGN_OR_RETURN(int32_t rows, in.ReadI32("value page row count"));
      if (rows < 0) return Corrupt(page.header.offset, absl::StrCat("value page row count ", rows));
      TSREAD_RETURN_IF_ERROR(ResolvePendingTime(static_cast<uint32_t>(rows)));
    }
    const std::vector<int64_t>& times = decoded_times_[*time_pages_[k]];
    ColumnVector values;
    TSREAD_RETURN_IF_ERROR(
        DecodeValuePage(header, page, static_cast<uint32_t>(times.size()), options_.limits, scratch_, values));
    TSREAD_RETURN_IF_ERROR(CheckPageStatistics(page.header, times, &values));
    chunk.points += values.size() - values.null_count;
    if (options_.keep_values) chunk.pages.push_back(SalvagedPage{times, std::move(values)});
    return absl::OkStatus();
  }

  absl::Status OnNonAlignedPage(const ChunkHeader& header, const PageRef& page, SalvagedChunk& chunk) {
    if (page.header.is_empty()) return absl::OkStatus();  // no points (§8.3 form; skipped as readers do)
    uint64_t count = 0;
    if (page.header.statistics.has_value()) {
      count = page.header.statistics->count;
    } else {
      // The time stream's encoding is not stored: Java's default TS_2DIFF (§3.1, §8.1).
      TSREAD_ASSIGN_OR_RETURN(std::string_view bytes, UncompressPage(header, page, options_.limits, scratch_));
      ByteStream in(bytes, 0);
      TSREAD_ASSIGN_OR_RETURN(uint32_t time_length, in.ReadUVarSize("time stream length"));
      TSREAD_ASSIGN_OR_RETURN(std::string_view time_stream, in.ReadBytes(time_length, "time stream"));
      std::optional<uint64_t> n = TimeStreamCount(Encoding::kTs2Diff, time_stream, options_.limits.max_page_rows);
      if (!n.has_value()) return Corrupt(page.header.offset, "a time stream that does not decode as TS_2DIFF");
      count = *n;
    }
    if (count > options_.limits.max_page_rows) {
      return Corrupt(page.header.offset, absl::StrCat(count, " points in one page, over the limit"));
    }
    SalvagedPage decoded;
    TSREAD_RETURN_IF_ERROR(DecodeNonAlignedPage(header, page, static_cast<uint32_t>(count), options_.limits, scratch_,
                                                decoded.times, decoded.values));
    TSREAD_RETURN_IF_ERROR(CheckIncreasing(decoded.times, page.header));
    TSREAD_RETURN_IF_ERROR(CheckPageStatistics(page.header, decoded.times, nullptr));
    chunk.points += decoded.times.size();
    if (options_.keep_values) chunk.pages.push_back(std::move(decoded));
    return absl::OkStatus();
  }

  // The group's following marker is at `next`: check that it decoded whole, then keep it.
  absl::Status FinishGroup(uint64_t next) {
    SalvagedGroup& group = *group_;
    if (pending_time_.has_value()) {
      return Corrupt(pending_time_->page.offset,
                     absl::StrCat("the single-page time chunk's encoding (", PendingEncodingName(), ") does not "
                                  "store its row count and no value page of the group states it"));
    }
    for (size_t c = 1; group.aligned && c < group.chunks.size(); ++c) {
      const SalvagedChunk& chunk = group.chunks[c];
      const size_t pages = chunk.page_count;
      if (pages != 0 && pages != time_pages_.size()) {
        return Corrupt(chunk.offset, absl::StrCat("value chunk ", chunk.measurement, " has ", pages,
                                                  " pages, its time chunk ", time_pages_.size()));
      }
    }
    group.end = next;
    if (on_kept_) {
      if (absl::Status s = on_kept_(group); !s.ok()) {
        callback_failed_ = true;
        return s;
      }
    }
    Record(group);
    report_.data_end = next;
    group_.reset();
    decoded_times_.clear();
    return absl::OkStatus();
  }

  std::string PendingEncodingName() const {
    std::optional<Encoding> encoding = EncodingFromByte(pending_time_->chunk.encoding_byte);
    return encoding.has_value() ? std::string(EncodingName(*encoding)) : "unknown";
  }

  // Adds a kept group to the report's devices and totals.
  void Record(const SalvagedGroup& group) {
    const std::string key = DeviceKey(group.device);
    auto [it, inserted] = device_index_.emplace(key, report_.devices.size());
    if (inserted) {
      SalvagedDevice& device = report_.devices.emplace_back();
      device.id = group.device;
      device.aligned = group.aligned;
    }
    SalvagedDevice& device = report_.devices[it->second];
    ++device.groups;
    device.rows += group.rows;
    report_.rows += group.rows;
    ++report_.groups_kept;
    for (const SalvagedChunk& chunk : group.chunks) {
      if (chunk.role == ChunkRole::kTime) continue;
      SalvagedSeries* series = nullptr;
      for (SalvagedSeries& s : device.series) {
        if (s.name == chunk.measurement) series = &s;
      }
      if (series == nullptr) {
        series = &device.series.emplace_back();
        series->name = chunk.measurement;
        series->type = chunk.type;
      }
      series->points += chunk.points;
      report_.points += chunk.points;
    }
  }

  struct PendingTimePage {
    ChunkHeader chunk;
    std::string body;
    PageHeader page;
  };

  const SalvageOptions& options_;
  const KeptGroupFn& on_kept_;
  SalvageReport& report_;
  std::map<std::string, size_t> device_index_;  // DeviceKey -> report_.devices
  std::optional<SalvagedGroup> group_;
  // Per page of the group's time chunk: where its decoded times are (nullopt while pending).
  std::vector<std::optional<size_t>> time_pages_;
  std::vector<std::vector<int64_t>> decoded_times_;
  std::optional<PendingTimePage> pending_time_;
  uint64_t last_marker_ = kHeadSize;
  uint64_t consumed_end_ = 0;
  bool callback_failed_ = false;
  PageScratch scratch_;
};

}  // namespace

absl::StatusOr<SalvageReport> SalvageDataSection(const RandomAccessFile& file, const SalvageOptions& options,
                                                 const KeptGroupFn& on_kept) {
  SalvageReport report;
  report.file_size = file.size();
  if (report.file_size < kHeadSize) {
    return absl::DataLossError(absl::StrCat(file.name(), " is ", report.file_size,
                                            " bytes, too short for a TsFile head (", kHeadSize, ")"));
  }
  TSREAD_ASSIGN_OR_RETURN(Buffer head, file.Read(0, kHeadSize));
  if (head.bytes().substr(0, kMagic.size()) != kMagic) {
    return absl::DataLossError("bad head magic at offset 0: expected \"TsFile\"");
  }
  report.version = static_cast<uint8_t>(head.data()[6]);
  if (report.version != kVersion3 && report.version != kVersion4) {
    return absl::UnimplementedError(absl::StrCat("unsupported TsFile version byte ", report.version,
                                                 " at offset 6: tsread reads versions 3 and 4"));
  }
  report.sealed = HasValidTail(file);
  SalvageWalker walker(options, on_kept, report);
  DataRange range;
  range.version = report.version;
  range.end = report.file_size;
  const absl::Status walk = WalkDataSection(file, range, walker);
  if (walker.callback_failed()) return walk;
  switch (walk.code()) {
    case absl::StatusCode::kNotFound:
    case absl::StatusCode::kPermissionDenied:
    case absl::StatusCode::kUnavailable: return walk;  // I/O, not the file's content
    default: break;
  }
  walker.Finish(walk, report.file_size);
  return report;
}

}  // namespace tsread
