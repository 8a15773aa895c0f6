// switchyardd: the engine as a headless daemon. Loads app.ini, holds the data directory, runs the
// engine and its admin API (docs/api.md), and shuts down on SIGINT/SIGTERM (a second signal
// hammers, a third exits at once).

#include "daemon.h"

#include "admin/unixsignals.h"

#include "admin/auditlog.h"
#include "admin/startup.h"
#include "admin/tokens.h"

#include "server/adminserver.h"
#include "server/serve.h"

#include "engine/builtintasks.h"
#include "engine/core/logging.h"
#include "engine/core/version.h"
#include "engine/engine.h"
#include "engine/settings/duration.h"
#include "engine/settings/keys.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QLockFile>
#include <QTextStream>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <thread>

#include <sys/prctl.h>
#include <unistd.h>

namespace Switchyard {

namespace {

enum ExitCode { ExitOk = 0, ExitRuntimeError = 1, ExitConfigError = 2 };

void printError(const QString &message)
{
    QTextStream(stderr) << "switchyardd: " << message << '\n';
}

QString signalName(int signalNumber)
{
    switch (signalNumber) {
        case SIGINT: return QStringLiteral("SIGINT");
        case SIGTERM: return QStringLiteral("SIGTERM");
        default: return QStringLiteral("signal %1").arg(signalNumber);
    }
}

// The command line and the settings it names; every problem is printed here.
// What the command line asks for besides running.
enum class Mode { Run, CheckConfig, SampleConfig };

Result<EngineConfig> loadConfig(QCoreApplication &app, Mode &mode)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Switchyard daemon: runs the async-infrastructure engine headless.\n"
                       "Without --config the embedded defaults apply. SIGINT/SIGTERM shut down gracefully;\n"
                       "a second signal hammers (finish fast), a third exits at once."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption configOption(
        QStringLiteral("config"), QStringLiteral("Read settings from <path> (app.ini)."), QStringLiteral("path"));
    const QCommandLineOption dataDirOption(QStringLiteral("data-dir"),
                                           QStringLiteral("Keep data under <dir> (default: [server] APP_DATA_PATH, "
                                                          "else the user's data directory)."),
                                           QStringLiteral("dir"));
    const QCommandLineOption checkOption(QStringLiteral("check-config"),
                                         QStringLiteral("Validate the settings, print the resolved paths and exit."));
    const QCommandLineOption portOption(QStringLiteral("port"),
                                        QStringLiteral("Serve the admin API on <port> instead of [server] HTTP_PORT "
                                                       "(0: any free port, logged at start)."),
                                        QStringLiteral("port"));
    const QCommandLineOption sampleOption(
        QStringLiteral("sample-config"),
        QStringLiteral("Print a commented app.ini with every key at its default, and exit."));
    parser.addOptions({configOption, dataDirOption, checkOption, portOption, sampleOption});
    parser.process(app);
    mode = parser.isSet(sampleOption) ? Mode::SampleConfig : parser.isSet(checkOption) ? Mode::CheckConfig : Mode::Run;
    if (!parser.positionalArguments().isEmpty()) {
        const QString message =
            QStringLiteral("unexpected argument \"%1\"; see --help").arg(parser.positionalArguments().first());
        printError(message);
        return Status::invalidArgument(message);
    }

    if (mode == Mode::SampleConfig)
        return EngineConfig(); // nothing is read: the sample is the built-in defaults

