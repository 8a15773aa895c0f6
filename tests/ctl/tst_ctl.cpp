// switchyardctl as scripts call it.
#include <QDateTime>
#include <QProcess>
#include <QTest>

namespace {

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Run ctl(const QStringList &args)
{
    QProcess process;
    process.start(QStringLiteral(SWITCHYARDCTL_PATH), args);
    process.waitForFinished(20000);
    return Run{process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
}

} // namespace

class TestCtl : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void nextPrintsFiringTimes()
    {
        const Run run = ctl({QStringLiteral("next"), QStringLiteral("0 12 * * MON"), QStringLiteral("--count"), QStringLiteral("3"),
                             QStringLiteral("--tz"), QStringLiteral("UTC")});
        QCOMPARE(run.exitCode, 0);
        const QList<QByteArray> lines = run.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QDateTime previous;
        for (const QByteArray &line : lines) {
            const QDateTime t = QDateTime::fromString(QString::fromLatin1(line), Qt::ISODate);
            QVERIFY(t.isValid());
            QCOMPARE(t.date().dayOfWeek(), 1);
            QCOMPARE(t.toUTC().time().hour(), 12);
            QVERIFY(!previous.isValid() || previous.daysTo(t) == 7);
            previous = t;
        }
    }

    void errorsNameTheProblem()
    {
        const Run invalid = ctl({QStringLiteral("next"), QStringLiteral("0 25 * * *")});
        QCOMPARE(invalid.exitCode, 2);
        QVERIFY(invalid.err.contains("hour: 25 is out of range 0-23"));
        const Run never = ctl({QStringLiteral("next"), QStringLiteral("0 0 30 2 *")});
        QCOMPARE(never.exitCode, 1);
        QVERIFY(never.err.contains("never fires"));
        const Run zone = ctl({QStringLiteral("next"), QStringLiteral("@daily"), QStringLiteral("--tz"), QStringLiteral("Mars/Olympus")});
        QCOMPARE(zone.exitCode, 2);
        QVERIFY(zone.err.contains("unknown time zone"));
        QCOMPARE(ctl({QStringLiteral("frobnicate")}).exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestCtl)
#include "tst_ctl.moc"
