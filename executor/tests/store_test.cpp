// The rendezvous store: set/get across connections, waits that time out naming missing keys,
// the last will a dead connection leaves, and interrupting a blocked call.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "executor/local_launcher.h"
#include "executor/store.h"

namespace scalecast::executor {
namespace {

using std::chrono::milliseconds;

TEST(Store, SetGetAcrossConnections) {
  StoreServer server(0);
  StoreClient a("127.0.0.1", server.port(), milliseconds(2000));
  StoreClient b("localhost", server.port(), milliseconds(2000));
  a.set("k", std::string("v\0w", 3));
  EXPECT_EQ(b.get("k", milliseconds(100)), std::string("v\0w", 3));
  EXPECT_TRUE(b.check("k"));
  EXPECT_FALSE(b.check("other"));
}

TEST(Store, GetWaitsForALaterSet) {
  StoreServer server(0);
  StoreClient a("127.0.0.1", server.port(), milliseconds(2000));
  std::thread setter([&] {
    StoreClient b("127.0.0.1", server.port(), milliseconds(2000));
    std::this_thread::sleep_for(milliseconds(50));
    b.set("late", "1");
  });
  EXPECT_EQ(a.get("late", milliseconds(5000)), "1");
  setter.join();
}

TEST(Store, WaitTimesOutNamingEveryMissingKey) {
  StoreServer server(0);
  StoreClient a("127.0.0.1", server.port(), milliseconds(2000));
  a.set("arrive/0", "");
  a.set("arrive/2", "");
  try {
    a.wait({"arrive/0", "arrive/1", "arrive/2", "arrive/3"}, milliseconds(100));
    FAIL() << "expected a timeout";
  } catch (const StoreTimeout& e) {
    EXPECT_EQ(e.keys, (std::vector<std::string>{"arrive/1", "arrive/3"}));
  }
  EXPECT_THROW(a.get("never", milliseconds(20)), StoreTimeout);
}

TEST(Store, ClosedConnectionLeavesItsWillUnlessCleared) {
  StoreServer server(0);
  StoreClient watcher("127.0.0.1", server.port(), milliseconds(2000));
  {
    StoreClient done("127.0.0.1", server.port(), milliseconds(2000));
    done.set_will("abort", "done died");
    done.clear_will();
  }
  {
    StoreClient dying("127.0.0.1", server.port(), milliseconds(2000));
    dying.set_will("abort", "rank 3 died");
  }
  EXPECT_EQ(watcher.get("abort", milliseconds(2000)), "rank 3 died");
  {
    StoreClient second("127.0.0.1", server.port(), milliseconds(2000));
    second.set_will("abort", "rank 4 died");
  }
  std::this_thread::sleep_for(milliseconds(50));
  EXPECT_EQ(watcher.get("abort", milliseconds(100)), "rank 3 died") << "a will never overwrites";
}

TEST(Store, UnreachableStoreTimesOut) {
  const auto start = std::chrono::steady_clock::now();
  try {
    StoreClient c("127.0.0.1", free_local_port(), milliseconds(200));
    FAIL() << "connected to nothing";
  } catch (const StoreTimeout& e) {
    EXPECT_NE(std::string(e.what()).find("cannot reach the store"), std::string::npos) << e.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(Store, InterruptEndsABlockedCall) {
  StoreServer server(0);
  StoreClient c("127.0.0.1", server.port(), milliseconds(2000));
  std::thread t([&] { EXPECT_THROW(c.get("never", kForever), StoreError); });
  std::this_thread::sleep_for(milliseconds(50));
  c.interrupt();
  t.join();
}

TEST(Store, ServerGoingAwayFailsClients) {
  auto server = std::make_unique<StoreServer>(0);
  StoreClient c("127.0.0.1", server->port(), milliseconds(2000));
  std::thread t([&] { EXPECT_THROW(c.get("never", kForever), StoreError); });
  std::this_thread::sleep_for(milliseconds(50));
  server.reset();
  t.join();
}

}  // namespace
}  // namespace scalecast::executor
