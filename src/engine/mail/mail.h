#pragma once

// Mail (SPEC §10, seed 001 §12.5; docs/mail.md): the `mail` notifier computes who hears of a forge
// event, renders one message per recipient from the compiled-in templates, and queues them on the
// `mail` queue; its workers hand each batch to the configured sender — SMTP (smtp, smtps,
// smtp+starttls, smtp+unix) over one connection per batch, sendmail, or dummy (logs).
//
// As in Gitea there is no retry: a mail the server refuses is logged and counted, and the others
// of its batch are still sent. Unlike Gitea every queued mail is first a row of the store's
// outbox (mail_outbox: pending, claimed by the instance sending it, then sent, failed or
// unknown), and the queue carries it to a worker: a mail is sent at least once whatever ends —
// the queue (an item it lost, a dead instance's LevelDB), the instance (a claim whose instance
// is no longer live is taken over and sent again: store/instances.h), or the store for a while
// (waited out). What may go twice: a mail the server took whose outcome was not yet written.
// A mail made for an event's dispatch has an outbox key derived from the event and the call, so
// the event dispatched again after a crash does not queue it twice.
//
// Never one message with several recipients in To: every recipient gets their own.

#include "engine/core/status.h"
#include "engine/notify/notify.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace Switchyard {

class CancelToken;
class EngineConfig;
class InstanceRegistry;
class QueueManager;
class Store;
struct MailerSettings;
template<typename T>
class WorkerPoolQueue;

namespace Mail {

class Templates;

// One mail to one recipient: what the `mail` queue carries and a sender sends.
struct Message
{
    QString info;        // what it is, for the log: "issue comment", "test mail"
    QString fromName;    // the From display name (unencoded)
    QString fromAddress;
    QString envelopeFrom; // MAIL FROM / sendmail -f; "" for the null sender
    QString toName;
    QString toAddress;   // the one recipient
    QString subject;     // unencoded; Q-encoded when sent
    QString html;        // the HTML part; empty: text only
    QString text;        // the text/plain part
    // Every other header, in order (Message-ID, In-Reply-To, References, List-*, X-*), unencoded.
    std::vector<std::pair<QString, QString>> headers;
    QDateTime date;
    QString traceId;
    qint64 outboxId = 0; // its row in the outbox (mail_outbox); 0 in an item queued by a version without one

    QString header(const QString &name) const; // the first of that name (any case), or ""

    QJsonObject toJson() const;
    static std::optional<Message> fromJson(const QJsonObject &json);

    // The message as sent (RFC 5322 with MIME, CRLF line ends): headers encoded (RFC 2047) and
    // folded, a multipart/alternative of text and HTML (text alone when html is empty), each part
    // quoted-printable in lines of at most 76 (as Gitea's go-mail: readable, and what mail
    // filters and archives expect of text).
    QByteArray toMime() const;
};

// Hands messages to the mail system.
class Sender
{
public:
    virtual ~Sender() = default;
    // Sends every message of `batch`, over one connection when the protocol has them; the outcome
    // of each, in order: OK, or what the server (or program) said. A refused recipient or a
    // dropped connection fails its message and the next ones are still tried. Cancelled: the
    // rest fail at once with the cause. Every sender first parses the recipient and the
    // envelope sender again (parseMailbox): a message whose address is not a Mailbox never goes
    // on the wire and fails with InvalidArgument, field "to" (or "envelope_from").
    virtual std::vector<Status> send(const CancelToken &cancel, const std::vector<Message> &batch) = 0;
};

struct SenderOptions
{
    // SMTP: connecting (TLS included) may take this long; a server that sends nothing for
    // `stallTimeout` fails the mail (a stopped or hung server never holds the queue for long).
    std::chrono::milliseconds connectTimeout{10000};
    std::chrono::milliseconds stallTimeout{60000};
    // The dummy sender's log line goes here instead of the log (tests, the benchmark).
    std::function<void(const Message &)> dummySink;
};

// The sender [mailer] PROTOCOL names (config validated by EngineConfig).
std::unique_ptr<Sender> makeSender(const MailerSettings &settings, const SenderOptions &options = {});

// What this instance sent since start (/mail, /metrics).
struct MailStats
{
    qint64 queued = 0;  // messages composed and queued
    qint64 sent = 0;
    qint64 failed = 0;  // refused, dropped, timed out, or not composed (a template that failed)
    qint64 skipped = 0; // of `failed`, never sent: the recipient is no mail address (parseMailbox), found at the wire
    QString lastError;  // the last failure's text (the server's own words when it said any)
    QDateTime lastErrorAt;
};

struct MailOptions
{
    SenderOptions sender;
    // Replaces the sender made from the settings (tests and the benchmark).
    std::function<std::unique_ptr<Sender>()> makeSender;
    // Template name → source replacing a compiled-in template (tests: one that fails).
    std::map<QString, QString> templateOverrides;
};

// What a test mail came to: sent, or the server's (or program's) own words.
struct TestMailResult
{
    bool ok = false;
    QString error;
};

// Thread-safe. start() before the notifier's first event.
class MailService
{
public:
    MailService(const EngineConfig &config, MailOptions options = {}); // config not owned
    ~MailService();

