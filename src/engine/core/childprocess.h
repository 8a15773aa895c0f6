#pragma once

// A child process started with posix_spawnp — for cron COMMAND tasks and the test helpers that
// start redis-server, daemons and crash children.
//
// Not QProcess: Qt 6.4's QProcess::start always forks with clone(CLONE_VM|CLONE_VFORK|CLONE_PIDFD),
// which GCC 12's ThreadSanitizer takes for a fork and from then on ignores the calling thread (its
// unlocks and its exit publish nothing), hiding real races and reporting false ones. glibc's
// posix_spawn clones internally, where no interceptor sees it.
//
// The child starts with an empty signal mask (the daemon blocks SIGINT/SIGTERM in every thread and
// reads them from a signalfd) and the default handlers for SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT
// and SIGCHLD; standard input is /dev/null, or a pipe written with writeInput() (sendmail reads
// the message there); its output goes to one pipe (stdout and stderr merged), or stdout to the
// pipe and stderr to ours, or both to ours.
//
// Not thread-safe: one thread drives it. The destructor kills (SIGKILL) and reaps a child still
// running: no zombie and no orphan outlives its owner.

#include "engine/core/status.h"

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>

#include <sys/types.h>

namespace Switchyard {

class ChildProcess
{
public:
    enum class Output {
        Merged,     // stdout and stderr into the pipe read by read()
        StdoutOnly, // stdout into the pipe; stderr to this process's stderr, or to Options::errorFile
        Inherit,    // both to this process's (read() returns nothing)
        File,       // both appended to Options::outputFile (nothing to keep reading)
    };
    struct Options
    {
        Output output = Output::Merged;
        QString outputFile; // Output::File
        QString errorFile;  // Output::StdoutOnly: stderr into this file (created or truncated)
        QMap<QString, QString> environment; // added to (or replacing in) this process's environment
        bool inputPipe = false; // standard input is a pipe for writeInput() instead of /dev/null
    };

    ChildProcess() = default;
    ~ChildProcess();
    ChildProcess(const ChildProcess &) = delete;
    ChildProcess &operator=(const ChildProcess &) = delete;

    // Starts `program` (looked up on PATH) with `arguments`. Unavailable, naming the program and the
    // error, when it cannot be started.
    Status start(const QString &program, const QStringList &arguments, const Options &options);
    Status start(const QString &program, const QStringList &arguments) { return start(program, arguments, Options()); }

    pid_t pid() const { return m_pid; }
    // Output the child has written, waiting up to `waitMs` for some (0: what is there now); with
    // no pipe left to read, it waits `waitMs` all the same.
    QByteArray read(int waitMs);
    // Options::inputPipe: writes `data` to the child's standard input, then closes it, collecting
    // output meanwhile into `output` (a child that writes much before it reads cannot block us).
    // DeadlineExceeded when it was not all taken within `waitMs`; Unavailable when the child
    // closed its input first. The child keeps running either way.
    Status writeInput(const QByteArray &data, int waitMs, QByteArray *output = nullptr);
    // Reaps the child if it has exited (never blocks); true once it has.
    bool finished();
    // Waits up to `waitMs` (-1: for ever) for the exit, collecting output into `output` if given.
    bool waitForFinished(int waitMs, QByteArray *output = nullptr);
    // Sends `signal` to a running child.
    void signal(int signal);
    // SIGKILL and reap.
    void kill();

    bool crashed() const { return m_signal != 0; }    // ended by a signal
    int exitCode() const { return m_exitCode; }      // valid when finished and not crashed
    int exitSignal() const { return m_signal; }

private:
    void closePipe();

    pid_t m_pid = -1;
    int m_pipe = -1;
    int m_input = -1; // the write end of the child's standard input (Options::inputPipe)
    bool m_reaped = true;
    int m_exitCode = -1;
    int m_signal = 0;
};

} // namespace Switchyard
