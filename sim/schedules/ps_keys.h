// Which parameter server each partition goes to: BytePS's keys and its default key hash, so
// that servers carry the uneven loads BytePS gives them.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/schedules/grouping.h"
#include "sim/types/workload.h"

namespace scalecast {

// BytePS's djb2 over the key's decimal digits (byteps/common/global.cc, Hash_DJB2).
std::uint64_t byteps_key_hash(std::uint64_t key);

// The server of every partition of `messages` (grouped from `workload`'s gradients, in
// partition_messages() order). BytePS's DistributedOptimizer declares its gradients in the
// sorted order of their parameter names (byteps/torch/__init__.py), the d-th getting key d;
// partition i of a tensor has key (d << 16) + i (common/operations.cc) and goes to server
// hash(key) % servers (global.cc EncodeDefaultKey; BYTEPS_KEY_HASH_FN's default, djb2). BytePS
// v0.2.3-v0.2.5. A message of several tensors is declared as the first of them in that order.
std::vector<int> byteps_servers(const Workload& workload, const std::vector<Message>& messages,
                                double partition_bytes, int servers);

}  // namespace scalecast
