// Helper for tst_webhook aKilledInstanceLosesNoDelivery: starts an engine on --data (the hooks are
// already there; webhook_sender is a LevelDB queue with one worker taking one task at a time, and
// the delivery loop has room for one delivery),
// queues one push and --issues N issue events, says "queued", and runs until it is killed
// (kill -9). Not a test on its own.
//
// hookchild --data DIR --issues N
#include "engine/engine.h"
#include "engine/webhook/webhook.h"

#include "support/testutil.h"

#include <QCoreApplication>

#include <cstdio>
#include <thread>

using namespace Switchyard;
using namespace std::chrono_literals;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const QString data = Test::argumentValue(args, "--data");
    const int issues = Test::argumentValue(args, "--issues").toInt();
    const QByteArray ini = "[webhook]\nALLOWED_HOST_LIST = loopback\nDELIVER_TIMEOUT = 600\n"
                           "[queue.webhook_sender]\nTYPE = level\nMAX_WORKERS = 1\nBATCH_LENGTH = 1\n";
    EngineOptions options;
    options.webhookOptions.maxInFlight = 1; // the hanging push holds the delivery loop's only room
    Result<std::unique_ptr<Engine>> engine = Engine::start(CancelToken(), Test::configFrom(ini, data), options);
    if (!engine) {
        std::fprintf(stderr, "%s\n", qPrintable(engine.status().message()));
        return 2;
    }
    Webhook::WebhookService &hooks = (*engine)->webhooks();
    const QByteArray push = R"({"ref":"refs/heads/main","commits":[{"id":"abc"}],"repository":{"id":7}})";
    if (!hooks.prepare(CancelToken(), {7, 0}, Webhook::HookEventType::Push, push, QStringLiteral("refs/heads/main"), {}))
        return 3;
    for (int i = 0; i < issues; ++i) {
        const QByteArray issue = R"({"action":"opened","number":)" + QByteArray::number(i + 1) + R"(,"repository":{"id":7}})";
        if (!hooks.prepare(CancelToken(), {7, 0}, Webhook::HookEventType::Issues, issue, QString(), {}))
            return 3;
    }
    std::fprintf(stdout, "queued\n");
    std::fflush(stdout);
    std::this_thread::sleep_for(1h); // until killed
    return 0;
}
