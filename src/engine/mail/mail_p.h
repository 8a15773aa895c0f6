#pragma once

// The mail subsystem's inside: header encoding, templates, Markdown, the catalogues' sentences,
// and the recipient rules. Not for other subsystems (they use mail.h).

#include "mail.h"

#include "engine/forge/forgedata.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <set>
#include <tuple>

namespace Switchyard {
class InstanceRegistry;
class SqlTransaction;
class Store;
}

namespace Switchyard::Mail {

using ForgeDb::IssueFacts;

Q_DECLARE_LOGGING_CATEGORY(lcMail)

// ---- the outbox (outbox.cpp): mail_outbox rows, one per queued mail ----
namespace Outbox {
// Writes `messages` (their outboxId set), in one transaction: with a `key`, each message's key is
// derived from its trace, the key and its place, and one written before is found instead (still
// unsent: to be queued again; ended: not). The messages to push.
Result<std::vector<Message>> put(Store &store, std::vector<Message> messages, const QString &key);
// Claims the rows `ids` for `self` (unclaimed and unsent ones only): those claimed.
Result<std::set<qint64>> claim(Store &store, const std::vector<qint64> &ids, const QString &self);
// Ends claimed rows: (id, ok, error); fenced by the claim.
Status record(Store &store, const std::vector<std::tuple<qint64, bool, QString>> &outcomes, const QString &self);
// Gives claims back unsent.
Status release(Store &store, const std::vector<qint64> &ids, const QString &self);
// Rows claimed by instances that are not live, and this instance's own claims that are not in
// `inHand` (left by a write that failed for good): each attempt recorded as interrupted, the
// claim given back. Their messages, to be queued again.
Result<std::vector<Message>> takeOver(Store &store, const InstanceRegistry &instances, const std::multiset<qint64> &inHand);
// Unclaimed unsent rows after id `after`, oldest first, at most `limit`.
Result<std::vector<Message>> unsent(Store &store, qint64 after, int limit);
// Ended rows older than `ms`: how many were removed.
Result<qint64> prune(Store &store, qint64 olderThanMs);
} // namespace Outbox

// ---- the wire form (message.cpp) ----
// An unstructured header's value: control characters (C0, DEL, C1, U+2028/9) become spaces;
// then as it is when printable ASCII, else RFC 2047 Q-encoded words of at most 75 characters
// (UTF-8, split between characters), folded with CRLF SP.
QByteArray encodeHeaderText(const QString &text);
// `Name <address>`: the name as an atom, a quoted string, or encoded words.
QByteArray encodeAddress(const QString &name, const QString &address);
QByteArray rfc2822Date(const QDateTime &when);

// ---- templates (templates.cpp) ----
struct Rendered
{
    QString subject; // the first section, plain text, one line
    QString html;    // the second section
    QString text;    // <name>.txt, the plain-text body
};

// The templates compiled in from resources/mail/ (Mustache): `<name>.tmpl` holds the subject, a
// line of three or more dashes, then the HTML body (Gitea's form); `<name>.txt` holds the
// plain-text body. Partials: {{> base/head}}, {{> base/footer}}. Thread-safe (immutable).
class Templates
{
public:
    // `overrides`: name → source replacing a compiled-in `<name>.tmpl` (tests).
    explicit Templates(const std::map<QString, QString> &overrides = {});
    ~Templates();

    bool has(const QString &name) const; // "repo/issue/default"
    QStringList names() const;
    // InvalidArgument naming the template and what failed (a parse error, a missing template).
    Result<Rendered> render(const QString &name, const QJsonObject &data) const;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

// GitHub-flavoured Markdown to HTML (raw HTML escaped), with relative links and images made
// absolute against `baseUrl` (a mail has no page to be relative to).
QString markdownToHtml(const QString &markdown, const QString &baseUrl);

// The catalogues' sentences (translations/<lang>.json, key mail.*): `lang` as the forge stores
// it ("zh-CN", "zh_CN", "zh"), falling back to en-US, then to the key. %1 … are the arguments.
QString translate(const QString &lang, const QString &key, const QStringList &args = {});
// The language a catalogue exists for ("zh-CN", "en-US").
QString catalogueLanguage(const QString &lang);

// Gitea's emoji.ReplaceAliases for subjects: ":tada:" → 🎉 for the aliases in resources/mail/emoji.json.
QString replaceEmojiAliases(const QString &text);

// Subject rules (Gitea's sanitizeSubject): one line, at most 256 characters (runes).
QString sanitizeSubject(const QString &subject);

// ---- recipients (recipients.cpp) ----
// A user as mail sees them.
struct MailUser
{
    qint64 id = 0;
    QString login;
    QString fullName;
    QString email;
    QString language;
    QString preference; // enabled | onmention | disabled | andyourown
    bool active = true;
    QString reason;     // X-Gitea-Reason: mention, assign, review_requested, author, participating, subscribed

    QString displayName() const { return fullName.isEmpty() ? login : fullName; }
    bool mailable() const { return active && !email.isEmpty(); }
};

// One batch: up to 100 recipients of one language, mentioned or not.
struct RecipientBatch
{
    QString language;
    bool fromMention = false;
    std::vector<MailUser> users;
};

// Gitea's mailIssueCommentToParticipants (seed 001 §12.5.2), in its order: the sources (poster,
// assignees, participants, issue watchers, and repository watchers of issues or pulls unless
// the pull is a work in progress — when it is created they hear of it all the same); then the
// muters are left out, then the doer (unless `andyourown` or `forceDoer`); the mentions get
// their batch; then explicit unwatchers are left out; then the broadcast batch. Each recipient
// must be mailable, want it (enabled, andyourown, or onmention in the mention batch), appear once,
// and be able to read the repository. Batches of at most 100 per language, cut from the tail.
struct IssueRecipientRules
{
    qint64 doerId = 0;
    bool forceDoer = false;   // auto-merge: the doer hears of it too
    bool creatingPull = false;
    std::vector<qint64> mentions;
};
Result<std::vector<RecipientBatch>> issueRecipients(SqlTransaction &tx, const IssueFacts &issue, const IssueRecipientRules &rules);
// Release watchers (watch mode normal/auto with releases on), minus the publisher; mailable,
// wanting broadcast mail, able to read.
Result<std::vector<RecipientBatch>> releaseRecipients(SqlTransaction &tx, qint64 repoId, qint64 publisherId);
// Given users (an assignee, a reviewer, the new owner's members): mailable and not disabled.
Result<std::vector<RecipientBatch>> givenRecipients(SqlTransaction &tx, const std::vector<qint64> &userIds, const QString &reason);
// Groups users by language, in batches of 100 cut from the tail of each group.
std::vector<RecipientBatch> batchByLanguage(std::vector<MailUser> users, bool fromMention);
constexpr int kMailBatchSize = 100;

} // namespace Switchyard::Mail
