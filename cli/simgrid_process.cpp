// A backend that hands the schedule to scalecast-simgrid over a pipe and reads the replay's
// result back: the same replay, options and result as in-process, with SimGrid's libraries
// loaded only by the program that simulates.
#include "cli/simgrid_process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

#include "sim/backends/backend_registry.h"
#include "sim/io/json_text.h"
#include "sim/backends/replay_protocol.h"
#include "sim/io/run_program.h"
#include "sim/formats/schedule_json.h"

extern char** environ;

namespace scalecast::cli {
namespace {

namespace sb = simgrid_backend;

std::runtime_error failure(const std::string& what) { return std::runtime_error("simgrid replay: " + what); }

// Writes all of `data` to `fd` with SIGPIPE held off, so that a reader gone away is a failed
// write, not a dead process; false then.
bool write_without_sigpipe(int fd, const std::string& data) {
  sigset_t pipe_signal, old;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &old);
  const bool ok = write_all(fd, data.data(), data.size());
  const timespec now{0, 0};
  while (sigtimedwait(&pipe_signal, nullptr, &now) > 0) {
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return ok;
}

// Runs `program args...` with `input` on its standard input and returns its standard output and
// exit status (sim/io/run_program.h starts programs without pipes; its stderr is ours here too).
std::pair<std::string, int> exchange(const std::string& program, const std::vector<std::string>& args,
                                const std::string& input) {
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0) throw failure(std::string("pipe: ") + std::strerror(errno));
  if (pipe2(out, O_CLOEXEC) != 0) {
    const int err = errno;
    close(in[0]);
    close(in[1]);
    throw failure(std::string("pipe: ") + std::strerror(err));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(in[0]);
  close(out[1]);
  if (spawned != 0) {
    close(in[1]);
    close(out[0]);
    throw failure("cannot start " + program + ": " + std::strerror(spawned));
  }
  write_without_sigpipe(in[1], input);  // a program that stopped reading says why on its output
  close(in[1]);
  const std::string output = read_to_end(out[0]);
  close(out[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status))
    throw failure(std::string("the simulating process died (") + strsignal(WTERMSIG(status)) + ")");
  return {output, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

class SimgridProcessBackend : public Backend {
 public:
  SimgridProcessBackend(std::string name, sb::ExpansionMode mode, std::vector<std::string> engine_args)
      : name_(std::move(name)), mode_(mode), engine_args_(std::move(engine_args)) {}

  std::string name() const override { return name_; }

  Timeline run(const Schedule& schedule) const override {
    std::vector<std::string> args = {sb::to_string(mode_)};
    args.insert(args.end(), engine_args_.begin(), engine_args_.end());
    const auto [output, status] = exchange(simgrid_program(), args, json_text(schedule_to_json(schedule)));
    if (status != 0) {
      const auto answer = nlohmann::json::parse(output, nullptr, false);
      if (answer.is_object() && answer.contains("error") && answer["error"].is_string())
        throw failure(answer["error"].get<std::string>());
      throw failure("the simulating process exited with status " + std::to_string(status) + " without a result");
    }
    Timeline t = sb::from_wire(output, static_cast<int>(schedule.tasks.size())).timeline;
    t.backend = name_;
    return t;
  }

  RunCost cost(const Schedule& schedule) const override { return sb::replay_cost(schedule, mode_); }

 private:
  std::string name_;
  sb::ExpansionMode mode_;
  std::vector<std::string> engine_args_;
};

}  // namespace

std::string simgrid_program() {
  namespace fs = std::filesystem;
  if (const char* given = std::getenv("SCALECAST_SIMGRID"); given && *given) return given;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const fs::path beside = self.parent_path() / "scalecast-simgrid";
  return access(beside.c_str(), X_OK) == 0 ? beside.string() : std::string();
}

void register_simgrid_process_backends() {
  if (simgrid_program().empty()) return;
  for (const auto& v : sb::replay_variants())
    register_backend({v.name, v.description, [name = std::string(v.name), mode = v.mode](const BackendSettings& s) {
                        return std::make_unique<SimgridProcessBackend>(name, mode, sb::checked_engine_args(s.simgrid_args));
                      }});
}

}  // namespace scalecast::cli
