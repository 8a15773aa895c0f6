// The senders: SMTP through libcurl (one connection per batch), sendmail (a program per mail),
// dummy (a log line).
#include "mail_p.h"

#include "engine/core/cancellation.h"
#include "engine/core/childprocess.h"
#include "engine/core/escape.h"
#include "engine/core/mailaddress.h"
#include "engine/settings/config.h"

#include <QHostAddress>
#include <QUrl>
#include <QSysInfo>

#include <curl/curl.h>

#include <mutex>

namespace Switchyard::Mail {

namespace {

// The server's last refusal (a 4xx or 5xx reply, as libcurl's debug callback sees the lines):
// its own words, for the log and POST /mail/test.
struct Transfer
{
    QByteArray data;
    qsizetype offset = 0;
    QByteArray refusal;
    const CancelToken *cancel = nullptr;
};

size_t readBody(char *buffer, size_t size, size_t count, void *user)
{
    auto *t = static_cast<Transfer *>(user);
    const size_t n = std::min<size_t>(size * count, size_t(t->data.size() - t->offset));
    memcpy(buffer, t->data.constData() + t->offset, n);
    t->offset += qsizetype(n);
    return n;
}

int debugLine(CURL *, curl_infotype type, char *data, size_t size, void *user)
{
    if (type == CURLINFO_HEADER_IN && size >= 3 && (data[0] == '4' || data[0] == '5')) {
        const QByteArray line = QByteArray(data, qsizetype(size)).trimmed();
        // A multi-line reply ("550-…", then "550 …") is kept whole.
        auto *t = static_cast<Transfer *>(user);
        t->refusal = t->refusal.size() > 3 && t->refusal.at(3) == '-' ? t->refusal + ' ' + line : line;
    }
    return 0;
}

int progress(void *user, curl_off_t, curl_off_t, curl_off_t, curl_off_t)
{
    const auto *t = static_cast<Transfer *>(user);
    return t->cancel && t->cancel->isCancelled() ? 1 : 0; // non-zero aborts the transfer
}

// The message as it may go on the wire, its recipient and envelope sender parsed again right
// before (defence in depth: the store and the queue may hold messages from before addresses were
// checked at ingestion). An address that is no Mailbox fails the message alone, never sent.
Result<Message> onTheWire(const Message &message)
{
    Message out = message;
    Result<QString> to = parseMailbox(message.toAddress);
    if (!to)
        return Status::invalidArgument(QStringLiteral("recipient %1; not sent").arg(to.status().message())).withField(QStringLiteral("to"));
    out.toAddress = *to;
    if (!message.envelopeFrom.isEmpty()) { // "": the null sender
        Result<QString> from = parseMailbox(message.envelopeFrom);
        if (!from)
            return Status::invalidArgument(QStringLiteral("envelope sender %1; not sent").arg(from.status().message()))
                .withField(QStringLiteral("envelope_from"));
        out.envelopeFrom = *from;
    }
    return out;
}

bool isLoopback(const QString &host)
{
    const QHostAddress address(host);
    return host == QLatin1String("localhost") || (!address.isNull() && address.isLoopback());
}

class SmtpSender final : public Sender
{
public:
    SmtpSender(const MailerSettings &settings, const SenderOptions &options) : m_settings(settings), m_options(options)
    {
        static std::once_flag initialised;
        std::call_once(initialised, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    }

    std::vector<Status> send(const CancelToken &cancel, const std::vector<Message> &batch) override
    {
        std::vector<Status> results;
        results.reserve(batch.size());
        const bool tls = m_settings.protocol == QLatin1String("smtps") || m_settings.protocol == QLatin1String("smtp+starttls");
        const bool unixSocket = m_settings.protocol == QLatin1String("smtp+unix");
        if (!m_settings.user.isEmpty() && !tls && !unixSocket && !isLoopback(m_settings.smtpAddr)) {
            // As Go's smtp.PlainAuth (Gitea): a password never crosses the network in the clear.
            const Status refused = Status::invalidArgument(
                QStringLiteral("[mailer] USER is set but PROTOCOL = smtp would send the password unencrypted to %1; "
                               "use smtps or smtp+starttls").arg(m_settings.smtpAddr));
            results.assign(batch.size(), refused);
            return results;
        }
        // One handle for the batch: libcurl keeps its connection between the transfers.
        CURL *curl = curl_easy_init();
        if (!curl) {
            results.assign(batch.size(), Status::internal(QStringLiteral("libcurl could not make a handle")));
            return results;
        }
        const QString helo = !m_settings.enableHelo ? QStringLiteral("localhost")
                             : m_settings.heloHostname.isEmpty() ? QSysInfo::machineHostName()
                                                                  : m_settings.heloHostname;
        const QString host = unixSocket ? QStringLiteral("localhost")
                             : m_settings.smtpAddr.contains(u':') ? u'[' + m_settings.smtpAddr + u']'
                                                                 : m_settings.smtpAddr;
        // The URL's path is the name EHLO gives.
        const QByteArray url = QStringLiteral("%1://%2:%3/%4")
                                   .arg(m_settings.protocol == QLatin1String("smtps") ? QStringLiteral("smtps") : QStringLiteral("smtp"), host)
                                   .arg(m_settings.smtpPort)
                                   .arg(QString::fromLatin1(QUrl::toPercentEncoding(helo)))
                                   .toUtf8();
        const QByteArray socketPath = m_settings.smtpAddr.toLocal8Bit();
        const QByteArray user = m_settings.user.toUtf8();
        const QByteArray password = m_settings.passwd.toUtf8();
        char errorBuffer[CURL_ERROR_SIZE];
        for (const Message &given : batch) {
            if (cancel.isCancelled()) {
                results.push_back(cancel.cause());
                continue;
            }
            const Result<Message> checked = onTheWire(given);
            if (!checked) {
                results.push_back(checked.status());
                continue;
            }
            const Message &message = *checked;
            Transfer t;
            t.data = message.toMime();
            t.cancel = &cancel;
            curl_easy_reset(curl); // options only: the connection cache stays
            curl_easy_setopt(curl, CURLOPT_URL, url.constData());
            if (unixSocket)
                curl_easy_setopt(curl, CURLOPT_UNIX_SOCKET_PATH, socketPath.constData());
            if (m_settings.protocol == QLatin1String("smtp+starttls"))
                curl_easy_setopt(curl, CURLOPT_USE_SSL, long(CURLUSESSL_ALL));
            if (m_settings.forceTrustServerCert) {
                curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);
                curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 0L);
            }
            if (!user.isEmpty()) {
                curl_easy_setopt(curl, CURLOPT_USERNAME, user.constData());
                curl_easy_setopt(curl, CURLOPT_PASSWORD, password.constData());
            }
            const QByteArray from = "<" + message.envelopeFrom.toUtf8() + ">";
            curl_easy_setopt(curl, CURLOPT_MAIL_FROM, from.constData());
            const QByteArray to = "<" + message.toAddress.toUtf8() + ">";
            curl_slist *recipients = curl_slist_append(nullptr, to.constData());
            curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, recipients);
            curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
            curl_easy_setopt(curl, CURLOPT_READFUNCTION, readBody);
            curl_easy_setopt(curl, CURLOPT_READDATA, &t);
            curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, curl_off_t(t.data.size()));
            curl_easy_setopt(curl, CURLOPT_VERBOSE, 1L); // feeds the debug callback, which keeps the replies
            curl_easy_setopt(curl, CURLOPT_DEBUGFUNCTION, debugLine);
            curl_easy_setopt(curl, CURLOPT_DEBUGDATA, &t);
            curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
            curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, progress);
            curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &t);
            curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
            curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, long(m_options.connectTimeout.count()));
            const long stallSeconds = std::max<long>(1, long((m_options.stallTimeout.count() + 999) / 1000));
            curl_easy_setopt(curl, CURLOPT_SERVER_RESPONSE_TIMEOUT, stallSeconds);
            curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
            curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, stallSeconds);
            errorBuffer[0] = 0;
            curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errorBuffer);
            const CURLcode code = curl_easy_perform(curl);
            curl_slist_free_all(recipients);
            if (code == CURLE_OK) {
                results.push_back(Status::ok());
                continue;
            }
            if (code == CURLE_ABORTED_BY_CALLBACK && cancel.isCancelled()) {
                results.push_back(cancel.cause());
                continue;
            }
            // The server's own words when it refused; libcurl's when there was no answer.
            QString error = QString::fromUtf8(errorBuffer[0] ? errorBuffer : curl_easy_strerror(code));
            const bool refusal = code == CURLE_SEND_ERROR || code == CURLE_RECV_ERROR || code == CURLE_LOGIN_DENIED ||
                                 code == CURLE_QUOTE_ERROR || code == CURLE_WEIRD_SERVER_REPLY || code == CURLE_UPLOAD_FAILED;
            if (refusal && !t.refusal.isEmpty())
                error = QString::fromUtf8(t.refusal);
            results.push_back(Status(code == CURLE_OPERATION_TIMEDOUT ? Status::Code::DeadlineExceeded : Status::Code::Unavailable, error));
        }
        curl_easy_cleanup(curl);
        return results;
    }

