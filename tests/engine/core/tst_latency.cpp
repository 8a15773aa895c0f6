#include "engine/core/latency.h"

#include <QTest>

using namespace Switchyard;
using namespace std::chrono_literals;

class tst_Latency : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Quantiles are the upper edge of the bucket (≤ 41 % above the value); an empty one is 0.
    void histogramQuantiles()
    {
        LatencyHistogram h;
        QCOMPARE(h.quantileMs(0.5), 0.0);
        for (int i = 0; i < 99; ++i)
            h.record(2ms);
        h.record(800ms);
        QCOMPARE(h.count(), qint64(100));
        QVERIFY(h.quantileMs(0.5) >= 2.0 && h.quantileMs(0.5) < 2.0 * 1.42);
        QVERIFY(h.quantileMs(0.99) < 3.0);
        QVERIFY(h.quantileMs(1.0) >= 800.0 && h.quantileMs(1.0) < 800.0 * 1.42);
    }

    // The recent quantiles cover the current span and the one before: a slow minute shows, and
    // is forgotten two spans later.
    void recentLatencyForgetsOldSpans()
    {
        qint64 now = 1'000;
        RecentLatency recent(1s, [&] { return now; });
        for (int i = 0; i < 10; ++i)
            recent.record(500ms);
        QCOMPARE(recent.count(), qint64(10));
        QVERIFY(recent.quantileMs(0.5) >= 500.0);
        now += 1'000; // the next span: the slow one is still "previous"
        for (int i = 0; i < 30; ++i)
            recent.record(1ms);
        QCOMPARE(recent.count(), qint64(40));
        QVERIFY(recent.quantileMs(0.5) < 1.5);
        QVERIFY(recent.quantileMs(0.99) >= 500.0);
        now += 1'000; // one more: only the fast span is left
        QCOMPARE(recent.count(), qint64(30));
        QVERIFY(recent.quantileMs(0.99) < 1.5);
        now += 5'000; // long quiet: nothing recent
        QCOMPARE(recent.count(), qint64(0));
        QCOMPARE(recent.quantileMs(0.5), 0.0);
    }
};

QTEST_APPLESS_MAIN(tst_Latency)
#include "tst_latency.moc"
