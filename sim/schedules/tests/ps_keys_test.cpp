// BytePS's partition keys and servers (sim/schedules/ps_keys.h): djb2 over the key's decimal digits, keys
// declared in the sorted order of the parameter names, partition i of key d at (d << 16) + i.
#include <gtest/gtest.h>

#include "sim/schedules/ps_keys.h"
#include "tests/fixtures.h"

namespace scalecast {
namespace {

TEST(PsKeys, Djb2OverDecimalDigits) {
  EXPECT_EQ(byteps_key_hash(0), 5381u * 33 + '0');  // "0": 177621
  // "65536": ((((5381*33+'6')*33+'5')*33+'5')*33+'3')*33+'6'
  std::uint64_t h = 5381;
  for (const char c : std::string("65536")) h = h * 33 + static_cast<std::uint64_t>(c);
  EXPECT_EQ(byteps_key_hash(65536), h);
  EXPECT_EQ(byteps_key_hash(65536), 210653553582u);
}

// Layers 0, 1, 2 hold c.weight (10 MB), a.weight and b.weight (1 MB each): backward takes b, a,
// c; names declare a = 0, b = 1, c = 2. In 4 MB partitions over 4 servers: b's one partition
// has key 65536 (server 2), a's key 0 (server 1), c's three keys 131072..131074 (servers 3, 0,
// 1), each djb2 % 4. Fused into one message, the three are declared as a: keys 0, 1, 2.
TEST(PsKeys, ServersFollowNameOrderAndPartitionKeys) {
  Workload w = testing::uniform_workload(3, 1e6);
  w.layers[0].grads[0] = {"c.weight", 2500000, 10000000};
  w.layers[1].grads[0].name = "a.weight";
  w.layers[2].grads[0].name = "b.weight";
  const std::vector<Message> per_tensor = {{1e6, 2, 2, 1}, {1e6, 1, 1, 1}, {10e6, 0, 0, 1}};
  EXPECT_EQ(byteps_servers(w, per_tensor, 4e6, 4), (std::vector<int>{2, 1, 3, 0, 1}));
  const std::vector<Message> fused = {{12e6, 0, 2, 3}};
  EXPECT_EQ(byteps_servers(w, fused, 4e6, 4), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(byteps_servers(w, fused, 4e6, 1), (std::vector<int>{0, 0, 0}));
  // Messages that do not carry the workload's tensors are a caller's bug.
  EXPECT_THROW(byteps_servers(w, {{12e6, 0, 2, 4}}, 4e6, 4), std::logic_error);
}

}  // namespace
}  // namespace scalecast
