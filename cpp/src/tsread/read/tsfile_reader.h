// TsFileReader: an open TsFile. Opening reads the tail and TsFileMetadata; index nodes and
// series metadata are read on demand with positioned reads of exactly the ranges needed.
// The reader is immutable after Open() and safe to share between threads.
#ifndef TSREAD_READ_TSFILE_READER_H_
#define TSREAD_READ_TSFILE_READER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <unordered_map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "tsread/format/device_id.h"
#include "tsread/format/file_layout.h"
#include "tsread/format/timeseries_metadata.h"
#include "tsread/format/tsfile_metadata.h"
#include "tsread/io/buffer.h"
#include "tsread/io/random_access_file.h"
#include "tsread/io/read_ahead.h"

namespace tsread {

// Where a device's measurement index root lies (§6.2: the range of its LEAF_DEVICE entry).
struct DeviceLocation {
  int64_t measurement_root_offset = 0;
  int64_t measurement_root_end = 0;
};

class DeviceIterator;
struct DeviceEntry;

class TsFileReader {
 public:
  // Opens a file on disk: read with pread by default, safe when the file changes while it is read
  // (a clear error, never a signal); FileAccess::kMap maps it instead, which is not safe against
  // concurrent truncation (see io/random_access_file.h). Only regular files are accepted.
  static absl::StatusOr<std::unique_ptr<TsFileReader>> Open(const std::string& path,
                                                            FileAccess access = FileAccess::kRead);
  // Opens any RandomAccessFile (e.g. MemoryFileView for a buffer).
  static absl::StatusOr<std::unique_ptr<TsFileReader>> Open(std::unique_ptr<RandomAccessFile> file);

  const RandomAccessFile& file() const { return *file_; }
  const FileLayout& layout() const { return layout_; }
  uint8_t version() const { return layout_.version; }
  const TsFileMetadata& metadata() const { return metadata_; }

  // Table-model tables: the schema map's entries, by name in byte order.
  std::vector<const TableSchema*> Tables() const;
  const TableSchema* FindTable(std::string_view name) const;
  // Names of the device-index roots that hold tree-model devices (V3: the single root "").
  std::vector<std::string> TreeIndexNames() const;

  // Devices under the device-index root `index_name` (a table name), lazily in index order.
  // NotFound if there is no such root.
  absl::StatusOr<DeviceIterator> Devices(std::string_view index_name) const;
  // Calls fn for every device under the root `index_name`, in index order (the entry's id views
  // index bytes valid during the call); stops at fn's first error. NotFound if there is no such
  // root.
  absl::Status ForEachDevice(std::string_view index_name,
                             const std::function<absl::Status(const DeviceEntry&)>& fn) const;

  // Looks a device up by binary search down the device index of root `index_name`
  // (§6.4). nullopt if the device is absent.
  absl::StatusOr<std::optional<DeviceLocation>> FindDevice(std::string_view index_name, const DeviceId& device) const;

  // Every TimeseriesMetadata of a device, in index order (time column "" first when aligned).
  // A caller visiting many devices in index order passes its own ReadAhead (one per thread): the
  // metadata of consecutive devices then costs one read per window instead of two per device.
  absl::StatusOr<std::vector<TimeseriesMetadata>> ReadTimeseries(const DeviceLocation& device,
                                                                 ReadAhead* ahead = nullptr) const;
  // Calls fn for every TimeseriesMetadata of a device, in index order; stops at fn's first error.
  // With `wanted`, only for the series whose measurement it accepts ("" is the time column): the
  // others are skipped by their sizes, not decoded (their statistics and chunk lists unread).
  using MeasurementFilter = std::function<bool(std::string_view measurement)>;
  absl::Status ForEachTimeseries(const DeviceLocation& device,
                                 const std::function<absl::Status(TimeseriesMetadata&&)>& fn,
                                 ReadAhead* ahead = nullptr, const MeasurementFilter* wanted = nullptr) const;
  // The series of a device that `wanted` accepts (null: all), in index order, into `out`: it is
  // resized to their number and its elements are parsed in place, keeping their capacity, so a
  // reader that visits many devices with one vector allocates nothing once it has grown (on small
  // chunks, a device's metadata costs as much to parse as its rows to decode). Empty on an error.
  absl::Status ReadTimeseriesInto(const DeviceLocation& device, std::vector<TimeseriesMetadata>& out,
                                  ReadAhead* ahead = nullptr, const MeasurementFilter* wanted = nullptr) const;
  // One series of a device by measurement name (binary search down its measurement index).
  absl::StatusOr<std::optional<TimeseriesMetadata>> FindTimeseries(const DeviceLocation& device,
                                                                   std::string_view measurement,
                                                                   ReadAhead* ahead = nullptr) const;

