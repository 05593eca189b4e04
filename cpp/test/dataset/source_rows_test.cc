// A device's rows held for a merge (dataset/source_rows.h): masks remove rows and cells, and runs
// merge per column by priority — written-out cases, then random runs against a merge written
// here point by point (a map from time to each column's latest non-null value).
#include "tsread/dataset/source_rows.h"

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "gtest/gtest.h"

namespace tsread {
namespace {

// A cell as the tests write it: nullopt is null.
using Value = std::variant<int64_t, double, std::string, bool>;
using Cell = std::optional<Value>;
// The test's columns: INT64, DOUBLE, STRING, BOOLEAN, then a TAG placeholder (no rows).
constexpr size_t kColumns = 5;
const DataType kTypes[kColumns] = {DataType::kInt64, DataType::kDouble, DataType::kString, DataType::kBoolean,
                                   DataType::kString};

struct Row {
  int64_t time;
  std::vector<Cell> cells;  // the first four columns
};

SourceRows MakeRows(const std::vector<Row>& rows) {
  SourceRows out;
  for (const Row& row : rows) out.times.push_back(row.time);
  out.columns.resize(kColumns);
  for (size_t j = 0; j < kColumns; ++j) {
    ColumnVector& c = out.columns[j];
    c.type = kTypes[j];
    if (j == kColumns - 1) {  // the placeholder
      c.Clear();
      continue;
    }
    c.Resize(rows.size());
    std::fill(c.validity.begin(), c.validity.end(), 0);
    c.bytes.clear();
    if (!c.offsets.empty()) c.offsets[0] = 0;
    for (size_t r = 0; r < rows.size(); ++r) {
      const Cell& cell = rows[r].cells[j];
      if (cell.has_value()) c.validity[r / 8] |= static_cast<uint8_t>(1u << (r % 8));
      switch (j) {
        case 0: c.int64s[r] = cell ? std::get<int64_t>(*cell) : 0; break;
        case 1: c.doubles[r] = cell ? std::get<double>(*cell) : 0; break;
        case 2: {
          const std::string text = cell ? std::get<std::string>(*cell) : "";
          c.bytes.insert(c.bytes.end(), text.begin(), text.end());
          c.offsets[r + 1] = static_cast<int32_t>(c.bytes.size());
          break;
        }
        case 3: c.bools[r] = cell ? std::get<bool>(*cell) : 0; break;
      }
    }
    c.FinishValidity();
  }
  return out;
}

// The rows back as the test writes them, checking ColumnVector's rules on the way (a null slot
// holds zero, a null string is empty, the placeholder stays empty).
std::vector<Row> RowsOf(const SourceRows& rows) {
  std::vector<Row> out;
  EXPECT_EQ(rows.columns.size(), kColumns);
  EXPECT_EQ(rows.columns[kColumns - 1].size(), 0u);
  for (size_t r = 0; r < rows.num_rows(); ++r) {
    Row row{rows.times[r], {}};
    for (size_t j = 0; j + 1 < kColumns; ++j) {
      const ColumnVector& c = rows.columns[j];
      EXPECT_EQ(c.size(), rows.num_rows());
      if (!c.IsValid(r)) {
        row.cells.push_back(std::nullopt);
        switch (j) {
          case 0: EXPECT_EQ(c.int64s[r], 0); break;
          case 1: EXPECT_EQ(c.doubles[r], 0); break;
          case 2: EXPECT_EQ(c.binary(r), ""); break;
          case 3: EXPECT_EQ(c.bools[r], 0); break;
        }
        continue;
      }
      switch (j) {
        case 0: row.cells.push_back(Value(c.int64s[r])); break;
        case 1: row.cells.push_back(Value(c.doubles[r])); break;
        case 2: row.cells.push_back(Value(std::string(c.binary(r)))); break;
        case 3: row.cells.push_back(Value(c.bools[r] != 0)); break;
      }
    }
    out.push_back(std::move(row));
  }
  return out;
}

bool operator==(const Row& a, const Row& b) { return a.time == b.time && a.cells == b.cells; }

std::ostream& operator<<(std::ostream& os, const Row& row) {
  os << row.time << ":";
  for (const Cell& cell : row.cells) {
    os << " ";
    if (!cell.has_value()) {
      os << "null";
      continue;
    }
    std::visit([&](const auto& v) { os << v; }, *cell);
  }
  return os;
}

Row R(int64_t time, Cell a, Cell b, Cell c, Cell d) { return Row{time, {a, b, c, d}}; }
Cell I(int64_t v) { return Value(v); }
Cell D(double v) { return Value(v); }
Cell S(const char* v) { return Value(std::string(v)); }
Cell B(bool v) { return Value(v); }
const Cell kNull = std::nullopt;

std::vector<Row> Merged(const std::vector<std::vector<Row>>& runs) {
  std::vector<SourceRows> held;
  for (const std::vector<Row>& run : runs) held.push_back(MakeRows(run));
  std::vector<const SourceRows*> order;
  for (const SourceRows& run : held) order.push_back(&run);
  return RowsOf(MergeRuns(order));
}

// The merge point by point: runs applied lowest priority first, each non-null cell replacing.
std::vector<Row> MergedByHand(const std::vector<std::vector<Row>>& runs) {
  std::map<int64_t, std::vector<Cell>> rows;
  for (const std::vector<Row>& run : runs) {
    for (const Row& row : run) {
      std::vector<Cell>& cells = rows.try_emplace(row.time, std::vector<Cell>(kColumns - 1)).first->second;
      for (size_t j = 0; j + 1 < kColumns; ++j) {
        if (row.cells[j].has_value()) cells[j] = row.cells[j];
      }
    }
  }
  std::vector<Row> out;
  for (auto& [time, cells] : rows) out.push_back(Row{time, cells});
  return out;
}

TEST(SourceRowsTest, MaskRemovesRowsAndNullsCellsOfRowsInTimeOrder) {
  SourceRows rows = MakeRows({R(10, I(1), D(1.5), S("a"), B(true)), R(20, I(2), D(2.5), S("bb"), B(false)),
                              R(30, I(3), kNull, S("c"), B(true)), R(40, I(4), D(4.5), S("dd"), B(true)),
                              R(50, I(5), D(5.5), kNull, B(false)), R(60, I(6), D(6.5), S("f"), B(true))});
  SourceMask mask;
  mask.rows = {{55, 100}, {20, 30}};
  mask.cells = {{{40, 40}}, {}, {{0, 45}}, {}, {}};
  ApplyMask(mask, rows);
  EXPECT_EQ(RowsOf(rows), (std::vector<Row>{R(10, I(1), D(1.5), kNull, B(true)), R(40, kNull, D(4.5), kNull, B(true)),
                                            R(50, I(5), D(5.5), kNull, B(false))}));
}

TEST(SourceRowsTest, MaskRemovesRowsOfChunksThatRepeatTimes) {
  // A file whose later chunk rewrites times: rows out of time order, each checked.
  SourceRows rows = MakeRows({R(10, I(1), kNull, S("a"), kNull), R(20, I(2), kNull, S("b"), kNull),
                              R(30, I(3), kNull, S("c"), kNull), R(15, I(4), kNull, S("d"), kNull),
                              R(25, I(5), kNull, S("e"), kNull)});
  SourceMask mask;
  mask.rows = {{20, 25}};
  mask.cells = {{{30, 30}}, {}, {}, {}, {}};
  ApplyMask(mask, rows);
  EXPECT_EQ(RowsOf(rows), (std::vector<Row>{R(10, I(1), kNull, S("a"), kNull), R(30, kNull, kNull, S("c"), kNull),
                                            R(15, I(4), kNull, S("d"), kNull)}));
}

TEST(SourceRowsTest, LaterRunsRewriteTimesOfTheChainPerColumn) {
  // Two sequence runs one after the other, then two unsequence runs rewriting their times: a later
  // value replaces, a later null does not, and the last run wins where both rewrite.
  const std::vector<std::vector<Row>> runs = {
      {R(1, I(1), D(1), S("s1"), B(false)), R(2, I(2), D(2), S("s2"), B(false))},
      {R(3, I(3), D(3), S("s3"), B(false)), R(4, I(4), kNull, S("s4"), B(false))},
      {R(2, I(20), kNull, S("u2"), kNull), R(4, kNull, D(40), kNull, B(true))},
      {R(2, I(200), kNull, kNull, B(true))},
  };
  const std::vector<Row> want = {R(1, I(1), D(1), S("s1"), B(false)), R(2, I(200), D(2), S("u2"), B(true)),
                                 R(3, I(3), D(3), S("s3"), B(false)), R(4, I(4), D(40), S("s4"), B(true))};
  EXPECT_EQ(Merged(runs), want);
}

TEST(SourceRowsTest, ALaterRunWithNewTimesAddsRows) {
  const std::vector<std::vector<Row>> runs = {
      {R(1, I(1), kNull, S("s1"), kNull), R(3, I(3), kNull, S("s3"), kNull)},
      {R(2, I(20), kNull, kNull, kNull), R(3, kNull, D(30), S("u3"), kNull), R(9, I(90), kNull, kNull, kNull)},
  };
  const std::vector<Row> want = {R(1, I(1), kNull, S("s1"), kNull), R(2, I(20), kNull, kNull, kNull),
                                 R(3, I(3), D(30), S("u3"), kNull), R(9, I(90), kNull, kNull, kNull)};
  EXPECT_EQ(Merged(runs), want);
}

// Random runs in the shapes IoTDB's directories make — a chain of sequence runs with later runs
// rewriting some of their times, sometimes adding a time — and runs at random, against MergedByHand.
TEST(SourceRowsTest, RandomRunsMergeAsPointByPoint) {
  std::mt19937 random(20261207);
  auto chance = [&](int percent) { return static_cast<int>(random() % 100) < percent; };
  auto random_row = [&](int64_t time, int null_percent) {
    Row row{time, {}};
    row.cells.push_back(chance(null_percent) ? kNull : I(static_cast<int64_t>(random() % 1000)));
    row.cells.push_back(chance(null_percent) ? kNull : D(static_cast<double>(random() % 1000) / 4));
    row.cells.push_back(chance(null_percent) ? kNull : Value(std::string(random() % 5, 'a' + random() % 26)));
    row.cells.push_back(chance(null_percent) ? kNull : B(random() % 2 == 1));
    return row;
  };
  for (int round = 0; round < 400; ++round) {
    SCOPED_TRACE(round);
    std::vector<std::vector<Row>> runs;
    const int null_percent = round % 3 == 0 ? 0 : 30;
    std::vector<int64_t> chain_times;
    if (round % 4 != 3) {
      // The chain: runs of consecutive time slices (some empty), times at random in each.
      const size_t chain = 1 + random() % 4;
      for (size_t s = 0; s < chain; ++s) {
        std::vector<Row> run;
        for (int64_t t = static_cast<int64_t>(s) * 100; t < static_cast<int64_t>(s + 1) * 100; ++t) {
          if (chance(round % 2 == 0 ? 30 : 3)) {
            run.push_back(random_row(t, null_percent));
            chain_times.push_back(t);
          }
        }
        runs.push_back(std::move(run));
      }
    }
    const size_t later = random() % 4;
    for (size_t s = 0; s < later; ++s) {
      std::vector<Row> run;
      const bool adds = chance(25) || chain_times.empty();
      for (int64_t t = -10; t < 410; ++t) {
        const bool in_chain = std::binary_search(chain_times.begin(), chain_times.end(), t);
        if ((in_chain && chance(20)) || (adds && chance(2))) run.push_back(random_row(t, null_percent));
      }
      runs.push_back(std::move(run));
    }
    if (runs.empty()) continue;
    EXPECT_EQ(Merged(runs), MergedByHand(runs));
  }
}

}  // namespace
}  // namespace tsread
