// The mail service: the `mail` queue and its sender, the figures, and the test mail.
#include "mail_p.h"

#include "engine/core/cancellation.h"
#include "engine/core/crashpoint.h"
#include "engine/core/escape.h"
#include "engine/core/mailaddress.h"
#include "engine/core/retry.h"
#include "engine/core/version.h"
#include "engine/queue/queue.h"
#include "engine/settings/config.h"
#include "engine/store/instances.h"

#include <QJsonArray>
#include <QSysInfo>
#include <QUuid>

#include <mutex>

Q_LOGGING_CATEGORY(Switchyard::Mail::lcMail, "switchyard.mail", QtInfoMsg)

namespace Switchyard::Mail {

namespace {

// Data in a log line (an address, a subject, a server's reply): control characters escaped, so
// a value never starts a line of its own (docs/mail.md).
QString logged(const QString &text)
{
    return escapeControl(text, 300);
}

} // namespace

struct MailService::Private
{
    const EngineConfig &config;
    MailOptions options;
    const Templates templates;
    std::shared_ptr<WorkerPoolQueue<Message>> queue;
    Store *store = nullptr;                 // set by start()
    InstanceRegistry *instances = nullptr;  // set by start()
    std::atomic<bool> resync{false};        // an outbox row was not queued: the next recovery round queues it
    std::atomic<qint64> prunedMs{0};        // the outbox's last prune
    // The outbox rows this instance's workers hold (from before their claim until their outcome
    // is written or they go back): a claim of this instance's that is not in here was left by a
    // write that failed for good, and is taken over by recover().
    std::mutex handMutex; // guards inHand
    std::multiset<qint64> inHand;
    std::atomic<qint64> queued{0};
    std::atomic<qint64> sent{0};
    std::atomic<qint64> failed{0};
    std::atomic<qint64> skipped{0};
    mutable std::mutex mutex;
    QString lastError;     // guarded by mutex
    QDateTime lastErrorAt; // guarded by mutex

    Private(const EngineConfig &c, MailOptions o) : config(c), options(std::move(o)), templates(options.templateOverrides) {}

    std::unique_ptr<Sender> sender() const
    {
        return options.makeSender ? options.makeSender() : makeSender(config.mailer, options.sender);
    }

    // A skip is a failure too (GET /mail and /metrics count it as failed), and counted apart.
    void recordFailure(const QString &error, bool skip = false)
    {
        ++failed;
        if (skip)
            ++skipped;
        std::lock_guard lock(mutex);
        lastError = error;
        lastErrorAt = QDateTime::currentDateTimeUtc();
    }

    // Pushes messages whose rows are in the outbox, until the queue refuses one: that one and
    // the rest wait there, for the next recovery round (a full queue refuses each push only
    // after its push wait: the rest are not tried now).
    void pushStored(const std::vector<Message> &messages)
    {
        for (const Message &m : messages)
            if (Status pushed = queue->push(CancelToken(), m); !pushed) {
                resync = true;
                qCWarning(lcMail).noquote() << "mail" << logged(m.info) << "to" << logged(m.toAddress)
                                            << "and what follows are in the outbox but not queued (" << logged(pushed.message())
                                            << "); the next recovery round queues them";
                return;
            }
    }

    // A store write of the chain: an unavailable store is waited out until `stop`, then for 2 s
    // more (a result at a stop); what stays unwritten is taken over after the next start.
    Status patiently(const CancelToken &stop, const std::function<Status()> &attempt) const
    {
        Status s = untilAvailable(stop, RetryDelays{}, attempt);
        if (s.code() == Status::Code::Unavailable && stop.isCancelled()) {
            const CancelSource bound = CancelSource::withTimeout(CancelToken(), std::chrono::seconds(2));
            s = untilAvailable(bound.token(), RetryDelays{}, attempt);
        }
        return s;
    }

