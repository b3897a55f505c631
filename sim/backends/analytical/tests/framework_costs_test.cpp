// Tests of the framework's time per collective outside the transfers: a call cost, and FTlib's
// copies to host memory and back, by hand and through whole runs on both backends.
#include <gtest/gtest.h>

#include "tests/fixtures.h"
#include "sim/backends/analytical/analytical_backend.h"
#include "sim/io/input_error.h"
#include "sim/network/link_capacities.h"
#include "sim/catalogs/mechanisms.h"
#include "sim/schedules/schedule_builder.h"
#include "sim/backends/steady_state.h"

namespace scalecast {
namespace {

TEST(FrameworkCosts, FtlibPaysACallAndTwoPcieCopiesPerTensor) {
  const LinkCapacities l = link_capacities(testing::simple_cluster(2, 1), Strategy{});
  EXPECT_DOUBLE_EQ(l.host_copy_bandwidth.bytes_per_s(), 12e9);  // v100-pcie: PCIe gen3 x16, pinned copies
  const Strategy ftlib = make_preset("ftlib-allreduce");
  EXPECT_TRUE(ftlib.host_staged);
  // 6 MB: 150 us from Python, 0.5 ms to the host and 0.5 ms back.
  EXPECT_NEAR(framework_task_s(l, ftlib, 6e6), 150e-6 + 1e-3, 1e-12);
  const Strategy distml = make_preset("distml-allreduce");
  EXPECT_DOUBLE_EQ(framework_task_s(l, distml, 6e6), 150e-6);  // NCCL on GPU memory: no copies
  LinkCapacities unknown = l;
  unknown.host_copy_bandwidth = Rate();
  EXPECT_THROW(framework_task_s(unknown, ftlib, 6e6), InputError);
  EXPECT_DOUBLE_EQ(framework_task_s(unknown, distml, 6e6), 150e-6);
}

// After the whole backward the tensors go one blocking call at a time: staging lengthens the
// iteration by exactly twice the gradient bytes over the PCIe rate.
TEST(FrameworkCosts, StagingAddsTwiceTheGradientsOverPcieToAnIteration) {
  const Workload w = testing::uniform_workload(5, 4e6);
  const Cluster c = testing::simple_cluster(4, 1);
  const Strategy staged = make_preset("ftlib-allreduce");
  Strategy direct = staged;
  switch_off({Mechanism::host_staging}, direct);
  EXPECT_FALSE(direct.host_staged);
  const auto iteration = [&](const Strategy& s) {
    const Schedule sched = build_schedule(w, c, s, 3);
    return steady_state(sched, AnalyticalBackend().run(sched)).iteration_s;
  };
  EXPECT_NEAR(iteration(staged) - iteration(direct), 2 * static_cast<double>(w.grad_bytes()) / 12e9, 1e-9);
}

}  // namespace
}  // namespace scalecast
