// The operation catalogue walked entry by entry: each is well formed (unique action, method and
// path, CLI words; its placeholders are exactly its path arguments), answers the API's rules when
// its arguments are wrong, and is documented — a line in docs/api.md's tables and in docs/cli.md.
// (Every entry having a route: tst_adminapi's everyEntryHasARoute; being exercised on both
// backends: tst_backends' everyEntryWasExercised.)

#include "admin/catalogue.h"
#include "admin/streamevents.h"

#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace Switchyard;
using namespace Switchyard::Admin;

namespace {

QString readDoc(const char *name)
{
    QFile file(QStringLiteral(SOURCE_DIR "/docs/") + QLatin1String(name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read docs/%s", name);
    return QString::fromUtf8(file.readAll());
}

} // namespace

class TestCatalogue : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void entriesAreWellFormed()
    {
        QSet<QString> actions, routes, commands;
        QVERIFY(Catalogue::all().size() >= 28); // the subsystems of today; more come with each slice
        for (const OpBase *op : Catalogue::all()) {
            const OpBase::Info &info = op->info();
            const QString action = op->action();
            QVERIFY2(!actions.contains(action), qPrintable(action));
            actions << action;
            const QString route = QString::fromLatin1(methodName(info.method)) + u' ' + QLatin1String(info.path);
            QVERIFY2(!routes.contains(route), qPrintable(route));
            routes << route;
            const QString command = QString::fromUtf8(info.cli);
            QVERIFY2(!command.isEmpty() && !commands.contains(command), qPrintable(action));
            commands << command;
            QVERIFY2(*info.summary, qPrintable(action));
            QVERIFY2(QByteArray(info.path).startsWith('/'), qPrintable(action));
            QCOMPARE(Catalogue::find(action), op);

            // The placeholders are exactly the path arguments.
            QStringList placeholders;
            static const QRegularExpression placeholder(QStringLiteral("\\{([a-z_]+)\\}"));
            for (const QRegularExpressionMatch &m : placeholder.globalMatch(QLatin1String(info.path)))
                placeholders << m.captured(1);
            QStringList pathArgs;
            for (const OpBase::ArgInfo &arg : op->args()) {
                if (arg.spec.where == ArgSpec::Path)
                    pathArgs << QLatin1String(arg.spec.name);
                if (arg.spec.where == ArgSpec::Body)
                    QVERIFY2(info.method != HttpMethod::Get, qPrintable(action));
            }
            QCOMPARE(pathArgs, placeholders);
            // Lists say which columns the CLI prints; changes say what the CLI prints when done.
            if (op->hasFlag(Paged))
                QVERIFY2(!info.columns.empty(), qPrintable(action));
            if (op->hasFlag(Mutating))
                QVERIFY2(*info.done, qPrintable(action));
            // Reads are GETs, except diagnostics that run something (the cache test) and the
            // forge's events coming in.
            if (!op->hasFlag(Mutating) && info.method != HttpMethod::Get)
                QVERIFY2(action == QLatin1String("cache.test") || op->hasFlag(Ingest), qPrintable(action));
        }
    }

    void argumentsFollowTheApiRules()
    {
        const OpBase *setWorkers = Catalogue::find(QStringLiteral("queue.set-max-workers"));
        QVERIFY(setWorkers);
        const auto none = [](const QString &) -> std::optional<QString> { return std::nullopt; };
        Result<Request> fine = setWorkers->requestFromCommandLine({QStringLiteral("3"), QStringLiteral("4")}, none);
        QVERIFY2(fine, qPrintable(fine.status().toString()));
        QCOMPARE(fine->params.at(QStringLiteral("qid")), QStringLiteral("3"));
        QCOMPARE(fine->body, QByteArray(R"({"max_workers":4})"));
        QCOMPARE(setWorkers->pathFor(fine->params), QStringLiteral("/queues/3/max-workers"));

        Result<Request> zero = setWorkers->requestFromCommandLine({QStringLiteral("3"), QStringLiteral("0")}, none);
        QCOMPARE(zero.status().code(), Status::Code::InvalidArgument);
        QCOMPARE(zero.status().field(), QStringLiteral("max_workers"));
        Result<Request> notAnId = setWorkers->requestFromCommandLine({QStringLiteral("x"), QStringLiteral("4")}, none);
        QCOMPARE(notAnId.status().field(), QStringLiteral("qid"));
        QCOMPARE(setWorkers->requestFromCommandLine({QStringLiteral("3")}, none).status().code(), Status::Code::InvalidArgument);
        QCOMPARE(setWorkers->requestFromCommandLine({QStringLiteral("3"), QStringLiteral("4"), QStringLiteral("5")}, none)
                     .status()
                     .code(),
                 Status::Code::InvalidArgument);

        // A lock key keeps its slash, percent-encoded in the path.
        const OpBase *release = Catalogue::find(QStringLiteral("lock.force-release"));
        Result<Request> key = release->requestFromCommandLine({QStringLiteral("repo/7:migrate")}, none);
        QVERIFY(key);
        QCOMPARE(release->pathFor(key->params), QStringLiteral("/locks/repo%2F7%3Amigrate/force-release"));
        QCOMPARE(release->requestFromCommandLine({QStringLiteral("..")}, none).status().field(), QStringLiteral("key"));

        // A switch: --dry-run makes remove-all a read.
        const OpBase *removeAll = Catalogue::find(QStringLiteral("queue.remove-all"));
        Result<Request> dryRun = removeAll->requestFromCommandLine({QStringLiteral("3")}, [](const QString &name) -> std::optional<QString> {
            return name == QLatin1String("dry-run") ? std::optional<QString>(QStringLiteral("1")) : std::nullopt;
        });
        QVERIFY(dryRun);
        QVERIFY(dryRun->query.hasQueryItem(QStringLiteral("dry_run")));
    }

    // A JSON number in a body is range-checked before any cast to an integer (#48): 1e30 used to
    // be cast to qint64 first — undefined behaviour (UBSan: float-cast-overflow), and a 0 or a
    // garbage value on x86 that the range check could let through.
    void bodyIntegersAreRangeChecked_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<bool>("accepted");
        QTest::addColumn<int>("value");
        QTest::newRow("in range") << QByteArray(R"({"max_workers":4})") << true << 4;
        QTest::newRow("written with an exponent") << QByteArray(R"({"max_workers":4e0})") << true << 4;
        QTest::newRow("1e30") << QByteArray(R"({"max_workers":1e30})") << false << 0;
        QTest::newRow("2^63") << QByteArray(R"({"max_workers":9223372036854775808})") << false << 0;
        QTest::newRow("-1e19") << QByteArray(R"({"max_workers":-1e19})") << false << 0;
        QTest::newRow("2^64 + 4, which wraps to 4 through a cast") << QByteArray(R"({"max_workers":18446744073709551620})") << false << 0;
        QTest::newRow("a fraction") << QByteArray(R"({"max_workers":1.5})") << false << 0;
        QTest::newRow("a string") << QByteArray(R"({"max_workers":"4"})") << false << 0;
    }
    void bodyIntegersAreRangeChecked()
    {
        QFETCH(QByteArray, body);
        QFETCH(bool, accepted);
        QFETCH(int, value);
        Request request;
        request.body = body;
        detail::RequestReader reader(request);
        int workers = 0;
        reader(ArgSpec{ArgSpec::Body, "max_workers", "the new worker limit", 1, 1'000'000, "", true}, workers);
        const Status status = reader.finish();
        QCOMPARE(status.isOk(), accepted);
        if (accepted) {
            QCOMPARE(workers, value);
        } else {
            QCOMPARE(status.field(), QStringLiteral("max_workers"));
            QVERIFY2(status.message().contains(QLatin1String("from 1 to 1000000")), qPrintable(status.message()));
        }
    }

