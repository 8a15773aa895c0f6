// The `switchyard` program as an operator starts it: without a display it says so in one line
// and exits 3; with one (offscreen here) it starts its engine, and SIGTERM closes the window and
// shuts the engine down gracefully (exit 0). (Start-up errors open a message box for the person at
// the desktop, so they are not driven from here; the data-directory lock they report is shared
// with switchyardd and tested there.)

#include <QDeadlineTimer>
#include "support/testutil.h"

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
        // No display at all: env -u removes the variables for the child only.
        const Test::Ran ran = Test::runProgram(QStringLiteral("env"), {QStringLiteral("-u"), QStringLiteral("DISPLAY"), QStringLiteral("-u"),
                                                                       QStringLiteral("WAYLAND_DISPLAY"), QStringLiteral("-u"),
                                                                       QStringLiteral("QT_QPA_PLATFORM"), kConsole},
                                               {}, 20000);
        QCOMPARE(ran.exitCode, 3);
        const QByteArray output = ran.output;
        QCOMPARE(output.count('\n'), 1);
        QVERIFY(output.startsWith("switchyard: no display"));
    }

    void sigtermClosesTheWindowAndShutsDownGracefully()
    {
        QTemporaryDir data;
        ChildProcess console;
        QVERIFY(console.start(kConsole, {QStringLiteral("--data-dir"), data.path()}));
        QByteArray output;
        QVERIFY2(Test::waitForOutput(console, output, "started"), output.constData());

        ::kill(console.pid(), SIGTERM);
        QVERIFY2(Test::waitForOutput(console, output, "terminated cleanly"), output.constData());
        QVERIFY(console.waitForFinished(20000, &output));
        QVERIFY(!console.crashed());
        QCOMPARE(console.exitCode(), 0);
        QVERIFY(output.contains("shutdown: console window closed"));
    }
};

QTEST_GUILESS_MAIN(TestConsoleProcess)
#include "tst_consoleprocess.moc"
