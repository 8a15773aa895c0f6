// The `mail` notifier (seed 001 §12.5.1, §12.5.3, §12.5.4, §12.5.6): which events mail whom,
// which template, and the headers that thread and file the messages.
#include "mail_p.h"

#include "engine/core/mailaddress.h"
#include "engine/forge/forgedata.h"
#include "engine/settings/config.h"
#include "engine/store/store.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUrl>

namespace Switchyard::Mail {

namespace {

// Gitea's ActionType, as far as mail tells them apart.
enum class Action {
    None, // the comment's kind decides (a review, an assignment, a push)
    CreateIssue,
    CreatePull,
    CommentIssue,
    CommentPull,
    CloseIssue,
    ClosePull,
    ReopenIssue,
    ReopenPull,
    MergePull,
    AutoMergePull,
    ReadyForReview,
    PullReviewDismissed,
};

// Gitea's CommentType, as far as the template name needs it.
enum class CommentKind { Plain, Review, Code, Assignees, ReviewRequest, PullPush };

constexpr qsizetype kMaxBodyBytes = 9'000'000; // Gitea's maxEmailBodySize

// Everything one issue mail needs besides its recipients.
struct IssueMail
{
    const char *method = "";
    Action action = Action::None;
    CommentKind kind = CommentKind::Plain;
    ReviewType reviewType = ReviewType::Comment;
    ForgeRepo repo;
    ForgeIssue issue;
    ForgePullRequest pull;
    MailUser doer;
    qint64 commentId = 0; // the forge's id of the comment (ForgeComment::externalId): Message-IDs name it
    QString commentLink;
    QString content; // Markdown
    QString traceId;
    QString info;    // for the log: "issue comment"
    // A push to a pull: commits (newest first) or a force push from → to.
    bool isPush = false;
    bool forcePush = false;
    QStringList commitIds;
    // The review's code comments: path, line, Markdown.
    struct CodeComment
    {
        QString path;
        qint64 line = 0;
        QString content;
        QString link;
    };
    std::vector<CodeComment> codeComments;
    QString dismissedReviewer;
    QString assignedContent; // an assignment's sentence
    std::shared_ptr<NotifyScope> scope; // the event's dispatch, when it can be repeated
};

// A mail about a repository rather than an issue: a release, a transfer, a workflow run.
struct RepoMail
{
    const char *method = "";
    QString info;
    QString templateName;
    QString reason;    // X-Gitea-Reason
    QString messageId;
    QString traceId;
    ForgeRepo repo;    // filled by readRepo
    MailUser doer;
    std::shared_ptr<NotifyScope> scope; // the event's dispatch, when it can be repeated
    bool fromSite = false; // From: FROM's own name (Gitea's NewMessage), not the doer's
};

QString actionTemplateName(const IssueMail &m)
{
    switch (m.action) {
    case Action::CreateIssue:
    case Action::CreatePull: return QStringLiteral("new");
    case Action::CommentIssue:
    case Action::CommentPull: return QStringLiteral("comment");
    case Action::CloseIssue:
    case Action::ClosePull: return QStringLiteral("close");
    case Action::ReopenIssue:
    case Action::ReopenPull: return QStringLiteral("reopen");
    case Action::MergePull:
    case Action::AutoMergePull: return QStringLiteral("merge");
    case Action::PullReviewDismissed: return QStringLiteral("review_dismissed");
    case Action::ReadyForReview: return QStringLiteral("ready_for_review");
    default: break;
    }
    switch (m.kind) {
    case CommentKind::Review:
        return m.reviewType == ReviewType::Approve ? QStringLiteral("approve")
               : m.reviewType == ReviewType::Reject ? QStringLiteral("reject")
                                                    : QStringLiteral("review");
    case CommentKind::Code: return QStringLiteral("code");
    case CommentKind::Assignees:
    case CommentKind::ReviewRequest: return QStringLiteral("assigned");
    case CommentKind::PullPush: return QStringLiteral("push");
    default: return QStringLiteral("default");
    }
}

// Gitea's lookup: repo/{issue|pull}/<name>, repo/issue/<name>, repo/{type}/default, repo/issue/default.
QString templateFor(const Templates &templates, bool isPull, const QString &name)
{
    const QString type = isPull ? QStringLiteral("pull") : QStringLiteral("issue");
    for (const QString &candidate : {QStringLiteral("repo/%1/%2").arg(type, name), QStringLiteral("repo/issue/%1").arg(name),
                                     QStringLiteral("repo/%1/default").arg(type)})
        if (templates.has(candidate))
            return candidate;
    return QStringLiteral("repo/issue/default");
}

QString issuePath(const IssueMail &m)
{
    return m.issue.isPull ? QStringLiteral("pulls") : QStringLiteral("issues");
}

// What tells one event's mail from another's where the forge gave no id of its own (a close
// without a comment, a merge, a pull made ready, a transfer). Gitea writes the wall clock there;
// a clock makes the same event a new Message-ID each time the bus dispatches it (again after a
// crash), so the outbox's key (which holds the Message-ID) would not find the mail written the
// first time and it would go twice. The cause's trace id is the same in every dispatch of one
// ingested event (it is stored with it), so a digest of it and `what` is too: a retry gives the
// same id, another event another one.
QString eventStamp(const QString &traceId, const QString &what)
{
    if (traceId.isEmpty()) // no cause to derive it from, and no dispatch to repeat: Gitea's clock
        return QString::number(QDateTime::currentMSecsSinceEpoch());
    const QByteArray digest = QCryptographicHash::hash((traceId + u'\n' + what).toUtf8(), QCryptographicHash::Sha256);
    return QString::fromLatin1(digest.toHex().left(16));
}

// Gitea's generateMessageIDForIssue, with the forge's ids: the issue's number, the comment's
// forge id (a re-import or another Switchyard instance names the same mail the same), and an
// action without a comment gets the action and the event's stamp (Gitea: milliseconds).
QString messageId(const IssueMail &m, const QString &name, const QString &domain, bool reference)
{
    QString extra;
    if (!reference) {
        if (m.commentId > 0) {
            extra = QStringLiteral("/comment/%1").arg(m.commentId);
        } else if (name != QLatin1String("new")) {
            const QString action = name == QLatin1String("ready_for_review") ? QStringLiteral("ready") : name;
            const QString what = QStringLiteral("%1#%2/%3").arg(m.repo.fullName()).arg(m.issue.index).arg(action);
            extra = QStringLiteral("/%1/%2").arg(action, eventStamp(m.traceId, what));
        }
    }
    return QStringLiteral("<%1/%2/%3%4@%5>").arg(m.repo.fullName(), issuePath(m)).arg(m.issue.index).arg(extra, domain);
}

// Markdown within the body limit: cut with a link to the rest when it is longer.
std::pair<QString, QString> renderContent(const QString &markdown, const QString &baseUrl, const QString &link, const QString &lang)
{
    QString source = markdown;
    bool cut = false;
    if (source.toUtf8().size() > kMaxBodyBytes) {
        QByteArray bytes = source.toUtf8().left(kMaxBodyBytes);
        while (!bytes.isEmpty() && (static_cast<unsigned char>(bytes.back()) & 0xc0) == 0x80)
            bytes.chop(1); // within a character: back to its first byte …
        if (!bytes.isEmpty() && static_cast<unsigned char>(bytes.back()) >= 0xc0)
            bytes.chop(1); // … and without it
        source = QString::fromUtf8(bytes);
        cut = true;
    }
    QString html = markdownToHtml(source, baseUrl);
    QString text = source;
    if (cut) {
        const QString note = translate(lang, QStringLiteral("mail.truncated"), {link});
        html += QStringLiteral("<p><em>%1</em></p>").arg(note.toHtmlEscaped());
        text += QStringLiteral("\n\n") + note;
    }
    return {html, text};
}

QJsonObject userJson(const MailUser &u)
{
    return {{QStringLiteral("login"), u.login}, {QStringLiteral("name"), u.displayName()}};
}

QJsonObject repoJson(const ForgeRepo &r)
{
    return {{QStringLiteral("full_name"), r.fullName()}, {QStringLiteral("name"), r.name}, {QStringLiteral("link"), r.htmlUrl}};
}

// The headers every forge mail carries (Gitea's generateMetadataHeaders and
// generateSenderRecipientHeaders, and the reason headers).
void addCommonHeaders(Message &msg, const ForgeRepo &repo, const QString &domain, const MailUser &doer, const MailUser &recipient,
                      const QString &reason)
{
    auto &h = msg.headers;
    h.emplace_back(QStringLiteral("List-ID"), QStringLiteral("%1 <%2.%3.%4>").arg(repo.fullName(), repo.name, repo.owner.login, domain));
    if (!repo.htmlUrl.isEmpty())
        h.emplace_back(QStringLiteral("List-Archive"), QStringLiteral("<%1>").arg(repo.htmlUrl));
    h.emplace_back(QStringLiteral("X-Mailer"), QStringLiteral("Switchyard"));
    h.emplace_back(QStringLiteral("X-Gitea-Reason"), reason);
    h.emplace_back(QStringLiteral("X-Gitea-Sender"), doer.login);
    h.emplace_back(QStringLiteral("X-Gitea-Recipient"), recipient.login);
    h.emplace_back(QStringLiteral("X-Gitea-Recipient-Address"), recipient.email);
    h.emplace_back(QStringLiteral("X-Gitea-Repository"), repo.name);
    h.emplace_back(QStringLiteral("X-Gitea-Repository-Path"), repo.fullName());
    h.emplace_back(QStringLiteral("X-Gitea-Repository-Link"), repo.htmlUrl);
    h.emplace_back(QStringLiteral("X-GitHub-Reason"), reason);
    h.emplace_back(QStringLiteral("X-GitHub-Sender"), doer.login);
    h.emplace_back(QStringLiteral("X-GitHub-Recipient"), recipient.login);
    h.emplace_back(QStringLiteral("X-GitHub-Recipient-Address"), recipient.email);
    h.emplace_back(QStringLiteral("X-GitLab-NotificationReason"), reason);
    h.emplace_back(QStringLiteral("X-GitLab-Project"), repo.name);
    h.emplace_back(QStringLiteral("X-GitLab-Project-Path"), repo.fullName());
}

MailUser mailUser(const ForgeUser &u)
{
    MailUser m;
    m.id = u.id;
    m.login = u.login;
    m.fullName = u.fullName;
    m.email = u.email;
    m.language = u.language;
    m.preference = u.emailNotifications;
    return m;
}

} // namespace

struct MailNotifier::Private
{
    MailService &service;
    Store &store;
    const EngineConfig &config;
    std::atomic<qint64> events{0};
    std::atomic<qint64> messages{0};
    std::atomic<qint64> failed{0};

