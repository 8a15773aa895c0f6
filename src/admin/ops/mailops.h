#pragma once

// The mailer's operations (docs/api.md "Mail"): its settings and figures, and a test mail.

#include "admin/catalogue.h"

namespace Switchyard::Admin {

template<typename V>
void describe(V &v, MailInfo &m)
{
    using namespace Json;
    v("enabled", m.enabled);
    v("notify", m.notify);
    v("protocol", m.protocol);
    v("host", m.host);
    v("port", m.port);
    v("from", m.from);
    v("envelope_from", m.envelopeFrom);
    v("authenticated", m.authenticated);
    v("subject_prefix", m.subjectPrefix);
    v("send_as_plain_text", m.sendAsPlainText);
    v("queued_total", m.queuedTotal);
    v("sent_total", m.sentTotal);
    v("failed_total", m.failedTotal);
    v("last_error", m.lastError, Omit);
    v("last_error_at", m.lastErrorAt, Omit);
}

template<typename V>
void describe(V &v, MailTestResult &t)
{
    v("ok", t.ok);
    v("error", t.error, Json::Omit);
}

struct MailTestArgs
{
    QString to;
};
template<typename V>
void describe(V &v, MailTestArgs &a)
{
    v(ArgSpec{ArgSpec::Body, "to", "the address to send the test mail to", 0, 0, "", true}, a.to);
}

namespace Ops {

extern const Op<NoArgs, MailInfo> mailInfo;
extern const Op<MailTestArgs, MailTestResult> mailTest;

std::vector<const OpBase *> mailOps();

// GET /mail's answer (also /metrics' source).
MailInfo mailInfoOf(Engine &engine);

} // namespace Ops

} // namespace Switchyard::Admin
