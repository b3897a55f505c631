// The compute model against published single-GPU and single-node training throughput
// (validation/data/single-gpu/throughput.csv): each expressible row (a catalog GPU, a zoo model or
// shape, a modelled precision; one GPU, or data-parallel GPUs of one node) predicted zero-shot by
// the compute model (and a node's exposed gradient traffic), with the error per GPU generation and
// per precision.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace scalecast::validation {

struct SingleGpuCase {
  int line = 0;               // in throughput.csv
  std::string source, gpu, model, model_as_published, precision, unit;
  std::string parallelism, attention, checkpointing;  // single|ddp|fsdp|..., eager|fused, none|full|...
  std::string memory_format = "channels_first";  // a CNN's activations: channels_first (NCHW) or channels_last
  std::string kernels = "eager";  // RMSNorm and rotary op by op (eager) or one kernel each (fused)
  std::string loss = "eager";     // the cross-entropy loss over fp32 logits (eager) or one kernel (fused)
  std::string attention_kernel = "flash2";  // the fused attention kernel's generation: flash2 or flash1
  std::string mixed_precision = "half";  // half-width runs: weights held half (half) or fp32 (autocast)
  std::string sequence_lengths;  // the data's length histogram, batches padded to their longest ("": none)
  int sequence_bin = 0;          // tokens per bin of lengths a batch is drawn from (0: one bin)
  std::string head;              // BERT: pretraining ("" too) or question-answering (SQuAD fine-tuning)
  int mlm_positions = 0;         // BERT pretraining: masked positions the MLM head predicts (0: every token)
  int gpus = 1, nodes = 1, batch = 0, seq_len = 0, vocab = 0;
  int accumulation = 1;       // micro-batches of `batch` per optimizer step (and gradient sync)
  double published = 0;       // samples/s of one GPU (tokens/s converted by the sequence length)
  double predicted = 0;       // samples/s
  bool expressible = false;
  std::string reason;         // why not, when not expressible
  double error() const { return (predicted - published) / published; }
};

struct SingleGpuValidation {
  std::vector<SingleGpuCase> cases;
  // Mean |error| of the expressible rows by a key of each (what: "generation" gives "V100",
  // "precision" "fp16", "family" "resnet", "gpus" "1 GPU"), with their count.
  std::map<std::string, std::pair<double, int>> by(const std::string& what) const;
  // Root-mean-square of log(published / predicted) over the expressible rows: the compute
  // model's spread (sim/prediction/prediction_interval.h, kComputeModelLogRms).
  double log_rms() const;
  // Share of the expressible rows whose published throughput lies inside the interval `predict
  // --interval level_pct` would give them (zero-shot spreads widened by the compute model's).
  double coverage(double level_pct) const;
};

// Reads `folder`/throughput.csv. Throws an InputError naming the file and line of a malformed row.
SingleGpuValidation validate_single_gpu(const std::string& folder);

void write_single_gpu_summary(std::ostream& out, const SingleGpuValidation& v);
// The same, with every row, for report.md.
std::string single_gpu_markdown(const SingleGpuValidation& v);

}  // namespace scalecast::validation
