// libFuzzer target: ByteStream primitives and the metadata structures parsed straight from the
// input (TsFileMetadata V3/V4, index nodes, device ids, statistics, chunk and page headers), and
// serialized dataset splits (bytes that come from another process).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tsread/format/chunk_header.h"
#include "tsread/format/meta_index_node.h"
#include "tsread/format/page_header.h"
#include "tsread/format/timeseries_metadata.h"
#include "tsread/format/tsfile_metadata.h"
#include "tsread/io/byte_stream.h"
#include "tsread/dataset/split_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  tsread::ByteStream in(bytes, 1000);
  switch (data[0] % 10) {
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
    default: {
      auto id = tsread::ReadDeviceIdView(in, 4);
      if (id.ok()) (void)id->ToString();
      break;
    }
  }
  return 0;
}