    std::vector<Message> handle(const CancelToken &shutdown, const std::vector<Message> &batch);
    void account(const Message &m, const Status &r);
};

// The queue's work: claim the batch's outbox rows, send what was claimed (a row claimed or ended
// elsewhere is not sent), record each outcome; nothing goes back (no retry, as in Gitea) but
// what shutdown stopped before it was sent, which returns to the queue.
std::vector<Message> MailService::Private::handle(const CancelToken &shutdown, const std::vector<Message> &batch)
{
    const QString self = instances->instanceId();
    std::vector<qint64> ids;
    for (const Message &m : batch)
        if (m.outboxId > 0)
            ids.push_back(m.outboxId);
    {
        std::lock_guard lock(handMutex);
        inHand.insert(ids.begin(), ids.end());
    }
    const auto letGo = [&] {
        std::lock_guard lock(handMutex);
        for (qint64 id : ids)
            if (const auto it = inHand.find(id); it != inHand.end())
                inHand.erase(it);
    };
    Result<std::set<qint64>> claimed = untilAvailable(shutdown, RetryDelays{}, [&] { return Outbox::claim(*store, ids, self); });
    if (!claimed) {
        letGo();
        return batch; // stopping: back to the queue (and unclaimed in the outbox)
    }
    crashPoint("mail.claimed");
    std::vector<Message> toSend;
    for (const Message &m : batch) // a row queued twice is in the batch twice: sent once
        if (m.outboxId == 0 || claimed->erase(m.outboxId) > 0) // an item of a version without the outbox: sent as it was
            toSend.push_back(m);
    const std::vector<Status> results = toSend.empty() ? std::vector<Status>{} : sender()->send(shutdown, toSend);
    crashPoint("mail.sent");
    std::vector<Message> unsent;
    std::vector<qint64> released;
    std::vector<std::tuple<qint64, bool, QString>> outcomes;
    for (std::size_t i = 0; i < toSend.size(); ++i) {
        const Message &m = toSend[i];
        const Status &r = i < results.size() ? results[i] : Status::internal(QStringLiteral("the sender gave no result"));
        if (!r && shutdown.isCancelled() && r.code() == Status::Code::Cancelled) {
            unsent.push_back(m);
            if (m.outboxId > 0)
                released.push_back(m.outboxId);
            continue;
        }
        account(m, r);
        if (m.outboxId > 0)
            outcomes.emplace_back(m.outboxId, bool(r), r.message());
    }
    if (Status written = patiently(shutdown, [&] { return Outbox::record(*store, outcomes, self); }); !written)
        qCWarning(lcMail).noquote() << outcomes.size() << "mail outcome(s) not recorded (those mails go again after the next start):"
                                    << written.message();
    else
        crashPoint("mail.recorded");
    if (!released.empty()) {
        patiently(shutdown, [&] { return Outbox::release(*store, released, self); });
        qCInfo(lcMail).noquote() << unsent.size() << "mail(s) go back to the queue: the instance is stopping";
    }
    letGo();
    return unsent;
}

void MailService::Private::account(const Message &m, const Status &r)
{
    const QString trace = m.traceId.isEmpty() ? QString() : QStringLiteral("(trace %1)").arg(logged(m.traceId));
    if (r) {
        ++sent;
        qCDebug(lcMail).noquote() << "sent" << logged(m.info) << "to" << logged(m.toAddress);
        return;
    }
    // A recipient that is no mail address (a store row from before addresses were checked) was
    // never on the wire: skipped, the others of the batch were sent.
    const bool skip = r.code() == Status::Code::InvalidArgument && !r.field().isEmpty();
    recordFailure(r.message(), skip);
    if (skip) // the reason names the address, escaped
        qCWarning(lcMail).noquote() << "mail" << logged(m.info) << "skipped:" << logged(r.message()) << trace;
    else
        qCWarning(lcMail).noquote() << "mail" << logged(m.info) << "to" << logged(m.toAddress) << "failed:" << logged(r.message()) << trace;
}

MailService::MailService(const EngineConfig &config, MailOptions options) : d(std::make_unique<Private>(config, std::move(options))) {}

MailService::~MailService() = default;

Status MailService::start(const CancelToken &cancel, QueueManager &queues, const CancelToken &shutdown, Store &store,
                          InstanceRegistry &instances)
{
    if (!enabled())
        return Status::ok();
    d->store = &store;
    d->instances = &instances;
    // The workers' handler has no token of its own: the instance's shutdown stops a batch between
    // two mails (or cuts the one on the wire, which the server then discards), and what was not
    // sent goes back to the queue for the next start.
    Result<std::shared_ptr<WorkerPoolQueue<Message>>> queue =
        queues.createSimpleQueue<Message>(cancel, QStringLiteral("mail"), [this, shutdown](std::vector<Message> batch) {
            return d->handle(shutdown, batch);
        });
    if (!queue)
        return queue.status();
    d->queue = std::move(queue).value();
    if (Result<qint64> queued = recover(cancel, true); !queued)
        return queued.status();
    else if (*queued > 0)
        qCInfo(lcMail).noquote() << *queued << "unsent mail(s) of the outbox are queued again";
    instances.addRecoverer(QStringLiteral("mail"), [this](const CancelToken &c, bool adopted) -> Status {
        Result<qint64> queued = recover(c, adopted || d->resync.exchange(false));
        if (!queued)
            d->resync = true;
        return queued.status();
    });
    return Status::ok();
}

Result<qint64> MailService::recover(const CancelToken &cancel, bool everything)
{
    if (!d->queue || !d->store)
        return qint64(0);
    Result<std::vector<Message>> interrupted = [&] {
        std::lock_guard lock(d->handMutex); // a worker holds a row before it claims it
        return Outbox::takeOver(*d->store, *d->instances, d->inHand);
    }();
    if (!interrupted)
        return interrupted.status();
    if (!interrupted->empty())
        qCWarning(lcMail).noquote() << interrupted->size() << "mail(s) were being sent by an instance that ended; they are sent again";
    d->pushStored(*interrupted);
    qint64 queued = qint64(interrupted->size());
    for (qint64 after = 0; everything && !cancel.isCancelled();) {
        Result<std::vector<Message>> page = Outbox::unsent(*d->store, after, 500);
        if (!page)
            return page.status();
        if (page->empty())
            break;
        d->pushStored(*page);
        queued += qint64(page->size());
        after = page->back().outboxId;
    }
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (now - d->prunedMs > 3'600'000) { // ended mails stay a week
        d->prunedMs = now;
        if (Result<qint64> pruned = Outbox::prune(*d->store, now - 7LL * 24 * 3'600'000); !pruned)
            qCWarning(lcMail).noquote() << "the outbox could not be pruned:" << pruned.status().message();
    }
    return queued;
}

const MailerSettings &MailService::settings() const
{
    return d->config.mailer;
}

bool MailService::enabled() const
{
    return d->config.mailer.enabled;
}

bool MailService::notifying() const
{
    return d->config.mailer.enabled && d->config.service.enableNotifyMail;
}

std::shared_ptr<WorkerPoolQueue<Message>> MailService::queue() const
{
    return d->queue;
}

const Templates &MailService::templates() const
{
    return d->templates;
}

Status MailService::sendAsync(std::vector<Message> messages, const QString &key)
{
    if (!d->queue || messages.empty())
        return Status::ok();
    Result<std::vector<Message>> stored = Outbox::put(*d->store, std::move(messages), key);
    if (!stored)
        return Status(stored.status().code(), QStringLiteral("mail not queued: the outbox did not take it: %1").arg(stored.status().message()));
    crashPoint("mail.stored");
    d->queued += qint64(stored->size());
    d->pushStored(*stored);
    if (!stored->empty())
        crashPoint("mail.queued");
    return Status::ok();
}

void MailService::recordNotQueued(const std::vector<Message> &messages, const Status &why)
{
    for (std::size_t i = 0; i < messages.size(); ++i)
        d->recordFailure(QStringLiteral("not queued: %1").arg(why.message()));
    qCWarning(lcMail).noquote() << messages.size() << "mail(s) lost:" << logged(why.message());
}

void MailService::composeFailed(const QString &what, const QString &error)
{
    d->recordFailure(error);
    qCWarning(lcMail).noquote() << logged(what) << "was not mailed:" << logged(error);
}

QString MailService::fromDisplayName(const QString &displayName) const
{
    QString name = d->config.mailer.fromDisplayNameFormat;
    name.replace(QLatin1String("{{DisplayName}}"), displayName)
        .replace(QLatin1String("{{AppName}}"), d->config.appName)
        .replace(QLatin1String("{{Domain}}"), d->config.server.domain);
    return name.simplified();
}

void MailService::applyOverrideHeaders(Message &msg) const
{
    for (const auto &[header, values] : d->config.mailer.overrideHeaders) {
        const QString value = values.join(QStringLiteral(", "));
        const auto same = [&](const std::pair<QString, QString> &h) { return h.first.compare(header, Qt::CaseInsensitive) == 0; };
        msg.headers.erase(std::remove_if(msg.headers.begin(), msg.headers.end(), same), msg.headers.end());
        if (header.compare(QLatin1String("Subject"), Qt::CaseInsensitive) == 0)
            msg.subject = value;
        else
            msg.headers.emplace_back(header, value);
    }
}

Message MailService::newMessage(const QString &info, const QString &traceId) const
{
    const MailerSettings &m = d->config.mailer;
    Message msg;
    msg.info = info;
    msg.fromAddress = m.fromAddress;
    msg.envelopeFrom = m.envelopeFrom.isEmpty() ? m.fromAddress : m.envelopeFrom == QLatin1String("<>") ? QString() : m.envelopeFrom;
    msg.date = QDateTime::currentDateTimeUtc();
    msg.traceId = traceId;
    return msg;
}

Result<TestMailResult> MailService::sendTest(const CancelToken &cancel, const QString &to, const QString &givenTraceId)
{
    // A test is its own cause: its trace id is new unless the caller has one.
    const QString traceId = givenTraceId.isEmpty() ? QUuid::createUuid().toString(QUuid::Id128) : givenTraceId;
    const Result<MailAddress> address = parseMailAddress(to);
    if (!address)
        return Status::invalidArgument(QStringLiteral("to: %1").arg(address.status().message())).withField(QStringLiteral("to"));
    if (!enabled())
        return Status::conflict(QStringLiteral("the mailer is off: set [mailer] ENABLED = true (with FROM and the server) and restart"));
    const MailerSettings &m = d->config.mailer;
    const QString name = m.name.isEmpty() ? d->config.appName : m.name;
    const QJsonObject data{{QStringLiteral("app_name"), d->config.appName},
                           {QStringLiteral("host"), QSysInfo::machineHostName()},
                           {QStringLiteral("version"), QStringLiteral(SWITCHYARD_VERSION)},
                           {QStringLiteral("protocol"), m.protocol},
                           {QStringLiteral("server"), m.serverLabel()},
                           {QStringLiteral("to"), address->address},
                           {QStringLiteral("sent_at"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)},
                           {QStringLiteral("trace_id"), traceId}};
    Result<Rendered> rendered = d->templates.render(QStringLiteral("test"), data);
    if (!rendered) {
        d->recordFailure(rendered.status().message());
        return TestMailResult{false, rendered.status().message()};
    }
    Message msg = newMessage(QStringLiteral("test mail"), traceId);
    msg.fromName = fromDisplayName(name);
    msg.toAddress = address->address;
    msg.toName = address->name;
    msg.subject = sanitizeSubject(m.subjectPrefix.isEmpty() ? rendered->subject : m.subjectPrefix + u' ' + rendered->subject);
    msg.text = rendered->text;
    if (!m.sendAsPlainText)
        msg.html = rendered->html;
    // Unique on purpose (the clock): each test is its own message, never a duplicate a mail
    // client or server folds into an earlier one; it is sent at once, not through the outbox,
    // so no retry of it needs the same id (unlike forge mail, notifier.cpp).
    msg.headers.emplace_back(QStringLiteral("Message-ID"),
                             QStringLiteral("<test/%1@%2>").arg(QDateTime::currentMSecsSinceEpoch()).arg(d->config.server.domain));
    msg.headers.emplace_back(QStringLiteral("X-Mailer"), QStringLiteral("Switchyard"));
    msg.headers.emplace_back(QStringLiteral("X-Auto-Response-Suppress"), QStringLiteral("All")); // Gitea's ToMessage
    if (!traceId.isEmpty())
        msg.headers.emplace_back(QStringLiteral("X-Switchyard-Trace"), traceId);
    applyOverrideHeaders(msg);
    const std::vector<Status> results = d->sender()->send(cancel, {msg});
    const Status result = results.empty() ? Status::internal(QStringLiteral("the sender gave no result")) : results.front();
    if (result) {
        ++d->sent;
        qCInfo(lcMail).noquote() << "test mail sent to" << logged(msg.toAddress);
    } else {
        d->recordFailure(result.message());
        qCWarning(lcMail).noquote() << "test mail to" << logged(msg.toAddress) << "failed:" << logged(result.message());
    }
    return TestMailResult{bool(result), result.message()};
}

MailStats MailService::stats() const
{
    MailStats s;
    s.queued = d->queued;
    s.sent = d->sent;
    s.failed = d->failed;
    s.skipped = d->skipped;
    std::lock_guard lock(d->mutex);
    s.lastError = d->lastError;
    s.lastErrorAt = d->lastErrorAt;
    return s;
}

} // namespace Switchyard::Mail
