// Device-mapping rows from the CSV that `deeptune measure` writes: labels, ties, the device pair.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "data/datasets.hpp"

namespace deeptune::data {

/// A device a measured data set decides between, as `deeptune devices` names it.
struct MeasuredDevice {
  std::string name;  ///< CL_DEVICE_NAME
  std::string type;  ///< "CPU", "GPU", "ACCELERATOR", ...
};

/// A measure CSV read as device-mapping data. Rows keep the paper's two slots: `oracle` "CPU"
/// means devices[0] is the faster, "GPU" devices[1]; runtimeCpu/runtimeGpu are devices[0]/[1]'s
/// median kernel + copy times in ms. When the devices are one CPU and one GPU, devices[0] is the
/// CPU, so the slots mean what they say; otherwise they are the devices in column order.
struct MeasuredDevmap {
  std::array<MeasuredDevice, 2> devices;
  std::vector<DevmapRow> rows;       ///< src: the measured file's text; the static counts are 0
  std::vector<std::string> kernels;  ///< per row: the kernel's name (benchmark after its last ':')
  size_t skipped = 0;                ///< rows without two usable timings (status or an empty cell)
};

/// Whether `header` is a measure CSV's (it has dev0_name and dev0_total_ns columns).
bool isMeasureCsvHeader(const std::vector<std::string>& header);

/// The statuses whose timings mean something for device mapping: OK, INPUT_INSENSITIVE,
/// NONDETERMINISTIC (atomics), DEVICES_DISAGREE (rounding). NO_OUTPUT and the failures are not.
bool isUsableStatus(const std::string& status);

/// Reads a measure CSV (runtime/README.md, "The measure CSV") with exactly two devices. A row is
/// kept when both devices have a usable status and timings, and it has a transfer and a
/// work-group size; its label is the faster device by median total time, and it is a tie when
/// the two 95% intervals of the medians overlap. Throws DataError (file:line:col) for a file
/// that is not a measure CSV, one with one device or more than two, a malformed number, or no
/// usable row at all.
MeasuredDevmap readMeasuredDevmapCsv(const std::string& path);

struct CsvTable;
/// readMeasuredDevmapCsv() of a table already read.
MeasuredDevmap measuredDevmap(const CsvTable& table);

}  // namespace deeptune::data
