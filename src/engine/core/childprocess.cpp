#include "childprocess.h"

#include <QDeadlineTimer>
#include <QFile>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <mutex>
#include <vector>

extern char **environ;

namespace Switchyard {

ChildProcess::~ChildProcess()
{
    kill();
    closePipe();
}

Status ChildProcess::start(const QString &program, const QStringList &arguments, const Options &options)
{
    if (!m_reaped)
        return Status::conflict(QStringLiteral("a child process is still running"));
    closePipe();
    m_exitCode = -1;
    m_signal = 0;

    int pipe[2] = {-1, -1};
    const bool piped = options.output == Output::Merged || options.output == Output::StdoutOnly;
    if (piped && ::pipe2(pipe, O_CLOEXEC) != 0)
        return Status::unavailable(QStringLiteral("cannot start %1: pipe: %2").arg(program, QString::fromLocal8Bit(std::strerror(errno))));

    int input[2] = {-1, -1};
    if (options.inputPipe && ::pipe2(input, O_CLOEXEC) != 0) {
        const QString error = QString::fromLocal8Bit(std::strerror(errno));
        for (int fd : pipe)
            if (fd >= 0)
                ::close(fd);
        return Status::unavailable(QStringLiteral("cannot start %1: pipe: %2").arg(program, error));
    }

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (options.inputPipe)
        posix_spawn_file_actions_adddup2(&actions, input[0], STDIN_FILENO);
    else
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    const QByteArray outputFile = QFile::encodeName(options.outputFile);
    const QByteArray errorFile = QFile::encodeName(options.errorFile);
    if (piped) {
        posix_spawn_file_actions_adddup2(&actions, pipe[1], STDOUT_FILENO);
        if (options.output == Output::Merged)
            posix_spawn_file_actions_adddup2(&actions, pipe[1], STDERR_FILENO);
        else if (!errorFile.isEmpty())
            posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errorFile.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    } else if (options.output == Output::File) {
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, outputFile.constData(), O_WRONLY | O_CREAT | O_APPEND, 0600);
        posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    }

    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    for (int s : {SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT, SIGCHLD})
        sigaddset(&defaults, s);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

    std::vector<QByteArray> argStore{QFile::encodeName(program)};
    for (const QString &argument : arguments)
        argStore.push_back(argument.toLocal8Bit());
    std::vector<char *> argv;
    for (QByteArray &a : argStore)
        argv.push_back(a.data());
    argv.push_back(nullptr);

    std::vector<QByteArray> envStore;
    for (char **e = environ; e && *e; ++e) {
        const QByteArray entry(*e);
        const QString name = QString::fromLocal8Bit(entry.left(entry.indexOf('=')));
        if (!options.environment.contains(name))
            envStore.push_back(entry);
    }
    for (auto it = options.environment.begin(); it != options.environment.end(); ++it)
        envStore.push_back(it.key().toLocal8Bit() + '=' + it.value().toLocal8Bit());
    std::vector<char *> envp;
    for (QByteArray &e : envStore)
        envp.push_back(e.data());
    envp.push_back(nullptr);

