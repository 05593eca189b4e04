// ALTER COLUMN ... SET DATA TYPE (iotdb-data-directories.md, "Schema changes"): IoTDB's files keep
// the type a column had when they were written, and a read casts each file's values to the table's
// type (SeriesScanUtil#getTransferedDataTypeTsBlock). The table's type lives in IoTDB's catalog,
// not in the files; from the files alone it is the one type every file's type casts to — a column
// altered INT32 -> DOUBLE has INT32 and DOUBLE files, read as DOUBLE. Where several types qualify
// (STRING and TEXT cast to each other) the newest file's is taken.
#ifndef TSREAD_IOTDB_ALTERED_TYPES_H_
#define TSREAD_IOTDB_ALTERED_TYPES_H_

#include <optional>
#include <vector>

#include "tsread/common/tsfile_enums.h"

namespace tsread::iotdb {

// Whether IoTDB reads values written as `from` in a column of type `to` (apache/tsfile
// TSDataType.compatibleTypes; every type casts to itself).
bool CastsTo(DataType from, DataType to);

// The type a column read from files of `types` (in the data set's file order, newest last) has:
// the one every type casts to, the latest file's among several; nullopt when none does (the
// column's types cannot come from ALTER COLUMN: an error, as for plain files).
std::optional<DataType> AlteredType(const std::vector<DataType>& types);

}  // namespace tsread::iotdb

#endif  // TSREAD_IOTDB_ALTERED_TYPES_H_