    Private(MailService &s, Store &st, const EngineConfig &c) : service(s), store(st), config(c) {}

    void fail(const char *method, const QString &what, const QString &error)
    {
        ++failed;
        service.composeFailed(QStringLiteral("%1 (%2)").arg(what, QLatin1String(method)), error);
    }

    // What the mail needs could not be read: a store that is only unavailable makes the event
    // come back to this notifier (when its dispatch can be repeated); anything else is counted.
    void failRead(const std::shared_ptr<NotifyScope> &scope, const char *method, const QString &what, const Status &why)
    {
        if (scope && why.code() == Status::Code::Unavailable) {
            qCInfo(lcMail).noquote() << what << "(" << method << ") waits:" << why.message();
            scope->retryLater(why);
            return;
        }
        fail(method, what, why.message());
    }

    // A mail the outbox does not take comes back with the event (its keys find what was written
    // before: nothing goes twice); without a repeatable dispatch it is counted as lost.
    void queue(const std::shared_ptr<NotifyScope> &scope, std::vector<Message> composed)
    {
        if (composed.empty())
            return;
        ++events;
        messages += qint64(composed.size());
        // The dispatch's key makes the outbox rows the same ones when the event comes again.
        if (Status queued = service.sendAsync(composed, scope ? scope->callKey() : QString()); !queued) {
            if (scope && queued.code() == Status::Code::Unavailable) { // the store, not the mail
                qCInfo(lcMail).noquote() << "the event's mail waits:" << queued.message();
                scope->retryLater(queued);
            } else {
                service.recordNotQueued(composed, queued);
            }
        }
    }