    pid_t pid = -1;
    const int spawned = posix_spawnp(&pid, argv.front(), &actions, &attributes, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (pipe[1] >= 0)
        ::close(pipe[1]);
    if (input[0] >= 0)
        ::close(input[0]);
    if (spawned != 0) {
        if (pipe[0] >= 0)
            ::close(pipe[0]);
        if (input[1] >= 0)
            ::close(input[1]);
        return Status::unavailable(QStringLiteral("cannot start %1: %2").arg(program, QString::fromLocal8Bit(std::strerror(spawned))));
    }
    m_pid = pid;
    m_pipe = pipe[0];
    m_input = input[1];
    if (m_input >= 0)
        ::fcntl(m_input, F_SETFL, ::fcntl(m_input, F_GETFL) | O_NONBLOCK);
    m_reaped = false;
    return Status::ok();
}

QByteArray ChildProcess::read(int waitMs)
{
    QByteArray out;
    if (m_pipe < 0) { // nothing to read (closed, or never a pipe): still wait as asked, never spin
        if (waitMs > 0)
            ::poll(nullptr, 0, waitMs);
        return out;
    }
    pollfd fd{m_pipe, POLLIN, 0};
    if (::poll(&fd, 1, waitMs) <= 0)
        return out;
    char buffer[16384];
    for (;;) {
        const ssize_t n = ::read(m_pipe, buffer, sizeof(buffer));
        if (n > 0) {
            out.append(buffer, qsizetype(n));
            pollfd more{m_pipe, POLLIN, 0};
            if (::poll(&more, 1, 0) <= 0)
                break;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0) // every writer is gone
            closePipe();
        break;
    }
    return out;
}

Status ChildProcess::writeInput(const QByteArray &data, int waitMs, QByteArray *output)
{
    if (m_input < 0)
        return Status::conflict(QStringLiteral("the child's standard input is not a pipe"));
    // A child that exits before reading all would otherwise kill us with SIGPIPE on write(2).
    static std::once_flag ignoreSigpipe;
    std::call_once(ignoreSigpipe, [] { std::signal(SIGPIPE, SIG_IGN); });
    QDeadlineTimer deadline(waitMs < 0 ? QDeadlineTimer::Forever : QDeadlineTimer(waitMs));
    qsizetype written = 0;
    Status result = Status::ok();
    while (written < data.size()) {
        if (deadline.hasExpired()) {
            result = Status::deadlineExceeded(QStringLiteral("the program took %1 of %2 bytes of input").arg(written).arg(data.size()));
            break;
        }
        pollfd fds[2] = {{m_input, POLLOUT, 0}, {m_pipe, POLLIN, 0}};
        const int slice = int(std::min<qint64>(50, std::max<qint64>(1, deadline.remainingTime())));
        if (::poll(fds, m_pipe >= 0 ? 2 : 1, slice) < 0 && errno != EINTR)
            break;
        if (m_pipe >= 0 && (fds[1].revents & (POLLIN | POLLHUP))) {
            const QByteArray bytes = read(0);
            if (output)
                output->append(bytes);
        }
        if (fds[0].revents & (POLLERR | POLLHUP)) {
            result = Status::unavailable(QStringLiteral("the program closed its input after %1 of %2 bytes").arg(written).arg(data.size()));
            break;
        }
        if (fds[0].revents & POLLOUT) {
            const ssize_t n = ::write(m_input, data.constData() + written, size_t(data.size() - written));
            if (n > 0)
                written += n;
            else if (n < 0 && errno == EPIPE) {
                result = Status::unavailable(QStringLiteral("the program closed its input after %1 of %2 bytes").arg(written).arg(data.size()));
                break;
            }
        }
    }
    ::close(m_input);
    m_input = -1;
    return result;
}

bool ChildProcess::finished()
{
    if (m_reaped)
        return true;
    int status = 0;
    const pid_t done = ::waitpid(m_pid, &status, WNOHANG);
    if (done == 0)
        return false;
    m_reaped = true;
    if (done == m_pid) {
        if (WIFEXITED(status))
            m_exitCode = WEXITSTATUS(status);
        else if (WIFSIGNALED(status))
            m_signal = WTERMSIG(status);
    }
    return true;
}

bool ChildProcess::waitForFinished(int waitMs, QByteArray *output)
{
    QDeadlineTimer deadline(waitMs < 0 ? QDeadlineTimer::Forever : QDeadlineTimer(waitMs));
    while (!finished()) {
        if (deadline.hasExpired())
            return false;
        const int slice = int(std::min<qint64>(50, std::max<qint64>(1, deadline.remainingTime())));
        const QByteArray bytes = read(slice);
        if (output)
            output->append(bytes);
    }
    if (output)
        output->append(read(0));
    return true;
}

void ChildProcess::signal(int signal)
{
    if (!m_reaped && !finished())
        ::kill(m_pid, signal);
}

void ChildProcess::kill()
{
    if (m_reaped)
        return;
    ::kill(m_pid, SIGKILL);
    int status = 0;
    pid_t done = -1;
    while ((done = ::waitpid(m_pid, &status, 0)) < 0 && errno == EINTR) {
    }
    m_reaped = true;
    if (done == m_pid && WIFEXITED(status))
        m_exitCode = WEXITSTATUS(status); // it had ended on its own
    else
        m_signal = SIGKILL;
}

void ChildProcess::closePipe()
{
    if (m_pipe >= 0)
        ::close(m_pipe);
    m_pipe = -1;
    if (m_input >= 0)
        ::close(m_input);
    m_input = -1;
}

} // namespace Switchyard
