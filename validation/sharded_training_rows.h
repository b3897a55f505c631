// Rows of validation/data/sharded-training/throughput.csv as scenarios: which published runs can be expressed
// (catalog GPU, gpt or llama shape, sharding preset, stated or assumed network) and the scenario of each.
#pragma once

#include <string>
#include <vector>

namespace scalecast::validation {

// The network a source's rows ran on, stated or assumed once for the source: `nics` NICs of
// `rate_gbps` each per node.
struct SourceNetwork {
  std::string source;
  std::string gpu_family;    // "a100", "h100", "h200": the catalog GPUs whose name starts with it
  std::string as_published;  // the rows' network column ("" where the source does not state it)
  std::string nic;           // a catalog NIC (sim/catalogs/nic_catalog.cpp)
  int nics = 0;
  int rate_gbps = 0;
  bool stated = false;       // false: an assumption
  std::string basis;         // the source's words, or the assumption and its reason
};

// Every source's network, one entry per (source, GPU family, network as published).
const std::vector<SourceNetwork>& source_networks();

// One published row, as read and as expressed.
struct ShardedRow {
  int line = 0;  // in throughput.csv
  // As published.
  std::string source, model, gpu, sharding, checkpointing, precision;
  int gpus = 0;
  double published = 0;  // tokens/s per GPU (0: the row gives none)
  // As expressed; set only for an expressible row.
  bool expressible = false;
  std::string reason;       // why not, when not expressible
  std::string catalog_gpu;  // "a100", "a100-sxm4-40gb", "h100", ...
  std::string method;       // fsdp, fsdp-grad-op, fsdp-hybrid or zero3
  std::string recompute;    // activation checkpointing as the scenario writes it: none, full, selective-op, every-2
  std::string run_precision;  // the scenario's: bf16 or fp8
  std::string shape;        // "gpt 24x2048, 16 heads, FFN 8192, vocab 50368"
  std::string kernels;      // model.kernels: eager or fused ("": the scenario's default)
  std::string loss;         // model.loss: eager or fused ("": the scenario's default, eager)
  std::string reduce_precision;  // model.reduce_precision: fp32 ("": the gradients' own width)
  std::string attention_kernel;  // model.attention_kernel: flash2 or flash1 ("": the default)
  int seq_len = 0, micro_batch = 0, accumulation = 1;
  const SourceNetwork* network = nullptr;
  std::string scenario;     // the scenario file's text
};

// Reads `folder`/throughput.csv. Throws an InputError naming the file, line and column of a
// malformed field.
std::vector<ShardedRow> read_sharded_rows(const std::string& folder);

// The FFN width torchtitan's Llama ModelArgs give a model of width `hidden`: 2/3 x 4 x hidden,
// times `multiplier` (0: none), rounded up to a multiple of `multiple_of`.
int llama_ffn_width(int hidden, double multiplier, int multiple_of);

}  // namespace scalecast::validation