    Result<EngineConfig> loaded = Admin::loadEngineConfig(parser.value(configOption), parser.value(dataDirOption));
    if (!loaded) {
        printError(loaded.status().message());
        return loaded;
    }
    if (parser.isSet(portOption)) {
        bool ok = false;
        const int port = parser.value(portOption).toInt(&ok);
        if (!ok || port < 0 || port > 65535) {
            const QString message =
                QStringLiteral("--port %1 is not valid; expected a port from 0 to 65535").arg(parser.value(portOption));
            printError(message);
            return Status::invalidArgument(message);
        }
        loaded->server.httpPort = port;
    }
    return loaded;
}

// --check-config: validates [cron.*] too and prints what start-up would use.
int checkConfig(const EngineConfig &config, const QString &configLabel)
{
    if (Status cron = validateCronSettings(config); !cron) {
        printError(QStringLiteral("fix these settings:\n") + cron.message());
        return ExitConfigError;
    }
    QTextStream out(stdout);
    out << "config: " << configLabel << '\n'
        << "data: " << config.dataPath() << '\n'
        << "database: " << config.database.type << ' '
        << (config.database.type == QLatin1String("sqlite3") ? config.database.path : config.database.host) << '\n'
        << "cache: " << config.cache.adapter << '\n'
        << "global_lock: " << config.globalLock.serviceType << '\n'
        << "server: " << (config.server.certFile.isEmpty() ? "http://" : "https://") << config.server.httpAddr << ':'
        << config.server.httpPort << "/api/v1"
        << (config.server.adminToken.isEmpty() ? " (admin token in the data directory)" : " (admin token configured)") << '\n'
        << "graceful_hammer_time: " << formatDuration(config.server.gracefulHammerTime) << '\n';
    // Never the password: only whether there is a login.
    const MailerSettings &m = config.mailer;
    out << "mail: "
        << (m.enabled ? QStringLiteral("%1 %2 from %3%4%5")
                            .arg(m.protocol, m.serverLabel(), m.fromAddress, m.user.isEmpty() ? QString() : QStringLiteral(" (with a login)"),
                                 config.service.enableNotifyMail ? QStringLiteral(", forge events mailed") : QStringLiteral(", test mail only"))
                      : QStringLiteral("off"))
        << '\n';
    QStringList queues = config.configuredQueueNames();
    queues.prepend(QStringLiteral("common"));
    for (const QString &name : std::as_const(queues)) {
        const QueueSettings q = config.queueSettings(name).value();  // validated by load()
        out << "queue " << name << ": " << q.type << ", length " << q.length << ", batch " << q.batchLength
            << ", max workers " << q.maxWorkers << '\n';
    }
    out << "settings ok\n";
    return ExitOk;
}

// Starts the engine on a thread of its own while the main thread keeps handling signals (the
// event loop runs until start-up returns). Start-up connects what the settings name and refuses
// to run half-configured.
Status startEngine(const CancelToken &cancel, const EngineConfig &config, std::unique_ptr<Engine> &engine)
{
    std::optional<Result<std::unique_ptr<Engine>>> started;
    QEventLoop waiting;
    std::thread starter([&] {
        started.emplace(Engine::start(cancel, config));
        QMetaObject::invokeMethod(&waiting, &QEventLoop::quit, Qt::QueuedConnection);
    });
    waiting.exec();
    starter.join();
    if (!*started)
        return started->status();
    engine = std::move(*started).value();
    return Status::ok();
}

// Under systemd's NoNewPrivileges (our unit sets it) a setuid or setgid mail program — Postfix's
// postdrop, Exim — cannot gain its privileges, and ProtectSystem keeps the mail spool read-only:
// PROTOCOL = sendmail then fails on every message. Said once at start, where an operator looks.
void warnWhenSendmailIsSandboxed(const MailerSettings &mailer)
{
    if (!mailer.enabled || mailer.protocol != QLatin1String("sendmail") || ::prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1)
        return;
    qCWarning(lcCore).noquote()
        << QStringLiteral("[mailer] PROTOCOL = sendmail (%1) under no_new_privs (systemd NoNewPrivileges=true): a setuid or setgid "
                          "mail program (Postfix's postdrop, Exim) cannot queue mail from here. Use PROTOCOL = smtp to the local "
                          "mail server (HOST = localhost:25), or a systemd drop-in that relaxes the sandbox (docs/installing.md)")
               .arg(mailer.sendmailPath);
}

// The admin API over the running engine: the audit log, then serve() (tokens, the socket).
Status startServer(Engine &engine, const EngineConfig &config, std::unique_ptr<Admin::AuditLog> &audit, std::unique_ptr<Server::AdminServer> &server)
{
    Result<std::unique_ptr<Admin::AuditLog>> opened = Admin::AuditLog::open(engine.store(), config.dataPath());
    if (!opened)
        return opened.status();
    audit = std::move(opened).value();
    Result<Server::Serving> serving = Server::serve(engine, config, *audit);
    if (!serving)
        return serving.status();
    if (!serving->generatedToken.isEmpty()) {
        // On a terminal the operator sees it once; elsewhere (a journal, a log file) it would be kept.
        if (::isatty(STDOUT_FILENO))
            QTextStream(stdout) << "switchyardd: generated the admin token (shown this once; kept 0600 in "
                                << serving->tokenPath << "):\n  " << serving->generatedToken << '\n';
        else
            QTextStream(stdout) << "switchyardd: generated the admin token; it is in " << serving->tokenPath
                                << " (0600), not printed since standard output is not a terminal\n";
    }
    server = std::move(serving->server);
    return Status::ok();
}

}  // namespace

