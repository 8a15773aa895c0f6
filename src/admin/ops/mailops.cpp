#include "mailops.h"

#include "engine/engine.h"

namespace Switchyard::Admin::Ops {

MailInfo mailInfoOf(Engine &engine)
{
    const Mail::MailService &mail = engine.mail();
    const MailerSettings &m = mail.settings();
    MailInfo info;
    info.enabled = m.enabled;
    info.notify = mail.notifying();
    info.protocol = m.protocol;
    const bool smtp = m.protocol.startsWith(QLatin1String("smtp"));
    info.host = smtp ? m.smtpAddr : m.protocol == QLatin1String("sendmail") ? m.sendmailPath : QString();
    info.port = smtp && m.protocol != QLatin1String("smtp+unix") ? m.smtpPort : 0;
    info.from = m.from;
    info.envelopeFrom = m.envelopeFrom == QLatin1String("<>") ? QString() : m.envelopeFrom.isEmpty() ? m.fromAddress : m.envelopeFrom;
    info.authenticated = !m.user.isEmpty();
    info.subjectPrefix = m.subjectPrefix;
    info.sendAsPlainText = m.sendAsPlainText;
    const Mail::MailStats stats = mail.stats();
    info.queuedTotal = stats.queued;
    info.sentTotal = stats.sent;
    info.failedTotal = stats.failed;
    info.lastError = stats.lastError;
    info.lastErrorAt = stats.lastErrorAt;
    return info;
}

const Op<NoArgs, MailInfo> mailInfo{
    {.action = "mail.info", .method = HttpMethod::Get, .path = "/mail",
     .summary = "the mailer's settings (never the password), mail sent and failed since start, the last error", .cli = "mail info",
     .cliAliases = {"mail"}},
    [](OpContext &c, const NoArgs &) -> Result<MailInfo> { return mailInfoOf(c.engine); }};

// Sends a real mail, so only admin tokens may; it waits for the server (MayWait).
const Op<MailTestArgs, MailTestResult> mailTest{
    {.action = "mail.test", .method = HttpMethod::Post, .path = "/mail/test", .flags = Mutating | MayWait,
     .summary = "send one test mail to an address with the configured mailer; the server's own words when it fails (exit 1)",
     .cli = "mail test", .done = "test mail sent to {to}",
     .succeeded = [](const QJsonValue &answer) { return answer[QStringLiteral("ok")].toBool(); }},
    [](OpContext &c, const MailTestArgs &a) -> Result<MailTestResult> {
        Result<Mail::TestMailResult> sent = c.engine.mail().sendTest(c.cancel, a.to, QString());
        if (!sent)
            return sent.status();
        return MailTestResult{sent->ok, sent->error};
    }};

std::vector<const OpBase *> mailOps()
{
    return {&mailInfo, &mailTest};
}

} // namespace Switchyard::Admin::Ops