    // The template's subject, else Gitea's fallback; Re: for a follow-up, the prefix, emoji.
    QString subjectOf(const QString &rendered, const QString &fallback, bool followUp) const
    {
        QString subject = sanitizeSubject(rendered);
        if (subject.isEmpty())
            subject = sanitizeSubject(fallback);
        if (followUp && !subject.startsWith(QLatin1String("Re: ")))
            subject = QStringLiteral("Re: ") + subject;
        const QString prefix = config.mailer.subjectPrefix.trimmed();
        if (!prefix.isEmpty())
            subject = prefix + u' ' + subject;
        return sanitizeSubject(replaceEmojiAliases(subject));
    }

    // FROM's display name as written ("Forge <forge@example.com>" → "Forge"; none: no name), which
    // Gitea's NewMessage puts on mail that is from the site rather than from someone.
    QString siteName() const
    {
        const Result<MailAddress> from = parseMailAddress(config.mailer.from);
        return from ? from->name : QString();
    }

    Message start(const QString &info, const QString &traceId, const MailUser &doer, const MailUser &to) const
    {
        Message msg = service.newMessage(info, traceId);
        msg.fromName = service.fromDisplayName(doer.displayName().isEmpty() ? config.appName : doer.displayName());
        msg.toAddress = to.email;
        return msg;
    }

    void finish(Message &msg, const Rendered &r, const QString &subject, const QString &traceId) const
    {
        msg.subject = subject;
        msg.text = r.text;
        if (!config.mailer.sendAsPlainText)
            msg.html = r.html;
        // Gitea's ToMessage: Exchange and Outlook send no out-of-office or other automatic answers.
        msg.headers.emplace_back(QStringLiteral("X-Auto-Response-Suppress"), QStringLiteral("All"));
        if (!traceId.isEmpty())
            msg.headers.emplace_back(QStringLiteral("X-Switchyard-Trace"), traceId);
        service.applyOverrideHeaders(msg);
    }

    // The default template's data for one language and batch kind.
    QJsonObject issueData(const IssueMail &m, const QString &name, const QString &lang, bool fromMention, const QString &subject) const
    {
        const QString doer = m.doer.login;
        const QString number = QString::number(m.issue.index);
        const QString link = m.commentLink.isEmpty() ? m.issue.htmlUrl : m.commentLink;
        QJsonObject data{{QStringLiteral("subject"), subject},
                         {QStringLiteral("lang"), catalogueLanguage(lang)},
                         {QStringLiteral("action_name"), name},
                         {QStringLiteral("link"), link},
                         {QStringLiteral("doer"), userJson(m.doer)},
                         {QStringLiteral("repo"), repoJson(m.repo)},
                         {QStringLiteral("issue"),
                          QJsonObject{{QStringLiteral("number"), m.issue.index},
                                      {QStringLiteral("title"), m.issue.title},
                                      {QStringLiteral("link"), m.issue.htmlUrl},
                                      {QStringLiteral("is_pull"), m.issue.isPull}}},
                         {QStringLiteral("view_it_on"), translate(lang, QStringLiteral("mail.view_it"), {config.appName})},
                         {QStringLiteral("footer"), translate(lang, QStringLiteral("mail.footer.issue"), {m.repo.fullName()})}};
        if (fromMention)
            data.insert(QStringLiteral("mentioned_you"), translate(lang, QStringLiteral("mail.issue.x_mentioned_you"), {doer}));
        // The action's sentence (Gitea's default.tmpl: close, reopen, merge, approve, …).
        static const QHash<QString, QString> sentences{
            {QStringLiteral("close"), QStringLiteral("mail.issue.action.close")},
            {QStringLiteral("reopen"), QStringLiteral("mail.issue.action.reopen")},
            {QStringLiteral("merge"), QStringLiteral("mail.issue.action.merge")},
            {QStringLiteral("approve"), QStringLiteral("mail.issue.action.approve")},
            {QStringLiteral("reject"), QStringLiteral("mail.issue.action.reject")},
            {QStringLiteral("review"), QStringLiteral("mail.issue.action.review")},
            {QStringLiteral("review_dismissed"), QStringLiteral("mail.issue.action.review_dismissed")},
            {QStringLiteral("ready_for_review"), QStringLiteral("mail.issue.action.ready_for_review")},
            {QStringLiteral("new"), QStringLiteral("mail.issue.action.new")},
        };
        // As Gitea's default.tmpl: "created #n." only stands in for an empty body.
        const bool sentence = name != QLatin1String("new") || m.content.isEmpty();
        if (const auto key = sentences.constFind(name); sentence && key != sentences.constEnd())
            data.insert(QStringLiteral("action_sentence"),
                        translate(lang, *key, {doer, number, m.pull.baseBranch, m.dismissedReviewer}));
        if (m.isPush) {
            QJsonObject push;
            const QString base = m.repo.htmlUrl;
            if (m.forcePush && m.commitIds.size() >= 2) {
                const QString from = m.commitIds.at(0), to = m.commitIds.at(1);
                push.insert(QStringLiteral("force"), true);
                push.insert(QStringLiteral("sentence"), translate(lang, QStringLiteral("mail.issue.action.force_push"),
                                                                  {doer, m.pull.headBranch, from.left(10), to.left(10)}));
                push.insert(QStringLiteral("compare_link"), QStringLiteral("%1/compare/%2...%3").arg(base, from, to));
            } else {
                QJsonArray commits;
                for (const QString &sha : m.commitIds)
                    commits.append(QJsonObject{{QStringLiteral("sha"), sha},
                                               {QStringLiteral("short"), sha.left(10)},
                                               {QStringLiteral("link"), QStringLiteral("%1/commit/%2").arg(base, sha)}});
                push.insert(QStringLiteral("commits"), commits);
                push.insert(QStringLiteral("sentence"),
                            translate(lang, m.commitIds.size() == 1 ? QStringLiteral("mail.issue.action.push_1") : QStringLiteral("mail.issue.action.push_n"),
                                      {doer, m.pull.headBranch, QString::number(m.commitIds.size())}));
            }
            data.insert(QStringLiteral("push"), push);
        }
        if (!m.content.isEmpty()) {
            const auto [html, text] = renderContent(m.content, m.repo.htmlUrl, link, lang);
            data.insert(QStringLiteral("content_html"), html);
            data.insert(QStringLiteral("content_text"), text);
        }
        if (!m.assignedContent.isEmpty())
            data.insert(QStringLiteral("assigned"), m.assignedContent);
        QJsonArray comments;
        for (const IssueMail::CodeComment &cc : m.codeComments) {
            const auto [html, text] = renderContent(cc.content, m.repo.htmlUrl, cc.link, lang);
            comments.append(QJsonObject{{QStringLiteral("in_path"), translate(lang, QStringLiteral("mail.issue.in_tree_path"),
                                                                              {cc.line > 0 ? QStringLiteral("%1:%2").arg(cc.path).arg(cc.line) : cc.path})},
                                        {QStringLiteral("content_html"), html},
                                        {QStringLiteral("content_text"), text},
                                        {QStringLiteral("link"), cc.link}});
        }
        if (!comments.isEmpty())
            data.insert(QStringLiteral("review_comments"), comments);
        return data;
    }