int runDaemon(int argc, char *argv[], const DaemonHooks &hooks)
{
    // Before any thread exists, so every thread inherits the mask; UnixSignals reads them.
    UnixSignals::blockSignals({SIGINT, SIGTERM});
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("switchyard"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SWITCHYARD_VERSION));
    Mode mode = Mode::Run;
    qSetMessagePattern(
        QStringLiteral("%{time yyyy-MM-ddTHH:mm:ss.zzz} %{if-debug}DEBUG%{endif}%{if-info}INFO%{endif}"
                       "%{if-warning}WARN%{endif}%{if-critical}ERROR%{endif}%{if-fatal}FATAL%{endif} "
                       "%{category}: %{message}"));

    Result<EngineConfig> loaded = loadConfig(app, mode);
    if (!loaded)
        return ExitConfigError; // printed by loadConfig()
    if (mode == Mode::SampleConfig) {
        QTextStream(stdout) << sampleConfig(QStringLiteral(SWITCHYARD_VERSION));
        return ExitOk;
    }
    const EngineConfig config = std::move(loaded).value();
    const QString configLabel =
        config.configPath().isEmpty() ? QStringLiteral("embedded defaults") : config.configPath();

    if (mode == Mode::CheckConfig)
        return checkConfig(config, configLabel);

    // One engine per data directory: queues and the store are not safe to share between processes.
    QLockFile dataLock(QDir(config.dataPath()).filePath(QStringLiteral("switchyard.lock")));
    if (Status locked = Admin::lockDataDirectory(config.dataPath(), dataLock); !locked) {
        printError(locked.message());
        return ExitRuntimeError;
    }

    warnWhenSendmailIsSandboxed(config.mailer);

    // Signals are read from the start: one during start-up (while a configured Redis is PINGed
    // 10 × 1 s, say) cancels it at once.
    int signalsReceived = 0;
    CancelSource startup;
    std::unique_ptr<Admin::AuditLog> audit;
    std::unique_ptr<Server::AdminServer> server;
    Lifecycle *lifecycle = nullptr;  // set once the engine runs
    UnixSignals signalHandler({SIGINT, SIGTERM});
    QObject::connect(&signalHandler, &UnixSignals::received, &app, [&](int signalNumber) {
        ++signalsReceived;
        const QString name = signalName(signalNumber);
        if (signalsReceived >= 3) {
            qCCritical(lcCore).noquote() << "received a third signal (" << name << "); exiting at once";
            std::_Exit(ExitRuntimeError);
        }
        if (!lifecycle)
            startup.cancel(QStringLiteral("received %1 during start-up").arg(name));
        else if (signalsReceived == 1) {
            // Producers first: the API stops taking work (and cancels what it started) before
            // the engine's components are asked to finish.
            if (server)
                server->stop();
            lifecycle->shutdown(QStringLiteral("received %1").arg(name));
        }
        else
            lifecycle->hammer(QStringLiteral("received a second signal (%1)").arg(name));
    });

    std::unique_ptr<Engine> engine;
    if (const Status started = startEngine(startup.token(), config, engine); !started) {
        if (startup.isCancelled()) {
            qCInfo(lcCore).noquote() << "start-up stopped:" << started.message();
            return ExitOk;
        }
        printError(QStringLiteral("cannot start: ") + started.message());
        return ExitRuntimeError;
    }
    if (hooks.engineStarted) {
        if (const Status prepared = hooks.engineStarted(*engine); !prepared) {
            printError(QStringLiteral("cannot start: ") + prepared.message());
            engine->shutdown();
            return ExitRuntimeError;
        }
    }
    if (const Status serving = startServer(*engine, config, audit, server); !serving) {
        printError(QStringLiteral("cannot start the admin API: ") + serving.message());
        server.reset();
        engine->shutdown();
        return serving.code() == Status::Code::InvalidArgument ? ExitConfigError : ExitRuntimeError;
    }
    lifecycle = &engine->lifecycle();
    if (signalsReceived > 0) { // arrived while start-up was finishing
        server->stop();
        lifecycle->shutdown(QStringLiteral("received a signal during start-up"));
    }
    lifecycle->onTerminated([&app] {
        QMetaObject::invokeMethod(
            &app, [] { QCoreApplication::quit(); }, Qt::QueuedConnection);
    });

    qCInfo(lcCore).noquote() << QStringLiteral("switchyardd %1 ready (pid %2, instance %3, config: %4, data: %5)")
                                    .arg(QStringLiteral(SWITCHYARD_VERSION))
                                    .arg(QCoreApplication::applicationPid())
                                    .arg(engine->instanceId(), configLabel, config.dataPath());
    app.exec();

    server.reset(); // stopped already unless the engine shut down on its own
    Server::forgetEndpoint(config.dataPath());
    const ShutdownReport report = engine->shutdown();
    if (!report.clean()) {
        // Those threads cannot be joined; ending the process is the terminate phase's last step.
        std::fflush(stderr);
        std::_Exit(ExitRuntimeError);
    }
    engine.reset();
    qCInfo(lcCore) << "shutdown complete";
    return ExitOk;
}

} // namespace Switchyard
