#pragma once

// The event → delivery chain as an operator runs it, for the crash tests (tst_crashchain,
// tst_killchain, tst_deadinstance, tst_fulldisk): switchyardd processes fed numbered forge events
// over the admin API, one system webhook to a real local receiver, and what the receiver and
// the API say afterwards.

#include "support/daemonprocess.h"
#include "support/httpreceiver.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QMap>
#include <QSet>
#include <QString>
#include <QUrl>

#include <chrono>

namespace Switchyard::Test::Chain {

// A running daemon's API, with its token.
struct Api
{
    QUrl base;
    QByteArray token;

    explicit Api(DaemonProcess &daemon) : base(daemon.baseUrl()), token(daemon.adminToken()) {}
    QUrl url(const QString &path, const QString &query = {}) const;
    HttpResult get(const QString &path, const QString &query = {}) const;
    HttpResult post(const QString &path, const QByteArray &body = {},
                    const QMap<QByteArray, QByteArray> &headers = {}) const;
    HttpResult put(const QString &path, const QByteArray &body = {}) const;
};

// The numbered events: a push whose commit is n (its `after` carries n), or issue #n opened.
enum class Kind { Push, Issue };
QByteArray payload(Kind kind, int n);
QString eventName(Kind kind);
// POSTs event n (delivery id "chain-<kind>-<n>"): the HTTP status (202 when accepted, 0 when the
// daemon did not answer).
int post(const Api &api, Kind kind, int n);

// Creates a system hook sending every event to `receiverUrl`; its id, or 0.
qint64 createSystemHook(const Api &api, const QByteArray &receiverUrl);
// The id of a queue by name, or 0.
qint64 queueId(const Api &api, const QString &name);

// What the receiver saw: per event number, the delivery ids it arrived under and how often.
struct Tally
{
    QMap<int, QMap<QByteArray, int>> byEvent;  // n → delivery id → requests
    int requests = 0;
    int missing(const QList<int> &expected) const;  // expected events never seen
    int duplicates() const;                         // requests beyond the first of each delivery id
    int splitEvents() const;                        // events seen under more than one delivery id
    QString describe(const QList<int> &expected) const;
};
Tally tally(const QList<HttpReceiver::Request> &requests, Kind kind);

// The store's view through the API (the daemon's own words).
struct Ledger
{
    qint64 pending = 0;                 // deliveries without an outcome
    qint64 claimedWithoutOutcome = 0;   // of those, claimed (is_delivered) — must end at 0
    qint64 interrupted = 0;             // deliveries with an interrupted attempt in their history
    QMap<QString, qint64> eventStatus;  // event status → count
};
Ledger ledger(const Api &api);

// Waits (up to `bound`) until every event of `accepted` reached the receiver, then until the
// store has settled: no delivery without an outcome, `accepted` events done. What was seen; its
// `problem` says what never came, empty when all did.
struct Settled
{
    Tally tally;
    Ledger book;
    QString problem;
};
Settled settle(const HttpReceiver &receiver, Kind kind, const QList<int> &accepted, const Api &api,
               std::chrono::milliseconds bound);

}  // namespace Switchyard::Test::Chain