    // One batch's messages: rendered once, one message per recipient.
    Result<std::vector<Message>> composeIssue(const IssueMail &m, const RecipientBatch &batch) const
    {
        const QString name = actionTemplateName(m);
        const QString tmpl = templateFor(service.templates(), m.issue.isPull, name);
        const QString fallback = QStringLiteral("[%1] %2 (#%3)").arg(m.repo.fullName(), m.issue.title).arg(m.issue.index);
        // The body's {{subject}} (its <title>) is Gitea's FallbackSubject: with "Re: " on a follow-up.
        const QString titled = replaceEmojiAliases(sanitizeSubject((name != QLatin1String("new") ? QStringLiteral("Re: ") : QString()) + fallback));
        const QJsonObject data = issueData(m, name, batch.language, batch.fromMention, titled);
        Result<Rendered> rendered = service.templates().render(tmpl, data);
        if (!rendered)
            return rendered.status();
        const QString subject = subjectOf(rendered->subject, fallback, name != QLatin1String("new"));
        const QString domain = config.server.domain;
        const QString msgId = messageId(m, name, domain, false);
        const QString reference = messageId(m, name, domain, true);
        std::vector<Message> out;
        out.reserve(batch.users.size());
        for (const MailUser &to : batch.users) {
            Message msg = start(m.info, m.traceId, m.doer, to);
            // Gitea sets both on the thread's first message too, where they name the message itself.
            msg.headers.emplace_back(QStringLiteral("Message-ID"), msgId);
            msg.headers.emplace_back(QStringLiteral("In-Reply-To"), reference);
            msg.headers.emplace_back(QStringLiteral("References"), reference);
            if (!m.issue.htmlUrl.isEmpty())
                msg.headers.emplace_back(QStringLiteral("List-Unsubscribe"), QStringLiteral("<%1>").arg(m.issue.htmlUrl));
            addCommonHeaders(msg, m.repo, domain, m.doer, to, to.reason);
            msg.headers.emplace_back(QStringLiteral("X-Gitea-Issue-ID"), QString::number(m.issue.index));
            msg.headers.emplace_back(QStringLiteral("X-Gitea-Issue-Link"), m.issue.htmlUrl);
            msg.headers.emplace_back(QStringLiteral("X-GitLab-Issue-IID"), QString::number(m.issue.index));
            finish(msg, *rendered, subject, m.traceId);
            out.push_back(std::move(msg));
        }
        return out;
    }

    // Loads the issue, its repository and the doer; false (logged, counted) when it cannot.
    bool loadIssue(SqlTransaction &tx, const char *method, qint64 issueId, const NotifyContext &c, IssueMail &m, IssueFacts *facts)
    {
        Result<IssueFacts> f = ForgeDb::issueFacts(tx, issueId);
        Result<ForgeIssue> issue = f ? ForgeDb::issue(tx, issueId, &m.pull) : Result<ForgeIssue>(f.status());
        Result<ForgeRepo> repo = issue ? ForgeDb::repo(tx, issue->repoId) : Result<ForgeRepo>(issue.status());
        if (!repo) {
            failRead(c.scope, method, QStringLiteral("issue %1").arg(issueId), repo.status());
            return false;
        }
        m.method = method;
        m.issue = *issue;
        m.repo = *repo;
        m.doer = mailUser(c.doer);
        m.traceId = c.traceId;
        m.scope = c.scope;
        if (facts)
            *facts = *f;
        return true;
    }

