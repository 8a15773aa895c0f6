// switchyard: the desktop console on the embedded engine. Reads the same --config / --data-dir as
// the daemon, opens the window at once and starts the engine behind it; closing the window shuts
// the engine down gracefully (the daemon's SIGTERM path).

#include "mainwindow.h"

#include "admin/localbackend.h"
#include "admin/startup.h"
#include "admin/unixsignals.h"
#include "engine/core/version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
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

} // namespace

int main(int argc, char *argv[])
{
    if (!haveDisplay()) {
        std::fputs("switchyard: no display (DISPLAY and WAYLAND_DISPLAY are unset); run switchyardd for the headless "
                   "daemon, or set QT_QPA_PLATFORM=offscreen\n", stderr);
        return ExitNoDisplay;
    }
    // SIGINT/SIGTERM (Ctrl-C in the terminal, a session ending) close the window like the close
    // button: the engine shuts down gracefully. Blocked before any thread exists (see UnixSignals).
    UnixSignals::blockSignals({SIGINT, SIGTERM});
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("switchyard"));
    QApplication::setApplicationName(QStringLiteral("switchyard"));
    QApplication::setApplicationDisplayName(QStringLiteral("Switchyard"));
    QApplication::setApplicationVersion(QStringLiteral(SWITCHYARD_VERSION));

    // The console's catalogue for the system language (translations/console_<locale>.ts); English
    // is the source language and needs none.
    QTranslator translator;
    if (translator.load(QLocale(), QStringLiteral("console"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QApplication::installTranslator(&translator);

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Switchyard console on the embedded engine."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption configOption(QStringLiteral("config"), QApplication::translate("main", "Read settings from <path> (app.ini)."),
                                          QStringLiteral("path"));
    const QCommandLineOption dataDirOption(
        QStringLiteral("data-dir"),
        QApplication::translate("main", "Keep data under <dir> (default: [server] APP_DATA_PATH, else the user's data directory)."),
        QStringLiteral("dir"));
    parser.addOptions({configOption, dataDirOption});
    parser.process(app);
    if (!parser.positionalArguments().isEmpty()) {
        fail(QStringLiteral("unexpected argument \"%1\"; see --help").arg(parser.positionalArguments().first()), false);
        return ExitConfigError;
    }

    Result<EngineConfig> config = Admin::loadEngineConfig(parser.value(configOption), parser.value(dataDirOption));
    if (!config) {
        fail(config.status().message(), true);
        return ExitConfigError;
    }
    QLockFile dataLock(QDir(config->dataPath()).filePath(QStringLiteral("switchyard.lock")));
    if (Status locked = Admin::lockDataDirectory(config->dataPath(), dataLock); !locked) {
        fail(locked.message(), true);
        return ExitRuntimeError;
    }

    Admin::LocalBackend backend(std::move(config).value());
    Console::MainWindow window(backend);
    window.show();
    backend.start();
    UnixSignals signalHandler({SIGINT, SIGTERM});
    QObject::connect(&signalHandler, &UnixSignals::received, &window, [&window](int) { window.close(); });
    return app.exec();
}
