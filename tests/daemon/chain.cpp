#include "chain.h"

#include "support/wait.h"

#include <QFile>
#include <QJsonDocument>

namespace Switchyard::Test::Chain {

namespace {

QJsonObject sampleObject(const char *name)
{
    QFile file(QStringLiteral(SWITCHYARD_TEST_DATA "/events/") + QLatin1String(name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing sample %s", name);
    return QJsonDocument::fromJson(file.readAll()).object();
}

QString sha(int n)
{
    return QStringLiteral("%1").arg(n, 40, 10, QLatin1Char('0'));
}

}  // namespace

QUrl Api::url(const QString &path, const QString &query) const
{
    QUrl u = base;
    u.setPath(u.path() + path);
    u.setQuery(query);
    return u;
}

HttpResult Api::get(const QString &path, const QString &query) const
{
    return http("GET", url(path, query), token);
}

HttpResult Api::post(const QString &path, const QByteArray &body, const QMap<QByteArray, QByteArray> &headers) const
{
    const qsizetype q = path.indexOf(u'?');
    return http("POST", q < 0 ? url(path) : url(path.left(q), path.mid(q + 1)), token, body, headers);
}

HttpResult Api::put(const QString &path, const QByteArray &body) const
{
    return http("PUT", url(path), token, body);
}

QByteArray payload(Kind kind, int n)
{
    if (kind == Kind::Push) {
        static const QJsonObject push = sampleObject("gitea-push.json");
        QJsonObject p = push;
        p.insert(QStringLiteral("after"), sha(n));
        QJsonArray commits = p.value(QStringLiteral("commits")).toArray();
        QJsonObject commit = commits.at(0).toObject();
        commit.insert(QStringLiteral("id"), sha(n));
        commit.insert(QStringLiteral("message"), QStringLiteral("chain %1\n").arg(n));
        commits[0] = commit;
        p.insert(QStringLiteral("commits"), commits);
        return QJsonDocument(p).toJson(QJsonDocument::Compact);
    }
    static const QJsonObject opened = sampleObject("gitea-issues-opened.json");
    QJsonObject p = opened;
    QJsonObject issue = p.value(QStringLiteral("issue")).toObject();
    issue.insert(QStringLiteral("number"), n);
    issue.insert(QStringLiteral("id"), 100000 + n);
    issue.insert(QStringLiteral("title"), QStringLiteral("chain issue %1").arg(n));
    issue.insert(QStringLiteral("body"), QStringLiteral("chain issue %1").arg(n));
    p.insert(QStringLiteral("issue"), issue);
    p.insert(QStringLiteral("number"), n);
    return QJsonDocument(p).toJson(QJsonDocument::Compact);
}

QString eventName(Kind kind)
{
    return kind == Kind::Push ? QStringLiteral("push") : QStringLiteral("issues");
}

int post(const Api &api, Kind kind, int n)
{
    const QByteArray delivery = "chain-" + eventName(kind).toLatin1() + '-' + QByteArray::number(n);
    return api
        .post(QStringLiteral("/events?event=") + eventName(kind), payload(kind, n), {{"X-Gitea-Delivery", delivery}})
        .status;
}

qint64 createSystemHook(const Api &api, const QByteArray &receiverUrl)
{
    const QJsonObject hook{{QStringLiteral("scope"), QStringLiteral("system")},
                           {QStringLiteral("url"), QString::fromLatin1(receiverUrl)},
                           {QStringLiteral("name"), QStringLiteral("chain receiver")},
                           {QStringLiteral("events"), QJsonObject{{QStringLiteral("send_everything"), true}}}};
    const HttpResult created = api.post(QStringLiteral("/hooks"), QJsonDocument(hook).toJson());
    if (created.status != 201)
        qWarning().noquote() << "hook not created:" << created.status << created.body;
    return created.status == 201 ? created.json().object().value(QStringLiteral("id")).toInteger() : 0;
}

qint64 queueId(const Api &api, const QString &name)
{
    for (const QJsonValue &q : api.get(QStringLiteral("/queues")).json().array())
        if (q[QStringLiteral("name")].toString() == name)
            return q[QStringLiteral("qid")].toInteger();
    return 0;
}

int Tally::missing(const QList<int> &expected) const
{
    int count = 0;
    for (int n : expected)
        count += byEvent.contains(n) ? 0 : 1;
    return count;
}

int Tally::duplicates() const
{
    int count = 0;
    for (const QMap<QByteArray, int> &deliveries : byEvent)
        for (int requests : deliveries)
            count += requests - 1;
    return count;
}

int Tally::splitEvents() const
{
    int count = 0;
    for (const QMap<QByteArray, int> &deliveries : byEvent)
        count += deliveries.size() > 1 ? 1 : 0;
    return count;
}

QString Tally::describe(const QList<int> &expected) const
{
    QStringList missed;
    for (int n : expected)
        if (!byEvent.contains(n))
            missed << QString::number(n);
    return QStringLiteral(
               "%1 request(s) for %2 event(s); missing %3 [%4]; %5 duplicate request(s); %6 event(s) under two "
               "delivery ids")
        .arg(requests)
        .arg(byEvent.size())
        .arg(missed.size())
        .arg(missed.mid(0, 20).join(u','))
        .arg(duplicates())
        .arg(splitEvents());
}

Tally tally(const QList<HttpReceiver::Request> &requests, Kind kind)
{
    Tally t;
    for (const HttpReceiver::Request &r : requests) {
        const QJsonObject body = QJsonDocument::fromJson(r.body).object();
        int n = -1;
        if (kind == Kind::Push && r.header("X-Gitea-Event") == "push")
            n = body.value(QStringLiteral("after")).toString().toInt();
        else if (kind == Kind::Issue && r.header("X-Gitea-Event") == "issues")
            n = int(body.value(QStringLiteral("issue")).toObject().value(QStringLiteral("number")).toInteger());
        if (n < 0)
            continue;
        ++t.requests;
        ++t.byEvent[n][r.header("X-Gitea-Delivery")];
    }
    return t;
}

Ledger ledger(const Api &api)
{
    Ledger l;
    for (int page = 1;; ++page) {
        const HttpResult result = api.get(QStringLiteral("/deliveries"), QStringLiteral("limit=500&page=%1").arg(page));
        const QJsonArray rows = result.json().array();
        for (const QJsonValue &row : rows) {
            const QJsonObject t = row.toObject();
            if (t.value(QStringLiteral("status")).toString() == QLatin1String("pending")) {
                ++l.pending;
                if (t.value(QStringLiteral("is_delivered")).toBool())
                    ++l.claimedWithoutOutcome;
            }
            if (!t.value(QStringLiteral("interrupted")).toArray().isEmpty())
                ++l.interrupted;
        }
        if (rows.size() < 500)
            break;
    }
    for (int page = 1;; ++page) {
        const QJsonArray rows =
            api.get(QStringLiteral("/events"), QStringLiteral("limit=500&page=%1").arg(page)).json().array();
        for (const QJsonValue &row : rows)
            ++l.eventStatus[row[QStringLiteral("status")].toString()];
        if (rows.size() < 500)
            break;
    }
    return l;
}

Settled settle(const HttpReceiver &receiver, Kind kind, const QList<int> &accepted, const Api &api, std::chrono::milliseconds bound)
{
    Settled s;
    if (!eventually(
            [&] {
                s.tally = tally(receiver.requests(), kind);
                return s.tally.missing(accepted) == 0;
            },
            bound)) {
        s.problem = s.tally.describe(accepted);
        return s;
    }
    const qint64 expected = accepted.size();
    if (!eventually([&] {
            s.book = ledger(api);
            return s.book.pending == 0 && s.book.eventStatus.value(QStringLiteral("done")) == expected;
        }))
        s.problem = QStringLiteral("pending %1 (claimed without outcome %2); events done %3 of %4")
                        .arg(s.book.pending)
                        .arg(s.book.claimedWithoutOutcome)
                        .arg(s.book.eventStatus.value(QStringLiteral("done")))
                        .arg(expected);
    s.tally = tally(receiver.requests(), kind);  // what arrived while the store settled, too
    return s;
}

}  // namespace Switchyard::Test::Chain