    // Gitea's MailParticipants / MailParticipantsComment: the recipient chain, then a message per
    // recipient, batch by batch.
    void mailParticipants(const char *method, const NotifyContext &c, qint64 issueId, IssueMail m, const std::vector<ForgeUser> &mentions,
                          bool forceDoer = false, bool mentionsOnly = false)
    {
        struct Read
        {
            IssueMail mail;
            std::vector<RecipientBatch> batches;
        };
        bool loaded = true;
        Result<Read> read = store.readValue<Read>([&](SqlTransaction &tx) -> Result<Read> {
            Read r{m, {}}; // a copy: a busy store runs this again
            IssueFacts f;
            if (!loadIssue(tx, method, issueId, c, r.mail, &f)) {
                loaded = false;
                return r;
            }
            IssueRecipientRules rules;
            rules.doerId = c.doer.id;
            rules.forceDoer = forceDoer;
            rules.creatingPull = r.mail.action == Action::CreatePull;
            for (const ForgeUser &u : mentions)
                rules.mentions.push_back(u.id);
            if (mentionsOnly) {
                // Gitea's MailMentionsComment: the mentioned alone, never the doer.
                Result<std::vector<RecipientBatch>> batches = issueRecipientsMentionsOnly(tx, f, rules);
                if (!batches)
                    return batches.status();
                r.batches = std::move(batches).value();
                return r;
            }
            Result<std::vector<RecipientBatch>> batches = issueRecipients(tx, f, rules);
            if (!batches)
                return batches.status();
            r.batches = std::move(batches).value();
            return r;
        });
        if (!read) {
            failRead(c.scope, method, QStringLiteral("issue %1").arg(issueId), read.status());
            return;
        }
        if (!loaded)
            return;
        send(method, read->mail, read->batches);
    }

    void send(const char *method, const IssueMail &m, const std::vector<RecipientBatch> &batches)
    {
        std::vector<Message> all;
        for (const RecipientBatch &batch : batches) {
            Result<std::vector<Message>> composed = composeIssue(m, batch);
            if (!composed) {
                fail(method, QStringLiteral("%1 #%2").arg(m.repo.fullName()).arg(m.issue.index), composed.status().message());
                continue;
            }
            all.insert(all.end(), std::make_move_iterator(composed->begin()), std::make_move_iterator(composed->end()));
        }
        queue(m.scope, std::move(all));
    }

    // Gitea's SendIssueAssignedMail: the one user, the assigned template with its sentence.
    void mailAssigned(const char *method, const NotifyContext &c, const ForgeIssue &issue, const ForgeUser &to, const ForgeComment &comment,
                      const QString &reason, const QString &sentenceKey)
    {
        IssueMail m;
        m.kind = reason == QLatin1String("assign") ? CommentKind::Assignees : CommentKind::ReviewRequest;
        m.commentId = comment.externalId;
        m.commentLink = comment.htmlUrl;
        m.info = reason == QLatin1String("assign") ? QStringLiteral("issue assigned") : QStringLiteral("review requested");
        struct Read
        {
            IssueMail mail;
            std::vector<RecipientBatch> batches;
            bool loaded = false;
        };
        Result<Read> read = store.readValue<Read>([&](SqlTransaction &tx) -> Result<Read> {
            Read r{m, {}};
            r.loaded = loadIssue(tx, method, issue.id, c, r.mail, nullptr);
            if (!r.loaded)
                return r;
            Result<std::vector<RecipientBatch>> batches = givenRecipients(tx, {to.id}, reason);
            if (!batches)
                return batches.status();
            r.batches = std::move(batches).value();
            return r;
        });
        if (!read) {
            failRead(c.scope, method, QStringLiteral("issue %1").arg(issue.id), read.status());
            return;
        }
        for (const RecipientBatch &batch : read->batches) { // none: no address, or mail disabled
            IssueMail one = read->mail;
            one.assignedContent = translate(batch.language, sentenceKey,
                                            {c.doer.login, QStringLiteral("#%1").arg(one.issue.index), one.repo.fullName()});
            send(method, one, {batch});
        }
    }

    // A repository's stored row and the recipients `who` picks; nullopt (logged, counted) when
    // they cannot be read. Fills m.repo.
    template<typename Who>
    std::optional<std::vector<RecipientBatch>> readRepo(RepoMail &m, qint64 repoId, const Who &who)
    {
        struct Read
        {
            ForgeRepo repo;
            std::vector<RecipientBatch> batches;
        };
        Result<Read> read = store.readValue<Read>([&](SqlTransaction &tx) -> Result<Read> {
            Result<ForgeRepo> repo = ForgeDb::repo(tx, repoId);
            if (!repo)
                return repo.status();
            Result<std::vector<RecipientBatch>> batches = who(tx);
            if (!batches)
                return batches.status();
            return Read{*repo, std::move(batches).value()};
        });
        if (!read) {
            failRead(m.scope, m.method, QStringLiteral("repository %1").arg(repoId), read.status());
            return std::nullopt;
        }
        m.repo = read->repo;
        return std::move(read->batches);
    }

    // A repository mail: `data(lang)` (with its "subject") rendered once per batch, a message per
    // recipient.
    void sendRepoMail(const RepoMail &m, const std::vector<RecipientBatch> &batches, const std::function<QJsonObject(const QString &lang)> &data)
    {
        std::vector<Message> all;
        for (const RecipientBatch &batch : batches) {
            QJsonObject values = data(batch.language);
            values.insert(QStringLiteral("lang"), batch.language);
            values.insert(QStringLiteral("repo"), repoJson(m.repo));
            values.insert(QStringLiteral("doer"), userJson(m.doer));
            Result<Rendered> rendered = service.templates().render(m.templateName, values);
            if (!rendered) {
                fail(m.method, m.repo.fullName(), rendered.status().message());
                continue;
            }
            const QString subject = subjectOf(rendered->subject, values.value(QStringLiteral("subject")).toString(), false);
            for (const MailUser &to : batch.users) {
                Message msg = start(m.info, m.traceId, m.doer, to);
                if (m.fromSite)
                    msg.fromName = siteName();
                msg.headers.emplace_back(QStringLiteral("Message-ID"), m.messageId);
                addCommonHeaders(msg, m.repo, config.server.domain, m.doer, to, m.reason);
                finish(msg, *rendered, subject, m.traceId);
                all.push_back(std::move(msg));
            }
        }
        queue(m.scope, std::move(all));
    }

