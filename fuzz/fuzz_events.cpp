// The event translator (src/engine/events/translate.cpp) on Gitea's and GitHub's webhook payloads,
// as POST /api/v1/events takes them: the payload is checked (checkPayload), then translated into
// the forge's domain rows in a transaction on a real SQLite store, which is rolled back so every
// input starts from the same database. The store is opened once, in a temporary folder.
//
// Input: the event type (X-Gitea-Event / X-GitHub-Event), a newline, the JSON payload — e.g.
// "push\n{...}" (fuzz/corpus/fuzz_events/). Properties: a refusal names its field; the bus
// calls a translation returns can be made (on a NullNotifier).

#include "fuzzcheck.h"

#include "engine/core/cancellation.h"
#include "engine/events/translate_p.h"
#include "engine/settings/config.h"
#include "engine/store/store.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QTemporaryDir>

#include <cstddef>
#include <cstdint>
#include <memory>

using namespace Switchyard;

namespace {

Store *g_store = nullptr; // opened once by LLVMFuzzerInitialize; lives until the process exits (reachable: no leak)

void quiet(QtMsgType type, const QMessageLogContext &, const QString &message)
{
    if (type == QtFatalMsg || type == QtCriticalMsg)
        std::fprintf(stderr, "%s\n", qUtf8Printable(message));
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static QCoreApplication app(*argc, *argv); // Qt Sql's driver plugins
    qInstallMessageHandler(quiet);             // the store logs every rolled-back transaction
    static QTemporaryDir dir;
    FUZZ_CHECK(dir.isValid(), dir.errorString());
    DatabaseSettings database;
    database.path = dir.filePath(QStringLiteral("switchyard.db"));
    Result<std::unique_ptr<Store>> store = Store::open(CancelToken(), database);
    FUZZ_CHECK(store, store.status().message());
    // Never destroyed: at exit the main thread's connections (a thread_local in store.cpp) are
    // gone before any static, and a Store's destructor closes its connection on them.
    g_store = store->release();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 64 * 1024) // payloads are bounded at the edge; larger inputs only slow the search down
        return -1;
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    const qsizetype newline = input.indexOf('\n');
    if (newline < 0)
        return -1;
    const QString event = QString::fromUtf8(input.left(newline)).trimmed();
    const QJsonDocument document = QJsonDocument::fromJson(input.mid(newline + 1));
    if (!document.isObject())
        return 0;
    const QJsonObject payload = document.object();
    if (const Status valid = checkPayload(event, payload); !valid) {
        FUZZ_CHECK(!valid.field().isEmpty(), valid.message());
        return 0;
    }
    const Status rolledBack = Status::cancelled(QStringLiteral("rolled back by the fuzzer"));
    const Status done = g_store->write([&](SqlTransaction &tx) -> Status {
        const Result<Translation> translation =
            translateEvent(tx, QStringLiteral("fuzz"), event, payload, true, QStringLiteral("trace"));
        if (!translation)
            return translation.status();
        NullNotifier notifier;
        for (const auto &call : translation->calls)
            call(notifier);
        return rolledBack;
    });
    FUZZ_CHECK(!done.isOk(), QStringLiteral("the transaction was committed"));
    return 0;
}
