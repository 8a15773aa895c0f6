#pragma once

// Delivery history for the benchmarks (webhook_bench's search, console_bench's history pane):
// rows written straight into the store, many per transaction.

#include "engine/store/store.h"

#include <QDateTime>

#include <algorithm>
#include <cstdio>

namespace Switchyard::Bench {

// History rows `from` … `rows` - 1 for `hooks` hooks from `firstHook` on, written straight into the
// store in transactions of 10 000: 90 % succeeded, 8 % failed, 2 % unknown; five event types; spread over 30 days.
inline bool fillHistory(Store &store, qint64 from, qint64 rows, qint64 firstHook, int hooks = 10)
{
    static const char *events[] = {"push", "issues", "issue_comment", "pull_request", "release"};
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (qint64 done = from; done < rows;) {
        const qint64 chunk = std::min<qint64>(10'000, rows - done);
        const Status written = store.write([&](SqlTransaction &tx) -> Status {
            for (qint64 i = done; i < done + chunk; ++i) {
                const int kind = int((i / 10) % 50); // independent of the hook (i % hooks, for 10)
                const char *outcome = kind < 45 ? "succeeded" : kind < 49 ? "failed" : "unknown";
                const QByteArray payload = R"({"ref":"refs/heads/main","commits":[{"id":")" + QByteArray::number(i, 16) +
                                           R"(","message":"change number )" + QByteArray::number(i) + R"("}]})";
                const QString response = QStringLiteral("{\"status\":%1,\"body\":\"%2\"}").arg(kind < 45 ? 200 : 502).arg(kind < 45 ? QStringLiteral("ok") : QStringLiteral("bad gateway %1").arg(i));
                if (Status s = tx.exec(QStringLiteral("INSERT INTO hook_task (hook_id, uuid, payload, payload_version, event_type, is_delivered, "
                                                      "delivered_ns, is_succeed, outcome, response, duration_ms, created_ms) "
                                                      "VALUES (?, ?, ?, 2, ?, 1, ?, ?, ?, ?, 12.5, ?)"),
                                       {firstHook + i % hooks, QStringLiteral("bench-%1").arg(i), payload, QString::fromLatin1(events[(i / 7) % 5]),
                                        (now - (rows - i) * 2'592'000'000 / rows) * 1'000'000, kind < 45 ? 1 : 0, QString::fromLatin1(outcome),
                                        response, now - (rows - i) * 2'592'000'000 / rows})
                                   .status();
                    !s)
                    return s;
            }
            return Status::ok();
        });
        if (!written) {
            std::fprintf(stderr, "history: %s\n", qPrintable(written.message()));
            return false;
        }
        done += chunk;
    }
    return true;
}

} // namespace Switchyard::Bench
