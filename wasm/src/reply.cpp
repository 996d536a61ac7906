#include "reply.hpp"

#include <cstring>

#include "heteropipe/text/error_text.hpp"

namespace heteropipe::wasm {
namespace {

// Given-back replies, kept with their capacity for the next calls. Only one
// reply is alive at a time (the wrapper reads and releases each before any
// other call), so a few are plenty.
std::vector<std::unique_ptr<Kept>> spare;
constexpr std::size_t kSpare = 4;
constexpr std::size_t kRecordsKept = 64 * kRecordDoubles;
// Room for the texts of a reply of five errors (check, read_request), so that
// no ordinary reply grows a reused one.
constexpr std::size_t kTextsKept = 2048;

// Where small replies are copied, whole. Like the small staging area
// (request.hpp), it is used from the moment an operation writes its reply to
// the moment the wrapper has read it, and no other call can start in between.
constexpr std::size_t kSharedDoubles = 2048;
alignas(double) double shared[kSharedDoubles];

// The table of field names (field_name): open addressing over the texts'
// FNV-1a hashes. Its room is far beyond every visitor's names together.
constexpr std::size_t kNameSlots = 2048;  // a power of two; at most half are filled
constexpr std::size_t kNameBytes = 32 * 1024;
// All zeros until filled, so the table takes no room in the module's file.
struct NameSlot {
  std::uint32_t at = 0, length = 0;  // the text in name_bytes; length 0: empty slot
  double index = 0;
};
NameSlot name_slots[kNameSlots];
char name_bytes[kNameBytes];
std::size_t names_used = 0, name_bytes_used = 0;

std::uint32_t hash_of(std::string_view name) {
  std::uint32_t h = 2166136261u;
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return h;
}

bool is(const double* record, Kind kind) { return record[0] == static_cast<double>(kind); }

void give_back(std::unique_ptr<Kept> kept) {
  // One that grew for a large reply is not worth keeping.
  if (spare.size() == kSpare || kept->records.size() > kRecordsKept || kept->texts.capacity() > 2 * kTextsKept) {
    return;
  }
  kept->used = 0;
  kept->texts.clear();
  kept->lists.clear();
  kept->result.reset();
  spare.push_back(std::move(kept));
}

// The doubles a reply takes in the shared area: its head, its records,
// their lists and its texts.
std::size_t shared_size(const Kept& kept) {
  const double* records = kept.records.data();
  std::size_t size = 4 + kept.used + (kept.texts.size() + sizeof(double) - 1) / sizeof(double);
  for (std::size_t at = 0; at < kept.used && size <= kSharedDoubles; at += kRecordDoubles) {
    if (is(records + at, Kind::list)) size += static_cast<std::size_t>(records[at + 4]);
  }
  return size;
}

// Copies a reply that fits into the shared area, pointing the records at the
// copies. Text records still hold offsets into kept.texts.
void copy_to_shared(const Kept& kept, double status) {
  const double* records = kept.records.data();
  const std::size_t used = kept.used;
  double* record = shared + 4;
  double* data = record + used;
  std::memcpy(record, records, used * sizeof(double));
  for (std::size_t at = 0; at < used; at += kRecordDoubles) {
    if (!is(records + at, Kind::list)) continue;
    const auto* list = reinterpret_cast<const double*>(static_cast<std::uintptr_t>(records[at + 3]));
    const auto length = static_cast<std::size_t>(records[at + 4]);
    if (length > 0) std::memcpy(data, list, length * sizeof(double));
    record[at + 3] = address_of(data);
    data += length;
  }
  std::memcpy(data, kept.texts.data(), kept.texts.size());
  for (std::size_t at = 0; at < used; at += kRecordDoubles) {
    if (is(records + at, Kind::text)) record[at + 3] += address_of(data);
  }
  new (shared) Reply{status, address_of(record), static_cast<double>(used / kRecordDoubles), 0};
}

}  // namespace

std::unique_ptr<Kept> new_reply() {
  if (spare.empty()) {
    auto kept = std::make_unique<Kept>();
    kept->records.resize(kRecordsKept);
    kept->texts.reserve(kTextsKept);
    return kept;
  }
  auto kept = std::move(spare.back());
  spare.pop_back();
  return kept;
}

FieldName field_name(std::string_view name) {
  for (std::size_t k = hash_of(name) & (kNameSlots - 1);; k = (k + 1) & (kNameSlots - 1)) {
    NameSlot& slot = name_slots[k];
    if (slot.length == 0) {
      // A name not met before (an empty name, an objects list's item, is never kept).
      if (name.empty() || 2 * (names_used + 1) > kNameSlots || name_bytes_used + name.size() > kNameBytes) {
        return {-1, name.data()};
      }
      std::memcpy(name_bytes + name_bytes_used, name.data(), name.size());
      slot = {static_cast<std::uint32_t>(name_bytes_used), static_cast<std::uint32_t>(name.size()),
              static_cast<double>(names_used++)};
      name_bytes_used += name.size();
    }
    const std::string_view kept(name_bytes + slot.at, slot.length);
    if (kept == name) return {slot.index, kept.data()};
  }
}

void Writer::operator()(std::string_view name, std::string_view x) {
  // Where the text starts in kept_.texts; finish() makes it an address, once
  // the texts no longer move.
  put(Kind::text, name, static_cast<double>(kept_.texts.size()), static_cast<double>(x.size()));
  kept_.texts.append(x);
}

void Writer::put(Kind kind, std::string_view name, double a, double b) {
  auto& records = kept_.records;
  const std::size_t at = kept_.used;
  if (records.size() < at + kRecordDoubles) records.resize(2 * records.size());
  kept_.used += kRecordDoubles;
  double* r = records.data() + at;
  const FieldName field = field_name(name);
  r[0] = static_cast<double>(kind);
  r[1] = field.index;
  r[2] = static_cast<double>(name.size());
  r[3] = a;
  r[4] = b;
  r[5] = address_of(field.text);
}

std::size_t Writer::open(Kind kind, std::string_view name) {
  const std::size_t at = kept_.used;
  put(kind, name, 0);
  return at;
}

void Writer::close(std::size_t at) {
  kept_.records[at + 3] = static_cast<double>((kept_.used - at) / kRecordDoubles - 1);
}

bool fits_shared(const Kept& kept) { return shared_size(kept) <= kSharedDoubles; }

double finish(std::unique_ptr<Kept> kept, double status) {
  if (fits_shared(*kept)) {
    copy_to_shared(*kept, status);
    give_back(std::move(kept));
    return address_of(shared);
  }
  double* records = kept->records.data();
  const double texts = address_of(kept->texts.data());
  for (std::size_t at = 0; at < kept->used; at += kRecordDoubles) {
    if (is(records + at, Kind::text)) records[at + 3] += texts;
  }
  Kept* owner = kept.release();
  owner->head = Reply{status, address_of(records), static_cast<double>(owner->used / kRecordDoubles), address_of(owner)};
  return address_of(&owner->head);
}

double refuse(const Error& error) {
  auto kept = new_reply();
  Writer writer(*kept);
  visit_fields(error, writer);
  return finish(std::move(kept), -1);
}

double refuse(const std::vector<Error>& errors) {
  auto kept = new_reply();
  Writer writer(*kept);
  visit_fields(errors.front(), writer);
  writer("errors", objects(errors));
  return finish(std::move(kept), -1);
}

void release(double kept) {
  give_back(std::unique_ptr<Kept>(reinterpret_cast<Kept*>(static_cast<std::uintptr_t>(kept))));
}

}  // namespace heteropipe::wasm
