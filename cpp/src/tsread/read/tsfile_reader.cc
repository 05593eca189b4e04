#include "tsread/read/tsfile_reader.h"

#include <algorithm>
#include <mutex>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tsread/format/chunk_header.h"
#include "tsread/io/byte_stream.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

// Index of the entry whose range may hold `key`: the last entry with key <= target ("non-exact"
// search, §6.4), or 0 when the target sorts before every entry.
template <typename Entry, typename Compare>
size_t FloorEntry(const std::vector<Entry>& entries, Compare compare_entry_to_target) {
  size_t lo = 0, hi = entries.size();  // invariant: answer in [lo, hi)
  while (hi - lo > 1) {
    const size_t mid = lo + (hi - lo) / 2;
    if (compare_entry_to_target(entries[mid]) <= 0) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

int CompareMeasurement(std::string_view a, std::string_view b) { return a < b ? -1 : (a > b ? 1 : 0); }

// A file with a valid head (magic, version 3 or 4) whose tail is missing or does not parse is
// unsealed: its writer never finished it (or the tail was damaged). Its data section may still be
// recovered: say so (docs/robustness.md, "Unsealed files").
absl::Status WithUnsealedHint(const absl::Status& status, const RandomAccessFile& file) {
  if (status.code() != absl::StatusCode::kDataLoss || file.size() < kHeadSize) return status;
  absl::StatusOr<Buffer> head = file.Read(0, kHeadSize);
  if (!head.ok() || head->bytes().substr(0, kMagic.size()) != kMagic) return status;
  const uint8_t version = static_cast<uint8_t>(head->data()[6]);
  if (version != kVersion3 && version != kVersion4) return status;
  return absl::DataLossError(absl::StrCat(status.message(),
                                          " — the file is unsealed (no valid tail); `tsread salvage` "
                                          "(tsread::SalvageDataSection) recovers its complete chunk groups"));
}

// Parses the series of a run of TimeseriesMetadata (§6.4) that `wanted` accepts (null: all), each
// into the object slot() gives, then calls filled(); the others are skipped by their sizes.
template <typename Slot, typename Filled>
absl::Status ParseSeriesRun(ByteStream& in, uint64_t data_end, const TsFileReader::MeasurementFilter* wanted,
                            const Slot& slot, const Filled& filled) {
  while (!in.empty()) {
    TSREAD_ASSIGN_OR_RETURN(TimeseriesPrefix prefix, ReadTimeseriesPrefix(in));
    if (wanted != nullptr && !(*wanted)(prefix.measurement)) {
      TSREAD_RETURN_IF_ERROR(SkipTimeseriesRest(in, prefix));
      continue;
    }
    TSREAD_RETURN_IF_ERROR(ReadTimeseriesRest(in, data_end, prefix, slot()));
    TSREAD_RETURN_IF_ERROR(filled());
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<TsFileReader>> TsFileReader::Open(const std::string& path, FileAccess access) {
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, OpenFile(path, access));
  return Open(std::move(file));
}

absl::StatusOr<std::unique_ptr<TsFileReader>> TsFileReader::Open(std::unique_ptr<RandomAccessFile> file) {
  struct Tail {
    FileLayout layout;
    Buffer bytes;
    TsFileMetadata metadata;
  };
  auto read_tail = [](const RandomAccessFile& f) -> absl::StatusOr<Tail> {
    Tail tail;
    TSREAD_ASSIGN_OR_RETURN(tail.layout, ReadFileLayout(f));
    TSREAD_ASSIGN_OR_RETURN(tail.bytes, f.Read(tail.layout.metadata_offset, tail.layout.metadata_size));
    TSREAD_ASSIGN_OR_RETURN(tail.metadata,
                            ReadTsFileMetadata(tail.bytes.bytes(), tail.layout.metadata_offset, tail.layout.version));
    TSREAD_ASSIGN_OR_RETURN(Buffer separator, f.Read(tail.metadata.meta_offset, 1));
    if (static_cast<uint8_t>(separator.data()[0]) != kSeparatorMarker) {
      return absl::DataLossError(absl::StrCat("corrupt meta offset: byte at offset ", tail.metadata.meta_offset,
                                              " is 0x", absl::Hex(static_cast<uint8_t>(separator.data()[0])),
                                              ", expected the separator 0x02"));
    }
    return tail;
  };
  absl::StatusOr<Tail> tail = read_tail(*file);
  if (!tail.ok()) return WithUnsealedHint(tail.status(), *file);
  return std::unique_ptr<TsFileReader>(
      new TsFileReader(std::move(file), tail->layout, std::move(tail->bytes), std::move(tail->metadata)));
}

std::vector<const TableSchema*> TsFileReader::Tables() const {
  std::vector<const TableSchema*> tables;
  for (const TableSchema& schema : metadata_.table_schemas) tables.push_back(&schema);
  std::sort(tables.begin(), tables.end(), [](const TableSchema* a, const TableSchema* b) { return a->name < b->name; });
  return tables;
}

const TableSchema* TsFileReader::FindTable(std::string_view name) const { return metadata_.FindSchema(name); }

absl::Status TsFileReader::ForEachDevice(std::string_view index_name,
                                         const std::function<absl::Status(const DeviceEntry&)>& fn) const {
  TSREAD_ASSIGN_OR_RETURN(DeviceIterator devices, Devices(index_name));
  while (true) {
    TSREAD_ASSIGN_OR_RETURN(const DeviceEntry* device, devices.Next());
    if (device == nullptr) return absl::OkStatus();
    TSREAD_RETURN_IF_ERROR(fn(*device));
  }
}

std::vector<std::string> TsFileReader::TreeIndexNames() const {
  std::vector<std::string> names;
  for (const TableIndex& index : metadata_.table_index) {
    if (metadata_.FindSchema(index.name) == nullptr) names.push_back(index.name);
  }
  return names;
}

absl::StatusOr<Buffer> TsFileReader::ReadRange(int64_t offset, int64_t end, const char* what,
                                               ReadAhead* ahead) const {
  // Index ranges lie strictly inside the index area (§13 item 3).
  if (offset <= static_cast<int64_t>(metadata_.meta_offset) || end <= offset ||
      end > static_cast<int64_t>(layout_.metadata_offset)) {
    return absl::DataLossError(absl::StrCat("corrupt index: ", what, " range [", offset, ", ", end,
                                            ") is outside the index area (", metadata_.meta_offset, ", ",
                                            layout_.metadata_offset, ")"));
  }
  const uint64_t at = static_cast<uint64_t>(offset);
  const uint64_t length = static_cast<uint64_t>(end - offset);
  if (ahead != nullptr) return ahead->Read(*file_, at, length, layout_.metadata_offset);
  return file_->Read(at, length);
}

absl::Status TsFileReader::ReadDeviceNode(int64_t offset, int64_t end, Buffer& bytes, DeviceIndexNode& node) const {
  TSREAD_ASSIGN_OR_RETURN(bytes, ReadRange(offset, end, "device index node"));
  ByteStream in(bytes.bytes(), static_cast<uint64_t>(offset));
  // Writers emit children before their parents: every child lies below this node.
  return ReadDeviceIndexNode(in, version(), static_cast<int64_t>(metadata_.meta_offset) + 1, offset, node);
}

absl::Status TsFileReader::ReadMeasurementNode(int64_t offset, int64_t end, Buffer& bytes,
                                               MeasurementIndexNode& node, ReadAhead* ahead) const {
  TSREAD_ASSIGN_OR_RETURN(bytes, ReadRange(offset, end, "measurement index node", ahead));
  ByteStream in(bytes.bytes(), static_cast<uint64_t>(offset));
  return ReadMeasurementIndexNode(in, static_cast<int64_t>(metadata_.meta_offset) + 1, offset, node);
}

absl::StatusOr<DeviceIterator> TsFileReader::Devices(std::string_view index_name) const {
  const TableIndex* index = metadata_.FindIndex(index_name);
  if (index == nullptr) {
    return absl::NotFoundError(absl::StrCat("no device index named \"", ToAbsl(index_name), "\""));
  }
  return DeviceIterator(this, index->root);
}

absl::StatusOr<std::shared_ptr<const TsFileReader::CachedDeviceNode>> TsFileReader::CachedDeviceNodeAt(
    int64_t offset, int64_t end) const {
  {
    std::shared_lock lock(cache_mutex_);
    auto it = device_node_cache_.find(offset);
    if (it != device_node_cache_.end()) return it->second;
  }
  auto parsed = std::make_shared<CachedDeviceNode>();
  TSREAD_RETURN_IF_ERROR(ReadDeviceNode(offset, end, parsed->bytes, parsed->node));
  std::unique_lock lock(cache_mutex_);
  const uint64_t size = static_cast<uint64_t>(end - offset);
  if (device_node_cache_bytes_ + size <= kDeviceNodeCacheBytes && device_node_cache_.emplace(offset, parsed).second) {
    device_node_cache_bytes_ += size;
  }
  return std::shared_ptr<const CachedDeviceNode>(std::move(parsed));
}

std::optional<TsFileReader::ChunkValueFacts> TsFileReader::KnownChunkFacts(int64_t offset) const {
  std::shared_lock lock(chunk_facts_mutex_);
  auto it = chunk_facts_.find(offset);
  if (it == chunk_facts_.end()) return std::nullopt;
  return it->second;
}

void TsFileReader::RememberChunkFacts(int64_t offset, ChunkValueFacts facts) const {
  std::unique_lock lock(chunk_facts_mutex_);
  if (chunk_facts_.size() < kMaxKnownChunks) chunk_facts_.emplace(offset, facts);
}

absl::StatusOr<std::optional<DeviceLocation>> TsFileReader::FindDevice(std::string_view index_name,
                                                                       const DeviceId& device) const {
  const TableIndex* index = metadata_.FindIndex(index_name);
  if (index == nullptr) return std::optional<DeviceLocation>();
  const DeviceIndexNode* node = &index->root;
  std::shared_ptr<const CachedDeviceNode> child;  // keeps `node` alive below the root
  for (int depth = 0; depth < kMaxIndexDepth; ++depth) {
    const size_t i = FloorEntry(node->entries, [&](const DeviceIndexEntry& e) { return CompareDeviceIds(e.device, device); });
    if (node->type == MetaIndexNodeType::kLeafDevice) {
      if (CompareDeviceIds(node->entries[i].device, device) != 0) return std::optional<DeviceLocation>();
      return std::optional<DeviceLocation>(DeviceLocation{node->entries[i].offset, node->end_of(i)});
    }
    TSREAD_ASSIGN_OR_RETURN(child, CachedDeviceNodeAt(node->entries[i].offset, node->end_of(i)));
    node = &child->node;
  }
  return absl::DataLossError(absl::StrCat("corrupt device index of \"", ToAbsl(index_name), "\": deeper than ",
                                          kMaxIndexDepth, " levels"));
}

absl::Status TsFileReader::ForEachSeriesRun(int64_t offset, int64_t end, int depth,
                                            absl::FunctionRef<absl::Status(ByteStream&)> run,
                                            ReadAhead* ahead) const {
  if (depth >= kMaxIndexDepth) {
    return absl::DataLossError(absl::StrCat("corrupt measurement index at offset ", offset, ": deeper than ",
                                            kMaxIndexDepth, " levels"));
  }
  Buffer bytes;
  MeasurementIndexNode node;
  TSREAD_RETURN_IF_ERROR(ReadMeasurementNode(offset, end, bytes, node, ahead));
  for (size_t i = 0; i < node.entries.size(); ++i) {
    if (node.type == MetaIndexNodeType::kInternalMeasurement) {
      TSREAD_RETURN_IF_ERROR(ForEachSeriesRun(node.entries[i].offset, node.end_of(i), depth + 1, run, ahead));
      continue;
    }
    TSREAD_ASSIGN_OR_RETURN(Buffer bytes_of_run,
                            ReadRange(node.entries[i].offset, node.end_of(i), "timeseries metadata", ahead));
    ByteStream in(bytes_of_run.bytes(), static_cast<uint64_t>(node.entries[i].offset));
    TSREAD_RETURN_IF_ERROR(run(in));
  }
  return absl::OkStatus();
}

absl::Status TsFileReader::ForEachTimeseries(const DeviceLocation& device,
                                             const std::function<absl::Status(TimeseriesMetadata&&)>& fn,
                                             ReadAhead* ahead, const MeasurementFilter* wanted) const {
  TimeseriesMetadata tsm;
  const auto fresh = [&]() -> TimeseriesMetadata& { return tsm = TimeseriesMetadata{}; };
  const auto hand_over = [&] { return fn(std::move(tsm)); };
  return ForEachSeriesRun(
      device.measurement_root_offset, device.measurement_root_end, 0,
      [&](ByteStream& in) { return ParseSeriesRun(in, metadata_.meta_offset, wanted, fresh, hand_over); }, ahead);
}

absl::Status TsFileReader::ReadTimeseriesInto(const DeviceLocation& device, std::vector<TimeseriesMetadata>& out,
                                              ReadAhead* ahead, const MeasurementFilter* wanted) const {
  size_t count = 0;
  const auto next = [&]() -> TimeseriesMetadata& {
    if (count == out.size()) out.emplace_back();
    return out[count];
  };
  const auto counted = [&] {
    ++count;
    return absl::OkStatus();
  };
  absl::Status status = ForEachSeriesRun(
      device.measurement_root_offset, device.measurement_root_end, 0,
      [&](ByteStream& in) { return ParseSeriesRun(in, metadata_.meta_offset, wanted, next, counted); }, ahead);
  out.resize(status.ok() ? count : 0);
  return status;
}

absl::StatusOr<std::vector<TimeseriesMetadata>> TsFileReader::ReadTimeseries(const DeviceLocation& device,
                                                                             ReadAhead* ahead) const {
  std::vector<TimeseriesMetadata> all;
  TSREAD_RETURN_IF_ERROR(ReadTimeseriesInto(device, all, ahead));
  return all;
}

absl::StatusOr<std::optional<TimeseriesMetadata>> TsFileReader::FindTimeseries(const DeviceLocation& device,
                                                                               std::string_view measurement,
                                                                               ReadAhead* ahead) const {
  int64_t offset = device.measurement_root_offset;
  int64_t end = device.measurement_root_end;
  Buffer bytes;
  MeasurementIndexNode node;
  for (int depth = 0; depth < kMaxIndexDepth; ++depth) {
    TSREAD_RETURN_IF_ERROR(ReadMeasurementNode(offset, end, bytes, node, ahead));
    const size_t i = FloorEntry(node.entries, [&](const MeasurementIndexEntry& e) {
      return CompareMeasurement(e.measurement, measurement);
    });
    offset = node.entries[i].offset;
    end = node.end_of(i);
    if (node.type == MetaIndexNodeType::kInternalMeasurement) continue;
    // A run of TimeseriesMetadata: scan it for the name, decoding only the match (§6.4).
    TSREAD_ASSIGN_OR_RETURN(Buffer run, ReadRange(offset, end, "timeseries metadata", ahead));
    ByteStream in(run.bytes(), static_cast<uint64_t>(offset));
    while (!in.empty()) {
      TSREAD_ASSIGN_OR_RETURN(TimeseriesPrefix prefix, ReadTimeseriesPrefix(in));
      if (prefix.measurement != measurement) {
        TSREAD_RETURN_IF_ERROR(SkipTimeseriesRest(in, prefix));
        continue;
      }
      TimeseriesMetadata tsm;
      TSREAD_RETURN_IF_ERROR(ReadTimeseriesRest(in, metadata_.meta_offset, prefix, tsm));
      return std::optional<TimeseriesMetadata>(std::move(tsm));
    }
    return std::optional<TimeseriesMetadata>();
  }
  return absl::DataLossError(absl::StrCat("corrupt measurement index at offset ", device.measurement_root_offset,
                                          ": deeper than ", kMaxIndexDepth, " levels"));
}

DeviceIterator::DeviceIterator(const TsFileReader* reader, const DeviceIndexNode& root) : reader_(reader) {
  stack_.reserve(TsFileReader::kMaxIndexDepth);
  Frame frame;
  frame.node = root;
  stack_.push_back(std::move(frame));
}

absl::StatusOr<const DeviceEntry*> DeviceIterator::Next() {
  while (!stack_.empty()) {
    Frame& top = stack_.back();
    if (top.next >= top.node.entries.size()) {
      stack_.pop_back();
      continue;
    }
    const size_t i = top.next++;
    const DeviceIndexEntry& entry = top.node.entries[i];
    if (top.node.type == MetaIndexNodeType::kLeafDevice) {
      current_.id = entry.device;
      current_.location = DeviceLocation{entry.offset, top.node.end_of(i)};
      return &current_;
    }
    if (stack_.size() >= static_cast<size_t>(TsFileReader::kMaxIndexDepth)) {
      return absl::DataLossError(absl::StrCat("corrupt device index at offset ", entry.offset, ": deeper than ",
                                              TsFileReader::kMaxIndexDepth, " levels"));
    }
    Frame child;
    TSREAD_RETURN_IF_ERROR(reader_->ReadDeviceNode(entry.offset, top.node.end_of(i), child.bytes, child.node));
    stack_.push_back(std::move(child));
  }
  return static_cast<const DeviceEntry*>(nullptr);
}

}  // namespace tsread
