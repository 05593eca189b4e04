// `tsread sketch FILE`: the byte map of a file for people debugging it — where each chunk group,
// chunk and page lies (from a sequential walk of the data section), then the index: each table's
// device-index nodes, the devices and their series, and the TsFileMetadata fields. The layout
// follows the Apache sketch tool's "POSITION| CONTENT" style (*.sketch.txt fixtures).
#include <cinttypes>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <unordered_map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli.h"
#include "tsread/io/status_macros.h"
#include "tsread/check/data_section_walker.h"
#include "tsread/read/tsfile_reader.h"
#include "value_format.h"

namespace tsread::cli {
namespace {

void Line(uint64_t position, int indent, const std::string& content) {
  std::cout << absl::StrFormat("%20d|", position) << std::string(indent + 1, '\t') << content << "\n";
}

std::string StatisticsText(const Statistics& s) {
  return absl::StrCat("startTime: ", s.start_time, " endTime: ", s.end_time, " count: ", s.count);
}

// A TEXT/STRING statistic kept on one line: CR and LF escaped (as \r, \n).
std::string OneLine(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

// The time part and, after a space, the type-specific part in the Apache tool's layout for each
// type: "[minValue:..,maxValue:..,firstValue:..,lastValue:..,sumValue:..]" for numbers,
// "[firstValue=.., lastValue=.., sumValue=..]" for BOOLEAN, "[firstValue:..,lastValue:..]" for
// TEXT, "[firstValue:.., lastValue:.., minValue:.., maxValue:..]" for STRING; nothing for the time
// column, BLOB, or statistics with count 0 (placeholder values). Numbers as the CLI writes them.
std::string FullStatisticsText(const Statistics& s) {
  std::string text = StatisticsText(s);
  if (s.empty()) return text;
  auto num = [&](auto append_one) {
    std::string v = " [minValue:";
    append_one(v, 0);
    v += ",maxValue:";
    append_one(v, 1);
    v += ",firstValue:";
    append_one(v, 2);
    v += ",lastValue:";
    append_one(v, 3);
    v += ",sumValue:";
    append_one(v, 4);
    v += "]";
    return v;
  };
  const int64_t ints[4] = {s.int_min, s.int_max, s.int_first, s.int_last};
  const double floats[4] = {s.float_min, s.float_max, s.float_first, s.float_last};
  switch (s.type) {
    case DataType::kInt32:
    case DataType::kDate:
      text += num([&](std::string& out, int i) { absl::StrAppend(&out, i < 4 ? ints[i] : s.int_sum); });
      break;
    case DataType::kInt64:
    case DataType::kTimestamp:
      text += num([&](std::string& out, int i) {
        if (i < 4) {
          absl::StrAppend(&out, ints[i]);
        } else {
          AppendDouble(out, s.float_sum);
        }
      });
      break;
    case DataType::kFloat:
      text += num([&](std::string& out, int i) {
        if (i < 4) {
          AppendFloat(out, static_cast<float>(floats[i]));
        } else {
          AppendDouble(out, s.float_sum);
        }
      });
      break;
    case DataType::kDouble:
      text += num([&](std::string& out, int i) { AppendDouble(out, i < 4 ? floats[i] : s.float_sum); });
      break;
    case DataType::kBoolean:
      absl::StrAppend(&text, " [firstValue=", s.bool_first ? "true" : "false",
                      ", lastValue=", s.bool_last ? "true" : "false", ", sumValue=", s.int_sum, "]");
      break;
    case DataType::kText:
      absl::StrAppend(&text, " [firstValue:", OneLine(s.bin_first), ",lastValue:", OneLine(s.bin_last), "]");
      break;
    case DataType::kString:
      absl::StrAppend(&text, " [firstValue:", OneLine(s.bin_first), ", lastValue:", OneLine(s.bin_last),
                      ", minValue:", OneLine(s.bin_min), ", maxValue:", OneLine(s.bin_max), "]");
      break;
    default:
      break;
  }
  return text;
}

// Chunk statistics from the index, by the file offset of the chunk's marker byte.
using ChunkStatisticsMap = std::unordered_map<int64_t, Statistics>;

absl::StatusOr<ChunkStatisticsMap> CollectChunkStatistics(const TsFileReader& reader) {
  ChunkStatisticsMap map;
  for (const TableIndex& index : reader.metadata().table_index) {
    absl::Status s = reader.ForEachDevice(index.name, [&](const DeviceEntry& device) {
      return reader.ForEachTimeseries(device.location, [&](TimeseriesMetadata&& tsm) {
        for (ChunkMetadata& chunk : tsm.chunks) map.emplace(chunk.offset, std::move(chunk.statistics));
        return absl::OkStatus();
      });
    });
    if (!s.ok()) return s;
  }
  return map;
}

class SketchPrinter : public DataSectionVisitor {
 public:
  explicit SketchPrinter(const ChunkStatisticsMap& chunk_statistics) : chunk_statistics_(chunk_statistics) {}

  absl::Status OnChunkGroup(uint64_t offset, const DeviceIdView& device) override {
    EndChunkGroup(offset);
    device_ = device.ToString();
    group_offset_ = offset;
    in_group_ = true;
    std::cout << "||||||||||||||||||||| [ChunkGroup] of " << device_ << "\n";
    Line(offset, 0, "[ChunkGroup Header]");
    Line(offset, 1, "[marker] 0");
    return absl::OkStatus();
  }
  absl::Status OnChunk(const ChunkHeader& chunk) override {
    FlushDeviceId(chunk.offset);
    page_index_ = 0;
    std::string name = absl::StrCat("[Chunk] of ", device_, ".", ToAbsl(chunk.measurement));
    auto it = chunk_statistics_.find(static_cast<int64_t>(chunk.offset));
    if (it == chunk_statistics_.end()) {
      Line(chunk.offset, 0, name + ", (no ChunkMetadata in the index)");
    } else {
      Line(chunk.offset, 0, absl::StrCat(name, ", ", FullStatisticsText(it->second)));
    }
    Line(chunk.offset, 1,
         absl::StrCat("[Chunk Header] marker=", chunk.marker, ", measurementID=", ToAbsl(chunk.measurement),
                      ", dataSize=", chunk.data_size, ", dataType=", ToAbsl(DataTypeName(chunk.data_type)),
                      ", compressionType=", CodecText(chunk.compression_byte),
                      ", encodingType=", EncodingText(chunk.encoding_byte), ", size=", chunk.header_size));
    return absl::OkStatus();
  }
  absl::Status OnPage(const ChunkHeader&, const PageHeader& page, uint64_t body_offset, std::string_view) override {
    ++page_index_;
    std::string text = absl::StrCat("[PageHeader-", page_index_, "]  HeaderSize:", page.header_size,
                                    ", UncompressedSize:", page.uncompressed_size);
    if (page.is_empty()) {
      Line(page.offset, 2, text + " (empty page: every row null)");
      return absl::OkStatus();
    }
    absl::StrAppend(&text, ", CompressedSize:", page.compressed_size);
    if (page.statistics.has_value()) absl::StrAppend(&text, ", ", FullStatisticsText(*page.statistics));
    Line(page.offset, 2, text);
    Line(body_offset, 2, absl::StrCat("[Page-", page_index_, "] CompressedSize:", page.compressed_size));
    return absl::OkStatus();
  }
  absl::Status OnOperationIndexRange(uint64_t offset, int64_t min_index, int64_t max_index) override {
    EndChunkGroup(offset);
    Line(offset, 0, absl::StrCat("[OperationIndexRange] ", min_index, "..", max_index));
    return absl::OkStatus();
  }
  absl::Status OnSeparator(uint64_t offset) override {
    EndChunkGroup(offset);
    Line(offset, 0, "[Separator] 0x02: end of the data section, start of the index area");
    return absl::OkStatus();
  }

 private:
  // The device id's line waits for the next record, whose offset gives its serialized size.
  void FlushDeviceId(uint64_t next_offset) {
    if (!in_group_ || device_id_printed_) return;
    Line(group_offset_ + 1, 1, absl::StrCat("[deviceID] ", device_, " size=", next_offset - group_offset_ - 1));
    device_id_printed_ = true;
  }
  void EndChunkGroup(uint64_t next_offset) {
    if (!in_group_) return;
    FlushDeviceId(next_offset);
    std::cout << "||||||||||||||||||||| [ChunkGroup] of " << device_ << " ends\n";
    in_group_ = false;
    device_id_printed_ = false;
  }

  const ChunkStatisticsMap& chunk_statistics_;
  std::string device_;
  uint64_t group_offset_ = 0;
  bool in_group_ = false;
  bool device_id_printed_ = false;
  int page_index_ = 0;
};

absl::Status PrintDeviceSeries(const TsFileReader& reader, const DeviceEntry& device) {
  std::cout << "\t└── " << device.id.ToString() << "  measurement index ["
            << device.location.measurement_root_offset << ", " << device.location.measurement_root_end << ")\n";
  return reader.ForEachTimeseries(device.location, [](TimeseriesMetadata&& tsm) {
    std::cout << "\t\t[" << (tsm.measurement.empty() ? "(time)" : tsm.measurement) << "] "
              << DataTypeName(tsm.data_type) << ", " << tsm.chunks.size() << " chunk(s) at";
    for (const ChunkMetadata& chunk : tsm.chunks) std::cout << " " << chunk.offset;
    std::cout << ", " << StatisticsText(tsm.statistics) << "\n";
    return absl::OkStatus();
  });
}

absl::Status PrintIndex(const TsFileReader& reader) {
  for (const TableIndex& index : reader.metadata().table_index) {
    std::cout << (index.name.empty() ? "(all devices)" : index.name) << "  root: "
              << MetaIndexNodeTypeName(index.root.type) << " with " << index.root.entries.size()
              << " entries, endOffset=" << index.root.end_offset << "\n";
    absl::Status s = reader.ForEachDevice(
        index.name, [&](const DeviceEntry& device) { return PrintDeviceSeries(reader, device); });
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

void PrintMetadata(const TsFileReader& reader) {
  const FileLayout& layout = reader.layout();
  const TsFileMetadata& meta = reader.metadata();
  std::cout << "||||||||||||||||||||| [TsFileMetadata] begins\n";
  Line(layout.metadata_offset, 0, absl::StrCat("TableIndexCnt=", meta.table_index.size()));
  for (const TableIndex& index : meta.table_index) {
    Line(index.at, 1,
         absl::StrCat("[table \"", index.name, "\"] ", ToAbsl(MetaIndexNodeTypeName(index.root.type)), " entries=",
                      index.root.entries.size(), " endOffset=", index.root.end_offset));
  }
  if (meta.table_schemas_at != 0) {
    Line(meta.table_schemas_at, 0, absl::StrCat("TableSchemaCnt=", meta.table_schemas.size()));
    for (size_t t = 0; t < meta.table_schemas.size(); ++t) {
      const TableSchema& schema = meta.table_schemas[t];
      std::string columns;
      for (const ColumnSchema& c : schema.columns) {
        absl::StrAppend(&columns, columns.empty() ? "" : ", ", "[", c.name, ",", ToAbsl(DataTypeName(c.data_type)), ",",
                        ToAbsl(ColumnCategoryName(c.category)), "]");
      }
      Line(meta.table_schema_at[t], 1, absl::StrCat("[TableSchema] ", schema.name, " {", columns, "}"));
    }
  }
  Line(meta.meta_offset_at, 0, absl::StrCat("[Meta Offset] ", meta.meta_offset));
  if (meta.bloom_filter_at != 0) {
    Line(meta.bloom_filter_at, 0,
         absl::StrCat("[Bloom Filter] bytes=", meta.bloom_filter_bits.size(), ", bits=", meta.bloom_filter_bit_count,
                      ", hashFunctionSize=", meta.bloom_filter_hash_count));
  }
  if (meta.properties_at != 0) Line(meta.properties_at, 0, absl::StrCat("PropertyCnt=", meta.properties.size()));
  for (size_t p = 0; p < meta.properties.size(); ++p) {
    const auto& [key, value] = meta.properties[p];
    Line(meta.property_at[p], 1, absl::StrCat("[Property] ", key, "=", value.value_or("null")));
  }
  std::cout << "||||||||||||||||||||| [TsFileMetadata] ends\n";
  Line(layout.file_size - kTailSize, 0, absl::StrCat("[TsFileMetadataSize] ", layout.metadata_size));
  Line(layout.file_size - kMagic.size(), 0, "[magic tail] TsFile");
  Line(layout.file_size, 0, "END of TsFile");
}

}  // namespace

int RunSketch(const Args& args) {
  const std::string& path = args.positional[0];
  absl::StatusOr<std::unique_ptr<MemoryBudget>> budget = WalkBudgetFromArgs(args);
  if (!budget.ok()) return Fail(budget.status());
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(path);
  if (!reader.ok()) return Fail(WithFileName(reader.status(), path));
  std::cout << "-------------------------------- TsFile Sketch --------------------------------\n"
            << "file path: " << path << "\nfile length: " << (*reader)->layout().file_size << "\n\n"
            << "            POSITION|\tCONTENT\n            -------- \t-------\n";
  Line(0, 0, "[magic head] TsFile");
  Line(6, 0, absl::StrCat("[version number] ", (*reader)->version()));
  absl::StatusOr<ChunkStatisticsMap> chunk_statistics = CollectChunkStatistics(**reader);
  if (!chunk_statistics.ok()) return Fail(WithFileName(chunk_statistics.status(), path));
  SketchPrinter printer(*chunk_statistics);
  WalkOptions walk;
  walk.memory_budget = budget->get();
  if (absl::Status s = WalkDataSection(**reader, printer, walk); !s.ok()) return Fail(WithFileName(s, path));
  PrintMetadata(**reader);
  std::cout << "---------------------------- Index Tree -----------------------------\n";
  if (absl::Status s = PrintIndex(**reader); !s.ok()) return Fail(WithFileName(s, path));
  std::cout << "---------------------------------- TsFile Sketch End ----------------------------------\n";
  return kOk;
}

}  // namespace tsread::cli
