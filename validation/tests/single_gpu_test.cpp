// The single-GPU compute table: rows become one-GPU scenarios (tokens/s per sequence, shapes by
// `gpt:`/`llama:`), rows that cannot be expressed say why, and the shipped table is predicted.
#include "validation/single_gpu.h"

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
         "software,note\n"
         "s,h100,H100,1,llama:2/256/4/512/2,tiny,bf16,4,128,5120,tokens/s,x,\n"
         "s,v100-sxm2,V100,1,resnet50,RN50,bf16,64,,400,images/s,x,\n"
         "s,a100,A100,8,resnet50,RN50,fp16,256,,20000,images/s,x,\n"
         "s,a100,A100,1,alexnet,AlexNet,fp16,256,,9000,images/s,x,\n";
  const SingleGpuValidation v = validate_single_gpu(dir);
  ASSERT_EQ(v.cases.size(), 4u);
  EXPECT_TRUE(v.cases[0].expressible) << v.cases[0].reason;
  EXPECT_DOUBLE_EQ(v.cases[0].published, 40);  // 5120 tokens/s of 128-token sequences
  EXPECT_GT(v.cases[0].predicted, 0);
  EXPECT_EQ(v.cases[1].reason, "bf16 on v100-sxm2");
  EXPECT_NE(v.cases[2].reason.find("8 GPUs"), std::string::npos);
  EXPECT_NE(v.cases[3].reason.find("not in the zoo"), std::string::npos);
}

TEST(SingleGpu, TheShippedTableIsPredictedPerGeneration) {
  const SingleGpuValidation v = validate_single_gpu(std::string(SCALECAST_SOURCE_DIR) + "/validation/data/single-gpu");
  EXPECT_GE(v.cases.size(), 160u);
  EXPECT_GE(v.by("generation").size(), 2u);
  for (const auto& [generation, figure] : v.by("generation")) EXPECT_GT(figure.second, 0) << generation;
}

}  // namespace
}  // namespace scalecast::validation