  // Reads a device-level index node occupying [offset, end); its children must lie in
  // (meta_offset, offset). Used by DeviceIterator.
  absl::Status ReadDeviceNode(int64_t offset, int64_t end, Buffer& bytes, DeviceIndexNode& node) const;

  // What a chunk's header says of its values: their type, and whether its encoding keeps FLOAT
  // and DOUBLE values bit for bit (lossless_chunks.h).
  struct ChunkValueFacts {
    DataType type = DataType::kBoolean;
    bool floats_exact = false;
  };
  // The facts read from the header of the chunk at `offset` so far, nullopt when not read yet. A
  // scan reads a FLOAT or DOUBLE chunk's header before trusting its statistics to skip it (a system
  // call a chunk); the next scan of the open reader answers from memory.
  std::optional<ChunkValueFacts> KnownChunkFacts(int64_t offset) const;
  void RememberChunkFacts(int64_t offset, ChunkValueFacts facts) const;

  // Maximum depth of an index tree; deeper (or cyclic) trees are corrupt (§13 item 3).
  static constexpr int kMaxIndexDepth = 64;

 private:
  TsFileReader(std::unique_ptr<RandomAccessFile> file, FileLayout layout, Buffer metadata_bytes,
               TsFileMetadata metadata)
      : file_(std::move(file)), layout_(layout), metadata_bytes_(std::move(metadata_bytes)),
        metadata_(std::move(metadata)) {}

  // A parsed device-level node and the bytes its entries view.
  struct CachedDeviceNode {
    Buffer bytes;
    DeviceIndexNode node;
  };
  // The parsed internal/leaf device node at [offset, end), from the cache or read and cached:
  // repeated lookups then cost a binary search per level instead of a node parse.
  absl::StatusOr<std::shared_ptr<const CachedDeviceNode>> CachedDeviceNodeAt(int64_t offset, int64_t end) const;

  // The index bytes [offset, end), through `ahead` when given.
  absl::StatusOr<Buffer> ReadRange(int64_t offset, int64_t end, const char* what, ReadAhead* ahead = nullptr) const;
  absl::Status ReadMeasurementNode(int64_t offset, int64_t end, Buffer& bytes, MeasurementIndexNode& node,
                                   ReadAhead* ahead = nullptr) const;
  // Calls `run` with a stream over each run of TimeseriesMetadata below the measurement index node
  // at [offset, end) (§6.4), in index order.
  absl::Status ForEachSeriesRun(int64_t offset, int64_t end, int depth,
                                absl::FunctionRef<absl::Status(ByteStream&)> run, ReadAhead* ahead) const;

  std::unique_ptr<RandomAccessFile> file_;
  FileLayout layout_;
  Buffer metadata_bytes_;  // the roots' device ids are views into these bytes
  TsFileMetadata metadata_;

  // The reader's only mutable state, two caches of facts read from the file, each guarded so
  // that concurrent scans are safe:
  // device nodes for FindDevice, bounded by kDeviceNodeCacheBytes of node bytes;
  static constexpr uint64_t kDeviceNodeCacheBytes = 64 << 20;
  mutable std::shared_mutex cache_mutex_;
  mutable std::unordered_map<int64_t, std::shared_ptr<const CachedDeviceNode>> device_node_cache_;
  mutable uint64_t device_node_cache_bytes_ = 0;
  // and chunk headers' facts, bounded by kMaxKnownChunks chunks (~40 bytes each).
  static constexpr size_t kMaxKnownChunks = size_t{1} << 17;
  mutable std::shared_mutex chunk_facts_mutex_;
  // Open addressing: a file of small chunks asks for a hundred thousand, each one insert (no node
  // allocated and freed per chunk, as std::unordered_map did: 10 % of `agg` over such files).
  mutable absl::flat_hash_map<int64_t, ChunkValueFacts> chunk_facts_;
};

// A device visited by DeviceIterator. `id` views index bytes held by the iterator: valid until
// the iterator's next call.
struct DeviceEntry {
  DeviceIdView id;
  DeviceLocation location;
};

// Depth-first walk over a device index, reading nodes as it reaches them.
class DeviceIterator {
 public:
  // The next device, or nullptr after the last one.
  absl::StatusOr<const DeviceEntry*> Next();

 private:
  friend class TsFileReader;
  struct Frame {
    Buffer bytes;  // empty for the root, which lives in the metadata
    DeviceIndexNode node;
    size_t next = 0;
  };
  explicit DeviceIterator(const TsFileReader* reader, const DeviceIndexNode& root);

  const TsFileReader* reader_;
  std::vector<Frame> stack_;
  DeviceEntry current_;
};

}  // namespace tsread

#endif  // TSREAD_READ_TSFILE_READER_H_
