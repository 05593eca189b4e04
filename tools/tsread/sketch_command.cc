// `tsread sketch FILE`: the byte map of a file for people debugging it — where each chunk group,
// chunk and page lies (from a sequential walk of the data section), then the index: each table's
// device-index nodes, the devices and their series, and the TsFileMetadata fields. The layout
// follows the Apache sketch tool's "POSITION| CONTENT" style (*.sketch.txt fixtures).
#include <cinttypes>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli.h"
#include "tsread/io/status_macros.h"
#include "tsread/read/data_section_walker.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread::cli {
namespace {

void Line(uint64_t position, int indent, const std::string& content) {
  std::cout << absl::StrFormat("%20d|", position) << std::string(indent + 1, '\t') << content << "\n";
}

std::string StatisticsText(const Statistics& s) {
  return absl::StrCat("startTime: ", s.start_time, " endTime: ", s.end_time, " count: ", s.count);
}

std::string CodecText(uint8_t byte) {
  std::optional<Compression> c = CompressionFromByte(byte);
  return c.has_value() ? std::string(CompressionName(*c)) : absl::StrCat("UNKNOWN(", byte, ")");
}

std::string EncodingText(uint8_t byte) {
  std::optional<Encoding> e = EncodingFromByte(byte);
  return e.has_value() ? std::string(EncodingName(*e)) : absl::StrCat("UNKNOWN(", byte, ")");
}

class SketchPrinter : public DataSectionVisitor {
 public:
  absl::Status OnChunkGroup(uint64_t offset, const DeviceIdView& device) override {
    std::cout << "||||||||||||||||||||| [ChunkGroup] of " << device.ToString() << "\n";
    Line(offset, 0, "[ChunkGroup Header]");
    Line(offset + 1, 1, absl::StrCat("[deviceID] ", device.ToString()));
    return absl::OkStatus();
  }
  absl::Status OnChunk(const ChunkHeader& chunk) override {
    page_index_ = 0;
    Line(chunk.offset, 0,
         absl::StrCat("[Chunk Header] marker=", chunk.marker, ", measurementID=", ToAbsl(chunk.measurement),
                      ", dataSize=", chunk.data_size, ", dataType=", ToAbsl(DataTypeName(chunk.data_type)),
                      ", compressionType=", CodecText(chunk.compression_byte),
                      ", encodingType=", EncodingText(chunk.encoding_byte), ", size=", chunk.header_size));
    return absl::OkStatus();
  }
  absl::Status OnPage(const ChunkHeader&, const PageHeader& page, uint64_t body_offset) override {
    ++page_index_;
    std::string text = absl::StrCat("[PageHeader-", page_index_, "]  HeaderSize:", page.header_size,
                                    ", UncompressedSize:", page.uncompressed_size);
    if (page.is_empty()) {
      Line(page.offset, 1, text + " (empty page: every row null)");
      return absl::OkStatus();
    }
    absl::StrAppend(&text, ", CompressedSize:", page.compressed_size);
    if (page.statistics.has_value()) absl::StrAppend(&text, ", ", StatisticsText(*page.statistics));
    Line(page.offset, 1, text);
    Line(body_offset, 1, absl::StrCat("[Page-", page_index_, "] CompressedSize:", page.compressed_size));
    return absl::OkStatus();
  }
  absl::Status OnOperationIndexRange(uint64_t offset, int64_t min_index, int64_t max_index) override {
    Line(offset, 0, absl::StrCat("[OperationIndexRange] ", min_index, "..", max_index));
    return absl::OkStatus();
  }
  absl::Status OnSeparator(uint64_t offset) override {
    Line(offset, 0, "[Separator] 0x02: end of the data section, start of the index area");
    return absl::OkStatus();
  }

 private:
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
    absl::StatusOr<DeviceIterator> devices = reader.Devices(index.name);
    if (!devices.ok()) return devices.status();
    while (true) {
      absl::StatusOr<const DeviceEntry*> device = devices->Next();
      if (!device.ok()) return device.status();
      if (*device == nullptr) break;
      if (absl::Status s = PrintDeviceSeries(reader, **device); !s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

void PrintMetadata(const TsFileReader& reader) {
  const FileLayout& layout = reader.layout();
  const TsFileMetadata& meta = reader.metadata();
  std::cout << "||||||||||||||||||||| [TsFileMetadata] begins\n";
  Line(layout.metadata_offset, 0, absl::StrCat("TableIndexCnt=", meta.table_index.size()));
  for (const TableIndex& index : meta.table_index) {
    Line(layout.metadata_offset, 1,
         absl::StrCat("[table \"", index.name, "\"] ", ToAbsl(MetaIndexNodeTypeName(index.root.type)), " entries=",
                      index.root.entries.size(), " endOffset=", index.root.end_offset));
  }
  Line(layout.metadata_offset, 0, absl::StrCat("TableSchemaCnt=", meta.table_schemas.size()));
  for (const TableSchema& schema : meta.table_schemas) {
    std::string columns;
    for (const ColumnSchema& c : schema.columns) {
      absl::StrAppend(&columns, columns.empty() ? "" : ", ", "[", c.name, ",", ToAbsl(DataTypeName(c.data_type)), ",",
                      ToAbsl(ColumnCategoryName(c.category)), "]");
    }
    Line(layout.metadata_offset, 1, absl::StrCat("[TableSchema] ", schema.name, " {", columns, "}"));
  }
  Line(layout.metadata_offset, 0, absl::StrCat("[Meta Offset] ", meta.meta_offset));
  Line(layout.metadata_offset, 0,
       absl::StrCat("[Bloom Filter] bytes=", meta.bloom_filter_bits.size(), ", bits=", meta.bloom_filter_bit_count,
                    ", hashFunctionSize=", meta.bloom_filter_hash_count));
  for (const auto& [key, value] : meta.properties) {
    Line(layout.metadata_offset, 0, absl::StrCat("[Property] ", key, "=", value.value_or("null")));
  }
  std::cout << "||||||||||||||||||||| [TsFileMetadata] ends\n";
  Line(layout.file_size - kTailSize, 0, absl::StrCat("[TsFileMetadataSize] ", layout.metadata_size));
  Line(layout.file_size - kMagic.size(), 0, "[magic tail] TsFile");
  Line(layout.file_size, 0, "END of TsFile");
}

}  // namespace

int RunSketch(const Args& args) {
  const std::string& path = args.positional[0];
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(path);
  if (!reader.ok()) return Fail(WithFileName(reader.status(), path));
  std::cout << "-------------------------------- TsFile Sketch --------------------------------\n"
            << "file path: " << path << "\nfile length: " << (*reader)->layout().file_size << "\n\n"
            << "            POSITION|\tCONTENT\n            -------- \t-------\n";
  Line(0, 0, "[magic head] TsFile");
  Line(6, 0, absl::StrCat("[version number] ", (*reader)->version()));
  SketchPrinter printer;
  if (absl::Status s = WalkDataSection(**reader, printer); !s.ok()) return Fail(WithFileName(s, path));
  PrintMetadata(**reader);
  std::cout << "---------------------------- Index Tree -----------------------------\n";
  if (absl::Status s = PrintIndex(**reader); !s.ok()) return Fail(WithFileName(s, path));
  std::cout << "---------------------------------- TsFile Sketch End ----------------------------------\n";
  return kOk;
}

}  // namespace tsread::cli
