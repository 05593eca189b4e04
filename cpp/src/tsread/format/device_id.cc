#include "tsread/format/device_id.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "tsread/format/string_order.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

// Java's StringArrayDeviceID drops trailing null segments and turns an empty id into [""] (§2.2).
void Formalize(std::vector<std::optional<std::string>>& segments) {
  while (!segments.empty() && !segments.back().has_value()) segments.pop_back();
}

// WriteUtils.compareStrings: null before any string.
int CompareNullable(const NullableView& a, const std::optional<std::string>& b) {
  if (!a.has_value()) return b.has_value() ? -1 : 0;
  if (!b.has_value()) return 1;
  return CompareJavaStrings(*a, *b);
}

}  // namespace

DeviceId::DeviceId(std::vector<std::optional<std::string>> segments) : segments_(std::move(segments)) {
  Formalize(segments_);
}

DeviceId DeviceId::Plain(std::string path) {
  DeviceId id;
  id.segments_.emplace_back(std::move(path));
  id.plain_ = true;
  return id;
}

std::optional<std::string_view> DeviceId::segment(size_t i) const {
  if (i >= segments_.size() || !segments_[i].has_value()) return std::nullopt;
  return std::string_view(*segments_[i]);
}

std::string_view DeviceId::table_name() const {
  std::optional<std::string_view> first = segment(0);
  return first.has_value() ? *first : std::string_view();
}

std::string DeviceId::ToString() const {
  std::string out;
  for (size_t i = 0; i < segments_.size(); ++i) {
    if (i > 0) out.push_back('.');
    if (segments_[i].has_value()) {
      out.append(*segments_[i]);
    } else {
      out.append("null");
    }
  }
  return out;
}

NullableView DeviceIdView::first_segment() const {
  if (plain_) return NullableView(bytes_);
  if (segment_count_ == 0) return NullableView(std::string_view());
  ByteStream in(bytes_, 0);
  return *in.ReadNullableVarString("device id segment");
}

DeviceId DeviceIdView::ToOwned() const {
  if (plain_) return DeviceId::Plain(std::string(bytes_));
  std::vector<std::optional<std::string>> segments;
  segments.reserve(segment_count_ == 0 ? 1 : segment_count_);
  if (segment_count_ == 0) segments.emplace_back(std::string());
  ForEachSegment([&](NullableView s) {
    if (s.has_value()) {
      segments.emplace_back(std::string(*s));
    } else {
      segments.emplace_back(std::nullopt);
    }
  });
  return DeviceId(std::move(segments));
}

std::string DeviceIdView::ToString() const { return ToOwned().ToString(); }

absl::StatusOr<DeviceIdView> ReadDeviceIdView(ByteStream& in, uint8_t version) {
  DeviceIdView view;
  if (version == 3) {
    TSREAD_ASSIGN_OR_RETURN(view.bytes_, in.ReadVarString("V3 device path"));
    view.plain_ = true;
    view.segment_count_ = 1;
    return view;
  }
  const uint64_t start = in.offset();
  TSREAD_ASSIGN_OR_RETURN(uint32_t count, in.ReadUVarSize("device id segment count"));
  // Every segment takes at least its one-byte length: check before walking them (against the
  // whole span: a window onto it loads more when the segments run past what it holds).
  if (count > in.remaining_in_span()) {
    return absl::DataLossError(absl::StrCat("corrupt device id at offset ", start, ": ", count,
                                            " segments cannot fit in the ", in.remaining_in_span(),
                                            " bytes that remain"));
  }
  const std::string_view rest = in.rest();
  const size_t before = in.position();
  TSREAD_RETURN_IF_ERROR(in.SkipNullableVarStrings(count, "device id segment"));
  view.bytes_ = rest.substr(0, in.position() - before);
  view.segment_count_ = count;
  return view;
}

absl::StatusOr<DeviceId> ReadDeviceId(ByteStream& in, uint8_t version) {
  TSREAD_ASSIGN_OR_RETURN(DeviceIdView view, ReadDeviceIdView(in, version));
  return view.ToOwned();
}

int CompareDeviceIds(const DeviceIdView& a, const DeviceId& b) {
  if (a.is_plain() || b.is_plain()) {
    // V3: plain path bytes (§13 item 11).
    const NullableView pa = a.first_segment();
    const std::string_view sa = pa.has_value() ? *pa : std::string_view();
    const std::string_view sb = b.table_name();
    return sa < sb ? -1 : (sa > sb ? 1 : 0);
  }
  const auto& segments = b.segments();
  // An id with zero segments reads as [""] in Java.
  static const std::vector<std::optional<std::string>> kEmptyId = {std::string()};
  const auto& bs = segments.empty() ? kEmptyId : segments;
  int result = 0;
  size_t i = 0;
  bool a_has_trailing_value = false;  // a non-null segment of `a` beyond the end of `b`
  if (a.segment_count() == 0) {
    result = CompareNullable(NullableView(std::string_view()), bs[0]);
    if (result != 0) return result;
    return bs.size() > 1 ? -1 : 0;
  }
  a.ForEachSegment([&](NullableView s) {
    if (result != 0) return;
    if (i < bs.size()) {
      result = CompareNullable(s, bs[i]);
    } else if (s.has_value()) {
      a_has_trailing_value = true;
    }
    ++i;
  });
  if (result != 0) return result;
  if (i < bs.size()) return -1;   // a is a proper prefix of b (b has no trailing nulls)
  return a_has_trailing_value ? 1 : 0;
}

}  // namespace tsread
