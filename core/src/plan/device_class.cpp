// The names of the device classes, apart from the catalog's tables: the error
// sentences list them, and a program that links those sentences (the pages'
// calculator module) need not carry the catalog.
#include <string>

#include "heteropipe/parse.hpp"
#include "heteropipe/plan/catalog.hpp"

namespace heteropipe {

std::string_view device_class_name(DeviceClass c) {
  switch (c) {
    case DeviceClass::nvidia_gddr: return "nvidia-gddr";
    case DeviceClass::nvidia_hbm: return "nvidia-hbm";
    case DeviceClass::apple: return "apple";
    case DeviceClass::amd_gddr: return "amd-gddr";
    case DeviceClass::amd_hbm: return "amd-hbm";
    case DeviceClass::intel_gddr: return "intel-gddr";
  }
  return "unknown";
}

Result<DeviceClass> device_class_from_name(std::string_view typed) {
  const std::string_view name = typed_value(typed);
  for (DeviceClass c : kDeviceClasses) {
    if (device_class_name(c) == name) return c;
  }
  return Error{ErrorCode::unknown_name, Field::device_class, kWholeField, 0.0, std::string(name)};
}

}  // namespace heteropipe