    static Result<std::vector<RecipientBatch>> issueRecipientsMentionsOnly(SqlTransaction &tx, const IssueFacts &f, const IssueRecipientRules &rules)
    {
        // The chain with no sources: muters and the doer out, the mentions' batch alone.
        IssueFacts none = f;
        IssueRecipientRules only = rules;
        Result<std::vector<RecipientBatch>> all = issueRecipients(tx, none, only);
        if (!all)
            return all;
        std::vector<RecipientBatch> mentions;
        for (RecipientBatch &b : *all)
            if (b.fromMention)
                mentions.push_back(std::move(b));
        return mentions;
    }
};

MailNotifier::MailNotifier(MailService &service, Store &store, const EngineConfig &config)
    : d(std::make_unique<Private>(service, store, config))
{}

MailNotifier::~MailNotifier() = default;

MailNotifier::Stats MailNotifier::stats() const
{
    return {d->events.load(), d->messages.load(), d->failed.load()};
}

void MailNotifier::createIssueComment(const NotifyContext &c, const ForgeRepo &, const ForgeIssue &issue, const ForgeComment &comment,
                                      const std::vector<ForgeUser> &mentions)
{
    IssueMail m;
    m.action = issue.isPull ? Action::CommentPull : Action::CommentIssue;
    m.commentId = comment.externalId;
    m.commentLink = comment.htmlUrl;
    m.content = comment.content;
    m.info = QStringLiteral("issue comment");
    d->mailParticipants("CreateIssueComment", c, issue.id, std::move(m), mentions);
}

void MailNotifier::newIssue(const NotifyContext &c, const ForgeIssue &issue, const std::vector<ForgeUser> &mentions)
{
    IssueMail m;
    m.action = Action::CreateIssue;
    m.content = issue.content;
    m.info = QStringLiteral("new issue");
    d->mailParticipants("NewIssue", c, issue.id, std::move(m), mentions);
}

void MailNotifier::issueChangeStatus(const NotifyContext &c, const ForgeIssue &issue, const ForgeComment &comment, bool closed)
{
    IssueMail m;
    m.action = issue.isPull ? (closed ? Action::ClosePull : Action::ReopenPull) : (closed ? Action::CloseIssue : Action::ReopenIssue);
    m.commentId = comment.externalId;
    m.commentLink = comment.htmlUrl;
    m.content = comment.content;
    m.info = closed ? QStringLiteral("issue closed") : QStringLiteral("issue reopened");
    d->mailParticipants("IssueChangeStatus", c, issue.id, std::move(m), {});
}

void MailNotifier::issueChangeTitle(const NotifyContext &c, const ForgeIssue &issue, const QString &oldTitle)
{
    // Only a pull that leaves work in progress is news.
    if (!issue.isPull || !isWorkInProgressTitle(oldTitle) || isWorkInProgressTitle(issue.title))
        return;
    IssueMail m;
    m.action = Action::ReadyForReview;
    m.info = QStringLiteral("ready for review");
    d->mailParticipants("IssueChangeTitle", c, issue.id, std::move(m), {});
}

void MailNotifier::newPullRequest(const NotifyContext &c, const ForgePullRequest &pr, const std::vector<ForgeUser> &mentions)
{
    if (!pr.issue)
        return;
    IssueMail m;
    m.action = Action::CreatePull;
    m.content = pr.issue->content;
    m.info = QStringLiteral("new pull request");
    NotifyContext poster = c;
    if (pr.issue->poster) // Gitea mails as the pull's poster
        poster.doer = *pr.issue->poster;
    d->mailParticipants("NewPullRequest", poster, pr.issue->id, std::move(m), mentions);
}

void MailNotifier::pullRequestReview(const NotifyContext &c, const ForgePullRequest &pr, const ForgeReview &review, const ForgeComment &comment,
                                     const std::vector<ForgeUser> &mentions)
{
    IssueMail m;
    // Gitea's PullRequestReview mails a review comment with no action: its review's type names the
    // template (approve, reject, review — "@x commented on this pull request.").
    m.action = Action::None;
    m.kind = CommentKind::Review;
    m.reviewType = review.type;
    m.commentId = comment.externalId;
    m.commentLink = comment.htmlUrl;
    m.content = comment.content.isEmpty() ? review.content : comment.content;
    m.info = QStringLiteral("pull request review");
    // The review's code comments, flattened (Gitea's ReviewComments).
    if (review.id > 0) {
        Result<std::vector<IssueMail::CodeComment>> code = d->store.readValue<std::vector<IssueMail::CodeComment>>(
            [&](SqlTransaction &tx) -> Result<std::vector<IssueMail::CodeComment>> {
                Result<QSqlQuery> q = tx.exec(QStringLiteral("SELECT tree_path, line, content, html_url FROM comment WHERE review_id = ? "
                                                             "AND tree_path <> '' ORDER BY id"),
                                              {review.id});
                if (!q)
                    return q.status();
                std::vector<IssueMail::CodeComment> out;
                while (q->next())
                    out.push_back({q->value(0).toString(), q->value(1).toLongLong(), q->value(2).toString(), q->value(3).toString()});
                return out;
            });
        if (code)
            m.codeComments = std::move(code).value();
    }
    d->mailParticipants("PullRequestReview", c, pr.id, std::move(m), mentions);
}

void MailNotifier::pullRequestCodeComment(const NotifyContext &c, const ForgePullRequest &pr, const ForgeComment &comment,
                                          const std::vector<ForgeUser> &mentions)
{
    if (mentions.empty())
        return;
    IssueMail m;
    m.action = Action::CommentPull;
    m.kind = CommentKind::Code;
    m.commentId = comment.externalId;
    m.commentLink = comment.htmlUrl;
    m.content = comment.content;
    m.info = QStringLiteral("code comment");
    NotifyContext poster = c;
    if (comment.poster)
        poster.doer = *comment.poster;
    d->mailParticipants("PullRequestCodeComment", poster, pr.id, std::move(m), mentions, false, true);
}

void MailNotifier::issueChangeAssignee(const NotifyContext &c, const ForgeIssue &issue, const ForgeUser &assignee, bool removed,
                                       const ForgeComment &comment)
{
    if (removed || c.doer.id == assignee.id)
        return;
    d->mailAssigned("IssueChangeAssignee", c, issue, assignee, comment, QStringLiteral("assign"),
                    issue.isPull ? QStringLiteral("mail.issue_assigned.pull") : QStringLiteral("mail.issue_assigned.issue"));
}

void MailNotifier::pullRequestReviewRequest(const NotifyContext &c, const ForgeIssue &issue, const ForgeUser &reviewer, bool isRequest,
                                            const ForgeComment &comment)
{
    if (!isRequest || c.doer.id == reviewer.id)
        return;
    d->mailAssigned("PullRequestReviewRequest", c, issue, reviewer, comment, QStringLiteral("review_requested"),
                    QStringLiteral("mail.issue.review_requested"));
}

void MailNotifier::mergePullRequest(const NotifyContext &c, const ForgePullRequest &pr)
{
    IssueMail m;
    m.action = Action::MergePull;
    m.info = QStringLiteral("pull request merged");
    d->mailParticipants("MergePullRequest", c, pr.id, std::move(m), {});
}

void MailNotifier::autoMergePullRequest(const NotifyContext &c, const ForgePullRequest &pr)
{
    IssueMail m;
    m.action = Action::AutoMergePull;
    m.info = QStringLiteral("pull request merged automatically");
    d->mailParticipants("AutoMergePullRequest", c, pr.id, std::move(m), {}, true); // the doer hears too
}

void MailNotifier::pullRequestPushCommits(const NotifyContext &c, const ForgePullRequest &pr, const ForgeComment &comment)
{
    // Gitea sends it down the comment path: a push comment, its content
    // {"is_force_push": bool, "commit_ids": [...]} (for a force push: [old, new]).
    IssueMail m;
    m.kind = CommentKind::PullPush;
    m.commentId = comment.externalId;
    m.commentLink = comment.htmlUrl;
    m.isPush = true;
    const QJsonObject push = QJsonDocument::fromJson(comment.content.toUtf8()).object();
    m.forcePush = push.value(QStringLiteral("is_force_push")).toBool();
    for (const QJsonValue &id : push.value(QStringLiteral("commit_ids")).toArray())
        m.commitIds << id.toString();
    m.info = QStringLiteral("pull request push");
    d->mailParticipants("PullRequestPushCommits", c, pr.id, std::move(m), {});
}

void MailNotifier::pullReviewDismiss(const NotifyContext &c, const ForgeReview &review, const ForgeComment &comment)
{
    IssueMail m;
    m.action = Action::PullReviewDismissed;
    m.commentId = comment.externalId;
    m.commentLink = comment.htmlUrl;
    m.content = comment.content;
    m.dismissedReviewer = review.reviewer ? review.reviewer->login : QString();
    m.info = QStringLiteral("review dismissed");
    d->mailParticipants("PullReviewDismiss", c, review.issueId, std::move(m), {});
}

void MailNotifier::newRelease(const NotifyContext &c, const ForgeRelease &release)
{
    if (release.isDraft || release.isPrerelease || release.isTag)
        return;
    const MailUser publisher = mailUser(release.publisher ? *release.publisher : c.doer);
    RepoMail m{"NewRelease", QStringLiteral("new release"), QStringLiteral("repo/release"), QStringLiteral("release"), {}, c.traceId, {}, publisher, c.scope};
    const auto read = d->readRepo(m, release.repoId, [&](SqlTransaction &tx) { return releaseRecipients(tx, release.repoId, publisher.id); });
    if (!read)
        return;
    // Gitea's generateMessageIDForRelease, with the release's forge id.
    m.messageId = QStringLiteral("<%1/releases/%2@%3>").arg(m.repo.fullName()).arg(release.externalId).arg(d->config.server.domain);
    const QString link = QStringLiteral("%1/releases/tag/%2").arg(m.repo.htmlUrl, QString::fromLatin1(QUrl::toPercentEncoding(release.tagName)));
    d->sendRepoMail(m, *read, [&](const QString &lang) {
        QJsonObject data{{QStringLiteral("subject"), translate(lang, QStringLiteral("mail.release.new.subject"), {release.tagName, m.repo.fullName()})},
                         {QStringLiteral("link"), link},
                         {QStringLiteral("sentence"), translate(lang, QStringLiteral("mail.release.new.text"), {publisher.login, release.tagName, m.repo.fullName()})},
                         {QStringLiteral("title_line"), translate(lang, QStringLiteral("mail.release.title"), {release.title.isEmpty() ? release.tagName : release.title})},
                         {QStringLiteral("view_it_on"), translate(lang, QStringLiteral("mail.view_it"), {d->config.appName})},
                         {QStringLiteral("footer"), translate(lang, QStringLiteral("mail.footer.release"), {m.repo.fullName()})}};
        if (!release.note.isEmpty()) {
            const auto [html, text] = renderContent(release.note, m.repo.htmlUrl, link, lang);
            data.insert(QStringLiteral("note_label"), translate(lang, QStringLiteral("mail.release.note")));
            data.insert(QStringLiteral("note_html"), html);
            data.insert(QStringLiteral("note_text"), text);
        }
        return data;
    });
}

void MailNotifier::repoPendingTransfer(const NotifyContext &c, const ForgeUser &newOwner, const ForgeRepo &repo)
{
    // Gitea's SendRepoTransferNotifyMail: the new owner, or an organisation's members.
    RepoMail m{"RepoPendingTransfer", QStringLiteral("repository transfer"), QStringLiteral("repo/transfer"), QStringLiteral("transfer"), {},
               c.traceId, {}, mailUser(c.doer), c.scope, true};
    const auto read = d->readRepo(m, repo.id, [&](SqlTransaction &tx) -> Result<std::vector<RecipientBatch>> {
        std::vector<qint64> to{newOwner.id};
        if (newOwner.isOrganization) {
            Result<QSet<qint64>> members = ForgeDb::idSet(tx, QStringLiteral("SELECT user_id FROM org_member WHERE org_id = ?"), {newOwner.id});
            if (!members)
                return members.status();
            to.assign(members->begin(), members->end());
            std::sort(to.begin(), to.end());
        }
        return givenRecipients(tx, to, QStringLiteral("transfer"));
    });
    if (!read)
        return;
    // Gitea gives this mail no id of its own (go-mail's autogen: the clock and a hash of the
    // recipient, subject and body, different for each recipient and each send). Ours names the
    // repository and the new owner by their forge ids and the event by its stamp: the same
    // transfer event, dispatched again, gives the same id (and the outbox finds the mail it
    // wrote), one message for all its recipients, and another proposal gets another id.
    const QString transfer = QStringLiteral("transfer/%1/%2").arg(m.repo.externalId).arg(newOwner.externalId);
    m.messageId = QStringLiteral("<%1/transfer/%2/%3@%4>")
                      .arg(m.repo.fullName())
                      .arg(newOwner.externalId)
                      .arg(eventStamp(c.traceId, transfer), d->config.server.domain);
    d->sendRepoMail(m, *read, [&](const QString &lang) {
        // Gitea's sendRepoTransferNotifyMailPerLang: display names, "to you" or to the organisation.
        const QString subject = newOwner.isOrganization
                                    ? translate(lang, QStringLiteral("mail.repo.transfer.subject_to"),
                                                {m.doer.displayName(), m.repo.fullName(), mailUser(newOwner).displayName()})
                                    : translate(lang, QStringLiteral("mail.repo.transfer.subject_to_you"), {m.doer.displayName(), m.repo.fullName()});
        return QJsonObject{{QStringLiteral("subject"), subject},
                           {QStringLiteral("link"), m.repo.htmlUrl},
                           {QStringLiteral("view_it_on"), translate(lang, QStringLiteral("mail.view_it"), {d->config.appName})},
                           {QStringLiteral("body"), translate(lang, QStringLiteral("mail.repo.transfer.body"), {m.repo.htmlUrl})},
                           {QStringLiteral("footer"), translate(lang, QStringLiteral("mail.footer.transfer"))}};
    });
}

void MailNotifier::workflowRunStatusUpdate(const NotifyContext &c, const ForgeRepo &repo, const WorkflowRun &run)
{
    // Gitea's MailActionsTrigger: the user who triggered the run, once it is done, and — Gitea's
    // default preference, "failure only" — only when it failed (a cancelled run is no failure;
    // GitHub's timed_out is one).
    const bool failed = run.conclusion == QLatin1String("failure") || run.conclusion == QLatin1String("timed_out");
    if (run.status != QLatin1String("completed") || !failed)
        return;
    RepoMail m{"WorkflowRunStatusUpdate", QStringLiteral("workflow run"), QStringLiteral("repo/actions/workflow_run"), QStringLiteral("workflow_run"),
               {}, c.traceId, {}, mailUser(c.doer), c.scope};
    const auto read = d->readRepo(m, repo.id, [&](SqlTransaction &tx) { return givenRecipients(tx, {c.doer.id}, QStringLiteral("workflow_run")); });
    if (!read)
        return;
    // Gitea's thread is the run's index (its number), not its id.
    m.messageId = QStringLiteral("<%1/actions/runs/%2@%3>").arg(m.repo.fullName()).arg(run.runNumber).arg(d->config.server.domain);
    const QString link = !run.htmlUrl.isEmpty() ? run.htmlUrl : QStringLiteral("%1/actions/runs/%2").arg(m.repo.htmlUrl).arg(run.runNumber);
    // Gitea's WorkflowID is the file's name: "ci.yml" of "ci.yml@refs/heads/main" or ".github/workflows/ci.yml".
    QString workflow = run.path.section(u'@', 0, 0).section(u'/', -1);
    if (workflow.isEmpty())
        workflow = run.name;
    d->sendRepoMail(m, *read, [&](const QString &lang) {
        // Gitea: "[owner/repo] Failure: ci.yml (main - 0123456789)".
        const QString subject = QStringLiteral("[%1] %2: %3 (%4 - %5)")
                                    .arg(m.repo.fullName(), translate(lang, QStringLiteral("mail.actions.status.failure")), workflow,
                                         run.headBranch, run.headSha.left(10));
        return QJsonObject{{QStringLiteral("subject"), subject},
                           {QStringLiteral("link"), link},
                           {QStringLiteral("run"), QJsonObject{{QStringLiteral("name"), run.name},
                                                              {QStringLiteral("number"), run.runNumber},
                                                              {QStringLiteral("branch"), run.headBranch},
                                                              {QStringLiteral("sha"), run.headSha},
                                                              {QStringLiteral("event"), run.event},
                                                              {QStringLiteral("conclusion"), run.conclusion}}},
                           {QStringLiteral("view_it_on"), translate(lang, QStringLiteral("mail.view_it"), {d->config.appName})},
                           {QStringLiteral("footer"), translate(lang, QStringLiteral("mail.footer.actions"))}};
    });
}

} // namespace Switchyard::Mail
