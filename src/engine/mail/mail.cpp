// The mail service: the `mail` queue and its sender, the figures, and the test mail.
#include "mail_p.h"

#include "engine/core/cancellation.h"
#include "engine/core/crashpoint.h"
#include "engine/core/mailaddress.h"
#include "engine/core/version.h"
#include "engine/queue/queue.h"
#include "engine/settings/config.h"

#include <QJsonArray>
#include <QSysInfo>
#include <QUuid>

#include <mutex>

Q_LOGGING_CATEGORY(Switchyard::Mail::lcMail, "switchyard.mail", QtInfoMsg)

namespace Switchyard::Mail {

struct MailService::Private
{
    const EngineConfig &config;
    MailOptions options;
    const Templates templates;
    std::shared_ptr<WorkerPoolQueue<Message>> queue;
    std::atomic<qint64> queued{0};
    std::atomic<qint64> sent{0};
    std::atomic<qint64> failed{0};
    mutable std::mutex mutex;
    QString lastError;     // guarded by mutex
    QDateTime lastErrorAt; // guarded by mutex

    Private(const EngineConfig &c, MailOptions o) : config(c), options(std::move(o)), templates(options.templateOverrides) {}

    std::unique_ptr<Sender> sender() const
    {
        return options.makeSender ? options.makeSender() : makeSender(config.mailer, options.sender);
    }

    void recordFailure(const QString &error)
    {
        ++failed;
        std::lock_guard lock(mutex);
        lastError = error;
        lastErrorAt = QDateTime::currentDateTimeUtc();
    }

    // The queue's work: send the batch, log and count each outcome; nothing goes back (no retry)
    // but what shutdown stopped before it was sent, which returns to the queue.
    std::vector<Message> handle(const CancelToken &shutdown, const std::vector<Message> &batch)
    {
        const std::vector<Status> results = sender()->send(shutdown, batch);
        std::vector<Message> unsent;
        for (std::size_t i = 0; i < batch.size(); ++i) {
            const Status &r = i < results.size() ? results[i] : Status::internal(QStringLiteral("the sender gave no result"));
            if (!r && shutdown.isCancelled() && r.code() == Status::Code::Cancelled) {
                unsent.push_back(batch[i]);
                continue;
            }
            if (r) {
                ++sent;
                qCDebug(lcMail).noquote() << "sent" << batch[i].info << "to" << batch[i].toAddress;
                continue;
            }
            recordFailure(r.message());
            qCWarning(lcMail).noquote() << "mail" << batch[i].info << "to" << batch[i].toAddress << "failed:" << r.message()
                                        << (batch[i].traceId.isEmpty() ? QString() : QStringLiteral("(trace %1)").arg(batch[i].traceId));
        }
        if (!unsent.empty())
            qCInfo(lcMail).noquote() << unsent.size() << "mail(s) go back to the queue: the instance is stopping";
        crashPoint("mail.sent");
        return unsent;
    }
};

MailService::MailService(const EngineConfig &config, MailOptions options) : d(std::make_unique<Private>(config, std::move(options))) {}

MailService::~MailService() = default;

Status MailService::start(const CancelToken &cancel, QueueManager &queues, const CancelToken &shutdown)
{
    if (!enabled())
        return Status::ok();
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
    return Status::ok();
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

Status MailService::sendAsync(std::vector<Message> messages)
{
    if (!d->queue)
        return Status::ok();
    qint64 queued = 0;
    for (const Message &m : messages) {
        if (Status pushed = d->queue->push(CancelToken(), m); !pushed)
            return Status(pushed.code(), QStringLiteral("mail %1 to %2 not queued (%3 of %4 queued before it): %5")
                                             .arg(m.info, m.toAddress)
                                             .arg(queued)
                                             .arg(messages.size())
                                             .arg(pushed.message()));
        crashPoint("mail.queued");
        ++d->queued;
        ++queued;
    }
    return Status::ok();
}

void MailService::recordNotQueued(const std::vector<Message> &messages, const Status &why)
{
    for (std::size_t i = 0; i < messages.size(); ++i)
        d->recordFailure(QStringLiteral("not queued: %1").arg(why.message()));
    qCWarning(lcMail).noquote() << messages.size() << "mail(s) lost:" << why.message();
}

void MailService::composeFailed(const QString &what, const QString &error)
{
    d->recordFailure(error);
    qCWarning(lcMail).noquote() << what << "was not mailed:" << error;
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
    msg.headers.emplace_back(QStringLiteral("Message-ID"),
                             QStringLiteral("<test/%1@%2>").arg(QDateTime::currentMSecsSinceEpoch()).arg(d->config.server.domain));
    msg.headers.emplace_back(QStringLiteral("X-Mailer"), QStringLiteral("Switchyard"));
    if (!traceId.isEmpty())
        msg.headers.emplace_back(QStringLiteral("X-Switchyard-Trace"), traceId);
    applyOverrideHeaders(msg);
    const std::vector<Status> results = d->sender()->send(cancel, {msg});
    const Status result = results.empty() ? Status::internal(QStringLiteral("the sender gave no result")) : results.front();
    if (result) {
        ++d->sent;
        qCInfo(lcMail).noquote() << "test mail sent to" << msg.toAddress;
    } else {
        d->recordFailure(result.message());
        qCWarning(lcMail).noquote() << "test mail to" << msg.toAddress << "failed:" << result.message();
    }
    return TestMailResult{bool(result), result.message()};
}

MailStats MailService::stats() const
{
    MailStats s;
    s.queued = d->queued;
    s.sent = d->sent;
    s.failed = d->failed;
    std::lock_guard lock(d->mutex);
    s.lastError = d->lastError;
    s.lastErrorAt = d->lastErrorAt;
    return s;
}

} // namespace Switchyard::Mail
