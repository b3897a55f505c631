// A tiny TCP key-value store for rendezvous (what torchrun's TCPStore does at MASTER_ADDR:
// MASTER_PORT): rank 0 hosts it, every rank sets keys and waits for others' keys with a timeout.
#pragma once

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace scalecast::executor {

// The store is unreachable or went away (its host died).
class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A wait ran out of time; keys holds what was still missing.
class StoreTimeout : public StoreError {
 public:
  StoreTimeout(const std::string& what, std::vector<std::string> missing)
      : StoreError(what), keys(std::move(missing)) {}
  std::vector<std::string> keys;
};

inline constexpr std::chrono::milliseconds kForever = std::chrono::milliseconds::max();

// Serves the store on every address of this host; port 0 picks a free one.
class StoreServer {
 public:
  explicit StoreServer(int port);
  ~StoreServer();
  StoreServer(const StoreServer&) = delete;
  StoreServer& operator=(const StoreServer&) = delete;

  int port() const { return port_; }
  std::size_t clients();  // open connections
  bool has(const std::string& key);  // for the host itself, without a connection

 private:
  void accept_loop();
  void serve(int fd);

  int listen_fd_ = -1;
  int wake_pipe_[2] = {-1, -1};
  int port_ = 0;
  std::mutex m_;
  std::condition_variable changed_;
  std::map<std::string, std::string> data_;
  std::set<int> clients_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
  std::thread acceptor_;
};

// One connection to the store; use one per thread.
class StoreClient {
 public:
  // Retries until the store answers or connect_timeout passes (its host may start later).
  StoreClient(std::string host, int port, std::chrono::milliseconds connect_timeout);
  ~StoreClient();
  StoreClient(const StoreClient&) = delete;
  StoreClient& operator=(const StoreClient&) = delete;

  void set(const std::string& key, const std::string& value);
  // Waits until key is set; throws StoreTimeout after timeout (kForever: no limit).
  std::string get(const std::string& key, std::chrono::milliseconds timeout);
  bool check(const std::string& key);
  // A last will: should this connection close before clear_will(), the store sets key to value
  // unless key is already set (how a rank that dies tells the others, at once).
  void set_will(const std::string& key, const std::string& value);
  void clear_will();
  // Waits for all keys; throws StoreTimeout listing every key still missing after timeout.
  void wait(const std::vector<std::string>& keys, std::chrono::milliseconds timeout);

  std::string address() const { return host_ + ":" + std::to_string(port_); }
  // Makes a call blocked on this connection (in another thread) fail with StoreError.
  void interrupt();

 private:
  std::string request(char op, const std::string& key, const std::string& value,
                      std::chrono::milliseconds timeout, bool& found);

  std::string host_;
  int port_;
  int fd_ = -1;
};

}  // namespace scalecast::executor
