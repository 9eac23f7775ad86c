// Device-mapping rows from the CSV that `deeptune measure` writes: labels, ties, the device pair.
#include "data/measured_devmap.hpp"

#include <algorithm>
#include <optional>

#include "data/csv_reader.hpp"

namespace deeptune::data {
namespace {

/// The columns of one device in the measure CSV.
struct DeviceColumns {
  size_t name, type, status, total, ciLow, ciHigh;
};

DeviceColumns deviceColumns(const CsvTable& t, int index) {
  const std::string prefix = "dev" + std::to_string(index) + "_";
  return {t.column(prefix + "name"),      t.column(prefix + "type"),
          t.column(prefix + "status"),    t.column(prefix + "total_ns"),
          t.column(prefix + "ci_low_ns"), t.column(prefix + "ci_high_ns")};
}

/// Field (row, col) as a number > 0, or nullopt when empty.
std::optional<double> optionalPositive(const CsvTable& t, size_t row, size_t col) {
  if (t.rows[row][col].empty()) return std::nullopt;
  const double value = t.doubleAt(row, col);
  if (!(value > 0)) {
    throw t.errorAt(row, col, "expected a number > 0, found " + quoteValue(t.rows[row][col]));
  }
  return value;
}

/// A device's median total time and its interval (ns), when its status is usable.
struct Timing {
  double total, low, high;
};

std::optional<Timing> usableTiming(const CsvTable& t, size_t row, const DeviceColumns& c) {
  if (!isUsableStatus(t.rows[row][c.status])) return std::nullopt;
  const auto total = optionalPositive(t, row, c.total);
  if (!total) return std::nullopt;
  const auto low = optionalPositive(t, row, c.ciLow);
  const auto high = optionalPositive(t, row, c.ciHigh);
  return Timing{*total, low.value_or(*total), high.value_or(*total)};
}

}  // namespace

bool isMeasureCsvHeader(const std::vector<std::string>& header) {
  const auto has = [&](const char* name) {
    return std::find(header.begin(), header.end(), name) != header.end();
  };
  return has("dev0_name") && has("dev0_total_ns");
}

bool isUsableStatus(const std::string& status) {
  return status == "OK" || status == "INPUT_INSENSITIVE" || status == "NONDETERMINISTIC" ||
         status == "DEVICES_DISAGREE";
}

MeasuredDevmap readMeasuredDevmapCsv(const std::string& path) {
  return measuredDevmap(readCsv(path));
}

MeasuredDevmap measuredDevmap(const CsvTable& t) {
  if (!isMeasureCsvHeader(t.header)) {
    throw DataError(t.source, t.headerLine, 1,
                    "not a measure CSV (no dev0_name and dev0_total_ns columns)");
  }
  int deviceCount = 0;
  while (t.findColumn("dev" + std::to_string(deviceCount) + "_name")) ++deviceCount;
  if (deviceCount != 2) {
    std::string names;
    if (!t.rows.empty()) {
      for (int d = 0; d < deviceCount; ++d) {
        names += (d ? ", " : "") + t.rows[0][*t.findColumn("dev" + std::to_string(d) + "_name")];
      }
    }
    throw DataError(t.source, t.headerLine, 1,
                    "device mapping decides between two devices; this measure CSV has " +
                        std::to_string(deviceCount) + (names.empty() ? "" : " (" + names + ")") +
                        ": measure on a machine with two (e.g. POCL_DEVICES=\"pthread basic\")");
  }
  std::array<DeviceColumns, 2> columns = {deviceColumns(t, 0), deviceColumns(t, 1)};
  const size_t cBenchmark = t.column("benchmark"), cGsize = t.column("gsize");
  const size_t cWgsize = t.column("wgsize"), cTransfer = t.column("transfer");
  const size_t cSrc = t.column("src");

  MeasuredDevmap out;
  if (t.rows.empty()) throw DataError(t.source, t.headerLine, 1, "no rows");
  for (int d = 0; d < 2; ++d) {
    out.devices[d] = {t.rows[0][columns[d].name], t.rows[0][columns[d].type]};
  }
  if (out.devices[0].type == "GPU" && out.devices[1].type == "CPU") {
    std::swap(out.devices[0], out.devices[1]);
    std::swap(columns[0], columns[1]);
  }
  if (out.devices[0].name == out.devices[1].name) {
    throw DataError(t.source, t.headerLine, 1,
                    "both devices are called '" + out.devices[0].name + "'");
  }
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const auto& row = t.rows[r];
    for (int d = 0; d < 2; ++d) {
      if (row[columns[d].name] != out.devices[d].name) {
        throw t.errorAt(r, columns[d].name,
                        "another device than the first row's ('" + out.devices[d].name + "')");
      }
    }
    const auto a = usableTiming(t, r, columns[0]);
    const auto b = usableTiming(t, r, columns[1]);
    if (!a || !b || row[cTransfer].empty() || row[cWgsize].empty() || row[cSrc].empty()) {
      ++out.skipped;
      continue;
    }
    DevmapRow d;
    d.index = static_cast<int>(r);
    d.benchmark = row[cBenchmark];
    d.dataset = row[cGsize];
    d.comp = d.rational = d.mem = d.localmem = d.coalesced = d.atomic = 0;
    d.transfer = t.doubleAt(r, cTransfer);
    if (!(d.transfer >= 0)) throw t.errorAt(r, cTransfer, "expected a number >= 0");
    const long long wgsize = t.intAt(r, cWgsize);
    if (wgsize < 1 || wgsize > (1 << 24)) {
      throw t.errorAt(r, cWgsize, "expected a work-group size from 1 to 2^24");
    }
    d.wgsize = static_cast<int>(wgsize);
    d.runtimeCpu = a->total / 1e6;
    d.runtimeGpu = b->total / 1e6;
    d.oracle = a->total <= b->total ? "CPU" : "GPU";
    d.tie = a->low <= b->high && b->low <= a->high;
    d.src = row[cSrc];
    const size_t colon = d.benchmark.rfind(':');
    out.kernels.push_back(colon == std::string::npos ? "" : d.benchmark.substr(colon + 1));
    out.rows.push_back(std::move(d));
  }
  if (out.rows.empty()) {
    throw DataError(t.source, t.headerLine, 1,
                    "no row has usable timings on both devices (" + std::to_string(out.skipped) +
                        " rows skipped: a failed status, NO_OUTPUT, or an empty timing)");
  }
  return out;
}

}  // namespace deeptune::data