    void everyEntryIsDocumented()
    {
        const QString api = readDoc("api.md");
        const QString cli = readDoc("cli.md");
        for (const OpBase *op : Catalogue::all()) {
            const OpBase::Info &info = op->info();
            // docs/api.md: a table row "| METHOD | path…" naming the path.
            const QString method = QString::fromLatin1(methodName(info.method));
            const QString path = QLatin1String(info.path);
            bool inApi = false;
            for (const QString &line : api.split(u'\n')) {
                if (!line.startsWith(QStringLiteral("| %1 |").arg(method)))
                    continue;
                const QString cell = line.section(u'|', 2, 2);
                static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
                for (QString listed : cell.split(separators, Qt::SkipEmptyParts)) {
                    listed = listed.section(u'?', 0, 0).section(u'[', 0, 0);
                    inApi = inApi || listed == path;
                }
            }
            QVERIFY2(inApi, qPrintable(QStringLiteral("docs/api.md has no \"| %1 | %2\" row").arg(method, path)));
            // docs/cli.md: the command in the table.
            QVERIFY2(cli.contains(QStringLiteral("`%1").arg(QString::fromUtf8(info.cli))),
                     qPrintable(QStringLiteral("docs/cli.md does not list `%1`").arg(QString::fromUtf8(info.cli))));
        }
        // The stream's event kinds, each once in api.md's stream table.
        for (const QString &kind : Stream::kindNames())
            QVERIFY2(api.contains(QStringLiteral("| `%1` |").arg(kind)), qPrintable(kind));
    }
};

QTEST_GUILESS_MAIN(TestCatalogue)
#include "tst_catalogue.moc"
