// tsread_sql (tools/sql.sh), the bundled shell: every type DuckDB can return prints as DuckDB
// prints it (before, the timestamp variants, UUID, BIT, TIMETZ and VARINT printed blank and
// `SELECT uuid()` crashed), and every statement runs and reports even after one fails.
#include <cstdio>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/fixtures.h"

namespace tsread::testing {
namespace {

using ::testing::HasSubstr;

struct ShellRun {
  std::string out;  // stdout and stderr
  int status = -1;
};

ShellRun Sql(const std::string& args) {
  ShellRun run;
  const std::string command = std::string(TSREAD_SQL_PATH) + " --csv " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) run.out.append(buffer, n);
  run.status = pclose(pipe);
  return run;
}

TEST(SqlHostTest, EveryTypePrintsItsValue) {
  const ShellRun run = Sql(
      "\"SELECT uuid() IS NOT NULL AS ok, '2024-01-01 10:00:00.123456789'::TIMESTAMP_NS AS ns, "
      "TIMESTAMP_S '2024-01-01 00:00:01' AS s, TIMESTAMP_MS '2024-01-01 00:00:01.5' AS ms, "
      "TIMESTAMPTZ '2024-01-01 00:00:00+08' AS tz, '10:00:00+02'::TIMETZ AS ttz, '0101'::BIT AS b, "
      "12345678901234567890123::VARINT AS v, 'ba10583e-aeb5-4f4f-833d-126574ebbf6f'::UUID AS u, [1, 2] AS l\"");
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(run.out,
            "ok,ns,s,ms,tz,ttz,b,v,u,l\n"
            "true,2024-01-01 10:00:00.123456789,2024-01-01 00:00:01,2024-01-01 00:00:01.5,2023-12-31 16:00:00+00,"
            "10:00:00+02,0101,12345678901234567890123,ba10583e-aeb5-4f4f-833d-126574ebbf6f,\"[1, 2]\"\n");
}

TEST(SqlHostTest, UuidDoesNotCrash) {
  const ShellRun run = Sql("\"SELECT uuid() AS u\"");
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(run.out.size(), std::string("u\n").size() + 36 + 1) << run.out;
}

TEST(SqlHostTest, EveryStatementReportsAndAFailureSetsTheStatus) {
  const ShellRun run = Sql("\"SELECT 1 AS a\" \"SELECT nonsense\" \"SELECT 2 AS b\"");
  EXPECT_NE(run.status, 0);
  EXPECT_THAT(run.out, HasSubstr("a\n1\n"));
  EXPECT_THAT(run.out, HasSubstr("Error: "));
  EXPECT_THAT(run.out, HasSubstr("b\n2\n"));
}

TEST(SqlHostTest, TsfileTimesPrintInTheSessionTimeZone) {
  const std::string file = FixturePath("table_alltypes.tsfile");
  const ShellRun run = Sql("\"SET TimeZone = 'Asia/Shanghai'\" \"SELECT min(time) AS t FROM read_tsfile('" + file + "')\"");
  EXPECT_EQ(run.status, 0) << run.out;
  // 1699999999851 ms = 2023-11-14 22:13:19.851 UTC.
  EXPECT_THAT(run.out, HasSubstr("t\n2023-11-15 06:13:19.851+08\n"));
}

}  // namespace
}  // namespace tsread::testing
