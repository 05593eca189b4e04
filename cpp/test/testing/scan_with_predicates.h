// Test helper (header-only): scans every table of an in-memory TsFile with value predicates on
// its FIELD columns, so that the statistics verdicts (device, chunk group, page), the chunk header
// reads behind them, the evaluation of predicate columns first and the selection of the rest all
// meet the bytes. Each table is scanned twice on the same reader (the second time with what the
// reader remembered of its chunks' headers), the second time on two threads. Used by the
// corruption sweep and the open_and_scan fuzzer: whatever the bytes, this must return (an error
// or OK), never crash, hang or allocate without bound.
#ifndef TSREAD_TESTING_SCAN_WITH_PREDICATES_H_
#define TSREAD_TESTING_SCAN_WITH_PREDICATES_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "tsread/read/table_scanner.h"
#include "tsread/read/tsfile_reader.h"
#include "tsread/read/value_predicate.h"

namespace tsread::testing {

// A predicate on `column` that binds to its type and, on typical data, keeps some rows and not
// others.
inline ValuePredicate SomeRowsPredicate(const ColumnSchema& column) {
  switch (column.data_type) {
    case DataType::kBoolean: return {column.name, CompareOp::kEq, {true}};
    case DataType::kFloat:
    case DataType::kDouble: return {column.name, CompareOp::kLe, {100.5}};
    case DataType::kText:
    case DataType::kString:
    case DataType::kBlob: return {column.name, CompareOp::kNe, {std::string("a")}};
    default: return {column.name, CompareOp::kGt, {int64_t{20240101}}};  // integers, DATE, TIMESTAMP
  }
}

inline absl::Status ScanWithPredicates(std::string_view bytes) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(MemoryFileView(bytes));
  if (!reader.ok()) return reader.status();
  constexpr size_t kMaxPredicates = 6;  // wide tables: the first FIELD columns are enough
  for (const TableSchema* table : (*reader)->Tables()) {
    std::vector<ValuePredicate> predicates;
    for (const ColumnSchema& column : table->columns) {
      if (column.category == ColumnCategory::kField && predicates.size() < kMaxPredicates) {
        predicates.push_back(SomeRowsPredicate(column));
      }
    }
    if (predicates.empty()) continue;
    for (int threads = 1; threads <= 2; ++threads) {
      ScanOptions options;
      options.table = table->name;
      options.num_threads = threads;
      options.value_predicates.assign(predicates.begin(), predicates.end());
      // A null test too: settled by counts alone, never by a chunk header.
      options.value_predicates.push_back(ValuePredicate{predicates.back().column, CompareOp::kIsNotNull, {}});
      // And an OR of the first two, which statistics settle only where both operands are.
      if (predicates.size() >= 2) options.value_predicates.push_back(PredicateExpr::Or({predicates[0], predicates[1]}));
      absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(**reader, options);
      if (!scanner.ok()) return scanner.status();
      absl::Status s = (*scanner)->Scan([](int, const TableBatch&) { return absl::OkStatus(); });
      if (!s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

}  // namespace tsread::testing

#endif  // TSREAD_TESTING_SCAN_WITH_PREDICATES_H_
