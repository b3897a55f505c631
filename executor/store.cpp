// The rendezvous store over plain TCP: length-prefixed requests (set, get with a timeout, check),
// one server thread per connection, waits served from a condition variable.
#include "executor/store.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace scalecast::executor {
namespace {

constexpr char kSet = 'S', kGet = 'G', kWait = 'W', kCheck = 'C', kWill = 'L';

bool read_all(int fd, void* data, size_t n) {
  auto* p = static_cast<char*>(data);
  while (n > 0) {
    const ssize_t got = ::recv(fd, p, n, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    p += got;
    n -= static_cast<size_t>(got);
  }
  return true;
}

bool write_all(int fd, const void* data, size_t n) {
  const auto* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t put = ::send(fd, p, n, MSG_NOSIGNAL);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) return false;
    p += put;
    n -= static_cast<size_t>(put);
  }
  return true;
}

bool read_string(int fd, std::string& s, size_t length) {
  s.resize(length);
  return length == 0 || read_all(fd, s.data(), length);
}

void no_delay(int fd) {
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

}  // namespace

StoreServer::StoreServer(int port) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) throw StoreError("store: cannot create a socket: " + std::string(std::strerror(errno)));
  const int one = 1;
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_ANY);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(listen_fd_, 128) != 0) {
    const std::string why = std::strerror(errno);
    ::close(listen_fd_);
    throw StoreError("store: cannot listen on port " + std::to_string(port) + ": " + why);
  }
  socklen_t len = sizeof addr;
  ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  if (::pipe2(wake_pipe_, O_CLOEXEC) != 0) {
    ::close(listen_fd_);
    throw StoreError("store: cannot create a pipe");
  }
  acceptor_ = std::thread([this] { accept_loop(); });
}

StoreServer::~StoreServer() {
  {
    std::lock_guard<std::mutex> lock(m_);
    stopping_ = true;
    for (int fd : clients_) ::shutdown(fd, SHUT_RDWR);
  }
  changed_.notify_all();
  const char wake = 1;
  (void)!::write(wake_pipe_[1], &wake, 1);
  acceptor_.join();
  for (auto& t : threads_) t.join();
  ::close(listen_fd_);
  ::close(wake_pipe_[0]);
  ::close(wake_pipe_[1]);
}

std::size_t StoreServer::clients() {
  std::lock_guard<std::mutex> lock(m_);
  return clients_.size();
}

bool StoreServer::has(const std::string& key) {
  std::lock_guard<std::mutex> lock(m_);
  return data_.count(key) > 0;
}

void StoreServer::accept_loop() {
  for (;;) {
    pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_pipe_[0], POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0 && errno != EINTR) return;
    if (fds[1].revents != 0) return;
    if ((fds[0].revents & POLLIN) == 0) continue;
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    no_delay(fd);
    std::lock_guard<std::mutex> lock(m_);
    if (stopping_) {
      ::close(fd);
      return;
    }
    clients_.insert(fd);
    threads_.emplace_back([this, fd] { serve(fd); });
  }
}

void StoreServer::serve(int fd) {
  std::string will_key, will_value;
  for (;;) {
    char op = 0;
    uint32_t key_len = 0;
    uint64_t value_len = 0;
    int64_t timeout_ms = 0;
    std::string key, value;
    if (!read_all(fd, &op, 1) || !read_all(fd, &key_len, sizeof key_len) || !read_string(fd, key, key_len) ||
        !read_all(fd, &value_len, sizeof value_len) || !read_string(fd, value, value_len) ||
        !read_all(fd, &timeout_ms, sizeof timeout_ms))
      break;
    char found = 1;
    std::string reply;
    {
      std::unique_lock<std::mutex> lock(m_);
      if (op == kSet) {
        data_[key] = std::move(value);
        changed_.notify_all();
      } else if (op == kWill) {
        will_key = std::move(key);
        will_value = std::move(value);
      } else {
        auto ready = [&] { return stopping_ || data_.count(key) > 0; };
        const bool waits = op == kGet || op == kWait;
        if (waits && timeout_ms < 0) changed_.wait(lock, ready);
        else if (waits) changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms), ready);
        auto it = data_.find(key);
        found = it != data_.end();
        if (found && op == kGet) reply = it->second;
      }
      if (stopping_) break;
    }
    const uint64_t reply_len = reply.size();
    if (!write_all(fd, &found, 1) || !write_all(fd, &reply_len, sizeof reply_len) ||
        !write_all(fd, reply.data(), reply.size()))
      break;
  }
  std::lock_guard<std::mutex> lock(m_);
  if (!stopping_ && !will_key.empty() && data_.count(will_key) == 0) {
    data_[will_key] = will_value;
    changed_.notify_all();
  }
  clients_.erase(fd);
  ::close(fd);
}