private:
    const MailerSettings m_settings;
    const SenderOptions m_options;
};

// Gitea's sendmail sender: PATH -f ENVELOPE_FROM -i [ARGS] -- recipient, the message on stdin,
// killed after SENDMAIL_TIMEOUT.
class SendmailSender final : public Sender
{
public:
    explicit SendmailSender(const MailerSettings &settings) : m_settings(settings) {}

    std::vector<Status> send(const CancelToken &cancel, const std::vector<Message> &batch) override
    {
        std::vector<Status> results;
        for (const Message &message : batch)
            results.push_back(cancel.isCancelled() ? Status(cancel.cause()) : sendOne(cancel, message));
        return results;
    }

private:
    Status sendOne(const CancelToken &cancel, const Message &given)
    {
        const Result<Message> checked = onTheWire(given);
        if (!checked)
            return checked.status();
        const Message &message = *checked;
        QStringList args{QStringLiteral("-f"), message.envelopeFrom.isEmpty() ? QStringLiteral("<>") : message.envelopeFrom, QStringLiteral("-i")};
        args << m_settings.sendmailArgs << QStringLiteral("--") << message.toAddress;
        ChildProcess process;
        ChildProcess::Options options;
        options.inputPipe = true;
        if (Status started = process.start(m_settings.sendmailPath, args, options); !started)
            return started;
        const auto timeout = m_settings.sendmailTimeout;
        const auto deadline = SteadyClock::now() + timeout;
        const auto remainingMs = [&] {
            return int(std::max<qint64>(0, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now()).count()));
        };
        QByteArray output;
        // Line ends as sendmail expects them on its input: LF (it adds the CRs).
        QByteArray mime = message.toMime();
        mime.replace("\r\n", "\n");
        const Status written = process.writeInput(mime, remainingMs(), &output);
        while (!process.finished()) {
            output += process.read(50);
            if (output.size() > 64 * 1024)
                output = output.right(16 * 1024);
            if (cancel.isCancelled()) {
                process.kill();
                return cancel.cause();
            }
            if (SteadyClock::now() >= deadline) {
                process.kill();
                return Status::deadlineExceeded(QStringLiteral("%1 was killed after [mailer] SENDMAIL_TIMEOUT (%2 ms)%3")
                                                    .arg(m_settings.sendmailPath)
                                                    .arg(timeout.count())
                                                    .arg(tail(output)));
            }
        }
        output += process.read(0);
        if (process.crashed())
            return Status::unavailable(QStringLiteral("%1 ended by signal %2%3").arg(m_settings.sendmailPath).arg(process.exitSignal()).arg(tail(output)));
        if (process.exitCode() != 0)
            return Status::unavailable(QStringLiteral("%1 exited with code %2%3").arg(m_settings.sendmailPath).arg(process.exitCode()).arg(tail(output)));
        if (!written)
            return written;
        return Status::ok();
    }

    static QString tail(const QByteArray &output)
    {
        const QString text = QString::fromUtf8(output.right(2000)).trimmed();
        return text.isEmpty() ? QString() : QStringLiteral(": ") + text;
    }

    const MailerSettings m_settings;
};

