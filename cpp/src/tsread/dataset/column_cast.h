// CastColumn: a column's values read as another type — how a caller reads files that stored a
// column with an older type (IoTDB's ALTER COLUMN ... SET DATA TYPE, iotdb/altered_types.h decides
// which casts are allowed; IoTDB's SeriesScanUtil#getTransferedDataTypeTsBlock is the reference):
//  - numbers widen as Java's casts do: INT32 -> INT64 / FLOAT / DOUBLE / TIMESTAMP, INT64 and
//    TIMESTAMP -> DOUBLE, INT64 <-> TIMESTAMP, FLOAT -> DOUBLE;
//  - anything -> TEXT / STRING as Java's String.valueOf writes it (FLOAT and DOUBLE as
//    Float/Double.toString, BOOLEAN "true"/"false", DATE yyyy-MM-dd), TEXT/STRING/BLOB bytes as they are;
//  - TEXT / STRING -> BLOB keep their bytes.
// Any other pair makes every value null (IoTDB's cast branches fill isNull).
#ifndef TSREAD_DATASET_COLUMN_CAST_H_
#define TSREAD_DATASET_COLUMN_CAST_H_

#include "tsread/read/column_vector.h"

namespace tsread {

// Casts `column` to `to` in place (nothing to do when it is of that type already).
void CastColumn(ColumnVector& column, DataType to);

}  // namespace tsread

#endif  // TSREAD_DATASET_COLUMN_CAST_H_
