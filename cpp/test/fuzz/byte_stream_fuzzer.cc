// libFuzzer target: ByteStream primitives and the metadata structures parsed straight from the
// input (TsFileMetadata V3/V4, index nodes, device ids, statistics, chunk and page headers), and
// serialized dataset splits (bytes that come from another process), predicate text (the CLI's
// --where, SQL's filter :=) parsed, bound to every type and applied to statistics and a column,
// and IoTDB deletion files (.mods2 binary, .mods text) parsed and matched against devices.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tsread/format/chunk_header.h"
#include "tsread/format/meta_index_node.h"
#include "tsread/format/page_header.h"
#include "tsread/format/timeseries_metadata.h"
#include "tsread/format/tsfile_metadata.h"
#include "tsread/io/byte_stream.h"
#include "tsread/iotdb/deletion_entry.h"
#include "tsread/dataset/split_codec.h"
#include "tsread/read/bound_predicate.h"
#include "tsread/read/predicate_text.h"

namespace {

// Every parsed predicate bound to every type, its verdict on statistics made from the input and
// its matches on a small column: none may crash, whatever the text.
void FuzzPredicates(std::string_view text) {
  absl::StatusOr<std::vector<tsread::PredicateExpr>> parsed = tsread::ParsePredicates(text);
  if (!parsed.ok()) return;
  std::vector<tsread::ValuePredicate> comparisons;
  for (const tsread::PredicateExpr& e : *parsed) {
    (void)tsread::DescribePredicate(e);
    tsread::ForEachComparison(e, [&](const tsread::ValuePredicate& p) { comparisons.push_back(p); });
  }
  for (const tsread::ValuePredicate& p : comparisons) {
    for (int t = 0; t < 12; ++t) {
      const auto type = static_cast<tsread::DataType>(t);
      absl::StatusOr<tsread::BoundPredicate> bound = tsread::BindPredicate(p, type, 0);
      if (!bound.ok()) continue;
      tsread::Statistics s;
      s.type = type;
      s.count = static_cast<uint32_t>(text.size() % 5);
      s.int_min = -static_cast<int64_t>(text.size());
      s.int_max = static_cast<int64_t>(text.size());
      s.float_min = -1.5;
      s.float_max = static_cast<double>(text.size());
      s.bin_min = std::string(text.substr(0, text.size() / 2));
      s.bin_max = std::string(text);
      (void)tsread::StatisticsVerdict(*bound, &s, 4);
      (void)tsread::StatisticsVerdict(*bound, nullptr, 4);
      tsread::ColumnVector column;
      column.type = type == tsread::DataType::kVector || type == tsread::DataType::kUnknown ? tsread::DataType::kInt64
                                                                                           : type;
      column.Resize(3);
      column.SetAllNull();  // zero values and empty strings, then made valid
      column.validity.assign(1, 0x05);
      column.FinishValidity();
      std::vector<uint8_t> keep(3, 1);
      tsread::KeepMatches(*bound, column, keep);
      if (type == tsread::DataType::kString) (void)tsread::MatchesText(*bound, text);
    }
  }
}

}  // namespace

// A deletion file's entries, whatever the bytes, each asked what it deletes of a table device, a
// tree device and their time columns: none may crash or loop.
void FuzzDeletions(std::string_view bytes, bool text) {
  const tsread::iotdb::DeletionFileContents parsed =
      text ? tsread::iotdb::ParseModsText(bytes, "f.mods") : tsread::iotdb::ParseMods2(bytes, "f.mods2");
  const tsread::DeviceId table({std::string("t"), std::string("a"), std::nullopt, std::string("b")});
  const tsread::DeviceId tree({std::string("root.sg"), std::string("d*1")});
  for (const tsread::iotdb::DeletionEntry& e : parsed.entries) {
    for (std::string_view m : {"", "s1", "*"}) {
      (void)e.Affects(table, m);
      (void)e.Affects(tree, m);
    }
  }
  (void)tsread::iotdb::PathNodes(bytes);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  tsread::ByteStream in(bytes, 1000);
  switch (data[0] % 13) {
    case 0:
      while (!in.empty()) {
        if (!in.ReadUVarInt("v").ok() && !in.ReadU8("b").ok()) break;
        (void)in.ReadNullableVarString("s");
        (void)in.ReadNullableI32String("i");
        (void)in.ReadI64("l");
      }
      break;
    case 1: (void)tsread::ReadTsFileMetadata(bytes, 1000, 4); break;
    case 2: (void)tsread::ReadTsFileMetadata(bytes, 1000, 3); break;
    case 3: {
      tsread::DeviceIndexNode node;
      (void)tsread::ReadDeviceIndexNode(in, 4, 0, 1 << 30, node);
      break;
    }
    case 4: {
      tsread::MeasurementIndexNode node;
      (void)tsread::ReadMeasurementIndexNode(in, 0, 1 << 30, node);
      break;
    }
    case 5: (void)tsread::ReadTimeseriesMetadata(in, 1 << 30); break;
    case 6: (void)tsread::ReadChunkHeader(in); break;
    case 7:
      if (!bytes.empty()) {
        (void)tsread::ReadPageHeader(in, static_cast<tsread::DataType>(data[1 % size] % 12), (data[0] & 0x80) != 0);
      }
      break;
    case 8: {
      // A split that decodes must encode to bytes that decode again (decoding accepts
      // non-canonical varints and booleans, so the bytes themselves may differ).
      absl::StatusOr<tsread::SplitDescription> split = tsread::DecodeSplit(bytes);
      if (split.ok() && !tsread::DecodeSplit(tsread::EncodeSplit(*split)).ok()) __builtin_trap();
      break;
    }
    case 9: FuzzPredicates(bytes); break;
    case 11: FuzzDeletions(bytes, false); break;
    case 12: FuzzDeletions(bytes, true); break;
    default: {
      auto id = tsread::ReadDeviceIdView(in, 4);
      if (id.ok()) (void)id->ToString();
      break;
    }
  }
  return 0;
}