class DummySender final : public Sender
{
public:
    explicit DummySender(std::function<void(const Message &)> sink) : m_sink(std::move(sink)) {}

    std::vector<Status> send(const CancelToken &cancel, const std::vector<Message> &batch) override
    {
        std::vector<Status> results;
        for (const Message &given : batch) {
            if (cancel.isCancelled()) {
                results.push_back(cancel.cause());
                continue;
            }
            const Result<Message> m = onTheWire(given);
            if (!m) {
                results.push_back(m.status());
                continue;
            }
            if (m_sink)
                m_sink(*m);
            else
                qCInfo(lcMail).noquote() << "dummy mailer:" << escapeControl(m->info, 300) << "to" << m->toAddress << "subject"
                                         << escapeControl(m->subject, 300);
            results.push_back(Status::ok());
        }
        return results;
    }

private:
    std::function<void(const Message &)> m_sink;
};

} // namespace

std::unique_ptr<Sender> makeSender(const MailerSettings &settings, const SenderOptions &options)
{
    if (settings.protocol == QLatin1String("sendmail"))
        return std::make_unique<SendmailSender>(settings);
    if (settings.protocol == QLatin1String("dummy"))
        return std::make_unique<DummySender>(options.dummySink);
    return std::make_unique<SmtpSender>(settings, options);
}

} // namespace Switchyard::Mail
