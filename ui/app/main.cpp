// switchyard: the desktop console. By default on the embedded engine ("This computer"): reads the
// same --config / --data-dir as the daemon, opens the window at once and starts the engine behind
// it; closing the window shuts the engine down gracefully (the daemon's SIGTERM path). With
// --connect URL it opens a remote instance over its admin API instead; and when switchyardd already
// runs on the data directory, the console connects to it rather than refusing to start.

#include "mainwindow.h"

#include "widgets/theme.h"

#include "admin/localbackend.h"
#include "admin/remotebackend.h"
#include "admin/tokens.h"
#include "admin/startup.h"
#include "admin/unixsignals.h"
#include "engine/core/version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QIcon>
#include <QLockFile>
#include <QMessageBox>
#include <QTextStream>
#include <QTranslator>

#include <csignal>
#include <cstdio>

using namespace Switchyard;

namespace {

enum ExitCode { ExitOk = 0, ExitRuntimeError = 1, ExitConfigError = 2, ExitNoDisplay = 3 };

// Qt aborts with a long message when no platform plugin can start; say it in one line first.
bool haveDisplay()
{
    if (!qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        return true;
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

void fail(const QString &message, bool showBox)
{
    QTextStream(stderr) << "switchyard: " << message << '\n';
    if (showBox)
        QMessageBox::critical(nullptr, QApplication::translate("main", "Switchyard cannot start"), message);
}

// The console's command line; built for the QApplication, or for a QCoreApplication when only
// --help or --version is asked (both answer without a display).
struct CommandLine
{
    explicit CommandLine(QCommandLineParser &parser)
    {
        parser.setApplicationDescription(QCoreApplication::translate("main", "Switchyard console: the embedded engine, or a remote instance with --connect."));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOptions({configOption, dataDirOption, connectOption, tokenFileOption, embeddedOption, askConnectOption});
    }

    const QCommandLineOption configOption{QStringLiteral("config"), QCoreApplication::translate("main", "Read settings from <path> (app.ini)."),
                                          QStringLiteral("path")};
    const QCommandLineOption dataDirOption{
        QStringLiteral("data-dir"),
        QCoreApplication::translate("main", "Keep data under <dir> (default: [server] APP_DATA_PATH, else the user's data directory)."),
        QStringLiteral("dir")};
    const QCommandLineOption connectOption{
        QStringLiteral("connect"),
        QCoreApplication::translate("main", "Open the instance whose admin API is at <url> (instead of the embedded engine)."),
        QStringLiteral("url")};
    const QCommandLineOption tokenFileOption{
        QStringLiteral("token-file"),
        QCoreApplication::translate("main", "With --connect: read the token from <file> (else $SWITCHYARD_TOKEN, else ask)."),
        QStringLiteral("file")};
    const QCommandLineOption embeddedOption{
        QStringLiteral("embedded"), QCoreApplication::translate("main", "With --connect: open the embedded engine as well.")};
    const QCommandLineOption askConnectOption{
        QStringLiteral("ask-connect"),
        QCoreApplication::translate("main", "Open the Connect dialog at start (the desktop entry's Connect action).")};
};

// --help, --help-all, --version (or -h, -v): answered by QCommandLineParser, which exits.
bool asksOnlyForHelpOrVersion(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg == "--")
            break;
        if (arg == "-h" || arg == "--help" || arg == "--help-all" || arg == "-?" || arg == "-v" || arg == "--version")
            return true;
    }
    return false;
}

// The console's catalogue for the system language (translations/console_<locale>.ts); English is
// the source language and needs none. An installed catalogue (<prefix>/share/switchyard/
// translations, where the package puts them) wins over the one compiled in, so a corrected
// translation can be dropped in without a rebuild.
void installCatalogue(QTranslator &translator)
{
    const QString installed = QCoreApplication::applicationDirPath() + QStringLiteral("/../share/switchyard/translations");
    for (const QString &dir : {installed, QStringLiteral(":/i18n")})
        if (translator.load(QLocale(), QStringLiteral("console"), QStringLiteral("_"), dir)) {
            QCoreApplication::installTranslator(&translator);
            return;
        }
}

void describeApplication()
{
    QCoreApplication::setOrganizationName(QStringLiteral("switchyard"));
    QCoreApplication::setApplicationName(QStringLiteral("switchyard"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SWITCHYARD_VERSION));
}

} // namespace