StoreClient::StoreClient(std::string host, int port, std::chrono::milliseconds connect_timeout)
    : host_(std::move(host)), port_(port) {
  const auto deadline = std::chrono::steady_clock::now() + connect_timeout;
  std::string why = "no answer";
  for (;;) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    const int rc = ::getaddrinfo(host_.c_str(), std::to_string(port_).c_str(), &hints, &found);
    if (rc != 0) throw StoreError("store: cannot resolve '" + host_ + "': " + ::gai_strerror(rc));
    for (addrinfo* a = found; a != nullptr && fd_ < 0; a = a->ai_next) {
      const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
      if (fd < 0) continue;
      if (::connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
        fd_ = fd;
      } else {
        why = std::strerror(errno);
        ::close(fd);
      }
    }
    ::freeaddrinfo(found);
    if (fd_ >= 0) break;
    if (std::chrono::steady_clock::now() >= deadline)
      throw StoreTimeout("cannot reach the store at " + address() + " (" + why + ")", {});
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  no_delay(fd_);
}

StoreClient::~StoreClient() { ::close(fd_); }

void StoreClient::interrupt() { ::shutdown(fd_, SHUT_RDWR); }

std::string StoreClient::request(char op, const std::string& key, const std::string& value,
                                 std::chrono::milliseconds timeout, bool& found) {
  const uint32_t key_len = static_cast<uint32_t>(key.size());
  const uint64_t value_len = value.size();
  const int64_t timeout_ms = timeout == kForever ? -1 : timeout.count();
  std::string msg(1, op);
  msg.append(reinterpret_cast<const char*>(&key_len), sizeof key_len).append(key);
  msg.append(reinterpret_cast<const char*>(&value_len), sizeof value_len).append(value);
  msg.append(reinterpret_cast<const char*>(&timeout_ms), sizeof timeout_ms);
  char status = 0;
  uint64_t reply_len = 0;
  std::string reply;
  if (!write_all(fd_, msg.data(), msg.size()) || !read_all(fd_, &status, 1) ||
      !read_all(fd_, &reply_len, sizeof reply_len) || !read_string(fd_, reply, reply_len))
    throw StoreError("lost the connection to the store at " + address());
  found = status != 0;
  return reply;
}

void StoreClient::set(const std::string& key, const std::string& value) {
  bool found = false;
  request(kSet, key, value, std::chrono::milliseconds(0), found);
}

std::string StoreClient::get(const std::string& key, std::chrono::milliseconds timeout) {
  bool found = false;
  std::string value = request(kGet, key, "", timeout, found);
  if (!found) throw StoreTimeout("timed out waiting for '" + key + "' in the store at " + address(), {key});
  return value;
}

void StoreClient::set_will(const std::string& key, const std::string& value) {
  bool found = false;
  request(kWill, key, value, std::chrono::milliseconds(0), found);
}

void StoreClient::clear_will() { set_will("", ""); }

bool StoreClient::check(const std::string& key) {
  bool found = false;
  request(kCheck, key, "", std::chrono::milliseconds(0), found);
  return found;
}

void StoreClient::wait(const std::vector<std::string>& keys, std::chrono::milliseconds timeout) {
  const auto start = std::chrono::steady_clock::now();
  for (const auto& key : keys) {
    const auto spent = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    bool found = false;
    request(kWait, key, "", timeout == kForever ? kForever : std::max(timeout - spent, std::chrono::milliseconds(0)),
            found);
    if (found) continue;
    std::vector<std::string> missing;
    for (const auto& k : keys)
      if (!check(k)) missing.push_back(k);
    throw StoreTimeout("timed out waiting for " + std::to_string(missing.size()) + " key(s) in the store at " +
                           address(),
                       missing);
  }
}

}  // namespace scalecast::executor
