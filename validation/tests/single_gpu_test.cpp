// The single-GPU compute table: rows become one-GPU (or one-node) scenarios (tokens/s per
// sequence, shapes by `gpt:`/`llama:`), rows that cannot be expressed say why, and the shipped
// table is predicted.
#include "validation/single_gpu.h"

#include "sim/prediction/prediction_interval.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace scalecast::validation {
namespace {

TEST(SingleGpu, RowsBecomeOneGpuScenariosOrSayWhyNot) {
  const std::string dir = ::testing::TempDir() + "/single-gpu-test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/throughput.csv")
      << "source,gpu,gpu_as_published,gpus,model,model_as_published,precision,batch_per_gpu,seq_len,throughput,unit,"
         "software,note,parallelism,nodes,attention,activation_checkpointing,vocab,memory_format,kernels,"
         "attention_kernel,grad_accum,mixed_precision\n"
         "s,h100,H100,1,llama:2/256/4/512/2,tiny,bf16,4,128,5120,tokens/s,x,,single,1,fused,none,1000,,,,,\n"
         "s,v100-sxm2,V100,1,resnet50,RN50,bf16,64,,400,images/s,x,,single,1,eager,none,,channels_first,,,,\n"
         "s,a100,A100,8,resnet50,RN50,fp16,256,,20000,images/s,x,,tp,1,eager,none,,channels_first,,,,\n"
         "s,a100,A100,1,alexnet,AlexNet,fp16,256,,9000,images/s,x,,single,1,eager,none,,,,,,\n"
         "s,a100,A100,8,resnet50,RN50,fp16,256,,16000,images/s,x,,ddp,1,eager,none,,channels_first,,,,\n"
         "s,a100,A100,16,resnet50,RN50,fp16,256,,32000,images/s,x,,ddp,2,eager,none,,channels_first,,,,\n"
         "s,a100,A100,1,bert-large,BERT,fp16,32,128,300,sentences/s,x,,single,1,eager,full,,,,,,\n"
         "s,a100,A100,1,bert-large,BERT,fp16,32,128,300,sequences/s,x,,single,1,eager,none,,,,,,\n"
         "s,a100,A100,8,resnet50,RN50,fp16,256,,16000,images/s,x,,ddp,1,eager,none,,channels_last,,,,\n"
         "s,h100,H100,1,llama:2/2x6/4/512,tiny,bf16,4,128,5120,tokens/s,x,,single,1,fused,none,1000,,,,,\n"
         "s,a100,A100,1,resnet50,RN50,fp16,256,,2000,images/s,x,,single,1,eager,none,,channels_first,,,,\n"
         "s,a100,A100,1,bert-large,BERT,fp16,32,128,300,sequences/s,x,,single,1,eager,none,,,,,8,\n"
         "s,a100,A100,1,bert-large,BERT,fp16,32,128,300,sequences/s,x,,single,1,eager,none,,,,,,autocast\n";
  const SingleGpuValidation v = validate_single_gpu(dir);
  ASSERT_EQ(v.cases.size(), 13u);
  EXPECT_TRUE(v.cases[0].expressible) << v.cases[0].reason;
  EXPECT_DOUBLE_EQ(v.cases[0].published, 40);  // 5120 tokens/s of 128-token sequences
  EXPECT_GT(v.cases[0].predicted, 0);
  EXPECT_EQ(v.cases[1].reason, "bf16 on v100-sxm2");
  EXPECT_NE(v.cases[2].reason.find("parallelism tp"), std::string::npos) << v.cases[2].reason;
  EXPECT_NE(v.cases[3].reason.find("not in the zoo"), std::string::npos);
  // Data parallelism in one node: one GPU's compute and the gradient all-reduce over NVLink that
  // stays exposed, per GPU: a little slower than the same GPU alone.
  ASSERT_TRUE(v.cases[4].expressible) << v.cases[4].reason;
  EXPECT_DOUBLE_EQ(v.cases[4].published, 2000);
  ASSERT_TRUE(v.cases[10].expressible) << v.cases[10].reason;
  EXPECT_LT(v.cases[4].predicted, v.cases[10].predicted);
  EXPECT_GT(v.cases[4].predicted, 0.9 * v.cases[10].predicted);
  EXPECT_NE(v.cases[5].reason.find("2 nodes"), std::string::npos) << v.cases[5].reason;
  // Sentences are sequences; a checkpointed run recomputes its forward, so it is slower.
  ASSERT_TRUE(v.cases[6].expressible) << v.cases[6].reason;
  ASSERT_TRUE(v.cases[7].expressible) << v.cases[7].reason;
  EXPECT_LT(v.cases[6].predicted, v.cases[7].predicted);
  // Channels-last convolutions skip cuDNN's layout transposes.
  ASSERT_TRUE(v.cases[8].expressible) << v.cases[8].reason;
  EXPECT_GT(v.cases[8].predicted, v.cases[4].predicted);
  // Accumulating 8 micro-batches per step runs the optimizer once for them: more per second.
  ASSERT_TRUE(v.cases[11].expressible) << v.cases[11].reason;
  EXPECT_EQ(v.cases[11].accumulation, 8);
  EXPECT_GT(v.cases[11].predicted, v.cases[7].predicted);
  // Autocast casts the fp32 weights at each use: slower than a model held in fp16.
  ASSERT_TRUE(v.cases[12].expressible) << v.cases[12].reason;
  EXPECT_LT(v.cases[12].predicted, v.cases[7].predicted);
  // A shape that is not whole numbers says which part, as the row's reason.
  EXPECT_EQ(v.cases[9].reason, "shape '2/2x6/4/512': expected whole numbers separated by '/', got '2x6'");
}

TEST(SingleGpu, TheShippedTableIsPredictedPerGeneration) {
  const SingleGpuValidation v = validate_single_gpu(std::string(SCALECAST_SOURCE_DIR) + "/validation/data/single-gpu");
  EXPECT_GE(v.cases.size(), 160u);
  EXPECT_GE(v.by("generation").size(), 4u);
  EXPECT_GE(v.by("precision").size(), 3u);
  EXPECT_GE(v.by("family").size(), 3u);
  for (const auto& [generation, figure] : v.by("generation")) EXPECT_GT(figure.second, 0) << generation;
  // The interval's compute spread is this table's, as measured now (update both together).
  EXPECT_NEAR(v.log_rms(), kComputeModelLogRms, 0.005);
  EXPECT_GE(v.coverage(90), 0.85);
}

}  // namespace
}  // namespace scalecast::validation
