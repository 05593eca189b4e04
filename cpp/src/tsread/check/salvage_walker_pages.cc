// SalvageWalker (salvage_walker.h), the page side: how many rows a page holds when no index says
// (its statistics, or the stream itself: encoding/time_stream_count.h, or for an aligned time page
// whose encoding does not say, the row count its value pages store, format reference §8.3), and
// decoding and checking time pages (§8.2), value pages (§8.3) and non-aligned pages (§8.1).
#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tsread/check/salvage_checks.h"
#include "tsread/check/salvage_walker.h"
#include "tsread/encoding/time_stream_count.h"
#include "tsread/io/byte_stream.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace check_internal {

absl::Status SalvageWalker::DecodeTimes(const ChunkHeader& header, const PageRef& page, uint64_t count,
                                        std::vector<int64_t>& times) {
  if (count > options_.limits.max_page_rows) {
    return Corrupt(page.header.offset, absl::StrCat(count, " rows in one page, over the limit"));
  }
  TSREAD_RETURN_IF_ERROR(
      DecodeTimePage(header, page, static_cast<uint32_t>(count), options_.limits, scratch_, times));
  TSREAD_RETURN_IF_ERROR(CheckIncreasing(times, page.header));
  return CheckPageStatistics(page.header, times, nullptr);
}

absl::StatusOr<Encoding> SalvageWalker::EncodingOf(const ChunkHeader& header) {
  std::optional<Encoding> encoding = EncodingFromByte(header.encoding_byte);
  if (!encoding.has_value()) return Corrupt(header.offset, absl::StrCat("unknown encoding ", header.encoding_byte));
  return *encoding;
}

absl::StatusOr<std::optional<uint64_t>> SalvageWalker::TimePageRows(const ChunkHeader& header,
                                                                    const PageRef& page) {
  if (page.header.statistics.has_value()) return std::optional<uint64_t>(page.header.statistics->count);
  TSREAD_ASSIGN_OR_RETURN(Encoding encoding, EncodingOf(header));
  TSREAD_ASSIGN_OR_RETURN(std::string_view stream, UncompressPage(header, page, options_.limits, scratch_));
  return TimeStreamCount(encoding, stream, options_.limits.max_page_rows);
}

absl::Status SalvageWalker::OnTimePage(const ChunkHeader& header, const PageRef& page, SalvagedChunk& chunk) {
  if (page.header.is_empty()) return Corrupt(page.header.offset, "an empty page in a time chunk");
  TSREAD_ASSIGN_OR_RETURN(std::optional<uint64_t> count, TimePageRows(header, page));
  if (options_.keep_values) chunk.pages.emplace_back();
  // The stream does not say: the value pages' stored row count will (§8.3).
  if (!count.has_value()) return DeferTimePage(header, page);
  std::vector<int64_t> times;
  TSREAD_RETURN_IF_ERROR(DecodeTimes(header, page, *count, times));
  AddTimePage(std::move(times), chunk, time_pages_.size());
  time_pages_.emplace_back(time_pages_.size());
  return absl::OkStatus();
}

absl::Status SalvageWalker::DeferTimePage(const ChunkHeader& header, const PageRef& page) {
  if (!time_pages_.empty()) return Corrupt(page.header.offset, "a time chunk with several pages but no statistics");
  pending_time_.emplace(PendingTimePage{header, std::string(page.body), page.header});
  pending_time_->chunk.measurement = {};  // the view dies with the walk's call
  time_pages_.emplace_back();
  return absl::OkStatus();
}

void SalvageWalker::AddTimePage(std::vector<int64_t> times, SalvagedChunk& time_chunk, size_t k) {
  time_chunk.points += times.size();
  group_->rows += times.size();
  if (options_.keep_values) time_chunk.pages[k].times = times;
  decoded_times_.resize(std::max(decoded_times_.size(), k + 1));
  decoded_times_[k] = std::move(times);
}

absl::Status SalvageWalker::ResolvePendingTime(uint32_t rows) {
  const PendingTimePage pending = std::move(*pending_time_);
  pending_time_.reset();
  const PageRef page{pending.page, pending.body};
  std::vector<int64_t> times;
  TSREAD_RETURN_IF_ERROR(DecodeTimes(pending.chunk, page, rows, times));
  AddTimePage(std::move(times), group_->chunks.front(), 0);
  time_pages_[0] = 0;
  return absl::OkStatus();
}

absl::Status SalvageWalker::ResolvePendingTimeFrom(const ChunkHeader& header, const PageRef& page) {
  if (page.header.is_empty()) {
    return Corrupt(page.header.offset, "an empty value page before any page states how many rows the time "
                                       "page holds");
  }
  TSREAD_ASSIGN_OR_RETURN(std::string_view bytes, UncompressPage(header, page, options_.limits, scratch_));
  ByteStream in(bytes, 0);
  TSREAD_ASSIGN_OR_RETURN(int32_t rows, in.ReadI32("value page row count"));
  if (rows < 0) return Corrupt(page.header.offset, absl::StrCat("value page row count ", rows));
  return ResolvePendingTime(static_cast<uint32_t>(rows));
}

absl::Status SalvageWalker::OnValuePage(const ChunkHeader& header, const PageRef& page, size_t k,
                                        SalvagedChunk& chunk) {
  if (k >= time_pages_.size()) {
    return Corrupt(page.header.offset, absl::StrCat("value chunk ", ToAbsl(header.measurement),
                                                    " has more pages than its time chunk (", time_pages_.size(),
                                                    ")"));
  }
  if (!time_pages_[k].has_value()) TSREAD_RETURN_IF_ERROR(ResolvePendingTimeFrom(header, page));
  const std::vector<int64_t>& times = decoded_times_[*time_pages_[k]];
  ColumnVector values;
  TSREAD_RETURN_IF_ERROR(
      DecodeValuePage(header, page, static_cast<uint32_t>(times.size()), options_.limits, scratch_, values));
  TSREAD_RETURN_IF_ERROR(CheckPageStatistics(page.header, times, &values));
  chunk.points += values.size() - values.null_count;
  if (options_.keep_values) chunk.pages.push_back(SalvagedPage{times, std::move(values)});
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> SalvageWalker::NonAlignedPagePoints(const ChunkHeader& header, const PageRef& page) {
  if (page.header.statistics.has_value()) return uint64_t{page.header.statistics->count};
  // The time stream's encoding is not stored: Java's default TS_2DIFF (§3.1, §8.1).
  TSREAD_ASSIGN_OR_RETURN(std::string_view bytes, UncompressPage(header, page, options_.limits, scratch_));
  ByteStream in(bytes, 0);
  TSREAD_ASSIGN_OR_RETURN(uint32_t time_length, in.ReadUVarSize("time stream length"));
  TSREAD_ASSIGN_OR_RETURN(std::string_view time_stream, in.ReadBytes(time_length, "time stream"));
  std::optional<uint64_t> n = TimeStreamCount(Encoding::kTs2Diff, time_stream, options_.limits.max_page_rows);
  if (!n.has_value()) return Corrupt(page.header.offset, "a time stream that does not decode as TS_2DIFF");
  return *n;
}

absl::Status SalvageWalker::OnNonAlignedPage(const ChunkHeader& header, const PageRef& page, SalvagedChunk& chunk) {
  if (page.header.is_empty()) return absl::OkStatus();  // no points (§8.3 form; skipped as readers do)
  TSREAD_ASSIGN_OR_RETURN(const uint64_t count, NonAlignedPagePoints(header, page));
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

}  // namespace check_internal
}  // namespace tsread