int main(int argc, char *argv[])
{
    if (asksOnlyForHelpOrVersion(argc, argv)) {
        QCoreApplication app(argc, argv);
        describeApplication();
        QTranslator translator;
        installCatalogue(translator);
        QCommandLineParser parser;
        const CommandLine cli(parser);
        parser.process(app); // prints and exits
        return ExitOk;
    }
    if (!haveDisplay()) {
        std::fputs("switchyard: no display (DISPLAY and WAYLAND_DISPLAY are unset); run switchyardd for the headless "
                   "daemon, or set QT_QPA_PLATFORM=offscreen\n", stderr);
        return ExitNoDisplay;
    }
    // SIGINT/SIGTERM (Ctrl-C in the terminal, a session ending) close the window like the close
    // button: the engine shuts down gracefully. Blocked before any thread exists (see UnixSignals).
    UnixSignals::blockSignals({SIGINT, SIGTERM});
    QApplication app(argc, argv);
    describeApplication();
    QApplication::setApplicationDisplayName(QStringLiteral("Switchyard"));
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.switchyard.Switchyard")); // the installed desktop entry
    QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("switchyard"))); // hicolor, from the package
    Console::Theme::restore(); // View ▸ Theme, as the operator left it

    QTranslator translator;
    installCatalogue(translator);

    QCommandLineParser parser;
    const CommandLine cli(parser);
    parser.process(app);
    if (!parser.positionalArguments().isEmpty()) {
        fail(QStringLiteral("unexpected argument \"%1\"; see --help").arg(parser.positionalArguments().first()), false);
        return ExitConfigError;
    }

    // --connect: a remote instance, with the token from a file or the environment (never argv).
    std::optional<Admin::RemoteBackendOptions> remote;
    if (parser.isSet(cli.connectOption)) {
        Admin::RemoteBackendOptions options;
        options.url = QUrl::fromUserInput(parser.value(cli.connectOption));
        if (!options.url.isValid() || options.url.host().isEmpty()) {
            fail(QStringLiteral("--connect \"%1\" is not a URL (e.g. http://127.0.0.1:3300/api/v1)").arg(parser.value(cli.connectOption)), false);
            return ExitConfigError;
        }
        if (parser.isSet(cli.tokenFileOption)) {
            QFile file(parser.value(cli.tokenFileOption));
            if (!file.open(QIODevice::ReadOnly)) {
                fail(QStringLiteral("--token-file %1: %2").arg(file.fileName(), file.errorString()), false);
                return ExitConfigError;
            }
            options.token = file.readAll().trimmed();
        } else {
            options.token = qgetenv("SWITCHYARD_TOKEN").trimmed();
        }
        remote = options;
    }

    std::unique_ptr<Admin::LocalBackend> backend;
    std::unique_ptr<QLockFile> dataLock; // held while the embedded engine owns the data directory
    if (!remote || parser.isSet(cli.embeddedOption)) {
        Result<EngineConfig> config = Admin::loadEngineConfig(parser.value(cli.configOption), parser.value(cli.dataDirOption));
        if (!config) {
            fail(config.status().message(), true);
            return ExitConfigError;
        }
        dataLock = std::make_unique<QLockFile>(QDir(config->dataPath()).filePath(QStringLiteral("switchyard.lock")));
        if (Status locked = Admin::lockDataDirectory(config->dataPath(), *dataLock); !locked) {
            dataLock.reset();
            // The daemon runs on this data directory: watch it through its admin API instead.
            QFile token(QDir(config->dataPath()).filePath(QLatin1String(Admin::TokenStore::kAdminTokenFile)));
            if (remote || !token.open(QIODevice::ReadOnly)) {
                fail(locked.message(), true);
                return ExitRuntimeError;
            }
            Admin::RemoteBackendOptions options;
            options.name = QApplication::translate("main", "This computer (switchyardd)");
            options.url.setScheme(config->server.certFile.isEmpty() ? QStringLiteral("http") : QStringLiteral("https"));
            options.url.setHost(config->server.httpAddr == QLatin1String("0.0.0.0") ? QStringLiteral("127.0.0.1") : config->server.httpAddr);
            options.url.setPort(config->server.httpPort);
            options.url.setPath(QStringLiteral("/api/v1"));
            options.token = config->server.adminToken.isEmpty() ? token.readAll().trimmed() : config->server.adminToken.toUtf8();
            remote = options;
        } else {
            backend = std::make_unique<Admin::LocalBackend>(std::move(config).value());
        }
    }

    Console::MainWindow window(backend.get());
    window.show();
    if (backend)
        backend->start();
    if (remote && remote->token.isEmpty())
        window.connectDialog(*remote); // --connect without a token: ask for it (never on the command line)
    else if (remote)
        window.openRemote(*remote);
    else if (parser.isSet(cli.askConnectOption))
        window.connectDialog();
    UnixSignals signalHandler({SIGINT, SIGTERM});
    QObject::connect(&signalHandler, &UnixSignals::received, &window, [&window](int) { window.close(); });
    return app.exec();
}