    // Creates the `mail` queue (whose workers send) when [mailer] ENABLED, takes over the mails
    // of instances that are no longer live and queues what the outbox holds unsent; then joins
    // the heartbeat's recovery rounds. `shutdown` (the lifecycle's) stops a batch: what was not
    // sent goes back to the queue. Not owned.
    Status start(const CancelToken &cancel, QueueManager &queues, const CancelToken &shutdown, Store &store, InstanceRegistry &instances);
    const MailerSettings &settings() const;
    bool enabled() const;
    bool notifying() const; // [service] ENABLE_NOTIFY_MAIL and ENABLED: the notifier is on the bus

    // Queues composed messages (nothing when the mailer is off): written to the outbox in one
    // transaction, then pushed on the queue (a push that fails is queued by the next recovery
    // round: not an error). With a `key` (NotifyContext::keyFor()) each message's outbox key is
    // derived from it, its trace and its place, so queuing the same call again queues nothing
    // new. The store's error when the outbox cannot take them (the caller decides whether that is
    // a failure to count — recordNotQueued — or one to retry).
    Status sendAsync(std::vector<Message> messages, const QString &key = {});
    // Counts and logs `messages` the queue did not take, and will not be retried.
    void recordNotQueued(const std::vector<Message> &messages, const Status &why);
    // A failure before anything was queued (a template that did not render), counted and logged.
    void composeFailed(const QString &what, const QString &error);

    // Composes a test mail to `to` and sends it at once, not through the queue. InvalidArgument
    // (field "to") for a bad address, Conflict when the mailer is off; otherwise what
    // the sender said — counted like any mail.
    Result<TestMailResult> sendTest(const CancelToken &cancel, const QString &to, const QString &traceId);

    MailStats stats() const;
    // Mails claimed by instances that are no longer live are sent again (their interrupted
    // attempt recorded), and, when `everything`, every unsent mail of the outbox is queued again
    // (a dead instance's queue may hold it): how many were queued.
    Result<qint64> recover(const CancelToken &cancel, bool everything);
    // The From display name and address of a message (FROM_DISPLAY_NAME_FORMAT with `displayName`).
    QString fromDisplayName(const QString &displayName) const;
    Message newMessage(const QString &info, const QString &traceId) const; // From, envelope, Date set
    // [mailer.override_header]: each replaces the composer's header of that name (or is added).
    void applyOverrideHeaders(Message &msg) const;

    std::shared_ptr<WorkerPoolQueue<Message>> queue() const;
    const Templates &templates() const;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

// The bus's `mail` notifier: 16 events → recipients → messages → the queue (seed 001 §12.5.1).
// Registered only when MailService::notifying().
class MailNotifier final : public NullNotifier
{
public:
    MailNotifier(MailService &service, Store &store, const EngineConfig &config); // Not owned
    ~MailNotifier() override;

    void createIssueComment(const NotifyContext &c, const ForgeRepo &repo, const ForgeIssue &issue, const ForgeComment &comment,
                            const std::vector<ForgeUser> &mentions) override;
    void newIssue(const NotifyContext &c, const ForgeIssue &issue, const std::vector<ForgeUser> &mentions) override;
    void issueChangeStatus(const NotifyContext &c, const ForgeIssue &issue, const ForgeComment &comment, bool closed) override;
    void issueChangeTitle(const NotifyContext &c, const ForgeIssue &issue, const QString &oldTitle) override;
    void newPullRequest(const NotifyContext &c, const ForgePullRequest &pr, const std::vector<ForgeUser> &mentions) override;
    void pullRequestReview(const NotifyContext &c, const ForgePullRequest &pr, const ForgeReview &review, const ForgeComment &comment,
                           const std::vector<ForgeUser> &mentions) override;
    void pullRequestCodeComment(const NotifyContext &c, const ForgePullRequest &pr, const ForgeComment &comment,
                                const std::vector<ForgeUser> &mentions) override;
    void issueChangeAssignee(const NotifyContext &c, const ForgeIssue &issue, const ForgeUser &assignee, bool removed,
                             const ForgeComment &comment) override;
    void pullRequestReviewRequest(const NotifyContext &c, const ForgeIssue &issue, const ForgeUser &reviewer, bool isRequest,
                                  const ForgeComment &comment) override;
    void mergePullRequest(const NotifyContext &c, const ForgePullRequest &pr) override;
    void autoMergePullRequest(const NotifyContext &c, const ForgePullRequest &pr) override;
    void pullRequestPushCommits(const NotifyContext &c, const ForgePullRequest &pr, const ForgeComment &comment) override;
    void pullReviewDismiss(const NotifyContext &c, const ForgeReview &review, const ForgeComment &comment) override;
    void newRelease(const NotifyContext &c, const ForgeRelease &release) override;
    void repoPendingTransfer(const NotifyContext &c, const ForgeUser &newOwner, const ForgeRepo &repo) override;
    void workflowRunStatusUpdate(const NotifyContext &c, const ForgeRepo &repo, const WorkflowRun &run) override;

    struct Stats
    {
        qint64 events = 0;   // events that composed mail (for someone)
        qint64 messages = 0; // messages queued
        qint64 failed = 0;   // events lost to a store or template error (logged)
    };
    Stats stats() const;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace Mail
} // namespace Switchyard
