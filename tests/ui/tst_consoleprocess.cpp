// The `switchyard` program as an operator starts it: without a display it says so in one line
// and exits 3; with one (offscreen here) it starts its engine, and SIGTERM closes the window and
// shuts the engine down gracefully (exit 0). (Start-up errors open a message box for the person at
// the desktop, so they are not driven from here; the data-directory lock they report is shared
// with switchyardd and tested there.)

#include <QDeadlineTimer>
#include "support/testutil.h"

#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace Switchyard;

namespace {
const QString kConsole = QStringLiteral(SWITCHYARD_PATH);
} // namespace

class TestConsoleProcess : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void withoutADisplayItSaysSoInOneLine()
    {
        QProcess console;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            env.remove(QString::fromLatin1(name));
        console.setProcessEnvironment(env);
        console.setProcessChannelMode(QProcess::MergedChannels);
        console.start(kConsole, {});
        QVERIFY(console.waitForFinished(20000));
        QCOMPARE(console.exitCode(), 3);
        const QByteArray output = console.readAll();
        QCOMPARE(output.count('\n'), 1);
        QVERIFY(output.startsWith("switchyard: no display"));
    }

    void sigtermClosesTheWindowAndShutsDownGracefully()
    {
        QTemporaryDir data;
        QProcess console;
        console.setProcessChannelMode(QProcess::MergedChannels);
        console.start(kConsole, {QStringLiteral("--data-dir"), data.path()});
        QByteArray output;
        QVERIFY2(Test::waitForOutput(console, output, "started"), output.constData());

        ::kill(pid_t(console.processId()), SIGTERM);
        QVERIFY2(Test::waitForOutput(console, output, "terminated cleanly"), output.constData());
        QVERIFY(console.waitForFinished(20000));
        QCOMPARE(console.exitStatus(), QProcess::NormalExit);
        QCOMPARE(console.exitCode(), 0);
        QVERIFY(output.contains("shutdown: console window closed"));
    }
};

QTEST_GUILESS_MAIN(TestConsoleProcess)
#include "tst_consoleprocess.moc"
