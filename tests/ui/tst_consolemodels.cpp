// The console's models and formatting without a window: snapshots applied as row-level diffs
// (never a reset), batched notice inserts, schedules in words.

#include "models/auditmodel.h"
#include "models/noticemodel.h"
#include "models/notificationmodels.h"
#include "models/queuemodel.h"
#include "models/webhookmodels.h"
#include "widgets/format.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>

using namespace Switchyard;
using namespace Switchyard::Console;

namespace {
Admin::QueueRow queue(qint64 qid, const QString &name, qint64 length, qint64 handled = 0)
{
    Admin::QueueRow row;
    row.qid = qid;
    row.name = name;
    row.type = QStringLiteral("channel");
    row.length = length;
    row.handledTotal = handled;
    return row;
}
// Audit rows `from` down to `to` (newest first, as the instance pages them).
std::vector<Admin::AuditEntry> auditRows(qint64 from, qint64 to)
{
    std::vector<Admin::AuditEntry> rows;
    for (qint64 id = from; id >= to; --id) {
        Admin::AuditEntry row;
        row.id = id;
        row.action = QStringLiteral("queue.flush");
        row.result = QStringLiteral("ok");
        rows.push_back(row);
    }
    return rows;
}
} // namespace

class TestConsoleModels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void snapshotsAreDiffs()
    {
        QueueModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);

        model.applySnapshot({queue(1, QStringLiteral("a"), 1), queue(2, QStringLiteral("b"), 2), queue(3, QStringLiteral("c"), 3),
                             queue(4, QStringLiteral("d"), 4)});
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(inserted.count(), 1); // one insert for the batch

        changed.clear();
        // b and c vanish, d changes, e arrives: two removals in one range, one change, one insert.
        model.applySnapshot({queue(1, QStringLiteral("a"), 1), queue(4, QStringLiteral("d"), 40), queue(5, QStringLiteral("e"), 5)});
        QCOMPARE(removed.count(), 1);
        QCOMPARE(removed.first().at(1).toInt(), 1);
        QCOMPARE(removed.first().at(2).toInt(), 2);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.first().at(0).toModelIndex().row(), 1);
        QCOMPARE(inserted.count(), 2);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(1, QueueModel::Length).data().toString(), QStringLiteral("40"));
        QCOMPARE(model.indexOfKey(5), 2);

        // The same list again changes nothing.
        changed.clear();
        model.applySnapshot({queue(1, QStringLiteral("a"), 1), queue(4, QStringLiteral("d"), 40), queue(5, QStringLiteral("e"), 5)});
        QCOMPARE(changed.count(), 0);
        QCOMPARE(resets.count(), 0);
    }

    // A history table holds the pages the view scrolled through: the next one is asked for once,
    // overlapping rows (new ones arrived meanwhile) merge by key, and a list that shrank on the
    // instance starts again from page 1.
    void historyTablesFetchPagesOnDemand()
    {
        AuditModel model; // (no QAbstractItemModelTester: it calls fetchMore itself)
        std::vector<qint64> asked;
        bool atEnd = true; // the table shown and scrolled to its end
        model.setPaging(3, [&](qint64 page) { asked.push_back(page); }, [&] { return atEnd; });
        QVERIFY(!model.canFetchMore({})); // nothing read yet: the refresh reads page 1

        model.pageArrived(1, auditRows(10, 8), 10);
        QCOMPARE(model.rowCount(), 3);
        atEnd = false; // hidden, or scrolled elsewhere: a layout's fetchMore reads nothing
        QVERIFY(!model.canFetchMore({}));
        model.fetchMore({});
        QVERIFY(asked.empty());
        atEnd = true;
        QVERIFY(model.canFetchMore({}));
        model.fetchMore({});
        model.fetchMore({}); // the view asks again before the answer: no second request
        QCOMPARE(asked, std::vector<qint64>{2});
        QVERIFY(!model.canFetchMore({}));

        // Row 11 arrived before page 2 was read: page 2 now starts at 8, which is shown already.
        model.pageArrived(2, auditRows(8, 6), 11);
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(model.total(), qint64(11));
        model.pageArrived(1, auditRows(11, 9), 11); // a refresh: 11 is added, nothing dropped
        QCOMPARE(model.rowCount(), 6);
        QVERIFY(model.indexOfKey(11) >= 0 && model.indexOfKey(6) >= 0);

        model.fetchMore({});
        QCOMPARE(asked, (std::vector<qint64>{2, 3}));
        model.pageFailed(); // the instance did not answer: the view may ask again
        QVERIFY(model.canFetchMore({}));
        model.fetchMore({});
        model.pageArrived(3, auditRows(5, 3), 11);
        model.fetchMore({});
        model.pageArrived(4, auditRows(2, 1), 11);
        QCOMPARE(model.rowCount(), 11);
        QVERIFY(!model.canFetchMore({})); // every row is shown
        QCOMPARE(asked, (std::vector<qint64>{2, 3, 3, 4}));

        // Rows 1–4 were deleted (the retention cron): page 1 alone, then paging again.
        model.pageArrived(1, auditRows(11, 9), 7);
        QCOMPARE(model.rowCount(), 3);
        QVERIFY(model.canFetchMore({}));
        model.fetchMore({});
        QCOMPARE(asked.back(), qint64(2));

        model.resetPages();
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(!model.canFetchMore({}));
    }

    void throughputComesFromHandledTotals()
    {
        QueueModel model;
        const QDateTime t0 = QDateTime::fromSecsSinceEpoch(1'800'000'000, Qt::UTC);
        model.applyStats({queue(1, QStringLiteral("a"), 0, 100)}, t0);
        model.applyStats({queue(1, QStringLiteral("a"), 0, 2100)}, t0.addSecs(2));
        QCOMPARE(model.currentRate(1), 1000.0);
        QCOMPARE(model.history(1).size(), std::size_t(2));
        // Ten minutes later the old samples are gone.
        model.applyStats({queue(1, QStringLiteral("a"), 0, 2100)}, t0.addSecs(2 + QueueModel::kHistorySeconds + 1));
        QCOMPARE(model.history(1).size(), std::size_t(1));
        QCOMPARE(model.currentRate(1), 0.0);
    }

    void noticesArriveInBatches()
    {
        NoticeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        for (int i = 1; i <= 500; ++i)
            model.enqueue(Admin::NoticeRow{i, QStringLiteral("cron"), QStringLiteral("n%1").arg(i), QDateTime::currentDateTimeUtc()});
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(QTest::qWaitFor([&] { return model.rowCount() == 500; }));
        QCOMPARE(inserted.count(), 1);
        model.enqueue(Admin::NoticeRow{3, QStringLiteral("cron"), QStringLiteral("again"), QDateTime::currentDateTimeUtc()});
        model.flushPending();
        QCOMPARE(model.rowCount(), 500); // a notice already shown is not shown twice
        QVERIFY(model.removeKey(250));
        QCOMPARE(model.rowCount(), 499);
        QCOMPARE(model.indexOfKey(251), 249);
    }

    // A long list read at once goes in chunks, newest first, one insert per pass of the event
    // loop; what the list no longer holds leaves at once, and a notice deleted while it waited for
    // its chunk is never shown.
    void aLongNoticeListIsInsertedInChunks()
    {
        NoticeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto notice = [](qint64 id) { return Admin::NoticeRow{id, QStringLiteral("cron"), QStringLiteral("n%1").arg(id), QDateTime::currentDateTimeUtc()}; };
        model.enqueue(notice(1));    // from the stream, then superseded by the list
        model.enqueue(notice(1200)); // from the stream, deleted before the list was read: not in it
        std::vector<Admin::NoticeRow> list;
        for (qint64 id = 1; id <= 2500; ++id)
            if (id != 1200)
                list.push_back(notice(id));
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        model.applyNotices(list);
        QCOMPARE(model.rowCount(), NoticeModel::kChunkRows);
        QVERIFY(model.indexOfKey(2500) >= 0 && model.indexOfKey(1501) >= 0 && model.indexOfKey(1500) < 0);
        model.removeNotice(1000); // deleted while it waits
        QCOMPARE(model.pendingCount(), 2499 - 1000 - 1);
        QVERIFY(QTest::qWaitFor([&] { return model.pendingCount() == 0; }));
        QCOMPARE(model.rowCount(), 2498);
        QCOMPARE(inserted.count(), 3);
        QVERIFY(model.indexOfKey(1000) < 0 && model.indexOfKey(1200) < 0 && model.indexOfKey(1) >= 0);

        // Read again with 2000 … 2500 deleted and 2501 new: removed at once, the new one inserted.
        // 2502 came from the stream after the list was read: it stays.
        model.enqueue(notice(2502));
        std::erase_if(list, [](const Admin::NoticeRow &n) { return n.id >= 2000 || n.id == 1000; });
        list.push_back(notice(2501));
        model.applyNotices(list);
        QCOMPARE(model.rowCount(), 1999 - 2 + 2);
        QVERIFY(model.indexOfKey(2000) < 0 && model.indexOfKey(2501) >= 0 && model.indexOfKey(2502) >= 0 && model.indexOfKey(1999) >= 0);
    }

    // The live feed: status changes of shown events are one dataChanged outside the sort column,
    // so a proxy sorted by id moves no row.
    void feedStatusChangesDoNotResort()
    {
        EventModel model;
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(RawRole);
        proxy.sort(EventModel::Id, Qt::DescendingOrder);
        const auto row = [](qint64 id, const char *status) {
            Admin::EventRow r;
            r.id = id;
            r.event = QStringLiteral("push");
            r.status = QString::fromLatin1(status);
            return r;
        };
        for (qint64 id = 1; id <= 100; ++id)
            model.enqueue(row(id, "pending"));
        model.flushPending();
        QCOMPARE(proxy.rowCount(), 100);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy moved(&proxy, &QAbstractItemModel::layoutChanged);
        QSignalSpy removed(&proxy, &QAbstractItemModel::rowsRemoved);
        for (qint64 id = 60; id <= 100; ++id) {
            model.enqueue(row(id, "processing"));
            model.enqueue(row(id, "done")); // two frames of one event in a batch: the later wins
        }
        model.flushPending();
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.first().at(0).toModelIndex().column(), int(EventModel::Event));
        QCOMPARE(changed.first().at(1).toModelIndex().column(), int(EventModel::Error));
        QCOMPARE(moved.count() + removed.count(), 0);
        QCOMPARE(model.rowAt(model.indexOfKey(80))->status, QStringLiteral("done"));
        QCOMPARE(model.rowAt(model.indexOfKey(59))->status, QStringLiteral("pending"));
        QCOMPARE(proxy.index(0, EventModel::Id).data(KeyRole).toLongLong(), qint64(100));
    }

    // A delivery's row says what it is: a first delivery, a redelivery, or a scheduled retry
    // (with when it is due while it waits); failed and unknown ones want attention.
    void deliveriesSayWhatTheyAre()
    {
        HookTaskModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        Admin::HookTaskRow first;
        first.id = 1;
        first.hookId = 3;
        first.eventType = QStringLiteral("push");
        first.status = QStringLiteral("failed");
        Admin::HookTaskRow again = first;
        again.id = 2;
        again.redeliveryOf = 1;
        again.status = QStringLiteral("succeeded");
        Admin::HookTaskRow retry = first;
        retry.id = 3;
        retry.redeliveryOf = 1;
        retry.attempt = 2;
        retry.status = QStringLiteral("pending");
        retry.deliverAfter = QDateTime::currentDateTimeUtc().addSecs(60);
        model.applySnapshot({first, again, retry});
        const auto cell = [&](int row, int column, int role = Qt::DisplayRole) { return model.index(row, column).data(role); };
        QCOMPARE(cell(0, HookTaskModel::Event).toString(), QStringLiteral("push"));
        QCOMPARE(cell(1, HookTaskModel::Event).toString(), QStringLiteral("push (again)"));
        QCOMPARE(cell(2, HookTaskModel::Event).toString(), QStringLiteral("push (retry 2)"));
        QVERIFY(cell(2, HookTaskModel::Event, Qt::ToolTipRole).toString().startsWith(QLatin1String("scheduled retry 2 of delivery 1, due ")));
        QCOMPARE(cell(0, HookTaskModel::Hook).toLongLong(), qint64(3));
        QVERIFY(cell(0, HookTaskModel::Status, AttentionRole).toBool());
        QVERIFY(!cell(1, HookTaskModel::Status, AttentionRole).toBool());
    }

    void schedulesInWords_data()
    {
        QTest::addColumn<QString>("schedule");
        QTest::addColumn<QString>("words");
        QTest::newRow("daily") << "0 3 * * *" << "At 03:00 every day";
        QTest::newRow("seconds field") << "0 30 4 * * *" << "At 04:30 every day";
        QTest::newRow("weekdays") << "0 9 * * 1-5" << "At 09:00 Monday to Friday";
        QTest::newRow("interval") << "@every 10m" << "Every 10m";
        QTest::newRow("minutes step") << "*/10 * * * *" << "Every 10 minutes";
        QTest::newRow("hourly") << "@hourly" << "At minute 0 of every hour";
        QTest::newRow("minute of hour") << "15 * * * *" << "At minute 15 of every hour";
        QTest::newRow("monthly day") << "0 2 1 * *" << "At 02:00 on day 1 of every month";
        QTest::newRow("no simple words") << "0 2 1 1,6 *" << "";
    }

    void schedulesInWords()
    {
        QFETCH(QString, schedule);
        QFETCH(QString, words);
        QCOMPARE(describeSchedule(schedule), words);
    }

    void durations()
    {
        QCOMPARE(formatDuration(850), QStringLiteral("850 ms"));
        QCOMPARE(formatDuration(252000), QStringLiteral("4 min 12 s"));
        QCOMPARE(formatDuration(7500000), QStringLiteral("2 h 5 min"));
        const QDateTime now = QDateTime::currentDateTimeUtc();
        QCOMPARE(formatRelative(now.addSecs(252), now), QStringLiteral("in 4 min 12 s"));
        QCOMPARE(formatRelative(now.addSecs(-60), now), QStringLiteral("1 min ago"));
        QCOMPARE(formatCount(-1), QStringLiteral("—"));
    }

    // Lock keys carry ids: sorted by their value, not as text ("repo:10" after "repo:9").
    void naturalSortKeys()
    {
        QStringList keys{QStringLiteral("repo:100"), QStringLiteral("repo:10"), QStringLiteral("repo:09x"), QStringLiteral("repo:9:archive"),
                         QStringLiteral("cron:a"), QStringLiteral("repo:9"), QStringLiteral("repo:"), QStringLiteral("repo_1")};
        std::sort(keys.begin(), keys.end(), [](const QString &a, const QString &b) { return naturalSortKey(a) < naturalSortKey(b); });
        QCOMPARE(keys, (QStringList{QStringLiteral("cron:a"), QStringLiteral("repo:"), QStringLiteral("repo:9"), QStringLiteral("repo:9:archive"),
                                    QStringLiteral("repo:09x"), QStringLiteral("repo:10"), QStringLiteral("repo:100"), QStringLiteral("repo_1")}));
    }
};

QTEST_MAIN(TestConsoleModels)
#include "tst_consolemodels.moc"
