#include "tsread/read/series_reader.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "tsread/io/status_macros.h"
#include "tsread/read/page_times.h"

namespace tsread {

absl::StatusOr<std::unique_ptr<SeriesReader>> SeriesReader::Create(const TsFileReader& reader, std::string device_name,
                                                                   std::vector<TimeseriesMetadata> device_series,
                                                                   const std::string& measurement, TimeRange range,
                                                                   ReadLimits limits) {
  std::unique_ptr<SeriesReader> r(new SeriesReader());
  r->reader_ = &reader;
  r->range_ = range;
  r->limits_ = limits;
  const TimeseriesMetadata* target = nullptr;
  for (const TimeseriesMetadata& tsm : device_series) {
    // A device is aligned iff it has the time column (§6.4 isAlignedDevice).
    if (tsm.is_time_column()) r->aligned_ = true;
    if (!tsm.is_time_column() && tsm.measurement == measurement) target = &tsm;
  }
  if (target == nullptr) {
    return absl::NotFoundError(absl::StrCat("device ", device_name, " has no series \"", measurement, "\""));
  }
  if (r->aligned_) {
    r->columns_.push_back(AlignedColumn{measurement, target->data_type, true});
    r->device_series_ = std::move(device_series);
    TSREAD_RETURN_IF_ERROR(r->aligned_reader_.Reset(reader, std::move(device_name), r->device_series_, r->columns_,
                                                    r->range_, r->limits_));
  } else {
    r->series_ = *target;
  }
  return r;
}

absl::StatusOr<bool> SeriesReader::NextNonAlignedPage() {
  while (chunk_meta_ == nullptr || next_page_ >= chunk_.pages.size()) {
    if (next_chunk_ >= series_.chunks.size()) return false;
    chunk_meta_ = &series_.chunks[next_chunk_++];
    if (!range_.Overlaps(chunk_meta_->statistics)) {
      chunk_meta_ = nullptr;
      continue;
    }
    TSREAD_ASSIGN_OR_RETURN(chunk_, LoadChunk(*reader_, chunk_meta_->offset, &chunk_reads_));
    if (chunk_.header.measurement != series_.measurement) {
      return absl::DataLossError(absl::StrCat("corrupt index: chunk at offset ", chunk_.header.offset, " is \"",
                                              ToAbsl(chunk_.header.measurement), "\", not series \"",
                                              series_.measurement, "\""));
    }
    next_page_ = 0;
    chunk_last_time_.reset();
  }
  const PageRef& page = chunk_.pages[next_page_++];
  batch_.times.clear();
  batch_.values.type = chunk_.header.data_type;
  batch_.values.Clear();
  const Statistics& statistics = page.header.statistics.has_value() ? *page.header.statistics : chunk_meta_->statistics;
  if (page.header.is_empty() || !range_.Overlaps(statistics)) return true;
  const uint32_t count = PageRowCount(page, chunk_meta_->statistics);
  TSREAD_RETURN_IF_ERROR(DecodeNonAlignedPage(chunk_.header, page, count, limits_, scratch_, batch_.times, batch_.values));
  TSREAD_RETURN_IF_ERROR(CheckPageTimes(chunk_.header, page, batch_.times, chunk_meta_->statistics, chunk_last_time_));
  if (!batch_.times.empty()) chunk_last_time_ = batch_.times.back();
  if (!range_.Covers(statistics)) KeepRowsInRange(range_, batch_.times, std::span<ColumnVector>(&batch_.values, 1));
  return true;
}

absl::StatusOr<const SeriesBatch*> SeriesReader::Next() {
  if (aligned_) {
    TSREAD_ASSIGN_OR_RETURN(bool has_page, aligned_reader_.NextPage(batch_.times, aligned_columns_));
    if (!has_page) return static_cast<const SeriesBatch*>(nullptr);
    std::swap(batch_.values, aligned_columns_[0]);
    return &batch_;
  }
  TSREAD_ASSIGN_OR_RETURN(bool has_page, NextNonAlignedPage());
  if (!has_page) return static_cast<const SeriesBatch*>(nullptr);
  return &batch_;
}

}  // namespace tsread
