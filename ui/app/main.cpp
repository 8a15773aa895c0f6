// switchyard: the desktop console. By default on the embedded engine ("This computer"), a whole
// instance: reads ~/.config/switchyard/app.ini (or --config) and --data-dir as the daemon does,
// opens the window at once, starts the engine behind it and serves the admin API and event
// ingestion as switchyardd does (EmbeddedInstance). Quit shuts the engine down gracefully (the
// daemon's SIGTERM path); closing the window does too unless "keep running in the tray" is on. With
// --connect URL it opens a remote instance over its admin API instead; and when switchyardd already
// runs on the data directory, the console connects to it rather than refusing to start.

#include "mainwindow.h"
#include "consoleprefs.h"
#include "desktopshell.h"
#include "embeddedinstance.h"

#include "widgets/theme.h"

#include "admin/localbackend.h"
#include "admin/remotebackend.h"
#include "admin/tokens.h"
#include "admin/startup.h"
#include "server/serve.h"
#include "admin/unixsignals.h"
#include "engine/core/version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QIcon>
#include <QLibraryInfo>
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
// Preferences ▸ Appearance ▸ Language may choose one other than the system's. Qt's own strings
// (standard buttons, file dialogs) come from qt6-translations-l10n when it is installed.
void installCatalogue(QTranslator &translator, QTranslator &qtTranslator)
{
    const QString locale = Console::ConsolePreferences::read().catalogueLocale();
    if (locale.isEmpty())
        return; // English: the source language
    if (qtTranslator.load(QLocale(locale), QStringLiteral("qtbase"), QStringLiteral("_"), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(&qtTranslator);
    const QString installed = QCoreApplication::applicationDirPath() + QStringLiteral("/../share/switchyard/translations");
    for (const QString &dir : {installed, QStringLiteral(":/i18n")})
        if (translator.load(QLocale(locale), QStringLiteral("console"), QStringLiteral("_"), dir)) {
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

// switchyardd holds the data directory: its admin API, with the token it keeps there; nullopt
// when it cannot be reached that way.
Result<std::optional<Admin::RemoteBackendOptions>> runningDaemon(const QString &configPath, const QString &dataDir)
{
    const QString readPath = configPath.isEmpty() && !QFileInfo::exists(Console::EmbeddedInstance::defaultConfigPath())
                                 ? QString()
                                 : (configPath.isEmpty() ? Console::EmbeddedInstance::defaultConfigPath() : configPath);
    Result<EngineConfig> config = Admin::loadEngineConfig(readPath, dataDir);
    if (!config)
        return config.status();
    QFile token(QDir(config->dataPath()).filePath(QLatin1String(Admin::TokenStore::kAdminTokenFile)));
    if (!token.open(QIODevice::ReadOnly))
        return std::optional<Admin::RemoteBackendOptions>();
    // Where the holder serves, as it wrote it: its port may not be HTTP_PORT's (taken by another
    // program, which must not get the token). Without the file it does not serve (yet).
    const auto [url, program] = Server::servedEndpoint(config->dataPath());
    if (!url.isValid() || url.host().isEmpty())
        return std::optional<Admin::RemoteBackendOptions>();
    Admin::RemoteBackendOptions options;
    options.name = program == QLatin1String("switchyard") ? QApplication::translate("main", "This computer (another Switchyard window)")
                                                           : QApplication::translate("main", "This computer (switchyardd)");
    options.url = url;
    options.token = config->server.adminToken.isEmpty() ? token.readAll().trimmed() : config->server.adminToken.toUtf8();
    return std::optional<Admin::RemoteBackendOptions>(options);
}

} // namespace

int main(int argc, char *argv[])
{
    if (asksOnlyForHelpOrVersion(argc, argv)) {
        QCoreApplication app(argc, argv);
        describeApplication();
        QTranslator translator, qtTranslator;
        installCatalogue(translator, qtTranslator);
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

    QTranslator translator, qtTranslator;
    installCatalogue(translator, qtTranslator);

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

    std::unique_ptr<Console::EmbeddedInstance> embedded;
    if (!remote || parser.isSet(cli.embeddedOption)) {
        Console::EmbeddedOptions options;
        options.configPath = parser.value(cli.configOption);
        options.dataDir = parser.value(cli.dataDirOption);
        Result<std::unique_ptr<Console::EmbeddedInstance>> opened = Console::EmbeddedInstance::open(options);
        if (!opened && opened.status().code() != Status::Code::Unavailable) {
            fail(opened.status().message(), true);
            return ExitConfigError;
        }
        if (opened) {
            embedded = std::move(opened).value();
        } else if (Result<std::optional<Admin::RemoteBackendOptions>> daemon = runningDaemon(parser.value(cli.configOption), parser.value(cli.dataDirOption));
                   !remote && daemon && *daemon) {
            remote = **daemon; // switchyardd runs on this data directory: watch it through its admin API instead
        } else {
            fail(opened.status().message(), true);
            return ExitRuntimeError;
        }
    }

    Console::MainWindow window(embedded ? &embedded->backend() : nullptr);
    Console::DesktopShell shell(window, embedded.get());
    // The window may hide in the tray while a dialog closes: the program ends with the window.
    QApplication::setQuitOnLastWindowClosed(false);
    QObject::connect(&window, &Console::MainWindow::closedForGood, &app, &QCoreApplication::quit, Qt::QueuedConnection);
    window.show();
    if (embedded)
        embedded->start();
    if (remote && remote->token.isEmpty())
        window.connectDialog(*remote); // --connect without a token: ask for it (never on the command line)
    else if (remote)
        window.openRemote(*remote);
    else if (parser.isSet(cli.askConnectOption))
        window.connectDialog();
    UnixSignals signalHandler({SIGINT, SIGTERM});
    QObject::connect(&signalHandler, &UnixSignals::received, &window, [&window](int) { window.quit(); });
    return app.exec();
}
