#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <functional>

#include "engine/core/childprocess.h"
#include "engine/settings/config.h"


namespace Switchyard::Test {

// The value after `name` in a helper process's arguments ("--log FILE"), or an empty string.
QString argumentValue(const QStringList &arguments, const char *name);

// Writes `content` to `dir`/`name` and returns the full path; fails the current test on error.
QString writeFile(const QString &dir, const QString &name, const QByteArray &content);
// The file's bytes; empty when it cannot be read.
QByteArray readFile(const QString &path);

// Reads `process`'s output into `output` until it contains `marker` or the process ends; the
// bound only matters when the program under test is broken. Children are started with
// ChildProcess (posix_spawn), never QProcess: see docs/testing.md on ThreadSanitizer.
bool waitForOutput(ChildProcess &process, QByteArray &output, const QByteArray &marker, int boundMs = 20000);

// Runs a program to its end: stdout and stderr merged; exitCode -1 when it crashed or outlived
// `boundMs` (then it is killed).
struct Ran
{
    int exitCode = -1;
    QByteArray output;
};
Ran runProgram(const QString &program, const QStringList &arguments, const QMap<QString, QString> &environment = {},
               int boundMs = 30000);

// The engine configuration of an app.ini text (file name "app.ini") with `dataDir` as --data-dir;
// stops the test program on a parse or validation error (a broken fixture, not a test result).
EngineConfig configFrom(const QByteArray &ini, const QString &dataDir);

// A console test's settings and standard paths are its own: QStandardPaths' test mode, the user's
// settings under `dir` (a run never sees what an earlier one saved), and the application named
// `application` in the organisation "switchyard-test".
void isolateSettings(const QString &dir, const QString &application);

// SIGSTOP, returning once the kernel shows the process stopped: kill() only queues the signal,
// and a server busy on the other core could still answer one more request.
void stopProcess(qint64 pid);

// Starts a server on a free loopback port: picks one into `port`, then `launch()`; tried 5 times,
// since another process may take the port between the pick and the server's bind.
Status launchOnFreePort(quint16 &port, const std::function<Status()> &launch);

} // namespace Switchyard::Test
